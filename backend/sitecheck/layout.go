package sitecheck

import (
	"context"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/site"
)

// layoutJS reports, per selector, whether it matches a visible element.
const layoutJS = `(sels) => sels.map((s) => { try { return [...document.querySelectorAll(s)].some((el) =>
  el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden'); } catch (e) { return false; } })`

// readLayouts names, per aspect of s's page, the first known layout whose
// sign pg's tab shows; an aspect whose role matched without any sign is
// one Ferry does not know, and an aspect neither shows is left out.
func readLayouts(ctx context.Context, p *browser.Page, s site.Site, pg Page) ([]SiteLayout, error) {
	if len(s.Layouts) == 0 {
		return nil, nil
	}
	sels := make([]string, len(s.Layouts))
	for i, l := range s.Layouts {
		sels[i] = l.Selector
	}
	var shown []bool
	if err := p.EvalInto(ctx, &shown, layoutJS, sels); err != nil {
		return nil, err
	}
	var out []SiteLayout
	seen := map[string]int{} // aspect -> index in out
	for i, l := range s.Layouts {
		j, ok := seen[l.Aspect]
		if !ok {
			j = len(out)
			seen[l.Aspect] = j
			out = append(out, SiteLayout{Aspect: l.Aspect})
		}
		if out[j].Layout != "" {
			continue
		}
		if i < len(shown) && shown[i] {
			out[j].Layout, out[j].Unknown = l.Name, false
		} else if l.Role != "" && pg.Roles[l.Role].Matched >= 0 {
			out[j].Unknown = true
		}
	}
	kept := out[:0]
	for _, l := range out {
		if l.Layout != "" || l.Unknown {
			kept = append(kept, l)
		}
	}
	return kept, nil
}
