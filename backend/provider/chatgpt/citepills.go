package chatgpt

import (
	"context"

	"github.com/ferrydesk/ferry/backend/site"
)

// citationPill is where the page shows a citation span: a pill whose link
// goes to the span's first source, named by it ("Harbour Times", "+1" after
// the name when the span cites more).
const citationPill = `[data-testid="webpage-citation-pill"]`

// pillsJS lists the citation pills of the last assistant turn's answer, in
// order.
const pillsJS = `(turnSels, bodySels, pillSel) => {
  const turns = document.querySelectorAll((turnSels || []).join(',') || '#none');
  const turn = turns[turns.length - 1];
  if (!turn) return [];
  let body = null;
  for (const s of bodySels || []) { try { body = turn.querySelector(s); } catch (e) {} if (body) break; }
  if (!body) return [];
  return Array.from(body.querySelectorAll(pillSel)).map((p) => {
    const a = p.matches('a[href]') ? p : p.querySelector('a[href]');
    return {text: (p.innerText || '').trim(), href: a ? a.getAttribute('href') : ''};
  });
}`

// pageCitations turns the citation pills in text, the page's text of the
// last answer, into the Markdown links the stream and the conversation
// give (" ([Harbour Times](https://…))"), for an answer read from the page
// alone. The page shows only a span's first source; a pill whose link is
// not http(s), or that cannot be read, stays as its words.
func (a *Adapter) pageCitations(ctx context.Context, text string) string {
	sel := a.Site().Selectors
	var pills []pill
	if err := a.Page.EvalInto(ctx, &pills, pillsJS, sel[site.RoleAssistantTurn], sel[site.RoleAnswerBody], citationPill); err != nil {
		return text
	}
	return linkPills(text, pills)
}
