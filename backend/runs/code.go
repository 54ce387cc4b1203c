package runs

import (
	"context"

	"github.com/ferrydesk/ferry/backend/codemode"
)

// Code mode lives in package codemode; these are its in-process entry
// points, wired to the pipeline's settings, history, templates and browser.

// CodeRequest is one code-mode run: ChatGPT builds a project in its sandbox
// and the verified zips come home. The embedded AskRequest says where and
// how to run (Site must be "" or chatgpt; Prompt is the task, or "" with a
// Template; NewChat opens a new tab); the embedded codemode.Options are the
// code options.
type CodeRequest struct {
	AskRequest
	codemode.Options
}

// codemode is the request as package codemode takes it.
func (r CodeRequest) codemode() codemode.Request {
	return codemode.Request{Site: r.Site, Model: r.Model, Effort: r.Effort, Prompt: r.Prompt, Template: r.Template, Vars: r.Vars,
		TargetID: r.TargetID, NewChat: r.NewChat, Browser: r.Browser, Timeout: r.Timeout,
		RateLimitCooldown: r.RateLimitCooldown, Origin: r.Origin, OnEvent: r.OnEvent, Options: r.Options}
}

// RunCode runs req with codemode.Run over the pipeline's data directory (its
// settings, history, templates, and req's browser or the one req's browser
// options open), with codemode.Run's outcome and envelopes.
func (p *Pipeline) RunCode(ctx context.Context, req CodeRequest) (*codemode.Outcome, error) {
	cr, err := p.codeFiles(req)
	if err != nil {
		return nil, err
	}
	return codemode.Run(ctx, p.codeHost(req.AskRequest), cr)
}

// codeFiles is req as package codemode takes it, with its files checked
// against the code site (or inlined into its prompt). Errors: WithFiles's.
func (p *Pipeline) codeFiles(req CodeRequest) (codemode.Request, error) {
	cr := req.codemode()
	if len(req.Files) == 0 {
		return cr, nil
	}
	reg, err := p.Sites()
	if err != nil {
		return cr, err
	}
	st, err := reg.Get(codemode.SiteID)
	if err != nil {
		return cr, err
	}
	cr.Prompt, cr.Files, err = WithFiles(reg, st, req.Model, req.Prompt, req.Files, req.InlineFiles)
	return cr, err
}

// CheckCode checks req as RunCode does before it touches the browser (see
// codemode.Check), with RunCode's envelopes; nothing is opened or written.
func (p *Pipeline) CheckCode(ctx context.Context, req CodeRequest) error {
	cr, err := p.codeFiles(req)
	if err != nil {
		return err
	}
	return codemode.Check(ctx, p.codeHost(req.AskRequest), cr)
}
