package provider

import (
	"context"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
)

// turnNoticeJS returns the text of the first visible notice after the last
// user turn (an alert, or the site's error text), "" when there is none.
// A failed turn shows one where the finished-action bar would be.
const turnNoticeJS = `(spec) => {
  const vis = (el) => el.isConnected && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  let lastU = null;
  for (const s of spec.sel.user_turn || []) {
    let list = [];
    try { list = document.querySelectorAll(s); } catch (e) { continue; }
    const shown = Array.from(list).filter(vis);
    if (shown.length) { lastU = shown[shown.length - 1]; break; }
  }
  const sels = ['[role="alert"]', '[role="alertdialog"]'].concat(spec.sel.error_text || []);
  for (const s of sels) {
    let list = [];
    try { list = document.querySelectorAll(s); } catch (e) { continue; }
    for (const el of list) {
      if (!vis(el)) continue;
      if (lastU && !(lastU.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING)) continue;
      const t = (el.innerText || '').trim();
      if (t) return t.slice(0, 300);
    }
  }
  return '';
}`

// turnFailed is the DOM rules' last look before they take the page's text
// for the answer: a failed turn can look finished (a retry control under
// its partial text, or no bar and no stop control at all), and a notice
// after the prompt (an alert, the site's error text) says it failed.
// It returns the GenerationError envelope naming the notice, nil when the
// page shows none, or the evaluation's error.
func (w *Web) turnFailed(ctx context.Context) error {
	var notice string
	if err := w.Page.EvalInto(ctx, &notice, turnNoticeJS, w.spec()); err != nil {
		return err
	}
	if notice = strings.TrimSpace(notice); notice == "" {
		return nil
	}
	return errs.New(errs.GenerationError, "%s shows a notice where its finished answer should be: %q", w.Env.Site.Name, notice).
		WithEvidence("notice", notice).WithEvidence("reason", "notice_without_finished_bar")
}
