package app

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
)

// A broadcast is one prompt sent to several sites; its runs end one by one,
// but the user asked one question. So their ends make one notification,
// when the last run ended, and none at all while Ferry's window has the
// focus: the user is looking at the columns already.

// noticeGroups holds the broadcasts whose runs have not all ended.
type noticeGroups struct {
	mu     sync.Mutex
	byJob  map[string]*noticeGroup
	window atomic.Bool // Ferry's window has the focus
}

// noticeGroup is one broadcast: its jobs in the order of its sites, and the
// notice of each one that ended.
type noticeGroup struct {
	jobs  []string
	ended map[string]groupEnd
}

// groupEnd is how one run of a broadcast ended.
type groupEnd struct {
	site   string // display name
	notice Notice
	done   bool // it has an answer
}

// maxGroups bounds the broadcasts remembered at once: with notifications off
// nothing ever completes a group, and a long session must not grow.
const maxGroups = 256

// broadcast runs submit, which starts a broadcast's runs and passes each
// one's job id to add, and remembers those jobs as one broadcast. The
// groups stay locked meanwhile, so that no run can end (see ended) before
// it is known as one of its broadcast's.
func (g *noticeGroups) broadcast(submit func(add func(job string)) error) error {
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
	grp := &noticeGroup{jobs: jobs, ended: map[string]groupEnd{}}
	for _, id := range jobs {
		g.byJob[id] = grp
	}
	return err
}

// focused records whether Ferry's window has the focus.
func (g *noticeGroups) focused(on bool) { g.window.Store(on) }

// ended takes job's notice and returns the one to show: the notice itself
// for a run that is no broadcast's, nothing while other runs of its
// broadcast go on, and one notice for the whole broadcast when it was the
// last; never one while the window has the focus.
func (g *noticeGroups) ended(job string, end groupEnd) (Notice, bool) {
	g.mu.Lock()
	grp := g.byJob[job]
	var ends []groupEnd
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
		return end.notice, true
	case ends == nil:
		return Notice{}, false
	}
	return broadcastNotice(ends), true
}

// broadcastNotice is the one notice of a broadcast that ended: how many
// answers and failures, and a line per site. A click opens the first run.
func broadcastNotice(ends []groupEnd) Notice {
	var n Notice
	answers, failed := 0, 0
	lines := make([]string, 0, len(ends))
	for _, e := range ends {
		if n.Target == "" {
			n.Target = e.notice.Target
		}
		n.Urgent = n.Urgent || e.notice.Urgent
		if e.done {
			answers++
			lines = append(lines, e.site+": "+oneLine(e.notice.Body, 70))
			continue
		}
		failed++
		lines = append(lines, e.site+" failed: "+oneLine(e.notice.Body, 70))
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
