package job

import (
	"context"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/site"
)

// domFinder is the test's TurnFinder for adapters built on provider.Web: it
// looks for the user turn by the site's user_turn selectors and returns a
// Turn without a stream capture, which Web.Wait completes by its DOM rules.
// It stands in for the FindTurn that the adapters must implement.
type domFinder struct {
	page *browser.Page
	site site.Site
}

const findTurnJS = `(sels, want) => {
  const norm = (s) => (s || '').split(/\s+/).filter(Boolean).join(' ');
  for (const s of sels) {
    let els = [];
    try { els = Array.from(document.querySelectorAll(s)); } catch (e) { continue; }
    if (els.some((el) => norm(el.innerText).includes(want))) return true;
  }
  return false;
}`

func (f domFinder) FindTurn(ctx context.Context, prompt string, since time.Time) (*provider.Turn, bool, error) {
	want := strings.Join(strings.Fields(prompt), " ")
	var found bool
	// The page may still be rendering the thread after a reload: give it a
	// moment before calling the turn absent.
	deadline := time.Now().Add(2 * time.Second)
	for {
		if err := f.page.EvalInto(ctx, &found, findTurnJS, f.site.Selector(site.RoleUserTurn), want); err != nil {
			return nil, false, err
		}
		if found || time.Now().After(deadline) {
			break
		}
		time.Sleep(150 * time.Millisecond)
	}
	if !found {
		return nil, false, nil
	}
	return &provider.Turn{Prompt: prompt, SentAt: since}, true, nil
}
