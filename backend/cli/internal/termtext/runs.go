package termtext

import (
	"fmt"
	"io"

	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/safetext"
	"github.com/ferrydesk/ferry/backend/service"
)

// Progress writes a run's progress to w (a terminal's stderr): that it
// waits for its tab while another run drives it, its session once
// resolved, then the answer as it grows (a rewrite clears the line).
func Progress(w io.Writer, ev service.JobEvent) {
	r := ev.Run
	switch {
	case r == nil:
	case r.Kind == record.EventState && r.State == service.StateQueued:
		fmt.Fprintf(w, "queued: %s\n", r.Note)
	case r.Kind == record.EventState && r.State == record.StateResolved:
		fmt.Fprintf(w, "session %s\n", r.Session)
	case r.Kind == record.EventPartial && r.Partial != nil && r.Partial.Stage != "":
		// A long run's stage (a deep research's) rewrites its line.
		fmt.Fprintf(w, "\r\033[K%s", safetext.Line(r.Partial.Stage))
	case r.Kind == record.EventPartial && r.Partial != nil:
		if r.Partial.Rewritten {
			fmt.Fprint(w, "\r\033[K")
		}
		fmt.Fprint(w, safetext.Block(r.Partial.Added))
	}
}

// Poll prints one check of a run: its state, whether its tab is alive,
// its error and its answer.
func Poll(w io.Writer, s *service.Run, fresh bool) error {
	fmt.Fprintf(w, "%s  %s  %s", s.ID, s.Site, s.State)
	if fresh {
		fmt.Fprintf(w, "  (%s)", "tab alive")
	}
	fmt.Fprintln(w)
	if s.Error != nil {
		fmt.Fprintln(w, safetext.Block(s.Error.Human()))
	}
	if s.Answer != "" {
		fmt.Fprintln(w, safetext.Block(s.Answer))
	}
	return nil
}

// Watch is the printer of a run's progress for ferry watch, on w: partial
// text as it grows, and each state reached. A rewritten answer clears the
// line where w takes escapes (a terminal; on Windows a console in
// virtual-terminal mode); elsewhere (a pipe, a log, an old console) it
// starts on a new line.
func Watch(w io.Writer, escapes bool) func(service.JobEvent) {
	return func(je service.JobEvent) {
		ev := je.Run
		if ev == nil {
			return
		}
		switch ev.Kind {
		case record.EventPartial:
			if ev.Partial == nil {
				return
			}
			if ev.Partial.Rewritten {
				if escapes {
					fmt.Fprint(w, "\r\033[K")
				} else {
					fmt.Fprintln(w)
				}
			}
			fmt.Fprint(w, safetext.Block(ev.Partial.Added))
		case record.EventState:
			fmt.Fprintf(w, "[%s]\n", ev.State)
		}
	}
}

// Doctor prints the verdicts of `ferry sessions doctor`, a run a line.
func Doctor(w io.Writer, out []service.DoctorReport) error {
	if len(out) == 0 {
		_, err := fmt.Fprintln(w, "no active or stale runs")
		return err
	}
	for _, rp := range out {
		fmt.Fprintf(w, "%s  %s  %s  %s", rp.ID, rp.Site, rp.State, rp.Verdict)
		if rp.Detail != "" {
			fmt.Fprintf(w, ": %s", safetext.Line(rp.Detail))
		}
		if rp.Candidates != "" {
			fmt.Fprintf(w, " (candidate tabs: %s)", safetext.Line(rp.Candidates))
		}
		fmt.Fprintln(w)
	}
	return nil
}

// Images says where each saved image of a run is, one line each.
func Images(w io.Writer, images []record.Artifact) error {
	for _, img := range images {
		if img.Path == "" {
			continue
		}
		if _, err := fmt.Fprintf(w, "image: %s (%s, %d×%d, %d bytes)\n", safetext.Line(img.Path), img.MIME, img.Width, img.Height, img.Bytes); err != nil {
			return err
		}
	}
	return nil
}
