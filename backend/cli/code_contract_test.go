package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/prompt"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// TestCodeContractAll runs `ferry code --contract all` against the
// simulator's contract scenarios: assess, plan and code go in order on the
// same tab as three sessions, and a broken deliverable stops the chain
// right there, with nothing more sent.
func TestCodeContractAll(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	url := h.Browser.Endpoint()
	dataDir := t.TempDir()

	// run sends task with --contract all in a fresh tab and returns the
	// exit code, the printed receipt and the tab.
	run := func(t *testing.T, out, task string, extra ...string) (result, Receipt, string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		tab, err := h.Browser.OpenTab(ctx, sim.URL(sim.ChatGPT, "/"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = tab.Close(context.Background()) })
		args := append([]string{"code", "--tab", tab.ID(), "--browser-url", url, "--data-dir", dataDir, "--out", out,
			"--timeout", "100s", "--json", "--contract", "all"}, extra...)
		r := ferry(t, nil, append(args, task)...)
		var rc Receipt
		if err := json.Unmarshal([]byte(r.stdout), &rc); err != nil {
			t.Fatalf("stdout is not a receipt (exit %d): %v\n%s\nstderr %s", r.code, err, r.stdout, r.stderr)
		}
		return r, rc, tab.ID()
	}
	// sessions returns the runs of the receipt from the history, in order.
	sessions := func(t *testing.T, ids []string) []job.Session {
		t.Helper()
		var out []job.Session
		for _, id := range ids {
			r := ferry(t, nil, "sessions", "show", "--json", id, "--data-dir", dataDir)
			var shown struct {
				Session job.Session `json:"session"`
			}
			if r.code != 0 || json.Unmarshal([]byte(r.stdout), &shown) != nil {
				t.Fatalf("sessions show %s: exit %d\n%s%s", id, r.code, r.stdout, r.stderr)
			}
			out = append(out, shown.Session)
		}
		return out
	}

	t.Run("assess, plan and code run in order on one tab and the zip comes home", func(t *testing.T) {
		out := t.TempDir()
		r, rc, tab := run(t, out, "Build a tide table CLI\n"+sim.Directive(sim.ScenarioAssess), "--architecture-authorized")
		if r.code != 0 || !rc.OK || rc.Error != nil {
			t.Fatalf("exit %d ok %v error %+v\nstderr %s", r.code, rc.OK, rc.Error, r.stderr)
		}
		if rc.Contract != prompt.ContractAll || rc.Layers.Content.Status != "passed" || rc.Layers.Content.Detail != string(prompt.ContractAll) {
			t.Fatalf("contract %s content layer %+v, want all passed", rc.Contract, rc.Layers.Content)
		}
		for name, l := range map[string]Layer{"routing": rc.Layers.Routing, "transport": rc.Layers.Transport, "download": rc.Layers.Download} {
			if l.Status != "passed" {
				t.Fatalf("layer %s = %+v, want passed", name, l)
			}
		}
		want := []prompt.Contract{prompt.ContractAssess, prompt.ContractPlan, prompt.ContractCode}
		if len(rc.Steps) != 3 || len(rc.Sessions) != 3 {
			t.Fatalf("%d steps, sessions %v, want 3 of each", len(rc.Steps), rc.Sessions)
		}
		for i, st := range rc.Steps {
			if st.Contract != want[i] || st.Outcome == nil || st.Result == nil || st.Result.Routing.ControlledTabID != tab {
				t.Fatalf("step %d: contract %s outcome %+v routing %+v, want %s in tab %s", i, st.Contract, st.Outcome, st.Result, want[i], tab)
			}
		}
		if rc.Steps[0].Outcome.Ruling != prompt.RulingPass || rc.Steps[1].Outcome.PlanSteps != 3 || len(rc.Steps[2].Outcome.Zips) != 1 {
			t.Fatalf("outcomes %+v %+v %+v", rc.Steps[0].Outcome, rc.Steps[1].Outcome, rc.Steps[2].Outcome)
		}
		conv := rc.ConversationID
		if n := h.Server.ConversationSubmissions(sim.ChatGPT, conv); n != 3 || conv == "" {
			t.Fatalf("conversation %q got %d submissions, want the 3 steps", conv, n)
		}
		if len(rc.Zips) != 1 || !rc.Zips[0].Verified || filepath.Base(rc.Zips[0].SavedPath) != "project.zip" {
			t.Fatalf("zips %+v", rc.Zips)
		}
		if _, err := os.Stat(rc.Zips[0].SavedPath); err != nil {
			t.Fatal(err)
		}
		for i, s := range sessions(t, rc.Sessions) {
			contract := ""
			for _, x := range s.Receipts {
				if x.Layer == "contract" {
					contract = x.Data["contract"]
				}
			}
			if s.State != job.StateDone || s.Contract != string(want[i]) || contract != string(want[i]) || s.TargetID != tab || s.ConversationID != conv {
				t.Fatalf("session %d: state %s contract %q (receipt %q) tab %s conversation %s", i, s.State, s.Contract, contract, s.TargetID, s.ConversationID)
			}
			if s.CodeMode != (want[i] == prompt.ContractCode) {
				t.Fatalf("session %d (%s) code mode %v", i, s.Contract, s.CodeMode)
			}
		}
	})

	broken := []struct {
		name, scenario string
		sent           int
		code           errs.Code
	}{
		{"a plan without proof stops the chain after plan, no code step sent", sim.ScenarioPlanNoProof, 2, errs.ContractViolation},
		{"an assessment without a ruling stops the chain after assess", sim.ScenarioAssessNoRuling, 1, errs.DeliverableMissing},
	}
	for _, tc := range broken {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			task := fmt.Sprintf("Build a harbour log %s", tc.scenario)
			r, rc, _ := run(t, out, task+"\n"+sim.Directive(tc.scenario), "--architecture-authorized")
			if r.code != errs.ExitCode(errs.New(tc.code, "x")) || r.code != 5 || rc.OK || rc.Error == nil || rc.Error.Code != tc.code {
				t.Fatalf("exit %d error %+v, want exit 5 with %s\nstderr %s", r.code, rc.Error, tc.code, r.stderr)
			}
			if n := h.Server.ConversationSubmissions(sim.ChatGPT, rc.ConversationID); n != tc.sent || submissionsHolding(h, task) != 1 {
				t.Fatalf("%d submissions to the conversation, want %d (nothing after the broken step)", n, tc.sent)
			}
			if len(rc.Steps) != tc.sent || len(rc.Sessions) != tc.sent || rc.Steps[tc.sent-1].Outcome != nil {
				t.Fatalf("%d steps, sessions %v, want %d ending in the unchecked step", len(rc.Steps), rc.Sessions, tc.sent)
			}
			if rc.Layers.Content.Status != "failed" || !strings.Contains(rc.Layers.Content.Detail, string(tc.code)) || rc.Layers.Transport.Status != "passed" {
				t.Fatalf("layers %+v, want content failed with %s", rc.Layers, tc.code)
			}
			if len(rc.Zips) != 0 {
				t.Fatalf("zips %+v from a chain that never reached code", rc.Zips)
			}
			for _, f := range allFiles(t, out) {
				if f != rc.Path {
					t.Fatalf("a stopped chain left %s", f)
				}
			}
			last := sessions(t, rc.Sessions)[tc.sent-1]
			if last.State != job.StateFailed || last.Error == nil || last.Error.Code != tc.code || last.Answer == "" {
				t.Fatalf("the broken step's session: state %s error %+v, want failed with %s and its answer kept", last.State, last.Error, tc.code)
			}
		})
	}

	t.Run("all without --architecture-authorized is refused before anything is sent", func(t *testing.T) {
		before := h.Server.SubmissionCount(sim.ChatGPT)
		r := ferry(t, nil, "code", "--site", "chatgpt", "--browser-url", url, "--data-dir", dataDir, "--out", t.TempDir(),
			"--json", "--contract", "all", "Build a buoy map")
		var v struct {
			Error errs.Envelope `json:"error"`
		}
		if r.code != 2 || json.Unmarshal([]byte(r.stdout), &v) != nil || v.Error.Code != errs.AuthorizationRequired ||
			!strings.Contains(v.Error.RetryHint, prompt.AuthorizationFlag) {
			t.Fatalf("exit %d %s, want 2 authorization_required naming %s", r.code, r.stdout, prompt.AuthorizationFlag)
		}
		if n := h.Server.SubmissionCount(sim.ChatGPT); n != before {
			t.Fatalf("%d prompts sent without authorization", n-before)
		}
	})
}
