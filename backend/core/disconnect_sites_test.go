package core

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/ownerbrowser"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/service"
)

// TestEverySiteCollectsTheAnswerOfARunWhoseBrowserWentAway is the desktop's
// case on every site: the owner's browser goes away (killed, or quit as a
// user closing its window) while the answer streams. At once the job ends
// browser_disconnected, its run is recorded lost with its browser (the
// store, the job's end and History's listing agree), collectable, with its
// conversation journaled; "Collect the rest" (a reattach through the
// owner, which starts its browser again) opens the conversation and reads
// the whole answer the site finished, and the site received the prompt
// once. A site whose chats live only in their page (AI Studio) has nothing
// to collect: its run fails at once, saying so.
func TestEverySiteCollectsTheAnswerOfARunWhoseBrowserWentAway(t *testing.T) {
	t.Parallel()
	// The sites' subtests run in parallel, after this function returned:
	// what they share ends with the test (Cleanup), not here (defer).
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	t.Cleanup(cancel)
	srv := sim.New(sim.WithPace(4, 120*time.Millisecond))
	if err := srv.Start(ctx, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	ways := []struct {
		name string
		end  func(pid int)
	}{
		{"killed", func(pid int) { _ = syscall.Kill(pid, syscall.SIGKILL) }},
		{"quit", func(pid int) { _ = syscall.Kill(pid, syscall.SIGTERM) }},
	}
	// Each site has an owner and a browser of its own, the sites side by
	// side; one site's two ways, one after the other, share them.
	for _, id := range sim.Sites() {
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			owner := ownerbrowser.New(func() config.BrowserSettings {
				return config.BrowserSettings{Binary: providertest.ChromiumBin, Headless: true, ExtraArgs: srv.ChromiumFlags()}
			}, t.TempDir(), nil)
			defer owner.Close()
			s, c := openTestService(t, ctx, OwnerOptions{OwnerBrowser: owner})
			desk := service.Owner(service.FaceDesktop)
			repo, err := c.History(ctx)
			if err != nil {
				t.Fatal(err)
			}
			reg, err := c.sites()
			if err != nil {
				t.Fatal(err)
			}
			for _, way := range ways {
				t.Run("a browser "+way.name+" mid-answer ends the run browser_disconnected and Collect the rest reads the whole answer, sent once", func(t *testing.T) {
					prompt := "Lost browser " + way.name + " on " + id + " about tides"
					before := srv.SubmissionCount(id)
					j, err := s.SubmitJob(ctx, desk, service.JobRequest{Kind: service.KindAsk, Site: id, Prompt: prompt, RequestedBy: service.DesktopRequester, TimeoutSeconds: 90})
					if err != nil {
						t.Fatal(err)
					}
					var ended *service.Job
					killed := false
					end, err := s.WatchJob(ctx, desk, service.WatchRequest{ID: j.ID}, func(ev service.JobEvent) {
						if ev.Type == service.EventRunPartial && !killed {
							killed = true
							if b := owner.Current(); b != nil {
								way.end(b.PID())
							}
						}
						if ev.Job != nil && ev.Job.Detail != nil && ev.Job.Detail.Ended {
							cp := *ev.Job
							ended = &cp
						}
					})
					if err != nil {
						t.Fatal(err)
					}
					if !killed {
						t.Fatalf("the answer never streamed: the job ended %+v", end)
					}
					if ended == nil {
						ended = &end
					}
					if ended.Error == nil || ended.Error.Code != errs.BrowserDisconnected {
						t.Fatalf("the job ended with %v, want browser_disconnected", ended.Error)
					}
					d := ended.Detail
					if d == nil || d.Run == nil {
						t.Fatalf("the ended job has no run: %+v", ended)
					}
					stored, err := repo.Get(ctx, d.Run.ID)
					if err != nil {
						t.Fatal(err)
					}
					if st, _ := reg.Get(id); st.PageOnlyChats {
						// The chat lived in the page alone: the run ends failed,
						// saying precisely why nothing can collect it.
						if stored.State != job.StateFailed || stored.Error == nil || stored.Error.Code != errs.BrowserDisconnected ||
							!strings.Contains(stored.Error.Message, st.Name+" keeps a chat only in the page") || !strings.Contains(stored.Error.RetryHint, "send the prompt again") {
							t.Fatalf("stored run: state %s error %+v, want failed saying %s keeps its chats in the page", stored.State, stored.Error, st.Name)
						}
						return
					}
					if !stored.LostItsTab() || stored.Error.Code != errs.BrowserDisconnected {
						t.Fatalf("stored run: state %s error %v conversation %q, want a run lost with its browser, its conversation journaled", stored.State, stored.Error, stored.ConversationURL)
					}
					list, err := s.ListSessions(ctx, desk, service.SessionQuery{Site: id, Limit: 5})
					if err != nil {
						t.Fatal(err)
					}
					listed := false
					for _, l := range list {
						if l.ID == stored.ID && l.Extra != nil && l.Extra.Listed.Session != nil {
							r := l.Extra.Listed.Session
							listed = r.Error != nil && r.Error.Code == errs.BrowserDisconnected
						}
					}
					if !listed {
						t.Fatalf("History does not list run %s as lost with its browser: %+v", stored.ID, list)
					}

					res, err := s.ReattachSession(ctx, desk, service.ReattachRequest{Session: stored.ID})
					if err != nil {
						t.Fatal(err)
					}
					got, err := s.WatchJob(ctx, desk, service.WatchRequest{ID: res.Job.ID}, nil)
					if err != nil {
						t.Fatal(err)
					}
					if rd := got.Detail; rd == nil || rd.Run == nil || rd.RunError != nil || rd.Run.State != job.StateDone || rd.Run.Answer != providertest.NormalAnswer(prompt) {
						t.Fatalf("Collect the rest ended %+v (error %v), want done with %q", got.Detail, got.Error, providertest.NormalAnswer(prompt))
					}
					if n := srv.SubmissionCount(id) - before; n != 1 {
						t.Fatalf("%s received the prompt %d times, want once", id, n)
					}
				})
			}
		})
	}
}
