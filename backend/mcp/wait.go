package mcp

import (
	"context"
	"errors"
	"fmt"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// The bounds of a call's wait_s.
const (
	DefaultWaitS = 50
	MaxWaitS     = 300
)

// waitFor is the wait of a call's wait_s (nil: DefaultWaitS). Errors:
// errs.BadInput outside 0 to MaxWaitS.
func waitFor(waitS *int) (time.Duration, error) {
	if waitS == nil {
		return DefaultWaitS * time.Second, nil
	}
	if *waitS < 0 || *waitS > MaxWaitS {
		return 0, errs.New(errs.BadInput, "wait_s must be from 0 to %d seconds, got %d", MaxWaitS, *waitS).
			WithHint("leave wait_s out for %d seconds; poll the job tool for longer jobs", DefaultWaitS)
	}
	return time.Duration(*waitS) * time.Second, nil
}

// await follows job j for at most wait, sending progress notifications when
// the client gave a progress token, and returns its view then: ended, or
// still going on (the caller says "running"). A job awaiting the user's
// approval comes back at once: only the user can move it. Errors: the
// Service's; errs.Cancelled when the client cancelled the call.
func (s *Server) await(ctx context.Context, c call, j service.Job, wait time.Duration) (service.Job, error) {
	if j.Ended() || j.State == service.StateAwaitingApproval || wait <= 0 {
		return j, nil
	}
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	prog := s.progress(wctx, c.req)
	defer prog.stop()
	out, err := s.svc.WatchJob(wctx, c.caller, service.WatchRequest{ID: j.ID}, func(ev service.JobEvent) {
		if ev.Run != nil && ev.Run.Partial != nil {
			s.mu.Lock()
			s.partial[j.ID] = ev.Run.Partial.Text
			s.mu.Unlock()
		}
		prog.send(ev)
	})
	if err == nil {
		return out, nil
	}
	if ctx.Err() == nil && errors.Is(wctx.Err(), context.DeadlineExceeded) {
		return s.svc.GetJob(ctx, c.caller, service.JobRef{ID: j.ID})
	}
	return service.Job{}, err
}

// progress sends a call's progress notifications from one goroutine, so
// that the watch's callback returns at once; without a progress token it
// sends nothing.
type progress struct {
	ch   chan service.JobEvent
	done chan struct{}
}

func (s *Server) progress(ctx context.Context, req *mcpsdk.CallToolRequest) *progress {
	p := &progress{}
	if req == nil || req.Session == nil || req.Params == nil {
		return p
	}
	tok := req.Params.GetProgressToken()
	if tok == nil {
		return p
	}
	p.ch, p.done = make(chan service.JobEvent, 64), make(chan struct{})
	go func() {
		defer close(p.done)
		n := 0.0
		for ev := range p.ch {
			msg := progressMessage(ev)
			if msg == "" {
				continue
			}
			n++
			if err := req.Session.NotifyProgress(ctx, &mcpsdk.ProgressNotificationParams{ProgressToken: tok, Progress: n, Message: msg}); err != nil {
				s.log.Debug("progress notification", "err", err)
			}
		}
	}()
	return p
}

func (p *progress) send(ev service.JobEvent) {
	if p.ch == nil {
		return
	}
	select {
	case p.ch <- ev:
	default:
	}
}

func (p *progress) stop() {
	if p.ch == nil {
		return
	}
	close(p.ch)
	<-p.done
}

// progressMessage says a job event in words: the journal state entered, or
// the partial answer's length.
func progressMessage(ev service.JobEvent) string {
	switch {
	case ev.Run != nil && ev.Run.Partial != nil:
		return fmt.Sprintf("answer so far: %d characters", len([]rune(ev.Run.Partial.Text)))
	case ev.Run != nil && ev.Run.State != "":
		return "state: " + string(ev.Run.State)
	case ev.Job != nil:
		return "job: " + ev.Job.State
	}
	return ""
}
