//go:build gui

package guitest

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// TestHistoryRetrySendsAgainOnlyWhatTheSiteNeverGot (issue 26, point 6):
// a run that failed before its send (logged out) offers Retry in History,
// which sends it once as a new run shown in Compose's live card; a run
// whose prompt reached the site (it failed while answering) offers Retry
// too, but sends nothing until the user picks "Send again", having been
// told the site already has the prompt.
func TestHistoryRetrySendsAgainOnlyWhatTheSiteNeverGot(t *testing.T) {
	t.Parallel()
	requireDisplay(t)
	requireFrontendBuilt(t)
	shots := t.TempDir()
	srv, _, _, page := composeOnSim(t, 5*time.Minute)
	ctx := page.GetContext()

	// send types prompt, sends it and waits for its run to end; it returns
	// the run's job id and session id.
	send := func(t *testing.T, prompt string) (string, string) {
		t.Helper()
		before := evalStr(t, page, `() => document.querySelector('[data-testid=live-run]')?.dataset.run ?? ''`)
		page.MustElement(`[data-testid=prompt]`).MustSelectAllText().MustInput(prompt)
		page.MustElement(`[data-testid=send]`).MustClick()
		waitEval(t, page, 30*time.Second, "a new run panel", `(before) => {
			const r = document.querySelector('[data-testid=live-run]');
			return !!r && r.dataset.run !== before;
		}`, before)
		waitRunEnded(t, page, 1, 90*time.Second)
		id := evalStr(t, page, `() => document.querySelector('[data-testid=live-run]').dataset.run`)
		return id, evalStr(t, page, `(id) => window.go.app.Runs.Get(id).then(r => r.session?.id ?? '')`, id)
	}
	// retryInHistory opens run session in History and presses its Retry.
	retryInHistory := func(t *testing.T, session string) {
		t.Helper()
		page.MustElement(`[role=tab][data-view=history]`).MustClick()
		waitTitle(t, page, "History")
		row := `[data-testid=history-list] [role=option][data-id="` + session + `"]`
		waitEval(t, page, 20*time.Second, "the run listed", `(s) => !!document.querySelector(s)`, row)
		page.MustElement(row).MustClick()
		waitEval(t, page, 20*time.Second, "the run's detail with Retry", `(s) => document.querySelector('[data-testid=history-detail] code')?.textContent === s &&
			!!document.querySelector('[data-testid=history-retry]')`, session)
		page.MustElement(`[data-testid=history-retry]`).MustClick()
	}
	// newRunShown waits for Compose to show a run other than old, ended,
	// and returns its job id and state.
	newRunShown := func(t *testing.T, old string) (string, string) {
		t.Helper()
		waitTitle(t, page, "Compose")
		waitEval(t, page, 90*time.Second, "the new run ended in Compose's card", `(old) => {
			const r = document.querySelector('[data-testid=live-run]');
			return !!r && r.dataset.run !== old && r.dataset.ended === 'true' && !['starting', 'streaming'].includes(r.dataset.state);
		}`, old)
		return evalStr(t, page, `() => document.querySelector('[data-testid=live-run]').dataset.run`),
			evalStr(t, page, `() => document.querySelector('[data-testid=live-run]').dataset.state`)
	}

	t.Run("a run that failed before its send is sent once more from History", func(t *testing.T) {
		srv.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioLoggedOut})
		const prompt = "When does the night ferry leave the harbour?"
		id, session := send(t, prompt)
		if code := evalStr(t, page, `() => document.querySelector('[data-testid=live-run] [data-testid=run-problem]')?.dataset.code ?? ''`); code != "login_required" {
			t.Fatalf("the run ended with %q, want login_required", code)
		}
		if n := srv.SubmissionCount(sim.ChatGPT); n != 0 {
			t.Fatalf("%d sends reached ChatGPT while logged out", n)
		}
		// The user logs in, in the run's tab.
		st := evalJSON(t, page, `() => window.go.app.Tabs.Browser()`)
		o := dialOutside(t, ctx, str(st["endpoint"]))
		tab := evalStr(t, page, `(id) => window.go.app.Runs.Get(id).then(r => r.session?.targetId ?? '')`, id)
		if ok := o.eval(t, ctx, tab, `fetch('/auth/login', {method: 'POST', credentials: 'include'}).then(r => String(r.ok))`); ok != "true" {
			t.Fatalf("the login answered %s", ok)
		}
		o.eval(t, ctx, tab, `window.__before = 1, location.reload(), 'ok'`)
		waitFor(t, 30*time.Second, "the tab reloaded, logged in", func() bool {
			return o.tryEval(ctx, tab, `String(!window.__before && document.readyState === 'complete' && !!document.querySelector('[data-testid=create-new-chat-button]'))`) == "true"
		})

		retryInHistory(t, session)
		again, state := newRunShown(t, id)
		if state != "done" {
			t.Fatalf("the retried run ended %s: %s", state, page.MustElement(`[data-testid=live-run]`).MustText())
		}
		if n := srv.SubmissionCount(sim.ChatGPT); n != 1 {
			t.Errorf("%d sends reached ChatGPT after Retry, want 1", n)
		}
		got := evalJSON(t, page, `(id) => window.go.app.Runs.Get(id)`, again)
		if sess, _ := got["session"].(map[string]any); sess == nil || str(sess["id"]) == session || !strings.Contains(str(sess["prompt"]), prompt) {
			t.Errorf("the retry is %v, want a new run of the same prompt", got["session"])
		}
	})

	t.Run("a run whose prompt reached the site sends nothing until the user chooses Send again", func(t *testing.T) {
		box := page.MustElement(`[data-testid=compose-newchat]`)
		if !box.MustProperty("checked").Bool() {
			box.MustClick()
		}
		id, session := send(t, "Summarise the ferry timetable\n"+sim.Directive(sim.ScenarioError))
		if state := evalStr(t, page, `() => document.querySelector('[data-testid=live-run]').dataset.state`); state != "failed" {
			t.Fatalf("the run ended %s, want failed while answering", state)
		}
		sent := srv.SubmissionCount(sim.ChatGPT)

		retryInHistory(t, session)
		if err := page.Timeout(eventWithin).Wait(rod.Eval(`() => document.querySelector('[data-testid=history-retry-held]')?.dataset.sent === 'yes'`)); err != nil {
			t.Fatalf("Retry did not say the site has the prompt: %v (toasts: %q)", err,
				evalStr(t, page, `() => [...document.querySelectorAll('[data-testid=toast]')].map(e => e.textContent).join(' | ')`))
		}
		if msg := page.MustElement(`[data-testid=history-retry-held]`).MustText(); !strings.Contains(msg, "ChatGPT already has this prompt") || !strings.Contains(msg, "Send again") {
			t.Errorf("the retry says %q", msg)
		}
		if page.MustHas(`[data-testid=history-collect]`) {
			t.Errorf("Collect the rest is offered for a run that failed with its answer")
		}
		if n := srv.SubmissionCount(sim.ChatGPT); n != sent {
			t.Fatalf("Retry sent the prompt again unasked: %d sends, %d before", n, sent)
		}
		page.MustElement(`[data-testid=history-detail]`).MustScrollIntoView()
		savePageShot(t, page, shots, "history-retry.png")

		page.MustElement(`[data-testid=history-retry-cancel]`).MustClick()
		waitEval(t, page, 10*time.Second, "the question gone", `() => !document.querySelector('[data-testid=history-retry-held]')`)
		if title := viewTitle(t, page); !strings.Contains(title, "History") {
			t.Errorf("Don't send left History for %q", title)
		}

		page.MustElement(`[data-testid=history-retry]`).MustClick()
		page.MustElement(`[data-testid=history-send-again]`).MustClick()
		newRunShown(t, id)
		if n := srv.SubmissionCount(sim.ChatGPT); n != sent+1 {
			t.Errorf("%d sends after Send again, want %d", n, sent+1)
		}
	})

	t.Logf("screenshots in %s", shots)
}

// tryEval is eval for a tab that may be navigating: "" when it cannot answer.
func (o *outside) tryEval(ctx context.Context, id, js string) string {
	raw, err := o.c.Call(ctx, "", "Target.attachToTarget", proto.TargetAttachToTarget{TargetID: proto.TargetTargetID(id), Flatten: true})
	if err != nil {
		return ""
	}
	var att proto.TargetAttachToTargetResult
	if json.Unmarshal(raw, &att) != nil {
		return ""
	}
	defer o.c.Call(ctx, "", "Target.detachFromTarget", proto.TargetDetachFromTarget{SessionID: att.SessionID})
	raw, err = o.c.Call(ctx, string(att.SessionID), "Runtime.evaluate", proto.RuntimeEvaluate{Expression: js, ReturnByValue: true, AwaitPromise: true})
	var res proto.RuntimeEvaluateResult
	if err != nil || json.Unmarshal(raw, &res) != nil || res.ExceptionDetails != nil || res.Result == nil {
		return ""
	}
	return res.Result.Value.Str()
}
