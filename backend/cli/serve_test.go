package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/hub/client"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/service"
)

// serveInfo is what `ferry serve --json` prints once it listens.
type serveInfo struct {
	Port    int    `json:"port"`
	PID     int    `json:"pid"`
	HubFile string `json:"hubFile"`
}

// served is a `ferry serve` child process.
type served struct {
	cmd    *exec.Cmd
	info   serveInfo
	done   chan error
	stderr *lockedBuffer
}

// startServe runs `ferry serve --json` on dataDir and waits until it
// listens.
func startServe(t *testing.T, dataDir string, extra ...string) *served {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"serve", "--json", "--data-dir", dataDir}, extra...)...)
	cmd.Env = hermeticEnv(t)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &served{cmd: cmd, done: make(chan error, 1), stderr: stderr}
	line := make(chan string, 1)
	go func() {
		r := bufio.NewReader(out)
		l, _ := r.ReadString('\n')
		line <- l
		for {
			if _, err := r.ReadString('\n'); err != nil {
				break
			}
		}
		s.done <- cmd.Wait()
	}()
	select {
	case l := <-line:
		if err := json.Unmarshal([]byte(l), &s.info); err != nil || s.info.Port == 0 {
			cmd.Process.Kill()
			t.Fatalf("ferry serve printed %q (%v); stderr %s", l, err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("ferry serve did not start; stderr %s", stderr.String())
	}
	t.Cleanup(func() { s.stop(t) })
	return s
}

// stop sends SIGTERM and waits for a clean exit.
func (s *served) stop(t *testing.T) {
	t.Helper()
	if s.cmd.ProcessState != nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-s.done:
		if err != nil {
			t.Errorf("ferry serve exited with %v", err)
		}
	case <-time.After(30 * time.Second):
		s.cmd.Process.Kill()
		t.Errorf("ferry serve did not stop on SIGTERM")
	}
}

