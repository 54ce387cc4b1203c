package sitecheck

import (
	"context"
	_ "embed"
	"fmt"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/site"
)

//go:embed probe.js
var probeJS string

// settle bounds the wait for a page that is still loading (its address
// still about:blank, or its ready marker not yet shown).
const settle = 15 * time.Second

// stable is how long an unchanged verdict on a loaded page stands.
const stable = 2 * time.Second

// mountPatience is how long a page that is ok but lacks a role only a
// feature needs is given to show it: ChatGPT's model picker mounts 1–4 s
// after the page is interactive.
const mountPatience = 5 * time.Second

type probeRole struct {
	Role   site.Role `json:"role"`
	Sels   []string  `json:"sels"`
	Texts  []string  `json:"texts,omitempty"`
	Hidden bool      `json:"hidden,omitempty"`
	Relax  bool      `json:"relax,omitempty"`
}

type probeSpec struct {
	Roles    []probeRole `json:"roles"`
	Look     []look      `json:"look"`
	Composer []string    `json:"composer"`
}

// readPage reads the page of p as site s sees it: every role's first matching
// selector, the candidates of the roles that match nowhere, and the
// page's requests. It only reads. Errors: the browser's envelopes.
func readPage(ctx context.Context, p *browser.Page, s site.Site) (Page, error) {
	spec := probeSpec{Composer: s.Selector(site.RoleComposer)}
	for _, r := range site.Roles() {
		spec.Roles = append(spec.Roles, probeRole{Role: r, Sels: s.Selector(r), Texts: s.Texts[r], Hidden: hiddenRoles[r], Relax: relaxedRoles[r]})
	}
	var first Page
	if err := p.EvalInto(ctx, &first, probeJS, probeSpec{Roles: spec.Roles, Composer: spec.Composer}); err != nil {
		return Page{}, err
	}
	for _, r := range spec.Roles {
		if len(r.Sels) > 0 && first.Roles[r.Role].Matched < 0 {
			l := looks[r.Role]
			l.Role = r.Role
			spec.Look = append(spec.Look, l)
		}
	}
	if len(spec.Look) == 0 {
		return first, nil
	}
	var pg Page
	if err := p.EvalInto(ctx, &pg, probeJS, spec); err != nil {
		return Page{}, err
	}
	return pg, nil
}

// Check checks site s in tab p, waiting (within ctx and a bound of its
// own) for a page that is still loading: the tab's address, login,
// interstitial, roles and stream, as Judge says. It only reads. A check
// that cannot look at the page is a report whose Error says why.
func Check(ctx context.Context, p *browser.Page, s site.Site, reg *site.Registry) SiteReport {
	web, err := provider.NewWeb(provider.Env{Page: p, Site: s, Sites: reg})
	if err != nil {
		return failed(s, p, err)
	}
	sctx, cancel := context.WithTimeout(ctx, settle)
	defer cancel()
	var rep SiteReport
	// A page that hydrates late shows its roles one by one: a verdict
	// stands once it has not changed for a while.
	last, since := "", time.Now()
	for {
		rep, err = checkOnce(sctx, web, p, s)
		if err == nil && (rep.OK && !lacksRole(rep) || !rep.LoggedIn || rep.Interstitial != nil && rep.Interstitial.Blocking) {
			break
		}
		patience := stable
		if err == nil && rep.OK {
			patience = mountPatience
		}
		if now := fmt.Sprint(rep.Problems, statuses(rep), err); now != last {
			last, since = now, time.Now()
		} else if err == nil && time.Since(since) >= patience {
			break
		}
		select {
		case <-sctx.Done():
			if err != nil {
				return failed(s, p, err)
			}
			return rep
		case <-time.After(300 * time.Millisecond):
		}
	}
	return rep
}

// checkOnce looks at the page once. A page still on about:blank, or on
// another origin than the site's, is an error.
func checkOnce(ctx context.Context, web *provider.Web, p *browser.Page, s site.Site) (SiteReport, error) {
	info, err := p.Info(ctx)
	if err != nil {
		return SiteReport{}, err
	}
	if info.URL == "" || info.URL == "about:blank" {
		return SiteReport{}, errs.New(errs.Timeout, "the %s tab did not load", s.Name)
	}
	if !s.Allows(info.URL) && !s.IsLoginURL(info.URL) {
		return SiteReport{}, errs.New(errs.NavigatedAway, "the %s tab shows %s, not the site", s.Name, site.Redact(info.URL))
	}
	r, err := web.Interstitial(ctx)
	if err != nil {
		return SiteReport{}, err
	}
	pg, err := readPage(ctx, p, s)
	if err != nil {
		return SiteReport{}, err
	}
	rep := Judge(s, pg, r)
	rep.TargetID = p.ID()
	if rep.Layouts, err = readLayouts(ctx, p, s, pg); err != nil {
		return SiteReport{}, err
	}
	return rep, nil
}

// failed is the report on site s when its tab (p, when known) could not
// be found or read.
func failed(s site.Site, p *browser.Page, err error) SiteReport {
	e := errs.From(err)
	rep := SiteReport{Site: s.ID, Name: s.Name, Error: e, Problems: []string{fmt.Sprintf("could not look at the %s tab: %s", s.Name, e.Message)}}
	if p != nil {
		rep.TargetID = p.ID()
	}
	return rep
}

// lacksRole reports whether the report finds a role missing (on an ok
// page: one only a feature needs).
func lacksRole(rep SiteReport) bool {
	for _, r := range rep.Roles {
		if r.Status == service.RoleMissing {
			return true
		}
	}
	return false
}

// statuses is the verdict on each role, in order.
func statuses(rep SiteReport) []service.RoleStatus {
	out := make([]service.RoleStatus, len(rep.Roles))
	for i, r := range rep.Roles {
		out[i] = r.Status
	}
	return out
}
