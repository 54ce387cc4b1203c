package core

import (
	"context"

	"github.com/ferrydesk/ferry/backend/codemode"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/prompt"
)

// Code mode lives in package codemode; these are its in-process entry
// points, wired to the Core's settings, history, templates and browser.

// CodeRequest is one code-mode run: ChatGPT builds a project in its sandbox
// and the verified zips come home. The embedded AskRequest says where and
// how to run (Site must be "" or chatgpt; Prompt is the task, or "" with a
// Template; NewChat opens a new tab); the other fields are the code
// options.
type CodeRequest struct {
	AskRequest
	// Conversation continues the ChatGPT conversation
	// https://chatgpt.com/c/<Conversation>: in the tab that shows it (or
	// TargetID, which must show it), else in a new background tab.
	Conversation string
	// MultiZip asks for one named zip per logical part instead of one zip.
	MultiZip bool
	// AllowInline saves the answer's code blocks as a verified zip when the
	// answer has no sandbox zip.
	AllowInline bool
	// OutDir receives the zips, sidecars, the source provenance and the
	// receipt; "" is the settings' artifacts.outputDir, else the data
	// directory's artifacts/. It is created when missing.
	OutDir string
	// Contract is the output contract ("" is code).
	Contract prompt.Contract
	// ArchitectureAuthorized allows the plan and all contracts.
	ArchitectureAuthorized bool
	// Goal turns on the GOAL LOCK preamble and reminder; Research adds the
	// research directive.
	Goal     string
	Research bool
	// RepoRoot and SourcePaths (together) check that the paths are tracked,
	// clean and pushed, write .source-provenance.json into OutDir and name
	// the repository, commit and paths in the prompt.
	RepoRoot    string
	SourcePaths []string
	// GoalLock turns on the GOAL LOCK with the task as the goal when Goal
	// is empty.
	GoalLock bool
}

// codemode is the request as package codemode takes it.
func (r CodeRequest) codemode() codemode.Request {
	return codemode.Request{Site: r.Site, Model: r.Model, Prompt: r.Prompt, Template: r.Template, Vars: r.Vars,
		TargetID: r.TargetID, NewChat: r.NewChat, Browser: r.Browser, Timeout: r.Timeout,
		RateLimitCooldown: r.RateLimitCooldown, Origin: r.Origin, OnEvent: r.OnEvent,
		Conversation: r.Conversation, MultiZip: r.MultiZip, AllowInline: r.AllowInline, OutDir: r.OutDir,
		Contract: r.Contract, ArchitectureAuthorized: r.ArchitectureAuthorized, Goal: r.Goal, Research: r.Research,
		RepoRoot: r.RepoRoot, SourcePaths: r.SourcePaths, GoalLock: r.GoalLock}
}

// The names of package codemode that the CLI, the hub and the app use
// through core.
type (
	// CodeReceipt is the record a code run writes beside its outputs.
	CodeReceipt = codemode.Receipt
	// ReceiptLayers are the four proofs of a code run.
	ReceiptLayers = codemode.ReceiptLayers
	// ReceiptLayer is one proof.
	ReceiptLayer = codemode.ReceiptLayer
	// StepReceipt is one message of a code run.
	StepReceipt = codemode.StepReceipt
	// ZipReceipt is the outcome of one zip.
	ZipReceipt = codemode.ZipReceipt
)

const (
	// ReceiptKind names the code receipt format.
	ReceiptKind = codemode.ReceiptKind
	// ReceiptSuffix ends the name of a receipt written beside the outputs.
	ReceiptSuffix = codemode.ReceiptSuffix
)

// code runs a code-mode request through the journaled pipeline and returns
// the session of its last step (see RunCode, whose errors it returns). The
// session is nil when the run failed before a session was created.
func (c *Core) code(ctx context.Context, req CodeRequest) (*job.Session, error) {
	out, err := c.RunCode(ctx, req)
	return out.Last(), err
}

// RunCode runs req with codemode.Run over the Core (its settings, history,
// templates, and req's browser or the one req's browser options open),
// with codemode.Run's outcome and envelopes.
func (c *Core) RunCode(ctx context.Context, req CodeRequest) (*codemode.Outcome, error) {
	cr, err := c.codeFiles(req)
	if err != nil {
		return nil, err
	}
	return codemode.Run(ctx, c.codeHost(req.AskRequest), cr)
}

// codeFiles is req as package codemode takes it, with its files checked
// against the code site (or inlined into its prompt). Errors: withFiles's.
func (c *Core) codeFiles(req CodeRequest) (codemode.Request, error) {
	cr := req.codemode()
	if len(req.Files) == 0 {
		return cr, nil
	}
	reg, err := c.sites()
	if err != nil {
		return cr, err
	}
	st, err := reg.Get(codemode.SiteID)
	if err != nil {
		return cr, err
	}
	cr.Prompt, cr.Files, err = withFiles(reg, st, req.Model, req.Prompt, req.Files, req.InlineFiles)
	return cr, err
}

// checkCode checks req as RunCode does before it touches the browser (see
// codemode.Check), with RunCode's envelopes; nothing is opened or written.
func (c *Core) checkCode(ctx context.Context, req CodeRequest) error {
	cr, err := c.codeFiles(req)
	if err != nil {
		return err
	}
	return codemode.Check(ctx, c.codeHost(req.AskRequest), cr)
}