func TestServeGivesTheSameOutputAsEmbedded(t *testing.T) {
	t.Parallel()
	dd := t.TempDir()
	base := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	seedSessions(t, dd,
		job.Session{ID: "run-old", Site: "chatgpt", Prompt: "explain badger compaction", Answer: "levels merge", State: job.StateDone, Created: base},
		job.Session{ID: "run-a", Site: "claude", Prompt: "write a ferry haiku", State: job.StateStreaming, Created: base.Add(time.Hour)},
		job.Session{ID: "run-b", Site: "chatgpt", Prompt: "plan a sailing trip", State: job.StateSubmitting, Created: base.Add(2 * time.Hour)},
	)
	d := "--data-dir=" + dd
	tmpl := filepath.Join(t.TempDir(), "greet.txt")
	if err := os.WriteFile(tmpl, []byte("Hello {{name}}, how are you?\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
	}{
		{"sessions list --json lists every run", []string{"sessions", "list", "--json", d}},
		{"sessions list prints a table", []string{"sessions", "list", d}},
		{"sessions list with a limit says how many more there are", []string{"sessions", "list", "--limit", "1", d}},
		{"sessions list --json with a query and a site finds the run", []string{"sessions", "list", "--json", "--query", "badgr compact", "--site", "chatgpt", d}},
		{"sessions list --json with a state filters", []string{"sessions", "list", "--json", "--state", "streaming", d}},
		{"sessions list with an unknown state is bad input", []string{"sessions", "list", "--state", "nonsense", d}},
		{"sessions show prints the run as Markdown", []string{"sessions", "show", "run-a", d}},
		{"sessions show --json prints the record and journal", []string{"sessions", "show", "--json", "run-old", d}},
		{"sessions show of an unknown run is not found", []string{"sessions", "show", "no-such-run", d}},
		{"sessions show --json of an unknown run prints the error as JSON", []string{"sessions", "show", "--json", "no-such-run", d}},
		{"sessions export as JSON", []string{"sessions", "export", "--format", "json", "run-old", d}},
		{"sessions export with a bad format is bad input", []string{"sessions", "export", "--format", "pdf", "run-old", d}},
		{"ask without a site is bad input", []string{"ask", "hello", d}},
		{"ask --new-chat with a tab is bad input", []string{"ask", "--new-chat", "--tab", "T1", "hello", d}},
		{"code without a site is bad input", []string{"code", "task", d}},
		{"code with the plan contract needs the authorization", []string{"code", "--site", "chatgpt", "--contract", "plan", "task", d}},
		{"code --json with a template missing a variable is bad input", []string{"code", "--json", "--site", "chatgpt", "--template", "review", d}},
		{"code with an unknown template is not found", []string{"code", "--site", "chatgpt", "--template", "nope", d}},
		{"code on a site without a sandbox is refused", []string{"code", "--site", "claude", "task", d}},
		{"ask with a template missing a variable is bad input", []string{"ask", "--site", "chatgpt", "--template", "fix-bug", "--var", "component=x", d}},
		{"sessions list --json with a state and a query narrows both ways", []string{"sessions", "list", "--json", "--state", "streaming", "--query", "haiku", d}},
		{"sessions list with a state and a query that match nothing", []string{"sessions", "list", "--state", "done", "--query", "haiku", d}},
		{"poll of a finished run prints its answer", []string{"poll", "--session", "run-old", d}},
		{"poll --json of a finished run prints the record", []string{"poll", "--json", "--session", "run-old", d}},
		{"poll of an active run without a browser prints its state", []string{"poll", "--session", "run-a", d}},
		{"poll without --session fails closed listing the active runs", []string{"poll", d}},
		{"poll of an unknown run is not found", []string{"poll", "--session", "no-such-run", d}},
		{"poll of an active run with --browser launch is bad input", []string{"poll", "--session", "run-a", "--browser", "launch", d}},
		{"reattach of a finished run prints its answer", []string{"reattach", "--session", "run-old", d}},
		{"reattach --json of a finished run prints the record", []string{"reattach", "--json", "--session", "run-o", d}},
		{"watch of a finished run prints its answer", []string{"watch", "--session", "run-old", d}},
		{"reattach without --session fails closed", []string{"reattach", d}},
		{"watch --json of an unknown run is not found", []string{"watch", "--json", "--session", "no-such-run", d}},
		{"reattach with a zero timeout is bad input", []string{"reattach", "--timeout", "0s", "--session", "run-old", d}},
		{"sessions doctor without a browser lists the active runs unchecked", []string{"sessions", "doctor", d}},
		{"sessions doctor --json without a browser", []string{"sessions", "doctor", "--json", d}},
		{"open of an unknown site is refused", []string{"open", "nosuchsite", d}},
		{"open with two sites is bad input", []string{"open", "chatgpt", "claude", d}},
		{"tabs with an argument is bad input", []string{"tabs", "extra", d}},
		{"templates list --json lists the built-in templates", []string{"templates", "list", "--json", d}},
		{"templates show prints a built-in template", []string{"templates", "show", "fix-bug", d}},
		{"templates show of an unknown template is not found", []string{"templates", "show", "no-such-template", d}},
		{"templates save stores the user's template", []string{"templates", "save", "greet", "--file", tmpl, "--vars", "name", "--description", "says hello", d}},
		{"templates list shows it among the built-in ones", []string{"templates", "list", d}},
		{"templates save with an undeclared variable is refused", []string{"templates", "save", "bad", "--file", tmpl, d}},
		{"templates save over a built-in template is refused", []string{"templates", "save", "fix-bug", "--file", tmpl, "--vars", "name", d}},
		{"templates delete removes the user's template", []string{"templates", "delete", "greet", d}},
		{"templates delete of a built-in template is refused", []string{"templates", "delete", "review", d}},
	}
	embedded := make([]result, len(cases))
	for i, c := range cases {
		embedded[i] = ferry(t, nil, c.args...)
	}
	if embedded[8].code != exitOf(errs.SessionNotFound) || embedded[0].code != 0 {
		t.Fatalf("embedded runs are not what the table assumes: %+v / %+v", embedded[0], embedded[8])
	}
	for i, c := range cases {
		// The table only compares; these cases must also do what they say.
		wantOK := map[string]bool{
			"templates save stores the user's template": true, "templates delete removes the user's template": true,
			"poll of a finished run prints its answer": true, "reattach of a finished run prints its answer": true,
			"templates save with an undeclared variable is refused": false, "poll without --session fails closed listing the active runs": false,
		}
		if want, ok := wantOK[c.name]; ok && (embedded[i].code == 0) != want {
			t.Fatalf("embedded %q: exit %d %s %s", c.name, embedded[i].code, embedded[i].stdout, embedded[i].stderr)
		}
	}
	s := startServe(t, dd)
	if st, err := os.Stat(s.info.HubFile); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("hub file %s: %v %v, want mode 0600", s.info.HubFile, st, err)
	}
	for i, c := range cases {
		t.Run(c.name+" the same through the hub", func(t *testing.T) {
			r := ferry(t, nil, c.args...)
			e := embedded[i]
			if r.code != e.code || r.stdout != e.stdout || r.stderr != e.stderr {
				t.Fatalf("through the hub: exit %d\n%s\n%s\nembedded: exit %d\n%s\n%s", r.code, r.stdout, r.stderr, e.code, e.stdout, e.stderr)
			}
		})
	}
	s.stop(t)
	if _, err := os.Stat(s.info.HubFile); !os.IsNotExist(err) {
		t.Fatalf("hub file after stop: %v", err)
	}
	if r := ferry(t, nil, cases[0].args...); r.code != 0 || r.stdout != embedded[0].stdout {
		t.Fatalf("embedded again after the owner stopped: exit %d %s", r.code, r.stderr)
	}
}

