package chatgpt

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
)

// When its session lapses but the accounts are still known, ChatGPT shows
// "Welcome back" with the accounts as buttons or links whose label holds an
// e-mail (oracle 0.14; "Log in", "Sign up" and "another account" are not
// accounts). Ferry continues as the one account, or as the account named in
// the site's settings (Site.Account); with several and none named it stops
// with login_required listing them. It never picks among several.

// accountsJS lists the accounts the page offers and marks each with its
// index for a trusted click.
const accountsJS = `() => {
  const vis = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const mail = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/;
  const not = /log ?in|sign ?up|another account/i;
  document.querySelectorAll('[data-ferry-account]').forEach((e) => e.removeAttribute('data-ferry-account'));
  const out = [];
  for (const el of document.querySelectorAll('button, a, [role="button"], [role="link"]')) {
    const text = (el.innerText || el.textContent || '').trim();
    if (!mail.test(text) || not.test(text) || !vis(el)) continue;
    // The address as one text node holds it: an avatar's initial beside
    // it would otherwise run into it.
    let found = '';
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n && !found; n = walk.nextNode()) {
      const m = (n.nodeValue || '').match(mail);
      if (m) found = m[0];
    }
    el.setAttribute('data-ferry-account', String(out.length));
    out.push(found || text.match(mail)[0]);
  }
  return out;
}`

// chooseAccount continues as the account the page offers, when the page is
// an account picker: it reports whether it clicked one. Errors:
// LoginRequired naming the accounts when it cannot choose; the browser's
// envelopes.
func (a *Adapter) chooseAccount(ctx context.Context) (bool, error) {
	var accounts []string
	if err := a.Page.EvalInto(ctx, &accounts, accountsJS); err != nil {
		return false, err
	}
	if len(accounts) == 0 {
		return false, nil
	}
	want := strings.TrimSpace(a.Site().Account)
	pick := -1
	for i, acc := range accounts {
		if want != "" && strings.EqualFold(acc, want) {
			pick = i
		}
	}
	switch {
	case want == "" && len(accounts) == 1:
		pick = 0
	case pick < 0:
		why := fmt.Sprintf("it lists %d accounts and the settings name none", len(accounts))
		if want != "" {
			why = fmt.Sprintf("the account the settings name (%s) is not among them", want)
		}
		return false, errs.New(errs.LoginRequired, "ChatGPT asks which account to continue as (%s): %s; nothing was chosen", strings.Join(accounts, ", "), why).
			WithEvidence("accounts", strings.Join(accounts, ", ")).
			WithHint(`choose the account in the ChatGPT tab, or name it in the settings' sites: [{"id":"chatgpt","account":"you@example.com"}]`)
	}
	if _, err := a.Page.Click(ctx, fmt.Sprintf(`[data-ferry-account="%d"]`, pick)); err != nil {
		return false, err
	}
	// The page signs the account in and loads the app.
	deadline := time.Now().Add(accountPatience)
	for time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return false, provider.ContextErr(ctx, "continuing as the chosen ChatGPT account")
		case <-time.After(a.Poll):
		}
		var left []string
		if err := a.Page.EvalInto(ctx, &left, accountsJS); err == nil && len(left) == 0 {
			return true, nil
		}
	}
	return true, nil
}

// accountPatience bounds the wait for the picker to give way to the app
// after an account was chosen (Ready then checks the app as always).
const accountPatience = 10 * time.Second
