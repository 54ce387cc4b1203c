package core

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/codemode"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/prompt"
	"github.com/ferrydesk/ferry/backend/prompt/templates"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/runs"
	"github.com/ferrydesk/ferry/backend/service"
)

// TestCode runs code-mode requests through runs.Pipeline.RunCode over the core against the
// simulator, as the desktop app does with its own browser, and reads the
// sessions back.
func TestCode(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dataDir := t.TempDir()
	c, err := Open(ctx, Options{DataDir: dataDir, Role: "desktop"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	run := runs.New(c.runsDeps())
	code := func(ctx context.Context, req runs.CodeRequest) (*job.Session, error) {
		out, err := run.RunCode(ctx, req)
		return out.Last(), err
	}
	base := runs.AskRequest{Site: "chatgpt", Browser: h.Browser, Origin: job.OriginDesktop, Timeout: 50 * time.Second}

	t.Run("a template renders the task, the journal passes the artifact states, and the zip lands in the artifacts directory", func(t *testing.T) {
		if _, err := templates.New(c.Store).Save(ctx, templates.Info{Name: "tool", Body: "Build {{what}} " + sim.Directive(sim.ScenarioCodeZip), Variables: []string{"what"}}); err != nil {
			t.Fatal(err)
		}
		req := runs.CodeRequest{AskRequest: base}
		req.Template, req.Vars = "tool", map[string]string{"what": "a desktop greeter"}
		var states []job.State
		req.OnEvent = func(ev job.Event) {
			if ev.Kind == job.EventState {
				states = append(states, ev.State)
			}
		}
		s, err := code(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if s.State != job.StateDone || s.Template != "tool" || s.Origin != job.OriginDesktop || !strings.Contains(s.Prompt, "Build a desktop greeter") {
			t.Fatalf("session %s: state %s template %q origin %s", s.ID, s.State, s.Template, s.Origin)
		}
		tail := []job.State{job.StateExtracted, job.StateArtifactsRetrieved, job.StateArtifactsVerified, job.StateDone}
		if len(states) < 4 || strings.Join(stateNames(states[len(states)-4:]), ",") != strings.Join(stateNames(tail), ",") {
			t.Fatalf("events %v, want them to end %v", states, tail)
		}
		if len(s.Artifacts) != 1 || s.Artifacts[0].Verdict != "verified" || filepath.Dir(s.Artifacts[0].Path) != c.Paths().ArtifactsDir() {
			t.Fatalf("artifacts %+v, want one verified zip in %s", s.Artifacts, c.Paths().ArtifactsDir())
		}
		if _, err := os.Stat(s.Artifacts[0].Path + ".provenance.json"); err != nil {
			t.Fatalf("no sidecar: %v", err)
		}
		if s.Warnings != nil {
			t.Fatalf("warnings %v", s.Warnings)
		}
		// Titled by the user's own words, not by the wrapper around them.
		if want := "Build a desktop greeter " + sim.Directive(sim.ScenarioCodeZip); s.Task != want || s.Title() != want || s.Prompt == s.Task {
			t.Fatalf("task %q (title %q), want the rendered template alone, apart from the prompt sent", s.Task, s.Title())
		}
		// The library tells each zip's story: its run, when, in what words.
		list, err := newService(c, nil, nil).ListArtifacts(ctx, service.Owner(service.FaceDesktop), service.ListArtifactsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		var item *service.ArtifactItem
		for i := range list.Items {
			if list.Items[i].Path == s.Artifacts[0].Path {
				item = &list.Items[i]
			}
		}
		if item == nil || item.Session != s.ID || item.Run == nil || item.Run.ID != s.ID || !strings.HasPrefix(item.Run.Prompt, "Build a desktop greeter") ||
			!item.Run.Created.Equal(s.Created) || item.Run.State != job.StateDone {
			t.Fatalf("library item %+v, want its run %s told", item, s.ID)
		}
	})

	t.Run("an assess step without its ruling fails its session and the receipt says why", func(t *testing.T) {
		h.Server.Reset()
		out := t.TempDir()
		req := runs.CodeRequest{AskRequest: base, Options: codemode.Options{Contract: prompt.ContractAssess, OutDir: out}}
		req.Prompt = "Assess the parser " + sim.Directive(sim.ScenarioNormal)
		res, err := run.RunCode(ctx, req)
		if !errs.Has(err, errs.DeliverableMissing) || res == nil || res.Receipt == nil {
			t.Fatalf("assess without a ruling: %v", err)
		}
		s := res.Last()
		if len(res.Sessions) != 1 || s.State != job.StateFailed || s.CodeMode || s.Contract != "assess" || s.Error == nil || s.Error.Code != errs.DeliverableMissing {
			t.Fatalf("session %+v", s)
		}
		rc := res.Receipt
		if rc.OK || rc.Layers.Content.Status != "failed" || rc.Layers.Download.Status != "n/a" || filepath.Dir(rc.Path) != out || rc.Sessions[0] != s.ID {
			t.Fatalf("receipt ok %v layers %+v path %s sessions %v", rc.OK, rc.Layers, rc.Path, rc.Sessions)
		}
		if n := h.Server.SubmissionCount(sim.ChatGPT); n != 1 {
			t.Fatalf("%d submissions, want 1", n)
		}
	})

	t.Run("an unsafe zip fails the session after artifacts_retrieved and is recorded as quarantined", func(t *testing.T) {
		h.Server.Reset()
		out := t.TempDir()
		req := runs.CodeRequest{AskRequest: base, Options: codemode.Options{OutDir: out}}
		req.Prompt = "Build it " + sim.Directive(sim.ScenarioZipSlip)
		res, err := run.RunCode(ctx, req)
		if !errs.Has(err, errs.ArtifactUnsafe) || res == nil {
			t.Fatalf("zip slip: %v", err)
		}
		s := res.Last()
		if s.State != job.StateFailed || s.StateBefore != job.StateArtifactsRetrieved || s.Error == nil || s.Error.Code != errs.ArtifactUnsafe {
			t.Fatalf("session state %s before %s error %+v", s.State, s.StateBefore, s.Error)
		}
		if len(s.Artifacts) != 1 || s.Artifacts[0].Verdict != "quarantined" || !strings.HasPrefix(s.Artifacts[0].Reason, string(errs.ArtifactUnsafe)) {
			t.Fatalf("artifacts %+v", s.Artifacts)
		}
		if res.Receipt.OK || res.Receipt.Layers.Download.Status != "failed" {
			t.Fatalf("receipt ok %v layers %+v", res.Receipt.OK, res.Receipt.Layers)
		}
	})

	t.Run("an ask from a template sends the rendering and records the template", func(t *testing.T) {
		h.Server.Reset()
		req := base
		req.Template, req.Vars = "review", map[string]string{"change": "rename the ledger type"}
		s, err := run.Ask(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := templates.New(c.Store).Render(ctx, "review", req.Vars)
		if s.Template != "review" || s.Prompt != want || s.Answer != providertest.NormalAnswer(want) {
			t.Fatalf("session template %q prompt %q answer %q", s.Template, s.Prompt, s.Answer)
		}
	})

	t.Run("bad input is refused before anything is sent", func(t *testing.T) {
		h.Server.Reset()
		for _, req := range []runs.CodeRequest{
			{AskRequest: runs.AskRequest{Site: "claude", Prompt: "x", Browser: h.Browser}},
			{AskRequest: runs.AskRequest{Site: "chatgpt", Prompt: "x", Browser: h.Browser}, Options: codemode.Options{Contract: prompt.ContractAll}},
			{AskRequest: runs.AskRequest{Site: "chatgpt", Prompt: "x", Template: "tool", Browser: h.Browser}},
			{AskRequest: runs.AskRequest{Site: "chatgpt", Browser: h.Browser}, Options: codemode.Options{RepoRoot: t.TempDir()}},
			{AskRequest: runs.AskRequest{Prompt: "x", Browser: h.Browser}, Options: codemode.Options{Conversation: "../etc"}},
		} {
			if _, err := code(ctx, req); err == nil || errs.CodeOf(err) == errs.Internal {
				t.Fatalf("request %+v: %v", req, err)
			}
		}
		if n := h.Server.SubmissionCount(sim.ChatGPT); n != 0 {
			t.Fatalf("bad input sent %d prompts", n)
		}
	})
}

func stateNames(states []job.State) []string {
	out := make([]string, len(states))
	for i, s := range states {
		out[i] = string(s)
	}
	return out
}