func TestApprovalsPairingAndRevocation(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	dd := t.TempDir()
	d := "--data-dir=" + dd
	s := startServe(t, dd, "--browser-url", h.Browser.Endpoint())
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	pair := func(t *testing.T, name string) (client.Endpoint, string) {
		t.Helper()
		r := ferry(t, nil, "pair", "--json", d)
		var p pairJSON
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &p) != nil || p.Code == "" || p.Port != s.info.Port {
			t.Fatalf("ferry pair: exit %d %s %s", r.code, r.stdout, r.stderr)
		}
		ep, id, err := client.Pair(ctx, p.Port, p.Code, name)
		if err != nil {
			t.Fatal(err)
		}
		return ep, id
	}
	waitJob := func(t *testing.T, cl *client.Client, id string) hub.Job {
		t.Helper()
		for {
			j, err := cl.GetJob(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if jobEnded(j) {
				return j
			}
			if ctx.Err() != nil {
				t.Fatalf("job %s still %s", id, j.State)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	ep, agentID := pair(t, "test agent")
	agent := client.New(ep)
	prompt := "What does the hub do?"

	t.Run("an agent's job waits for approval and runs once approved", func(t *testing.T) {
		j, err := agent.CreateJob(ctx, hub.JobSpec{Kind: hub.KindAsk, Site: "chatgpt", Prompt: prompt})
		if err != nil {
			t.Fatal(err)
		}
		if j.State != hub.StateAwaitingApproval {
			t.Fatalf("new agent job is %s", j.State)
		}
		time.Sleep(300 * time.Millisecond)
		if j2, _ := agent.GetJob(ctx, j.ID); j2.State != hub.StateAwaitingApproval {
			t.Fatalf("unapproved job moved to %s", j2.State)
		}
		r := ferry(t, nil, "approvals", "list", "--json", d)
		if r.code != 0 || !strings.Contains(r.stdout, j.ID) || !strings.Contains(r.stdout, "test agent") {
			t.Fatalf("approvals list: exit %d %s %s", r.code, r.stdout, r.stderr)
		}
		if r := ferry(t, nil, "approvals", "approve", j.ID, d); r.code != 0 {
			t.Fatalf("approve: exit %d %s", r.code, r.stderr)
		}
		end := waitJob(t, agent, j.ID)
		var det struct{ Run *job.Session }
		if end.Detail != nil {
			det.Run = end.Detail.Run
		}
		if end.State != string(job.StateDone) || det.Run == nil || det.Run.Answer != providertest.NormalAnswer(prompt) || det.Run.Origin != job.OriginAgent {
			t.Fatalf("approved job ended %s %+v error %v", end.State, det.Run, end.Error)
		}
		if r := ferry(t, nil, "approvals", "approve", j.ID, d); r.code != exitOf(errs.HubNotFound) {
			t.Fatalf("approving twice: exit %d %s", r.code, r.stderr)
		}
	})
	t.Run("a rejected job fails with approval_rejected and never runs", func(t *testing.T) {
		j, err := agent.CreateJob(ctx, hub.JobSpec{Kind: hub.KindAsk, Site: "chatgpt", Prompt: "never send this"})
		if err != nil {
			t.Fatal(err)
		}
		if r := ferry(t, nil, "approvals", "reject", j.ID, "--reason", "not now", d); r.code != 0 {
			t.Fatalf("reject: exit %d %s", r.code, r.stderr)
		}
		end := waitJob(t, agent, j.ID)
		if end.State != string(job.StateFailed) || end.Error == nil || end.Error.Code != errs.ApprovalRejected || !strings.Contains(end.Error.Message, "not now") {
			t.Fatalf("rejected job: %s %+v", end.State, end.Error)
		}
		if r := ferry(t, nil, "sessions", "list", "--json", "--query", "never send", d); strings.Contains(r.stdout, "never send this") {
			t.Fatalf("a rejected job left a session: %s", r.stdout)
		}
	})
	t.Run("ferry ask through the owner answers like embedded", func(t *testing.T) {
		r := ferry(t, nil, "ask", "--site", "chatgpt", "--json", "--timeout", "60s", d, "Is this through the hub?")
		var out askJSON
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil || out.Answer != providertest.NormalAnswer("Is this through the hub?") || out.Session == "" {
			t.Fatalf("ask through the hub: exit %d %s %s", r.code, r.stdout, r.stderr)
		}
	})

	ep2, id2 := pair(t, "survivor")
	t.Run("the owner grants a client the user's conversations and takes the grant back", func(t *testing.T) {
		for _, bad := range [][]string{{"clients", "grant", id2, d}, {"clients", "grant", id2, "--existing-conversations", "--revoke", d}, {"clients", "list", "--revoke", d}} {
			if r := ferry(t, nil, bad...); r.code != exitOf(errs.BadInput) {
				t.Fatalf("%v: exit %d %s", bad, r.code, r.stderr)
			}
		}
		var info service.ClientInfo
		r := ferry(t, nil, "clients", "grant", id2, "--existing-conversations", "--json", d)
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &info) != nil || !info.ExistingConversations || info.ID != id2 {
			t.Fatalf("grant: exit %d %s %s", r.code, r.stdout, r.stderr)
		}
		if r := ferry(t, nil, "clients", "list", d); r.code != 0 || !strings.Contains(r.stdout, "EXISTING-CONVERSATIONS") {
			t.Fatalf("clients list: exit %d %s", r.code, r.stdout)
		}
		r = ferry(t, nil, "clients", "grant", id2, "--revoke", d)
		if r.code != 0 || !strings.Contains(r.stdout, "uses only the tabs and conversations its own jobs opened") {
			t.Fatalf("grant --revoke: exit %d %s %s", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("the approvals list says where a job would run", func(t *testing.T) {
		waiting, err := client.New(ep2).CreateJob(ctx, hub.JobSpec{Kind: hub.KindAsk, Site: "chatgpt", Model: "gpt-5", Prompt: "where do I run?"})
		if err != nil || waiting.State != hub.StateAwaitingApproval {
			t.Fatalf("job: %+v %v", waiting, err)
		}
		r := ferry(t, nil, "approvals", "list", d)
		if r.code != 0 || !strings.Contains(r.stdout, "ask chatgpt (model gpt-5) in a new chat") {
			t.Fatalf("approvals list: exit %d %s %s", r.code, r.stdout, r.stderr)
		}
		if r := ferry(t, nil, "approvals", "reject", waiting.ID, d); r.code != 0 {
			t.Fatalf("reject: exit %d %s", r.code, r.stderr)
		}
	})
	t.Run("revocation locks a client out at once", func(t *testing.T) {
		r := ferry(t, nil, "clients", "revoke", agentID, d)
		if r.code != 0 {
			t.Fatalf("revoke: exit %d %s", r.code, r.stderr)
		}
		if _, err := agent.WhoAmI(ctx); !errs.Has(err, errs.HubUnauthorized) {
			t.Fatalf("revoked client's request: %v", err)
		}
		r = ferry(t, nil, "clients", "list", "--json", d)
		if r.code != 0 || !strings.Contains(r.stdout, agentID) || !strings.Contains(r.stdout, id2) || !strings.Contains(r.stdout, "revokedAt") {
			t.Fatalf("clients list: %s %s", r.stdout, r.stderr)
		}
	})
	t.Run("pairings, revocations and waiting jobs survive a restart of the owner", func(t *testing.T) {
		waiting, err := client.New(ep2).CreateJob(ctx, hub.JobSpec{Kind: hub.KindAsk, Site: "chatgpt", Prompt: "wait for me across a restart"})
		if err != nil || waiting.State != hub.StateAwaitingApproval {
			t.Fatalf("job before the restart: %+v %v", waiting, err)
		}
		s.stop(t)
		s2 := startServe(t, dd, "--browser-url", h.Browser.Endpoint())
		r := ferry(t, nil, "approvals", "list", "--json", d)
		if r.code != 0 || !strings.Contains(r.stdout, waiting.ID) || !strings.Contains(r.stdout, "survivor") {
			t.Fatalf("approvals list after the restart: exit %d %s %s", r.code, r.stdout, r.stderr)
		}
		if r := ferry(t, nil, "approvals", "reject", waiting.ID, "--reason", "stale", d); r.code != 0 {
			t.Fatalf("reject after the restart: exit %d %s", r.code, r.stderr)
		}
		ep2.Port = s2.info.Port
		who, err := client.New(ep2).WhoAmI(ctx)
		if err != nil || who.ClientID != id2 {
			t.Fatalf("paired client after restart: %+v %v", who, err)
		}
		ep.Port = s2.info.Port
		if _, err := client.New(ep).WhoAmI(ctx); !errs.Has(err, errs.HubUnauthorized) {
			t.Fatalf("revoked client after restart: %v", err)
		}
		raw, _ := os.ReadFile(filepath.Join(dd, "hub.json"))
		if len(raw) == 0 {
			t.Fatal("no hub file while serving")
		}
	})
	t.Run("owner-only commands fail clearly without an owner", func(t *testing.T) {
		other := t.TempDir()
		r := ferry(t, nil, "approvals", "list", "--data-dir", other)
		if r.code != exitOf(errs.HubNotRunning) || !strings.Contains(r.stderr, "ferry serve") {
			t.Fatalf("approvals without owner: exit %d %s", r.code, r.stderr)
		}
	})
}
