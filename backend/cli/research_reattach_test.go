package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/provider/sim/simreport"
	"github.com/ferrydesk/ferry/backend/record"
)

// TestADeepResearchInterruptedTwiceEndsWithItsWholeReportSentOnce: a
// deep research asked with --confirm-plan loses Ferry (SIGKILL) while the
// site still writes the plan: the run is journaled sent, with its tool,
// its confirm-plan and a deep research's 45-minute limit. The plan is
// written with nobody watching and waits for its Start. A reattach finds
// the browser the ask left, starts the plan as the run asked and follows
// the research, and loses that browser (SIGKILL of its process group)
// mid-research: it exits browser_disconnected. The research completes with
// no browser; a second reattach launches Ferry's browser again, reopens the
// conversation and reads the finished report. The prompt reached the site
// once, the report is the site's byte for byte, saved once as the run's
// report artifact, and History finds the run by its words.
func TestADeepResearchInterruptedTwiceEndsWithItsWholeReportSentOnce(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv := sim.New()
	if err := srv.Start(ctx, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dataDir := t.TempDir()
	d := "--data-dir=" + dataDir
	launch := []string{"--headless", "--chromium", providertest.ChromiumBin}
	for _, f := range srv.ChromiumFlags() {
		launch = append(launch, "--browser-arg="+f)
	}
	profile := filepath.Join(dataDir, "browser-profile")
	t.Cleanup(func() { killChromium(profile) })
	prompt := "Research the estuary ferry crossings " +
		sim.Directive("research_plan_waits", "plan_hold", "dr-plan", "research_hold", "dr-research", "research", "1s")

	// The ask, killed while the site writes the plan.
	ask := startFerry(t, ctx, append(append([]string{}, launch...), "ask", "--site", "chatgpt", d, "--tool", "deep-research", "--confirm-plan", "--json", prompt)...)
	conv := journaledMatch(t, ctx, dataDir, regexp.MustCompile(`"conversationUrl":"https://chatgpt.com/c/([0-9a-f-]{36})"`))
	waitResearch(t, ctx, srv, conv, "planning")
	if err := ask.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	ask.wait(t)
	r := ferry(t, nil, "sessions", "list", "--json", d)
	var list struct {
		Sessions []struct {
			ID string `json:"id"`
		} `json:"sessions"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &list) != nil || len(list.Sessions) != 1 {
		t.Fatalf("sessions list: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	id := list.Sessions[0].ID
	s := showSession(t, id, d)
	if !s.State.Active() || !s.State.Sent() || s.ToolRequested != "deep-research" || s.Tool == nil || !s.ConfirmPlan {
		t.Fatalf("after the kill the run is %s, tool %q (%+v), confirm-plan %v; want a sent deep research that journaled its confirm-plan", s.State, s.ToolRequested, s.Tool, s.ConfirmPlan)
	}
	// No --timeout: a deep research's own limit, not an ask's.
	if limit := s.Deadline.Sub(s.Created); limit < 44*time.Minute || limit > 46*time.Minute {
		t.Fatalf("the run's limit is %s, want a deep research's 45 minutes", limit)
	}

	// The plan is written with no Ferry watching; it waits for its Start.
	srv.Release("dr-plan")
	waitResearchPlan(t, ctx, srv, conv)

	// The first reattach starts the plan and follows the research; its
	// browser is killed while the research runs.
	re := startFerry(t, ctx, append(append([]string{}, launch...), "reattach", "--session", id, d, "--json")...)
	waitResearch(t, ctx, srv, conv, "running", re)
	chromium := chromiumOf(t, profile)
	if err := syscall.Kill(-chromium, syscall.SIGKILL); err != nil {
		t.Fatalf("kill chromium's process group %d: %v", chromium, err)
	}
	out, errb := re.wait(t)
	if code := re.cmd.ProcessState.ExitCode(); code != exitOf(errs.BrowserDisconnected) {
		t.Fatalf("reattach: exit %d, want %d (browser_disconnected)\nstdout %s\nstderr %s", code, exitOf(errs.BrowserDisconnected), out, errb)
	}
	// The research completes with Ferry down.
	srv.Release("dr-research")
	waitResearch(t, ctx, srv, conv, "completed")

	r = ferry(t, nil, append(append([]string{}, launch...), "reattach", "--session", id, d)...)
	_, report := simreport.Report(prompt)
	if r.code != 0 || r.stdout != report+"\n" {
		t.Fatalf("reattach: exit %d, stdout %q, stderr %s; want the whole report", r.code, r.stdout, r.stderr)
	}
	subs := srv.Submissions(sim.ChatGPT)
	if len(subs) != 1 {
		t.Fatalf("the site received %d prompts, want exactly 1", len(subs))
	}
	s = showSession(t, id, d)
	var reports []record.Artifact
	for _, a := range s.Artifacts {
		if a.Kind == record.ArtifactReport {
			reports = append(reports, a)
		}
	}
	if s.State != job.StateDone || s.Answer != report || len(reports) != 1 {
		t.Fatalf("the run ended %s with answer %q and reports %+v; want done with the report, saved once", s.State, s.Answer, reports)
	}
	if b, err := os.ReadFile(reports[0].Path); err != nil || string(b) != report {
		t.Fatalf("the saved report %s holds %q (%v), want the site's", reports[0].Path, b, err)
	}
	// The report is the run's answer: History finds the run by its words.
	if r := ferry(t, nil, "sessions", "list", "--json", "--query", "nineteen sources were read", d); r.code != 0 || !strings.Contains(r.stdout, `"id": "`+id+`"`) {
		t.Fatalf("History's search for the report's words: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	t.Logf("reattached twice; the last reattach took %s: %s", r.took, strings.TrimSpace(r.stderr))
}

// running is a ferry process the test stops itself.
type running struct {
	cmd       *exec.Cmd
	out, errb bytes.Buffer
}

// startFerry starts ferry with args, for a test that kills it or the
// browser it drives.
func startFerry(t *testing.T, ctx context.Context, args ...string) *running {
	t.Helper()
	p := &running{cmd: exec.CommandContext(ctx, binary, args...)}
	p.cmd.Env = hermeticEnv(t)
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.errb
	p.cmd.WaitDelay = 10 * time.Second
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			_ = p.cmd.Process.Kill()
			_ = p.cmd.Wait()
		}
	})
	return p
}

// wait waits for p to end and returns what it printed.
func (p *running) wait(t *testing.T) (stdout, stderr string) {
	t.Helper()
	_ = p.cmd.Wait()
	return p.out.String(), p.errb.String()
}

// researchState is the widget state of conversation conv's research, as
// the site's backend gives it to anyone holding the account's token.
func researchState(ctx context.Context, srv *sim.Server, conv string) (status string, planned bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://chatgpt.com/backend-api/conversation/"+conv, nil)
	if err != nil {
		return "", false, err
	}
	req.Header.Set("Authorization", "Bearer "+srv.AccessToken())
	resp, err := srv.Client().Do(req)
	if err != nil {
		return "", false, err
	}
	defer resp.Body.Close()
	var c struct {
		Mapping map[string]struct {
			Message *struct {
				Metadata struct {
					SDK struct {
						WidgetState string `json:"widget_state"`
					} `json:"chatgpt_sdk"`
				} `json:"metadata"`
			} `json:"message"`
		} `json:"mapping"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
		return "", false, err
	}
	for _, n := range c.Mapping {
		if n.Message == nil || n.Message.Metadata.SDK.WidgetState == "" {
			continue
		}
		var st struct {
			Status string   `json:"status"`
			Plan   []string `json:"plan"`
		}
		if err := json.Unmarshal([]byte(n.Message.Metadata.SDK.WidgetState), &st); err != nil {
			return "", false, err
		}
		return st.Status, len(st.Plan) > 0, nil
	}
	return "", false, nil
}

// waitResearch waits until conversation conv's research is in status.
func waitResearch(t *testing.T, ctx context.Context, srv *sim.Server, conv, status string, watching ...*running) {
	t.Helper()
	waitResearchFor(t, ctx, srv, conv, status, func(got string, _ bool) bool { return got == status }, watching...)
}

// waitResearchPlan waits until conversation conv's research shows its plan.
func waitResearchPlan(t *testing.T, ctx context.Context, srv *sim.Server, conv string) {
	t.Helper()
	waitResearchFor(t, ctx, srv, conv, "planned", func(got string, planned bool) bool { return got == "planning" && planned })
}

func waitResearchFor(t *testing.T, ctx context.Context, srv *sim.Server, conv, what string, ok func(string, bool) bool, watching ...*running) {
	t.Helper()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	last := ""
	for {
		got, planned, err := researchState(ctx, srv, conv)
		if err == nil && ok(got, planned) {
			return
		}
		last = got
		select {
		case <-ctx.Done():
			for _, p := range watching {
				_ = p.cmd.Process.Kill()
				out, errb := p.wait(t)
				t.Logf("%v printed:\n%s%s", p.cmd.Args[len(p.cmd.Args)-3:], out, errb)
			}
			t.Fatalf("the research of %s never reached %s (last %q, %v)", conv, what, last, err)
		case <-tick.C:
		}
	}
}

// killChromium ends the Chromium holding profile, if one still does.
func killChromium(profile string) {
	if pid, err := lockHolder(profile); err == nil {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}
