package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/app/internal/apptest"
	"github.com/ferrydesk/ferry/app/internal/event"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/service"
)

func TestJobRequestOf(t *testing.T) {
	tests := []struct {
		name string
		spec RunSpec
		want hub.JobSpec
		code errs.Code
	}{
		{"an ask goes to the hub as the desktop's job", RunSpec{Site: "chatgpt", Prompt: "hi", Model: " gpt-5 "},
			hub.JobSpec{Kind: hub.KindAsk, Site: "chatgpt", Prompt: "hi", Model: "gpt-5", RequestedBy: "desktop"}, ""},
		{"a model and an effort go as the user chose them", RunSpec{Site: "chatgpt", Prompt: "hi", Model: "gpt-5.5", Effort: " pro "},
			hub.JobSpec{Kind: hub.KindAsk, Site: "chatgpt", Prompt: "hi", Model: "gpt-5.5", Effort: "pro", RequestedBy: "desktop"}, ""},
		{"the default model leaves the site's selection alone", RunSpec{Site: "chatgpt", Prompt: "hi", Model: "default"},
			hub.JobSpec{Kind: hub.KindAsk, Site: "chatgpt", Prompt: "hi", RequestedBy: "desktop"}, ""},
		{"a tab and a new chat pass through for the runner to judge", RunSpec{TabID: "T1", Prompt: "hi", NewChat: true},
			hub.JobSpec{Kind: hub.KindAsk, TabID: "T1", Prompt: "hi", NewChat: true, RequestedBy: "desktop"}, ""},
		{"code mode becomes a code job with its options and provenance", RunSpec{Kind: "code", Site: "chatgpt", Prompt: "p", Contract: "code", Zips: "several",
			AllowInline: true, RepoRoot: " /src/x ", SourcePaths: []string{"a.go", " ", "b/"}},
			hub.JobSpec{Kind: hub.KindCode, Site: "chatgpt", Prompt: "p", Contract: "code", MultiZip: true, AllowInline: true,
				RepoRoot: "/src/x", SourcePaths: []string{"a.go", "b/"}, RequestedBy: "desktop"}, ""},
		{"where the chat goes passes through for the service to judge", RunSpec{Site: "chatgpt", Prompt: "hi", Temporary: true, ArchiveAfter: true, Project: " Harbour notes ", GPT: " https://chatgpt.com/g/g-abc "},
			hub.JobSpec{Kind: hub.KindAsk, Site: "chatgpt", Prompt: "hi", Temporary: true, ArchiveAfter: true, Project: "Harbour notes", GPT: "https://chatgpt.com/g/g-abc", RequestedBy: "desktop"}, ""},
		{"one zip is the default", RunSpec{Kind: "code", Site: "chatgpt", Prompt: "p"},
			hub.JobSpec{Kind: hub.KindCode, Site: "chatgpt", Prompt: "p", RequestedBy: "desktop"}, ""},
		{"a template is sent with its variables and without text, so the session records it", RunSpec{Site: "chatgpt", Template: " fix-bug ", Vars: map[string]string{"bug": "x"}},
			hub.JobSpec{Kind: hub.KindAsk, Site: "chatgpt", Template: "fix-bug", Vars: map[string]string{"bug": "x"}, RequestedBy: "desktop"}, ""},
		{"a template with text as well is refused", RunSpec{Site: "chatgpt", Template: "fix-bug", Prompt: "edited"}, hub.JobSpec{}, errs.BadInput},
		{"variables without a template are refused", RunSpec{Site: "chatgpt", Prompt: "p", Vars: map[string]string{"bug": "x"}}, hub.JobSpec{}, errs.BadInput},
		{"a zip count other than one or several is refused", RunSpec{Kind: "code", Site: "chatgpt", Prompt: "p", Zips: "three"}, hub.JobSpec{}, errs.BadInput},
		{"an unknown kind is refused", RunSpec{Kind: "paint", Site: "chatgpt", Prompt: "p"}, hub.JobSpec{}, errs.BadInput},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := jobRequestOf(tc.spec)
			if errs.CodeOf(err) != tc.code {
				t.Fatalf("error %v, want code %q", err, tc.code)
			}
			if tc.code == "" && !reflect.DeepEqual(got, tc.want) {
				t.Errorf("spec %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestRunEventOf(t *testing.T) {
	// mk is an event as the owner's stream carries it, read off the wire.
	mk := func(typ, jobID, clientID string, data any) hub.Event {
		b, _ := json.Marshal(map[string]any{"type": typ, "jobId": jobID, "clientId": clientID, "data": data})
		var ev hub.Event
		_ = json.Unmarshal(b, &ev)
		return ev
	}
	tests := []struct {
		name string
		ev   hub.Event
		want event.RunEvent
		ok   bool
	}{
		{"a state the run entered", mk(hub.EventRunUpdate, "j1", "", job.Event{Session: "s1", Kind: job.EventState, State: job.StateStreaming}),
			event.RunEvent{JobID: "j1", Kind: "state", Session: "s1", State: "streaming"}, true},
		{"the answer so far", mk(hub.EventRunPartial, "j1", "", job.Event{Session: "s1", Kind: job.EventPartial, Partial: &provider.Partial{Text: "Hello", Added: "lo"}}),
			event.RunEvent{JobID: "j1", Kind: "partial", Session: "s1", Text: "Hello"}, true},
		{"the job's view at its end", mk(hub.EventRunUpdate, "j1", "desktop", hub.Job{ID: "j1", Kind: hub.KindAsk, State: "done"}),
			event.RunEvent{JobID: "j1", Kind: "ended", State: "done", RequestedBy: "desktop"}, true},
		{"a reattach finding is not for the panel", mk(hub.EventRunUpdate, "j1", "", job.Event{Session: "s1", Kind: job.EventFinding}), event.RunEvent{}, false},
		{"garbage is dropped", mk(hub.EventRunUpdate, "j1", "", json.RawMessage(`[1]`)), event.RunEvent{}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := event.RunEventOf(ownerEventOf(tc.ev))
			got.At = time.Time{}
			if ok != tc.ok || got != tc.want {
				t.Errorf("got %+v %v, want %+v %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

// TestRunsThroughTheOwnersJobs sends prompts through the bound Runs and Tabs
// structs to the simulator's ChatGPT: the app launches its own headless
// Chromium per its settings (mapped to the simulator), keeps it for the
// next run, and closes it at shutdown.
func TestRunsThroughTheOwnersJobs(t *testing.T) {
	srv := sim.New(providertest.DefaultSimOptions...)
	if err := srv.Start(context.Background(), "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	sh, rec, dataDir := openShell(t, func(dataDir string) {
		settings := map[string]any{"browser": map[string]any{"binary": "/usr/bin/chromium", "headless": true, "extraArgs": srv.ChromiumFlags()}}
		b, _ := json.Marshal(settings)
		if err := os.WriteFile(filepath.Join(dataDir, "settings.json"), b, 0o600); err != nil {
			t.Fatal(err)
		}
	})
	_ = dataDir
	runs, tabs := &Runs{sh: sh}, &Tabs{sh: sh}

	st, err := tabs.Browser()
	if err != nil || st.Status != service.BrowserNotStarted || st.Mode != "launch" {
		t.Fatalf("before any run the browser is %+v (%v), want not_started in launch mode", st, err)
	}
	if list, err := tabs.List(); err != nil || len(list) != 0 {
		t.Fatalf("listing tabs started a browser or failed: %v %v", list, err)
	}

	wait := func(t *testing.T, id string) RunInfo {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for time.Now().Before(deadline) {
			info, err := runs.Get(id)
			if err != nil {
				t.Fatal(err)
			}
			if info.Ended {
				return info
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Fatalf("run %s did not end within 60 s", id)
		return RunInfo{}
	}

	var pid int
	t.Run("a desktop run is answered through the job runner with origin desktop", func(t *testing.T) {
		prompt := "What does Ferry do on the desktop?"
		started, err := runs.Start(RunSpec{Site: "chatgpt", Prompt: prompt})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(started.ID, "job-") || started.RequestedBy != "desktop" {
			t.Fatalf("started %+v", started)
		}
		info := wait(t, started.ID)
		if info.State != string(job.StateDone) || info.Session == nil {
			t.Fatalf("run ended %s with %v", info.State, info.Error)
		}
		if info.Session.Answer != providertest.NormalAnswer(prompt) {
			t.Errorf("answer %q", info.Session.Answer)
		}
		if info.Session.Origin != job.OriginDesktop {
			t.Errorf("origin %q, want desktop", info.Session.Origin)
		}
		if len(info.Timeline) < 5 || info.Timeline[len(info.Timeline)-1].State != job.StateDone {
			t.Errorf("timeline %+v, want the journal up to done", info.Timeline)
		}
		if n := strings.Count(rec.Names(), EventRun); n < 5 {
			t.Errorf("%d run events reached the window, want the states and partials", n)
		}
		st, _ := tabs.Browser()
		if st.Status != service.BrowserConnected || !st.Launched || st.PID == 0 || !strings.HasPrefix(st.Endpoint, "127.0.0.1:") {
			t.Fatalf("after the run the browser is %+v", st)
		}
		pid = st.PID
	})

	t.Run("the tabs list the run's ChatGPT tab as ready with its conversation", func(t *testing.T) {
		list, err := tabs.List()
		if err != nil {
			t.Fatal(err)
		}
		var found bool
		for _, ts := range list {
			if ts.Site == "chatgpt" {
				found = true
				if ts.State != "ready" || ts.SiteName != "ChatGPT" || ts.Conversation == "" {
					t.Errorf("tab %+v, want ready with a conversation", ts)
				}
			}
		}
		if !found {
			t.Fatalf("no chatgpt tab in %+v", list)
		}
	})

	t.Run("a second run reuses the same browser", func(t *testing.T) {
		started, err := runs.Start(RunSpec{Site: "chatgpt", Prompt: "And again?", NewChat: true})
		if err != nil {
			t.Fatal(err)
		}
		if info := wait(t, started.ID); info.State != string(job.StateDone) {
			t.Fatalf("second run %s: %v", info.State, info.Error)
		}
		if st, _ := tabs.Browser(); st.PID != pid {
			t.Errorf("the second run used browser pid %d, want the first %d", st.PID, pid)
		}
	})

	t.Run("a template run is listed as active while it runs and its session records the template", func(t *testing.T) {
		vars := map[string]string{"component": "the parser", "symptom": "it drops the last line"}
		started, err := runs.Start(RunSpec{Site: "chatgpt", Template: "fix-bug", Vars: vars, NewChat: true})
		if err != nil {
			t.Fatal(err)
		}
		active, err := runs.Active()
		if err != nil {
			t.Fatal(err)
		}
		var listed *RunInfo
		for i := range active {
			if active[i].ID == started.ID {
				listed = &active[i]
			}
		}
		if listed == nil || listed.Origin != "desktop" || listed.Ended || listed.Template != "fix-bug" {
			t.Fatalf("just after Start, Active lists %+v, want the running desktop run of fix-bug", active)
		}
		info := wait(t, started.ID)
		if info.State != string(job.StateDone) || info.Session == nil {
			t.Fatalf("template run ended %s: %v", info.State, info.Error)
		}
		if info.Session.Template != "fix-bug" || !strings.HasPrefix(info.Session.Prompt, "Fix this bug in the parser: it drops the last line") {
			t.Errorf("session records template %q and prompt %q", info.Session.Template, info.Session.Prompt)
		}
		if !reflect.DeepEqual(info.Vars, vars) || info.Prompt != info.Session.Prompt {
			t.Errorf("the run shows vars %v and prompt %q", info.Vars, info.Prompt)
		}
		active, _ = runs.Active()
		for _, a := range active {
			if a.ID == started.ID {
				t.Errorf("the ended run is still active: %+v", a)
			}
		}
	})

	t.Run("a blank prompt and an unknown site are refused before anything runs", func(t *testing.T) {
		if _, err := runs.Start(RunSpec{Site: "chatgpt", Prompt: "  "}); errs.CodeOf(err) != errs.BadInput {
			t.Errorf("blank prompt: %v", err)
		}
		if _, err := runs.Broadcast(BroadcastSpec{Prompt: "hi", Sites: []string{"chatgpt", "nosuchsite"}}); errs.CodeOf(err) != errs.UnknownSite {
			t.Errorf("unknown site in a broadcast: %v", err)
		}
	})

	t.Run("the browser comes back after it went away", func(t *testing.T) {
		b := sh.own.browser.Current()
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		if err := b.Close(ctx); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(5 * time.Second)
		for {
			st, _ := tabs.Browser()
			if st.Status == service.BrowserDisconnected {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("state %+v after the browser quit, want disconnected", st)
			}
			time.Sleep(20 * time.Millisecond)
		}
		st, err := tabs.Connect()
		if err != nil || st.Status != service.BrowserConnected || st.PID == pid {
			t.Fatalf("reconnect gave %+v (%v), want a new launched browser", st, err)
		}
		pid = st.PID
		opened, err := tabs.Open("chatgpt")
		if err != nil || opened.Site != "chatgpt" || opened.TargetID == "" {
			t.Fatalf("open chatgpt: %+v %v", opened, err)
		}
	})

	t.Run("a tab behind a check is listed with the check's message and a run there stops with guidance", func(t *testing.T) {
		srv.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioCloudflare})
		defer srv.Reset()
		opened, err := tabs.Open("chatgpt")
		if err != nil {
			t.Fatal(err)
		}
		if opened.State != "interstitial" || opened.Code != errs.CloudflareChallenge || opened.Message == "" || opened.Hint == "" {
			t.Errorf("tab behind a Cloudflare check %+v, want interstitial with its message", opened)
		}
		started, err := runs.Start(RunSpec{TabID: opened.TargetID, Prompt: "blocked?"})
		if err != nil {
			t.Fatal(err)
		}
		info := wait(t, started.ID)
		if info.State != string(job.StateFailed) || info.Error == nil || info.Error.Code != errs.CloudflareChallenge {
			t.Fatalf("run in the blocked tab ended %s with %+v, want failed with cloudflare_challenge", info.State, info.Error)
		}
		if n := srv.SubmissionCount(sim.ChatGPT); n != 3 {
			t.Errorf("%d submissions after the blocked run, want the 3 of the earlier runs", n)
		}
	})

	t.Run("shutdown quits the browser Ferry launched", func(t *testing.T) {
		sh.closeCore()
		deadline := time.Now().Add(10 * time.Second)
		for apptest.ProcessAlive(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("browser pid %d still runs after shutdown", pid)
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
}

func TestRunInfoOf(t *testing.T) {
	mk := func(state string, ended bool, code errs.Code, requestedBy string) hub.Job {
		d := &service.JobDetail{Ended: ended, Spec: hub.JobSpec{Site: "chatgpt", Template: "review", Vars: map[string]string{"change": "x"}}}
		j := hub.Job{ID: "job-1", Kind: hub.KindAsk, State: state, RequestedBy: requestedBy, Detail: d}
		if code != "" {
			j.Error = errs.New(code, "stopped")
		}
		return j
	}
	tests := []struct {
		name          string
		job           hub.Job
		state, origin string
		collectable   bool
	}{
		{"a run cancelled after the send shows cancelled and stays collectable", mk("streaming", true, errs.Cancelled, "desktop"), "cancelled", "desktop", true},
		{"a run out of time after the send keeps its state and stays collectable", mk("streaming", true, errs.Timeout, "owner"), "streaming", "cli", true},
		{"a running run is shown as it is", mk("streaming", false, "", "c-123"), "streaming", "agent", false},
		{"a finished run is not collectable", mk("done", true, "", "desktop"), "done", "desktop", false},
		{"a job cancelled before its run is cancelled", mk("cancelled", true, errs.Cancelled, "c-123"), "cancelled", "agent", false},
		{"a run cancelled while it streamed is cancelled and collectable", cancelledRun(mk("cancelled", true, errs.Cancelled, "desktop"), "streaming"), "cancelled", "desktop", true},
		{"a run cancelled before it was sent is not collectable", cancelledRun(mk("cancelled", true, errs.Cancelled, "desktop"), "composed"), "cancelled", "desktop", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := runInfoOf(tc.job)
			if got.State != tc.state || got.Origin != tc.origin || got.Collectable != tc.collectable {
				t.Errorf("state %q origin %q collectable %v, want %q %q %v", got.State, got.Origin, got.Collectable, tc.state, tc.origin, tc.collectable)
			}
			if got.Template != "review" || got.Prompt != "template review\nchange = x" {
				t.Errorf("template %q prompt %q, want the template in words before the run renders it", got.Template, got.Prompt)
			}
		})
	}
}

// cancelledRun is j with a run cancelled in state before.
func cancelledRun(j hub.Job, before record.State) hub.Job {
	j.Detail.Run = &service.Run{ID: "run-1", State: record.StateCancelled, StateBefore: before, Answer: "the part that came", AnswerPartial: true}
	return j
}
