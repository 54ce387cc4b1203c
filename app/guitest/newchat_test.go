//go:build gui

package guitest

import (
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// TestNewChatThenAPlainSendGoesOn walks issue 26's point 2 in the real
// window against the simulator: a send, "New chat" (a second ChatGPT tab,
// both Ferry's), then a plain send. The plain send goes on in the
// conversation on screen, in its tab, instead of stopping at "Several
// tabs of the site are open".
func TestNewChatThenAPlainSendGoesOn(t *testing.T) {
	t.Parallel()
	requireDisplay(t)
	requireFrontendBuilt(t)
	srv, _, _, page := composeOnSim(t, 5*time.Minute)

	// send types prompt, sends it with the Send button and waits for the
	// new run (not the one shown before) to end; it returns the run's
	// job id and its session.
	send := func(t *testing.T, prompt string) (string, map[string]any) {
		t.Helper()
		before := evalStr(t, page, `() => document.querySelector('[data-testid=live-run]')?.dataset.run ?? ''`)
		page.MustElement(`[data-testid=prompt]`).MustSelectAllText().MustInput(prompt)
		page.MustElement(`[data-testid=send]`).MustClick()
		waitEval(t, page, 30*time.Second, "a new run panel", `(before) => {
			const r = document.querySelector('[data-testid=live-run]');
			return !!r && r.dataset.run !== before;
		}`, before)
		states := waitRunEnded(t, page, 1, 90*time.Second)
		id := evalStr(t, page, `() => document.querySelector('[data-testid=live-run]').dataset.run`)
		if states[0] != "done" {
			t.Fatalf("the run %q ended %s: %s", prompt, states[0], page.MustElement(`[data-testid=runs]`).MustText())
		}
		sess, _ := evalJSON(t, page, `(id) => window.go.app.Runs.Get(id)`, id)["session"].(map[string]any)
		if sess == nil {
			t.Fatalf("the run %q has no session", prompt)
		}
		return id, sess
	}
	setNewChat := func(on bool) {
		box := page.MustElement(`[data-testid=compose-newchat]`)
		if box.MustProperty("checked").Bool() != on {
			box.MustClick()
		}
		page.MustWait(`(on) => document.querySelector('[data-testid=compose-newchat]').checked === on`, on)
	}

	_, first := send(t, "How do chain ferries cross a river?")
	setNewChat(true)
	_, fresh := send(t, "Which ferries run at night?")
	if fresh["targetId"] == first["targetId"] {
		t.Fatalf("New chat ran in the first run's tab %v", first["targetId"])
	}
	setNewChat(false)
	_, next := send(t, "And on Sundays?")
	if next["targetId"] != fresh["targetId"] || next["conversationUrl"] != fresh["conversationUrl"] {
		t.Errorf("the plain send ran in tab %v on %v, want the new chat's tab %v on %v",
			next["targetId"], next["conversationUrl"], fresh["targetId"], fresh["conversationUrl"])
	}
	conv := str(fresh["conversationId"])
	if n := srv.ConversationSubmissions(sim.ChatGPT, conv); conv == "" || n != 2 {
		t.Errorf("%d user turns in the new chat's conversation %q, want 2", n, conv)
	}
	if txt := page.MustElement(`[data-testid=runs]`).MustText(); strings.Contains(txt, "Several tabs") {
		t.Errorf("the card says %q", txt)
	}
}
