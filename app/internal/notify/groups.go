package notify

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ferrydesk/ferry/app/internal/wording"
)

// A broadcast is one prompt sent to several sites; its runs end one by one,
// but the user asked one question. So their ends make one notification,
// when the last run ended, and none at all while Ferry's window has the
// focus: the user is looking at the columns already.

// Groups holds the broadcasts whose runs have not all ended.
type Groups struct {
	mu     sync.Mutex
	byJob  map[string]*noticeGroup
	window atomic.Bool // Ferry's window has the focus
}

// noticeGroup is one broadcast: its jobs in the order of its sites, and the
// notice of each one that ended.
type noticeGroup struct {
	jobs  []string
	ended map[string]GroupEnd
}

// GroupEnd is how one run of a broadcast ended.
type GroupEnd struct {
	Site   string // display name
	Notice Notice
	Done   bool // it has an answer
}

// maxGroups bounds the broadcasts remembered at once: with notifications off
// nothing ever completes a group, and a long session must not grow.
const maxGroups = 256

// Broadcast runs submit, which starts a broadcast's runs and passes each
// one's job id to add, and remembers those jobs as one broadcast. The
// groups stay locked meanwhile, so that no run can end (see Ended) before
// it is known as one of its broadcast's.
func (g *Groups) Broadcast(submit func(add func(job string)) error) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	var jobs []string
	err := submit(func(job string) { jobs = append(jobs, job) })
	if len(jobs) < 2 {
		return err
	}
	if g.byJob == nil || len(g.byJob) > maxGroups*8 {
		g.byJob = map[string]*noticeGroup{}
	}
	grp := &noticeGroup{jobs: jobs, ended: map[string]GroupEnd{}}
	for _, id := range jobs {
		g.byJob[id] = grp
	}
	return err
}

// Focused records whether Ferry's window has the focus.
func (g *Groups) Focused(on bool) { g.window.Store(on) }

// Ended takes job's notice and returns the one to show: the notice itself
// for a run that is no broadcast's, nothing while other runs of its
// broadcast go on, and one notice for the whole broadcast when it was the
// last; never one while the window has the focus.
func (g *Groups) Ended(job string, end GroupEnd) (Notice, bool) {
	g.mu.Lock()
	grp := g.byJob[job]
	var ends []GroupEnd
	if grp != nil {
		grp.ended[job] = end
		if len(grp.ended) == len(grp.jobs) {
			for _, id := range grp.jobs {
				ends = append(ends, grp.ended[id])
				delete(g.byJob, id)
			}
		}
	}
	g.mu.Unlock()
	switch {
	case g.window.Load():
		return Notice{}, false
	case grp == nil:
		return end.Notice, true
	case ends == nil:
		return Notice{}, false
	}
	return broadcastNotice(ends), true
}

// broadcastNotice is the one notice of a broadcast that ended: how many
// answers and failures, and a line per site. A click opens the first run.
func broadcastNotice(ends []GroupEnd) Notice {
	var n Notice
	answers, failed := 0, 0
	lines := make([]string, 0, len(ends))
	for _, e := range ends {
		if n.Target == "" {
			n.Target = e.Notice.Target
		}
		n.Urgent = n.Urgent || e.Notice.Urgent
		if e.Done {
			answers++
			lines = append(lines, e.Site+": "+wording.OneLine(e.Notice.Body, 70))
			continue
		}
		failed++
		lines = append(lines, e.Site+" failed: "+wording.OneLine(e.Notice.Body, 70))
	}
	n.Summary = fmt.Sprintf("Broadcast finished · %s", plural(answers, "answer"))
	if failed > 0 {
		n.Summary += fmt.Sprintf(", %d failed", failed)
	}
	n.Body = strings.Join(lines, "\n")
	return n
}

// plural is "1 answer", "3 answers".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
