package chatgpt

import (
	"context"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
)

// ChatGPT's header has a Chat/Work toggle (2026-07/08: button[role=radio]
// "Chat" and "Work" with aria-checked and data-state). A run goes to Chat:
// a tab showing Work is switched back with a trusted click and checked
// before anything is typed, or the run is refused with nothing typed.

// modeSwitchPatience bounds the wait for a click on "Chat" to show.
const modeSwitchPatience = 5 * time.Second

// modeJS reads the toggle: "" when the page has none (an older layout),
// else the label of the checked radio; it marks the "Chat" radio so that
// a trusted click can target it.
const modeJS = `() => {
  const radios = [...document.querySelectorAll('button[role="radio"]')].filter((b) => /^(chat|work)$/i.test((b.innerText || b.textContent || '').trim()));
  if (!radios.some((b) => /^work$/i.test((b.innerText || b.textContent || '').trim()))) return {mode: ''};
  const on = (b) => b.getAttribute('aria-checked') === 'true' || b.getAttribute('data-state') === 'on';
  const checked = radios.find(on);
  document.querySelectorAll('[data-ferry-mode]').forEach((e) => e.removeAttribute('data-ferry-mode'));
  const chat = radios.find((b) => /^chat$/i.test((b.innerText || b.textContent || '').trim()));
  if (chat) chat.setAttribute('data-ferry-mode', 'chat');
  return {mode: checked ? (checked.innerText || checked.textContent || '').trim() : '?', chat: !!chat};
}`

type modeState struct {
	Mode string `json:"mode"`
	Chat bool   `json:"chat"`
}

// Compose implements provider.Adapter: the tab is put on Chat first
// (ensureChat), then provider.Web types the prompt.
func (a *Adapter) Compose(ctx context.Context, prompt string) error {
	if err := a.ensureChat(ctx); err != nil {
		return err
	}
	return a.Web.Compose(ctx, prompt)
}

// ensureChat leaves a tab on Chat (or without the toggle) as it is, and
// switches one on Work to Chat with a trusted click, checked on the page.
// Errors: CapabilityMissing when the toggle will not show Chat (nothing
// was typed), the browser's envelopes.
func (a *Adapter) ensureChat(ctx context.Context) error {
	var st modeState
	if err := a.Page.EvalInto(ctx, &st, modeJS); err != nil {
		return err
	}
	if st.Mode == "" || st.Mode == "Chat" {
		return nil
	}
	was := st.Mode
	deadline := time.Now().Add(modeSwitchPatience)
	clicked := false
	for {
		if st.Chat && !clicked {
			if _, err := a.Page.Click(ctx, `[data-ferry-mode="chat"]`); err != nil {
				return err
			}
			clicked = true
		}
		select {
		case <-ctx.Done():
			return provider.ContextErr(ctx, "switching ChatGPT to Chat")
		case <-time.After(a.Poll):
		}
		if err := a.Page.EvalInto(ctx, &st, modeJS); err != nil {
			return err
		}
		if st.Mode == "Chat" {
			return nil
		}
		if time.Now().After(deadline) {
			return errs.New(errs.CapabilityMissing, "the ChatGPT tab shows %s and did not switch to Chat; nothing was typed", was).
				WithEvidence("mode", st.Mode).WithEvidence("clicked", map[bool]string{true: "yes", false: "no"}[clicked]).
				WithHint("switch the ChatGPT tab to Chat (the Chat/Work toggle at the top of the page), then retry")
		}
	}
}
