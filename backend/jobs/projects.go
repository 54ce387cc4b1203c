package jobs

import (
	"cmp"
	"context"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/runs"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/tabs"
)

// ListProjects lists the account's projects on req.Site (default chatgpt)
// in a tab of the site opened for it and closed after, in the browser
// req.Browser names (else the long-lived one, else Ferry's own, running).
// Errors: errs.UnknownSite; errs.CapabilityMissing for a site without
// projects; the browser's, the tab's and the site's envelopes
// (LoginRequired for a logged-out site).
func (h *Runner) ListProjects(ctx context.Context, req service.ListProjectsRequest) ([]service.Project, error) {
	reg, err := h.pipe.Sites()
	if err != nil {
		return nil, err
	}
	st, err := reg.Get(cmp.Or(req.Site, "chatgpt"))
	if err != nil {
		return nil, err
	}
	spec := service.BrowserSpec{Mode: service.BrowserOwn}
	if req.Browser != nil {
		spec = *req.Browser
	}
	b, done, err := h.specBrowser(ctx, spec)
	if err != nil {
		return nil, err
	}
	defer done()
	page, st, err := h.d.Leases.OpenSite(ctx, tabs.Run{}, b, reg, st.ID)
	if err != nil {
		return nil, err
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = page.Close(cctx)
	}()
	a, err := provider.New(provider.Env{Page: page, Site: st, Sites: reg})
	if err != nil {
		return nil, err
	}
	lister, ok := a.(runs.ProjectLister)
	if !ok {
		return nil, errs.New(errs.CapabilityMissing, "%s has no projects Ferry knows of", st.Name).WithEvidence("site", st.ID)
	}
	if err := a.Ready(ctx); err != nil {
		return nil, err
	}
	places, err := lister.Projects(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]service.Project, 0, len(places))
	for _, p := range places {
		out = append(out, service.Project{Name: p.Name, Address: p.Address})
	}
	return out, nil
}
