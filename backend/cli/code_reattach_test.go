package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/codemode"
	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/prompt"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/runs"
	"github.com/ferrydesk/ferry/backend/tabs"
)

// codeKillEnv makes the test binary play `ferry code` and SIGKILL itself
// as soon as the run's journal reaches the state it names: the state is
// persisted, the side effect it guards has not begun (job.Event's
// contract), which no outside observer of the process can time.
const codeKillEnv = "FERRY_CLI_TEST_CODE_KILL_AT"

func init() {
	state := os.Getenv(codeKillEnv)
	if state == "" {
		return
	}
	cmd, ok := commands["code"]
	if !ok {
		panic("cli test: no code command registered")
	}
	cmd.run = func(ctx context.Context, inv *invocation) error { return runCodeKilledAt(ctx, inv, job.State(state)) }
	os.Exit(Main(context.Background(), os.Args[1:]))
}

// runCodeKilledAt is runCode run in this process with one addition: the
// run's events kill the process at state kill (on the run's goroutine, so
// that the side effect the state guards has not begun).
func runCodeKilledAt(ctx context.Context, inv *invocation, kill job.State) error {
	jr, err := codeRequestOf(inv)
	if err != nil {
		return err
	}
	c, err := core.Open(ctx, core.Options{DataDir: inv.dataDir, Role: "cli"})
	if err != nil {
		return err
	}
	defer c.Close()
	// The pipeline's in-process entry point, over this data directory (a
	// process of its own: its tab leases are its own).
	run := runs.New(runs.Deps{Paths: c.Paths(), Store: c.Store, Settings: c.Settings, History: c.History,
		Leases: tabs.NewLeases(), Ledger: &tabs.Ledger{}})
	b, err := openBrowser(ctx, inv, c.Paths())
	if err != nil {
		return err
	}
	req := runs.CodeRequest{
		AskRequest: runs.AskRequest{Site: jr.Site, Model: jr.Model, Prompt: jr.Prompt, TargetID: jr.TabID, Template: jr.Template,
			Vars: jr.Vars, Timeout: jr.Timeout(), Origin: job.OriginCLI, Browser: b},
		Options: codemode.Options{Conversation: jr.Conversation, MultiZip: jr.MultiZip, AllowInline: jr.AllowInline, OutDir: jr.OutDir,
			Contract: prompt.Contract(jr.Contract), ArchitectureAuthorized: jr.ArchitectureAuthorized,
			Goal: jr.Goal, GoalLock: jr.GoalLock, Research: jr.Research, RepoRoot: jr.RepoRoot, SourcePaths: jr.SourcePaths},
	}
	req.OnEvent = func(ev job.Event) {
		if ev.Kind == job.EventState && ev.State == kill {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
	}
	out, err := run.RunCode(ctx, req)
	if out == nil || out.Receipt == nil {
		return err
	}
	return printCode(inv, out.Receipt, err)
}

// sessionOf returns the one run whose prompt holds task, with its journal.
func sessionOf(t *testing.T, dataDir, task string) (job.Session, []job.Entry) {
	t.Helper()
	r := ferry(t, nil, "sessions", "list", "--json", "--query", task, "--data-dir", dataDir)
	var list struct {
		Sessions []struct {
			ID     string `json:"id"`
			Prompt string `json:"prompt"`
		} `json:"sessions"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &list) != nil {
		t.Fatalf("sessions list: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var ids []string
	for _, s := range list.Sessions {
		if strings.Contains(s.Prompt, task) {
			ids = append(ids, s.ID)
		}
	}
	if len(ids) != 1 {
		t.Fatalf("%d runs hold %q, want 1: %s", len(ids), task, r.stdout)
	}
	r = ferry(t, nil, "sessions", "show", "--json", ids[0], "--data-dir", dataDir)
	var shown struct {
		Session job.Session `json:"session"`
		Journal []job.Entry `json:"journal"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &shown) != nil {
		t.Fatalf("sessions show: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	return shown.Session, shown.Journal
}

// submissionsHolding counts the simulator's ChatGPT submissions whose
// prompt holds task (code prompts wrap the task in the contract).
func submissionsHolding(h *providertest.Harness, task string) int {
	n := 0
	for _, s := range h.Server.Submissions(sim.ChatGPT) {
		if strings.Contains(s.Prompt, task) {
			n++
		}
	}
	return n
}

// TestCodeKilledInAStateIsReattachedToItsVerifiedZip: a `ferry code` SIGKILLed
// while its answer streams, once the answer is extracted, and between
// fetching and verifying its zip, is finished by `ferry reattach`: the
// verified zip is on disk with its sidecar, the receipt beside it, the prompt
// was sent exactly once, and a zip already saved is not fetched again.
func TestCodeKilledInAStateIsReattachedToItsVerifiedZip(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	url := h.Browser.Endpoint()
	dataDir := t.TempDir()
	want, _ := sim.ZipBytes(sim.ScenarioCodeZip, 0, 1)
	wantSum := sha256.Sum256(want)

	for i, kill := range []job.State{job.StateStreaming, job.StateExtracted, job.StateArtifactsRetrieved} {
		t.Run(fmt.Sprintf("killed at %s, reattach brings the zip home with one submission", kill), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
			defer cancel()
			tab, err := h.Browser.OpenTab(ctx, sim.URL(sim.ChatGPT, "/"))
			if err != nil {
				t.Fatal(err)
			}
			defer tab.Close(context.Background())
			out := t.TempDir()
			task := fmt.Sprintf("Build lighthouse keeper %d", i)

			child := exec.CommandContext(ctx, os.Args[0], "code", "--tab", tab.ID(), "--browser-url", url, "--data-dir", dataDir,
				"--out", out, "--timeout", "90s", "--json", task+"\n"+sim.Directive(sim.ScenarioCodeZip))
			child.Env = append(hermeticEnv(t), codeKillEnv+"="+string(kill))
			var cout, cerr bytes.Buffer
			child.Stdout, child.Stderr = &cout, &cerr
			err = child.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("ferry code was not killed at %s: %v\nstdout %s\nstderr %s", kill, err, cout.String(), cerr.String())
			}
			s, _ := sessionOf(t, dataDir, task)
			if s.State != kill || !s.CodeMode {
				t.Fatalf("after the kill the run is %s (code mode %v), want %s", s.State, s.CodeMode, kill)
			}
			mintsBefore := len(h.Server.Mints(s.ConversationID))
			if kill == job.StateArtifactsRetrieved && (mintsBefore != 1 || len(s.Artifacts) != 1) {
				t.Fatalf("killed at %s with %d mints and artifacts %+v, want the zip fetched once", kill, mintsBefore, s.Artifacts)
			}

			r := ferry(t, nil, "reattach", "--session", s.ID, "--browser-url", url, "--data-dir", dataDir, "--json")
			var res struct {
				Session job.Session  `json:"session"`
				Finding *job.Finding `json:"finding"`
			}
			if r.code != 0 || json.Unmarshal([]byte(r.stdout), &res) != nil {
				t.Fatalf("reattach: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			if res.Finding == nil || res.Finding.From != kill || res.Session.State != job.StateDone || res.Session.Error != nil {
				t.Fatalf("reattach ended %s with finding %+v error %+v", res.Session.State, res.Finding, res.Session.Error)
			}
			if n := submissionsHolding(h, task); n != 1 {
				t.Fatalf("the simulator saw %d submissions of the task, want exactly 1", n)
			}
			if n := len(h.Server.Mints(s.ConversationID)); n != 1 {
				t.Fatalf("%d download URLs minted for the conversation, want 1 (a saved zip is not fetched again)", n)
			}

			// On disk: the zip, its sidecar and one receipt; nothing else.
			var names []string
			for _, f := range allFiles(t, out) {
				rel, _ := filepath.Rel(out, f)
				names = append(names, rel)
			}
			// The receipt last, then the zip and its sidecar.
			sort.Slice(names, func(i, j int) bool {
				ri, rj := strings.HasSuffix(names[i], codemode.ReceiptSuffix), strings.HasSuffix(names[j], codemode.ReceiptSuffix)
				if ri != rj {
					return rj
				}
				return names[i] < names[j]
			})
			if len(names) != 3 || names[0] != "project.zip" || names[1] != "project.zip"+".provenance.json" || !strings.HasSuffix(names[2], codemode.ReceiptSuffix) {
				t.Fatalf("the output directory holds %v, want project.zip, its sidecar and one receipt", names)
			}
			got, err := os.ReadFile(filepath.Join(out, "project.zip"))
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("the saved zip differs from the sandbox's (%v)", err)
			}
			var rc Receipt
			b, err := os.ReadFile(filepath.Join(out, names[2]))
			if err != nil || json.Unmarshal(b, &rc) != nil {
				t.Fatalf("read the receipt: %v", err)
			}
			if !rc.OK || rc.Layers.Download.Status != "passed" || rc.Layers.Content.Status != "passed" || rc.Layers.Transport.Status != "passed" ||
				len(rc.Zips) != 1 || !rc.Zips[0].Verified || rc.Zips[0].SHA256 != hex.EncodeToString(wantSum[:]) ||
				len(rc.Sessions) != 1 || rc.Sessions[0] != s.ID {
				t.Fatalf("receipt ok %v layers %+v zips %+v sessions %v", rc.OK, rc.Layers, rc.Zips, rc.Sessions)
			}

			// The history: one verified artifact, the journal through the
			// artifact states, the receipt recorded.
			s, journal := sessionOf(t, dataDir, task)
			if len(s.Artifacts) != 1 || s.Artifacts[0].Verdict != "verified" || s.Artifacts[0].SHA256 != rc.Zips[0].SHA256 ||
				s.Artifacts[0].Path != filepath.Join(out, "project.zip") {
				t.Fatalf("artifacts %+v", s.Artifacts)
			}
			for _, w := range s.Warnings {
				if strings.Contains(w, "not retrieved") {
					t.Fatalf("the run still warns: %q", w)
				}
			}
			var states []job.State
			for _, e := range journal {
				states = append(states, e.State)
			}
			tail := []job.State{job.StateArtifactsRetrieved, job.StateArtifactsVerified, job.StateDone}
			if len(states) < 4 || fmt.Sprint(states[len(states)-3:]) != fmt.Sprint(tail) || !containsState(states, job.StateExtracted) {
				t.Fatalf("journal %v, want it through extracted to %v", states, tail)
			}
			if n := countState(states, job.StateArtifactsRetrieved); n != 1 {
				t.Fatalf("journal %v enters artifacts_retrieved %d times", states, n)
			}
			receipt := false
			for _, x := range s.Receipts {
				receipt = receipt || (x.Layer == "receipt" && x.Data["path"] == filepath.Join(out, names[2]) && x.Data["ok"] == "true")
			}
			if !receipt {
				t.Fatalf("the session does not record the receipt: %+v", s.Receipts)
			}

			// A second reattach of the finished run does nothing.
			r = ferry(t, nil, "reattach", "--session", s.ID, "--browser-url", url, "--data-dir", dataDir, "--json")
			if r.code != 0 || len(allFiles(t, out)) != 3 || len(h.Server.Mints(s.ConversationID)) != 1 || submissionsHolding(h, task) != 1 {
				t.Fatalf("a second reattach: exit %d, %d files, %d mints\n%s", r.code, len(allFiles(t, out)), len(h.Server.Mints(s.ConversationID)), r.stderr)
			}
		})
	}
}

func containsState(states []job.State, s job.State) bool { return countState(states, s) > 0 }

func countState(states []job.State, s job.State) int {
	n := 0
	for _, x := range states {
		if x == s {
			n++
		}
	}
	return n
}
