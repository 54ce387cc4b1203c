package jobs

import (
	"context"
	"path/filepath"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/codemode"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/prompt"
	"github.com/ferrydesk/ferry/backend/runs"
	"github.com/ferrydesk/ferry/backend/service"
)

// Code jobs through the hub. An agent asks for a code run with the options
// of `ferry code`, but never chooses where files are written or read: the
// zips go to the owner's artifacts directory (the settings'
// artifacts.outputDir, else the data directory's artifacts/), where
// OpenArtifact serves them from, and a source repository may only be named
// by the owner itself (the CLI on the same account, or the desktop).

// trustedRequester reports whether a job's requester is the user
// themselves (the owner token or the desktop app), who may name local paths.
func trustedRequester(id string) bool {
	return id == service.OwnerRequester || id == service.DesktopRequester
}

// checkCodeSpec checks a code job's spec as RunCode would before touching
// the browser. Errors: BadInput for local paths from an agent, for a
// session id, for a negative timeout; RunCode's input envelopes.
func (h *Runner) checkCodeSpec(spec service.JobRequest) error {
	if !trustedRequester(spec.RequestedBy) && (spec.OutDir != "" || spec.RepoRoot != "" || len(spec.SourcePaths) > 0) {
		return errs.New(errs.BadInput, "outDir, repoRoot and sourcePaths are for the owner only: an agent's zips go to the owner's artifacts directory").
			WithHint("drop outDir, repoRoot and sourcePaths from the job")
	}
	if spec.SessionID != "" {
		return errs.New(errs.BadInput, "sessionId is not supported on code jobs").
			WithHint("continue a conversation with \"conversation\", or pin a tab with \"tabId\"")
	}
	if spec.TimeoutSeconds < 0 {
		return errs.New(errs.BadInput, "timeoutSeconds must be positive, got %d", spec.TimeoutSeconds)
	}
	if err := checkSources(context.Background(), spec); err != nil {
		return err
	}
	return h.pipe.CheckCode(context.Background(), h.codeRequest(spec, runs.AskRequest{}))
}

// codeRequest is the core request of a code job, over base (the owner's
// browser settings and the run's origin and events).
func (h *Runner) codeRequest(spec service.JobRequest, base runs.AskRequest) runs.CodeRequest {
	base.Site, base.Model, base.Effort, base.Prompt, base.TargetID = spec.Site, spec.Model, spec.Effort, spec.Prompt, spec.TabID
	base.Template, base.Vars, base.NewChat = spec.Template, spec.Vars, spec.NewChat
	base.Files, base.InlineFiles = spec.Files, spec.InlineFiles
	if spec.TimeoutSeconds > 0 {
		base.Timeout = time.Duration(spec.TimeoutSeconds) * time.Second
	}
	req := runs.CodeRequest{AskRequest: base, Options: codemode.Options{Conversation: spec.Conversation, MultiZip: spec.MultiZip,
		AllowInline: spec.AllowInline, Contract: prompt.Contract(strings.TrimSpace(spec.Contract)),
		ArchitectureAuthorized: spec.ArchitectureAuthorized, Goal: spec.Goal, GoalLock: spec.GoalLock,
		Research: spec.Research}}
	if trustedRequester(spec.RequestedBy) {
		req.OutDir = spec.OutDir
		if spec.SourceAs != service.SourceAsZip {
			// Sent as a zip, the sources are a file of the run, not
			// the provenance its prompt names.
			req.RepoRoot, req.SourcePaths = spec.RepoRoot, spec.SourcePaths
		}
	}
	return req
}

// runCode runs a code job; the receipt is kept with the job so that a
// client prints exactly what the embedded CLI prints.
func (h *Runner) runCode(ctx context.Context, rec jobRecord, base runs.AskRequest) (*job.Session, *codemode.Receipt, error) {
	cr := h.codeRequest(rec.Spec, base)
	// The run's files: the job's and its sources' zip.
	cr.Files = base.Files
	out, err := h.pipe.RunCode(ctx, cr)
	if out == nil {
		return nil, nil, err
	}
	return out.Last(), out.Receipt, err
}

// artifactsDir is where code jobs of agents save their zips and where
// OpenArtifact serves from.
func (h *Runner) artifactsDir() string {
	if d := h.d.Settings().Artifacts.OutputDir; d != "" {
		if abs, err := filepath.Abs(d); err == nil {
			return abs
		}
	}
	return h.d.Paths.ArtifactsDir()
}
