package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// TestAskFollowUps: `ferry ask --session RUN` continues that run's
// conversation in the tab that shows it, exactly one new user turn there;
// with that tab closed it opens a background tab on the conversation;
// `--conv URL` continues a conversation by its address; the runs form a
// thread that `ferry sessions show` lists; a follow-up in a conversation
// at its maximum length rolls over to a new chat and says so.
func TestAskFollowUps(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	url := h.Browser.Endpoint()
	dataDir := t.TempDir()
	ask := func(t *testing.T, args ...string) askJSON {
		t.Helper()
		r := ferry(t, nil, append([]string{"ask", "--json", "--browser-url", url, "--data-dir", dataDir, "--timeout", "45s"}, args...)...)
		if r.code != 0 {
			t.Fatalf("ferry ask %v: exit %d\nstdout %s\nstderr %s", args, r.code, r.stdout, r.stderr)
		}
		var out askJSON
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
			t.Fatalf("stdout is not one JSON result: %v\n%s", err, r.stdout)
		}
		if want := providertest.NormalAnswer(args[len(args)-1]); out.Answer != want {
			t.Fatalf("answer %q, want %q", out.Answer, want)
		}
		return out
	}

	first := ask(t, "--site", "chatgpt", "First question of a thread")
	conv := first.ConversationID
	if conv == "" || first.Session == "" {
		t.Fatalf("the first run: %+v", first)
	}
	tab := first.Routing.ControlledTabID

	second := ask(t, "--session", first.Session[:len(first.Session)-2], "Second question, a follow-up")
	if second.ConversationID != conv || second.Routing.ControlledTabID != tab || second.Routing.TabWasCreated {
		t.Fatalf("the follow-up ran in conversation %q tab %s (created %v), want %s in %s",
			second.ConversationID, second.Routing.ControlledTabID, second.Routing.TabWasCreated, conv, tab)
	}
	if n := h.Server.ConversationSubmissions(sim.ChatGPT, conv); n != 2 {
		t.Fatalf("%d user turns in the conversation, want 2", n)
	}

	// The tab is closed: the next follow-up opens one on the conversation.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if p, err := h.Browser.Page(ctx, tab); err != nil {
		t.Fatal(err)
	} else if err := p.Close(ctx); err != nil {
		t.Fatal(err)
	}
	third := ask(t, "--session", second.Session, "Third question, its tab closed")
	if third.ConversationID != conv || !third.Routing.TabWasCreated || third.Routing.ControlledTabID == tab {
		t.Fatalf("the follow-up after the tab closed: conversation %q routing %+v, want %s in a new tab", third.ConversationID, third.Routing, conv)
	}
	if n := h.Server.ConversationSubmissions(sim.ChatGPT, conv); n != 3 {
		t.Fatalf("%d user turns in the conversation, want 3", n)
	}

	// --conv continues a conversation by its address.
	convURL := sim.URL(sim.ChatGPT, "/c/"+conv)
	fourth := ask(t, "--conv", convURL, "Fourth question, by the address")
	if fourth.ConversationID != conv || fourth.Routing.ControlledTabID != third.Routing.ControlledTabID {
		t.Fatalf("--conv ran in conversation %q routing %+v, want %s in tab %s", fourth.ConversationID, fourth.Routing, conv, third.Routing.ControlledTabID)
	}

	// A Kimi conversation saved on the host Kimi left (kimi.moonshot.cn,
	// which now redirects) is continued on www.kimi.com.
	kimi := ask(t, "--site", "kimi", "A question for Kimi")
	if kimi.ConversationID == "" {
		t.Fatalf("the Kimi run names no conversation: %+v", kimi)
	}
	again := ask(t, "--conv", "https://kimi.moonshot.cn/chat/"+kimi.ConversationID, "Kimi again, by its old address")
	if again.ConversationID != kimi.ConversationID || h.Server.ConversationSubmissions(sim.Kimi, kimi.ConversationID) != 2 {
		t.Fatalf("--conv on Kimi's old host ran in conversation %q, want %s with both prompts (it holds %d)",
			again.ConversationID, kimi.ConversationID, h.Server.ConversationSubmissions(sim.Kimi, kimi.ConversationID))
	}

	// The thread: the first run and its two follow-ups; the --conv run
	// followed no run of Ferry's.
	show := ferry(t, nil, "sessions", "show", third.Session, "--data-dir", dataDir)
	if show.code != 0 || !strings.Contains(show.stdout, "## Thread (3 runs in this conversation)") ||
		!strings.Contains(show.stdout, "* "+third.Session) || !strings.Contains(show.stdout, "  "+first.Session) || !strings.Contains(show.stdout, "  "+second.Session) {
		t.Fatalf("sessions show of the third run: exit %d\n%s\n%s", show.code, show.stdout, show.stderr)
	}
	raw := ferry(t, nil, "sessions", "show", third.Session, "--json", "--data-dir", dataDir)
	var rec struct {
		Session job.Session `json:"session"`
	}
	if err := json.Unmarshal([]byte(raw.stdout), &rec); err != nil || rec.Session.Parent != second.Session || rec.Session.Thread != first.Session {
		t.Fatalf("the third run's record: parent %q thread %q (%v), want %s and %s\n%s", rec.Session.Parent, rec.Session.Thread, err, second.Session, first.Session, raw.stdout)
	}

	// At its maximum length the follow-up rolls over to a new chat.
	h.Server.SetConversationScenario(sim.ChatGPT, conv, sim.Scenario{Name: sim.ScenarioConversationTooLong})
	rolled := ask(t, "--session", third.Session, "Fifth question, one too many")
	if rolled.ConversationID == "" || rolled.ConversationID == conv || len(rolled.Policies) != 1 || rolled.Policies[0]["kind"] != job.PolicyRollover ||
		!strings.Contains(strings.Join(rolled.Warnings, "\n"), "maximum length") {
		t.Fatalf("the follow-up at the maximum length: conversation %q policies %v warnings %q", rolled.ConversationID, rolled.Policies, rolled.Warnings)
	}

	for _, bad := range [][]string{
		{"--session", first.Session, "--new-chat", "--site", "chatgpt", "both?"},
		{"--session", first.Session, "--conv", convURL, "both?"},
		{"--conv", "https://example.org/c/1", "an address of no site"},
		{"--conv", "not an address", "no address"},
		{"--session", first.Session, "--site", "claude", "another site"},
	} {
		r := ferry(t, nil, append([]string{"ask", "--browser-url", url, "--data-dir", dataDir}, bad...)...)
		if r.code != 2 || !strings.Contains(r.stderr, "bad_input") {
			t.Errorf("ferry ask %v: exit %d, want 2 (bad_input)\n%s", bad, r.code, r.stderr)
		}
	}
}
