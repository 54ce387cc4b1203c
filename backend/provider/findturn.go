package provider

import (
	"context"
	"strconv"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/site"
)

// findTurnJS lists the user turns the page has mounted (by the site's
// user_turn selectors, first selector with a match wins, as in stateJS)
// and says which of them holds the prompt. Hidden turns count: a thread
// scrolled away from the bottom still holds them.
const findTurnJS = `(sels, want) => {
  const norm = (s) => (s || '').split(/\s+/).filter(Boolean).join(' ');
  let els = [];
  for (const s of sels || []) {
    try { els = Array.from(document.querySelectorAll(s)).filter((el) => el.isConnected); } catch (e) { continue; }
    if (els.length) break;
  }
  let match = -1;
  els.forEach((el, i) => { if (norm(el.innerText || el.textContent).includes(want)) match = i; });
  return {users: els.length, match, loading: document.readyState !== 'complete'};
}`

type turnScan struct {
	Users   int  `json:"users"`
	Match   int  `json:"match"` // index of the last user turn holding the prompt, -1
	Loading bool `json:"loading"`
}

// findTurnWant is the prompt as FindTurn compares it: whitespace collapsed,
// and only its first 2000 characters for very long prompts (a site may fold
// the middle of a long user message behind "show more").
func findTurnWant(prompt string) string {
	want := collapse(prompt)
	if r := []rune(want); len(r) > 2000 {
		want = string(r[:2000])
	}
	return want
}

// Timings of FindTurn: how long the thread must stay unchanged before an
// absence counts, and how long to wait for an uncertain page at most.
const (
	findTurnStable  = 1200 * time.Millisecond
	findTurnPatient = 12 * time.Second
)

// FindTurn implements job.TurnFinder for every adapter built on Web: it
// looks, without sending or typing anything, for the latest user turn of the
// conversation the tab shows whose text holds prompt (whitespace collapsed),
// using the site's user_turn selectors.
//
// Found: that turn must be the conversation's last user turn (the answer
// Wait and Extract read is the one after the last user turn); FindTurn
// returns a Turn for it and true. The Turn has no stream capture: the
// response of a turn already sent is in flight or over, and a capture armed
// now would miss its start, so Wait completes it by the site's DOM rules
// (stop control gone, finished-action bar, text stable), whether the answer
// is still streaming or long finished. since becomes the Turn's SentAt; the
// sites show no send times, so it does not filter.
//
// Certainly absent (nil, false, nil): the page is on the site, loaded,
// logged in, shows its composer and no interstitial, its user turns stayed
// unchanged for 1.2 s, none holds the prompt, and the tab is not a
// conversation address that shows no turn at all (a thread still loading).
//
// Errors, which leave the question open: the envelope of an interstitial
// (Cloudflare, login) or of URL safety (NavigatedAway, LoginRequired) when
// the tab is not on the site; SessionStale when the prompt's turn is
// followed by later user turns (its answer is not the one Ferry can read);
// SendUnconfirmed when the page did not settle within 12 s; TargetNotFound
// and the browser's envelopes when the tab is gone; Timeout or Cancelled
// from ctx.
//
// Known limit: a virtualized thread (ChatGPT keeps the last few turns
// mounted) hides older turns, so a prompt sent and then followed by many
// other turns reads as "followed by later turns" only while its turn is
// mounted. The Runner journals submitting right before the click, so a
// prompt it sent is the last user turn unless someone typed into that tab
// since.
func (w *Web) FindTurn(ctx context.Context, prompt string, since time.Time) (*Turn, bool, error) {
	want := findTurnWant(prompt)
	if want == "" {
		return nil, false, errs.New(errs.BadInput, "look for an empty prompt")
	}
	s := w.Env.Site
	start := time.Now()
	var (
		prev      = turnScan{Users: -1}
		unchanged = start
		why       = "the page did not load"
	)
	for {
		info, err := w.Page.Info(ctx)
		if err != nil {
			return nil, false, err
		}
		if err := w.bound(info.URL); err != nil {
			return nil, false, err
		}
		r, err := w.Interstitial(ctx)
		switch {
		case err != nil && !errs.Has(err, errs.NavigationAborted):
			return nil, false, err
		case err == nil && r.Blocking:
			return nil, false, r.Err()
		}
		var scan turnScan
		st, serr := w.state(ctx)
		if serr == nil {
			serr = w.Page.EvalInto(ctx, &scan, findTurnJS, s.Selector(site.RoleUserTurn), want)
		}
		if serr != nil && !errs.Has(serr, errs.NavigationAborted) {
			return nil, false, serr
		}
		if serr == nil {
			if scan.Users != prev.Users || scan.Match != prev.Match {
				prev, unchanged = scan, time.Now()
			}
			if scan.Match >= 0 {
				if scan.Match != scan.Users-1 {
					return nil, false, errs.New(errs.SessionStale, "the prompt's turn in the %s conversation is followed by %d later user turns: its answer is not the latest one", s.Name, scan.Users-1-scan.Match).
						WithEvidence("tab", w.Page.ID()).WithEvidence("url", site.Redact(info.URL)).
						WithEvidence("later_turns", strconv.Itoa(scan.Users-1-scan.Match)).
						WithHint("read the answer in the tab; Ferry collects only the answer after the last user turn")
				}
				return &Turn{Prompt: prompt, SentAt: since, page: w.Page, notify: make(chan struct{}, 1)}, true, nil
			}
			settled := !scan.Loading && st.Composer >= 0 && st.Ready && st.LoggedIn && time.Since(unchanged) >= findTurnStable
			switch {
			case !settled:
				why = "the page did not settle (loading, no composer, or the thread still changing)"
			case scan.Users == 0 && onConversation(s, info.URL):
				why = "the tab shows a conversation address but no turn of it"
			default:
				return nil, false, nil
			}
		}
		if time.Since(start) > findTurnPatient {
			return nil, false, errs.New(errs.SendUnconfirmed, "could not tell whether the %s conversation holds the prompt: %s within %s", s.Name, why, findTurnPatient).
				WithEvidence("tab", w.Page.ID()).WithEvidence("url", site.Redact(info.URL)).WithEvidence("sent", "unknown")
		}
		select {
		case <-ctx.Done():
			return nil, false, ContextErr(ctx, "looking for the prompt in the conversation")
		case <-time.After(w.Poll):
		}
	}
}

// ConversationURL returns the address of the conversation the adapter's
// tab shows, or "" when the tab shows the site's start or new-chat page or
// a conversation's transient address (the site has not given the
// conversation its lasting address yet). Errors: the browser's envelopes
// when the tab is gone.
func (w *Web) ConversationURL(ctx context.Context) (string, error) {
	info, err := w.Page.Info(ctx)
	if err != nil {
		return "", err
	}
	if lasting, _ := w.Env.Site.Conversation(info.URL); !w.Env.Site.Allows(info.URL) || !lasting {
		return "", nil
	}
	return info.URL, nil
}

// onConversation reports whether raw is an address of one conversation,
// lasting or transient, rather than the site's start or new-chat page.
func onConversation(s site.Site, raw string) bool {
	lasting, transient := s.Conversation(raw)
	return lasting || transient
}
