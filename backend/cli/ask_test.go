package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/provider/sim/simimage"
	"github.com/ferrydesk/ferry/backend/record"
)

// TestAsk runs the built ferry binary against the simulator: the test
// starts the simulator and a headless Chromium mapped to it, and ferry
// attaches to that browser with --browser-url.
func TestAsk(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	url := h.Browser.Endpoint()
	dataDir := t.TempDir()
	ask := func(t *testing.T, args ...string) result {
		t.Helper()
		return ferry(t, nil, append([]string{"ask", "--site", "chatgpt", "--browser-url", url, "--data-dir", dataDir, "--timeout", "45s"}, args...)...)
	}
	var tabID string
	// load resets the simulator to scenario and loads its page in the tab.
	load := func(t *testing.T, scenario string) {
		t.Helper()
		h.Server.Reset()
		h.Server.SetScenario(sim.ChatGPT, sim.Scenario{Name: scenario})
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		p, err := h.Browser.Page(ctx, tabID)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Navigate(ctx, sim.URL(sim.ChatGPT, "/")); err != nil {
			t.Fatal(err)
		}
	}

	// closeOthers closes every tab but the test's own, which runs that
	// open their own new chat leave behind.
	closeOthers := func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		targets, err := h.Browser.Targets(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, tg := range targets {
			if tg.Type != "page" || tg.ID == tabID {
				continue
			}
			if p, err := h.Browser.Page(ctx, tg.ID); err == nil {
				_ = p.Close(ctx)
			}
		}
	}
	t.Run("a prompt is answered in a new tab with proof in JSON", func(t *testing.T) {
		prompt := "What does Ferry do?"
		r := ask(t, "--json", prompt)
		if r.code != 0 {
			t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
		}
		var res provider.Result
		if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
			t.Fatalf("stdout is not one JSON result: %v\n%s", err, r.stdout)
		}
		if res.Answer != providertest.NormalAnswer(prompt) {
			t.Fatalf("answer %q", res.Answer)
		}
		if !res.Routing.TabWasCreated || res.Routing.ControlledTabID == "" || res.Routing.RequestedTabID != "" {
			t.Fatalf("routing %+v, want a created tab", res.Routing)
		}
		if res.Transport.Source != "stream" || res.Model.Slug != "gpt-5-6-thinking" || res.Content.Source != "conversation_api" {
			t.Fatalf("transport %+v model %+v content %+v", res.Transport, res.Model, res.Content)
		}
		if n := h.Server.SubmissionCount(sim.ChatGPT); n != 1 {
			t.Fatalf("%d submissions, want 1", n)
		}
		tabID = res.Routing.ControlledTabID
		// The new tab opened in the background: Chromium acknowledges
		// trusted mouse input in a hidden tab only after ≈5 s, which is
		// what this run measured. Closing the other tabs makes it the
		// visible one, so the later runs measure Ferry, not that delay.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		targets, err := h.Browser.Targets(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, tg := range targets {
			if tg.ID == tabID {
				continue
			}
			if p, err := h.Browser.Page(ctx, tg.ID); err == nil {
				_ = p.Close(ctx)
			}
		}
		t.Logf("ferry ask (attach, new tab) took %s; timings %+v", r.took, res.Timings)
	})

	t.Run("the open tab is reused and --tab pins it, with the answer as text", func(t *testing.T) {
		if tabID == "" {
			t.Fatal("no tab from the first run")
		}
		prompt := "Second question"
		r := ask(t, "--tab", tabID, prompt)
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		if r.stdout != providertest.NormalAnswer(prompt)+"\n" {
			t.Fatalf("stdout %q", r.stdout)
		}
		r = ask(t, "--json", "Third question")
		var res provider.Result
		if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || r.code != 0 {
			t.Fatalf("exit %d, %v: %s", r.code, err, r.stdout)
		}
		if res.Routing.TabWasCreated || res.Routing.ControlledTabID != tabID {
			t.Fatalf("routing %+v, want the existing tab %s", res.Routing, tabID)
		}
		if n := h.Server.SubmissionCount(sim.ChatGPT); n != 3 {
			t.Fatalf("%d submissions after three asks, want 3", n)
		}
	})

	t.Run("a prompt is read from stdin with -", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, binary, "ask", "--site", "chatgpt", "--browser-url", url, "--data-dir", dataDir, "-")
		cmd.Env = hermeticEnv(t)
		cmd.Stdin = strings.NewReader("From stdin\n")
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("%v: %s", err, errb.String())
		}
		if out.String() != providertest.NormalAnswer("From stdin")+"\n" {
			t.Fatalf("stdout %q", out.String())
		}
	})

	t.Run("--model and --effort are chosen, read back and proven; a used-up tier sends nothing", func(t *testing.T) {
		for _, layout := range []string{"", sim.ScenarioPickerIntelligence, sim.ScenarioPickerPower} {
			load(t, layout)
			r := ask(t, "--json", "--tab", tabID, "--model", "gpt-5.5", "--effort", "pro", "Which model on "+layout+"?")
			if r.code != 0 {
				t.Fatalf("%s: exit %d\nstdout %s\nstderr %s", layout, r.code, r.stdout, r.stderr)
			}
			var res provider.Result
			if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
				t.Fatalf("stdout is not one JSON result: %v\n%s", err, r.stdout)
			}
			if res.Model.Selected != "GPT-5.5 · Pro" || res.Model.Slug != "gpt-5-5-pro" || !res.Model.Verified {
				t.Fatalf("%s: model proof %+v, want GPT-5.5 · Pro read back and gpt-5-5-pro verified", layout, res.Model)
			}
		}
		load(t, sim.ScenarioTierExhausted)
		defer h.Server.SetScenario(sim.ChatGPT, sim.Scenario{})
		r := ask(t, "--json", "--tab", tabID, "--effort", "pro", "Must not be sent")
		if r.code == 0 || !strings.Contains(r.stdout+r.stderr, string(errs.UsageCap)) {
			t.Fatalf("exit %d\nstdout %s\nstderr %s; want usage_cap", r.code, r.stdout, r.stderr)
		}
		if n := h.Server.SubmissionCount(sim.ChatGPT); n != 0 {
			t.Fatalf("%d submissions with the tier used up, want none", n)
		}
	})

	t.Run("--tool is switched on and proven by its pill and the request; a menu without it sends nothing", func(t *testing.T) {
		load(t, "")
		prompt := "What is new at the harbour?"
		r := ask(t, "--json", "--tab", tabID, "--tool", "web-search", prompt)
		if r.code != 0 {
			t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
		}
		var res provider.Result
		if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
			t.Fatalf("stdout is not one JSON result: %v\n%s", err, r.stdout)
		}
		want := record.ToolProof{Requested: "web-search", Selected: "Web search", Request: "search", Verified: true}
		if res.Tool == nil || *res.Tool != want {
			t.Fatalf("tool proof %+v, want %+v", res.Tool, want)
		}
		subs := h.Server.Submissions(sim.ChatGPT)
		if len(subs) != 1 || subs[0].Prompt != prompt || !slices.Equal(subs[0].Tools, []string{"search"}) {
			t.Fatalf("submissions %+v, want the prompt alone, sent once with the search hint", subs)
		}
		load(t, sim.ScenarioToolRowMissing)
		defer h.Server.SetScenario(sim.ChatGPT, sim.Scenario{})
		r = ask(t, "--json", "--tab", tabID, "--tool", "deep-research", "Must not be sent")
		var out struct {
			Error errs.Envelope `json:"error"`
		}
		if r.code != 3 || json.Unmarshal([]byte(r.stdout), &out) != nil || out.Error.Code != errs.ToolUnavailable {
			t.Fatalf("exit %d\nstdout %s\nstderr %s; want 3 and tool_unavailable", r.code, r.stdout, r.stderr)
		}
		if n := h.Server.SubmissionCount(sim.ChatGPT); n != 0 {
			t.Fatalf("%d submissions without the tool's row, want none", n)
		}
	})

	t.Run("--tool image saves the generated image byte-exact beside its provenance; a refused image exits 5 with the site's words", func(t *testing.T) {
		load(t, "")
		r := ask(t, "--tab", tabID, "--tool", "image", "Draw the harbour at dawn")
		if r.code != 0 || !strings.HasPrefix(r.stdout, "image: ") {
			t.Fatalf("exit %d\nstdout %s\nstderr %s; want the image's line", r.code, r.stdout, r.stderr)
		}
		path, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(r.stdout), "image: "), " (")
		if filepath.Dir(path) != filepath.Join(dataDir, "artifacts") || !strings.Contains(r.stdout, "(image/png, 1024×1024, ") {
			t.Fatalf("stdout %q, want a png in %s", r.stdout, filepath.Join(dataDir, "artifacts"))
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var prov struct{ FileID, SHA256 string }
		side, _ := os.ReadFile(path + ".provenance.json")
		if err := json.Unmarshal(side, &prov); err != nil || prov.FileID == "" {
			t.Fatalf("provenance %s (%v)", side, err)
		}
		if sum := sha256.Sum256(got); !bytes.Equal(got, simimage.PNG(prov.FileID, 1024, 1024)) || hex.EncodeToString(sum[:]) != prov.SHA256 {
			t.Fatalf("%s is not the image the site served for %s", path, prov.FileID)
		}
		subs := h.Server.Submissions(sim.ChatGPT)
		if len(subs) != 1 || !slices.Equal(subs[0].Tools, []string{"picture_v2"}) {
			t.Fatalf("submissions %+v, want one with picture_v2", subs)
		}
		load(t, "")
		r = ask(t, "--json", "--tab", tabID, "--tool", "image", "Draw what may not be drawn "+sim.Directive("image_refused"))
		var out struct {
			Error errs.Envelope `json:"error"`
		}
		if r.code != 5 || json.Unmarshal([]byte(r.stdout), &out) != nil || out.Error.Code != errs.ImageRefused || !strings.Contains(out.Error.Evidence["site_message"], "content policy") {
			t.Fatalf("exit %d\nstdout %s\nstderr %s; want 5 and image_refused with the site's words", r.code, r.stdout, r.stderr)
		}
		if n := h.Server.SubmissionCount(sim.ChatGPT); n != 1 {
			t.Fatalf("%d submissions, want the prompt sent once", n)
		}
	})

	t.Run("--temporary asks in the site's temporary chat, forgets its cookie, cannot be followed up; --archive-after archives a done run's conversation", func(t *testing.T) {
		load(t, "")
		var askOut struct {
			Session string `json:"session"`
			provider.Result
		}
		r := ask(t, "--json", "--temporary", "Keep this off the record")
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &askOut) != nil || !askOut.Temporary || !slices.ContainsFunc(askOut.Warnings, func(w string) bool { return strings.Contains(w, "temporary chat") }) {
			t.Fatalf("exit %d\nstdout %s\nstderr %s; want a temporary run that says so", r.code, r.stdout, r.stderr)
		}
		subs := h.Server.Submissions(sim.ChatGPT)
		if len(subs) != 1 || !subs[0].Temporary || askOut.Answer != providertest.NormalAnswer("Keep this off the record") {
			t.Fatalf("submissions %+v, answer %q: want one to a temporary chat, answered", subs, askOut.Answer)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		p, err := h.Browser.Page(ctx, askOut.Routing.ControlledTabID)
		if err != nil {
			t.Fatal(err)
		}
		var cookies proto.NetworkGetCookiesResult
		if err := p.Exec(ctx, "Network.getCookies", proto.NetworkGetCookies{Urls: []string{"https://chatgpt.com/"}}, &cookies); err != nil {
			t.Fatal(err)
		}
		for _, c := range cookies.Cookies {
			if strings.HasPrefix(c.Name, "conv_key_") {
				t.Fatalf("the temporary chat's cookie %s is still there", c.Name)
			}
		}
		if r := ferry(t, nil, "ask", "--browser-url", url, "--data-dir", dataDir, "--session", askOut.Session, "and then?"); r.code != 2 || !strings.Contains(r.stderr, "temporary chat") {
			t.Fatalf("a follow-up of the temporary run: exit %d stderr %s; want 2 saying it cannot be continued", r.code, r.stderr)
		}
		if r := ask(t, "--temporary", "--archive-after", "Both?"); r.code != 2 {
			t.Fatalf("--temporary with --archive-after: exit %d stderr %s; want 2", r.code, r.stderr)
		}
		// The temporary chat's tab goes: the next asks find one tab of the
		// site, as before.
		closeOthers(t)

		load(t, "")
		r = ask(t, "--json", "--tab", tabID, "--archive-after", "Then put it away")
		askOut.Result = provider.Result{}
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &askOut) != nil || !askOut.Archived || askOut.Temporary {
			t.Fatalf("exit %d\nstdout %s\nstderr %s; want an archived run", r.code, r.stdout, r.stderr)
		}
		req, _ := http.NewRequestWithContext(ctx, "GET", sim.URL(sim.ChatGPT, "/backend-api/conversation/"+askOut.ConversationID), nil)
		req.Header.Set("authorization", "Bearer "+h.Server.AccessToken())
		req.AddCookie(h.Server.SessionCookie(sim.ChatGPT))
		resp, err := h.Server.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var conv struct {
			IsArchived bool `json:"is_archived"`
		}
		err = json.NewDecoder(resp.Body).Decode(&conv)
		resp.Body.Close()
		if err != nil || !conv.IsArchived {
			t.Fatalf("the site's conversation is_archived=%v (%v), want true", conv.IsArchived, err)
		}
	})

	t.Run("--project by name or address and --gpt by address open the new chat there, proven by its address; an unknown or ambiguous name sends nothing", func(t *testing.T) {
		defer closeOthers(t)
		cases := []struct {
			args          []string
			gizmo, prefix string
			name          string
		}{
			{[]string{"--project", "harbour NOTES"}, "g-p-68a0c2f1d3e44b7a9c55e0f1a2b3c4d5", "/g/g-p-68a0c2f1d3e44b7a9c55e0f1a2b3c4d5-harbour-notes/c/", "Harbour notes"},
			{[]string{"--project", "https://chatgpt.com/g/g-p-7b11aa09e2c84f6d8e3a5c7b9d1f0e2a-ferry-research/project"}, "g-p-7b11aa09e2c84f6d8e3a5c7b9d1f0e2a", "/g/g-p-7b11aa09e2c84f6d8e3a5c7b9d1f0e2a-ferry-research/c/", ""},
			{[]string{"--gpt", "https://chatgpt.com/g/g-Xy12AbCd3-harbour-pilot"}, "g-Xy12AbCd3", "/g/g-Xy12AbCd3-harbour-pilot/c/", ""},
		}
		for _, c := range cases {
			load(t, "")
			var out struct {
				Session string `json:"session"`
				provider.Result
			}
			r := ask(t, append([]string{"--json"}, append(c.args, "Where does this go?")...)...)
			if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil || out.Place == nil || !out.Place.Filed || out.Place.Name != c.name {
				t.Fatalf("%v: exit %d\nstdout %s\nstderr %s; want a run filed in its place", c.args, r.code, r.stdout, r.stderr)
			}
			subs := h.Server.Submissions(sim.ChatGPT)
			if len(subs) != 1 || subs[0].Gizmo != c.gizmo || !strings.Contains(out.Routing.URL, c.prefix) {
				t.Fatalf("%v: submissions %+v, conversation %q; want one to %s under %s", c.args, subs, out.Routing.URL, c.gizmo, c.prefix)
			}
		}
		r := ferry(t, nil, "projects", "--json", "--browser-url", url, "--data-dir", dataDir)
		var projects struct {
			Projects []struct{ Name, Address string } `json:"projects"`
		}
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &projects) != nil || len(projects.Projects) != 4 || projects.Projects[0].Name != "Harbour notes" ||
			projects.Projects[0].Address != "https://chatgpt.com/g/g-p-68a0c2f1d3e44b7a9c55e0f1a2b3c4d5-harbour-notes/project" {
			t.Fatalf("ferry projects: exit %d\nstdout %s\nstderr %s; want the four projects with their addresses", r.code, r.stdout, r.stderr)
		}
		load(t, "")
		for _, bad := range []struct{ name, want string }{{"Lighthouse", "Harbour notes, Ferry research"}, {"SHARED", "address"}} {
			if r := ask(t, "--project", bad.name, "Not sent"); r.code != 2 || !strings.Contains(r.stderr, bad.want) {
				t.Fatalf("--project %q: exit %d stderr %s; want 2 naming %q", bad.name, r.code, r.stderr, bad.want)
			}
		}
		if n := h.Server.SubmissionCount(sim.ChatGPT); n != 0 {
			t.Fatalf("%d submissions for unknown and ambiguous projects, want none", n)
		}
	})

	blocked := []struct {
		name     string
		scenario string
		code     errs.Code
	}{
		{"a Cloudflare challenge exits 3 with its envelope and sends nothing", sim.ScenarioCloudflare, errs.CloudflareChallenge},
		{"a logged-out site exits 3 with login_required and sends nothing", sim.ScenarioLoggedOut, errs.LoginRequired},
	}
	for _, tc := range blocked {
		t.Run(tc.name, func(t *testing.T) {
			load(t, tc.scenario)
			r := ask(t, "--json", "blocked?")
			if r.code != 3 {
				t.Fatalf("exit %d, want 3\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
			}
			var out struct {
				Error errs.Envelope `json:"error"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || out.Error.Code != tc.code {
				t.Fatalf("stdout %s (%v), want error code %s", r.stdout, err, tc.code)
			}
			if n := h.Server.SubmissionCount(sim.ChatGPT); n != 0 {
				t.Fatalf("%d submissions, want 0", n)
			}
			r = ask(t, "blocked?")
			if r.code != 3 || !strings.Contains(r.stderr, string(tc.code)) || r.stdout != "" {
				t.Fatalf("text mode: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
			}
		})
	}

	t.Run("bad input exits 2 before the browser is touched", func(t *testing.T) {
		for _, args := range [][]string{
			{"ask", "hello"},
			{"ask", "--site", "chatgpt"},
			{"ask", "--site", "nosuchsite", "hello"},
			{"ask", "--site", "chatgpt", "--prompt", "a", "b"},
			{"ask", "--tool", "web-search", "hello"},
		} {
			r := ferry(t, nil, append(args, "--data-dir", dataDir)...)
			if r.code != 2 || r.stderr == "" {
				t.Fatalf("ferry %v: exit %d stderr %q, want 2 with a message", args, r.code, r.stderr)
			}
		}
	})
}

// TestAskIsJournaled: `ferry ask` records its run as a session that the
// sessions commands show, and a ferry killed after the send leaves a run
// that `ferry reattach` collects without sending the prompt again.
func TestAskIsJournaled(t *testing.T) {
	t.Parallel()
	// A slower stream than the default, so that the kill lands while the
	// answer is still streaming.
	h, err := providertest.Start(sim.WithPace(6, 60*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	url := h.Browser.Endpoint()
	dataDir := t.TempDir()
	d := "--data-dir=" + dataDir
	type listed struct {
		ID     string    `json:"id"`
		State  job.State `json:"state"`
		Prompt string    `json:"prompt"`
		Answer string    `json:"answer"`
		Origin string    `json:"origin"`
	}
	list := func(t *testing.T, query string) []listed {
		t.Helper()
		r := ferry(t, nil, "sessions", "list", "--json", "--query", query, d)
		var out struct {
			Sessions []listed `json:"sessions"`
		}
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil {
			t.Fatalf("sessions list: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		return out.Sessions
	}
	count := func(prompt string) int {
		n := 0
		for _, s := range h.Server.Submissions(sim.ChatGPT) {
			if strings.TrimSpace(s.Prompt) == prompt {
				n++
			}
		}
		return n
	}

	var id string
	t.Run("an answered run is in the history with its answer, proof and journal", func(t *testing.T) {
		prompt := "Recorded question about lighthouses"
		r := ferry(t, nil, "ask", "--site", "chatgpt", "--browser-url", url, d, "--timeout", "45s", "--json", prompt)
		if r.code != 0 {
			t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
		}
		var out struct {
			Session string `json:"session"`
			provider.Result
		}
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || out.Session == "" {
			t.Fatalf("stdout has no session id (%v):\n%s", err, r.stdout)
		}
		if out.Answer != providertest.NormalAnswer(prompt) || out.Content.Source != "conversation_api" || out.Transport.CompleteReason == "" {
			t.Fatalf("result %+v", out.Result)
		}
		id = out.Session
		got := list(t, "lighthouses")
		if len(got) != 1 || got[0].ID != id || got[0].State != job.StateDone || got[0].Answer != out.Answer || got[0].Origin != "cli" {
			t.Fatalf("sessions list shows %+v, want run %s done with its answer", got, id)
		}
		r = ferry(t, nil, "sessions", "show", id, d)
		if r.code != 0 || !strings.Contains(r.stdout, prompt) || !strings.Contains(r.stdout, "That is the whole answer.") || !strings.Contains(r.stdout, "## Journal") {
			t.Fatalf("sessions show: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		r = ferry(t, nil, "sessions", "show", "--json", id, d)
		var shown struct {
			Session job.Session `json:"session"`
			Journal []job.Entry `json:"journal"`
		}
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &shown) != nil {
			t.Fatalf("sessions show --json: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		var states []string
		fingerprintBeforeClick := false
		for _, e := range shown.Journal {
			states = append(states, string(e.State))
			if e.State == job.StateSubmitting && e.Fingerprint != nil && e.Fingerprint.Hash != "" && !e.Fingerprint.Confirmed {
				fingerprintBeforeClick = true
			}
		}
		want := "resolved preflighted composed submitting submitted streaming completed extracted done"
		if strings.Join(states, " ") != want || !fingerprintBeforeClick {
			t.Fatalf("journal %v (fingerprint journaled unconfirmed at submitting: %v), want %s", states, fingerprintBeforeClick, want)
		}
		s := shown.Session
		if !strings.HasPrefix(s.ConversationURL, "https://chatgpt.com/c/") || s.Model.Slug == "" || s.Timings == nil || len(s.Receipts) < 3 {
			t.Fatalf("record lacks its proof: url %q model %+v timings %v receipts %d", s.ConversationURL, s.Model, s.Timings, len(s.Receipts))
		}
	})

	t.Run("a ferry killed after the send is reattached and answered without a second send", func(t *testing.T) {
		if id == "" {
			t.Fatal("no run from the first case")
		}
		prompt := "Killed question about tides"
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, binary, "ask", "--site", "chatgpt", "--browser-url", url, d, "--timeout", "45s", prompt)
		cmd.Env = hermeticEnv(t)
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill it as soon as the simulator has the prompt: the click has
		// happened, the answer is streaming.
		for count(prompt) == 0 {
			if ctx.Err() != nil {
				_ = cmd.Process.Kill()
				t.Fatalf("the prompt never reached the simulator: %s", errb.String())
			}
			time.Sleep(10 * time.Millisecond)
		}
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		got := list(t, "tides")
		if len(got) != 1 || !got[0].State.Active() || got[0].Answer != "" {
			t.Fatalf("after the kill the history shows %+v, want one active run without an answer", got)
		}
		killedAt := got[0].State
		r := ferry(t, nil, "reattach", "--session", got[0].ID, "--browser-url", url, d, "--timeout", "45s")
		if r.code != 0 {
			t.Fatalf("reattach from %s: exit %d\nstdout %s\nstderr %s", killedAt, r.code, r.stdout, r.stderr)
		}
		if r.stdout != providertest.NormalAnswer(prompt)+"\n" {
			t.Fatalf("reattach from %s printed %q, want the answer to the prompt", killedAt, r.stdout)
		}
		if !strings.Contains(r.stderr, "reattach:") {
			t.Fatalf("reattach did not say what it found: %q", r.stderr)
		}
		if n := count(prompt); n != 1 {
			t.Fatalf("the simulator saw %d submissions of the prompt, want exactly 1", n)
		}
		got = list(t, "tides")
		if len(got) != 1 || got[0].State != job.StateDone || got[0].Answer != providertest.NormalAnswer(prompt) {
			t.Fatalf("after reattach the history shows %+v", got)
		}
		t.Logf("killed at %s; reattach took %s: %s", killedAt, r.took, strings.TrimSpace(r.stderr))
	})
}
