package app

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/app/internal/trash"
	"github.com/ferrydesk/ferry/app/internal/wording"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/service"
)

// Runs is the frontend's API for sending prompts. Every run is a job of the
// owner's Service, the same runner agents' jobs use, with the owner's
// long-lived browser; the desktop's runs need no approval and their
// sessions have origin desktop. Progress arrives as EventRun events.
type Runs struct {
	sh *shell
}

// Run kinds of RunSpec.Kind.
const (
	runKindAsk  = "ask"
	runKindCode = "code"
)

// defaultModel is the model alias that leaves a site's own selection.
const defaultModel = "default"

// RunSpec is one prompt to send, as the compose box has it: a thin form of
// service.JobRequest that jobRequestOf turns into one (the Service
// validates the request).
type RunSpec struct {
	// Kind is "ask" (the default) or "code" (the answer's sandbox zips are
	// retrieved and verified).
	Kind string `json:"kind"`
	// Site is a site id; TabID pins the run to exactly that tab (its site
	// is inferred). One of the two is needed.
	Site  string `json:"site"`
	TabID string `json:"tabId"`
	// Model is a model alias of the site; "" keeps the site's selection.
	Model string `json:"model"`
	// Effort is an effort tier of the site (SiteInfo.Efforts); "" keeps
	// the site's selection.
	Effort string `json:"effort"`
	// Tool is a tool of the site's composer to switch on (SiteInfo.Tools),
	// for an ask; "" asks with none.
	Tool   string `json:"tool"`
	Prompt string `json:"prompt"`
	// Template names the template whose rendering with Vars is the prompt
	// (Prompt then stays empty): the session records the template's name.
	// A prompt edited after rendering is sent as Prompt, without Template.
	Template string            `json:"template"`
	Vars     map[string]string `json:"vars"`
	// NewChat opens a fresh chat in a new tab of Site.
	NewChat bool `json:"newChat"`
	// Where an ask's new chat goes on a site that offers it
	// (SiteInfo.Temporary, SiteInfo.Places): the site's temporary chat;
	// archived on the site once the answer is safe; or opened in a project
	// (a name Projects lists, or its address) or a custom GPT (its
	// address). See service.JobRequest.
	Temporary    bool   `json:"temporary"`
	ArchiveAfter bool   `json:"archiveAfter"`
	Project      string `json:"project"`
	GPT          string `json:"gpt"`
	// FollowUp is the id of a run whose conversation this one continues
	// (its site and conversation, in the tab that shows it or a tab opened
	// on it); Site and TabID then stay empty.
	FollowUp string `json:"followUp"`
	// ShownRun is the session id of the run whose conversation Compose
	// shows: a run to a site with several open tabs goes to the tab that
	// shows it (a preference, not a pin; see service.JobRequest.ShownRun).
	ShownRun string `json:"shownRun"`

	// Files are the absolute paths of the files to attach (dropped on the
	// window or picked); the Service checks and attaches them.
	Files []string `json:"files"`

	// Code mode: Zips is "one" or "several", AllowInline saves the
	// answer's code blocks as a verified zip when no zip comes, Contract is
	// the output contract (assess, plan, code, all, none; "" is code).
	// RepoRoot and SourcePaths (together) are the repository provenance:
	// the paths must be tracked, clean and pushed, and the prompt names the
	// repository, commit and paths.
	Zips        string   `json:"zips"`
	AllowInline bool     `json:"allowInline"`
	Contract    string   `json:"contract"`
	RepoRoot    string   `json:"repoRoot"`
	SourcePaths []string `json:"sourcePaths"`
}

// RunInfo is a run as the live panel shows it.
type RunInfo struct {
	// ID is the run's job id (what Get, Cancel and Retry take).
	ID    string `json:"id"`
	Kind  string `json:"kind"`
	State string `json:"state"`
	// Ended says the run will not change by itself any more.
	Ended bool `json:"ended"`
	// Collectable says the run was stopped (cancelled, or out of time)
	// after its prompt was sent: State then says cancelled, and Collect
	// can still collect the answer (a run cancelled while it streamed
	// keeps its partial answer, Session.AnswerPartial).
	Collectable bool   `json:"collectable,omitempty"`
	RequestedBy string `json:"requestedBy,omitempty"`
	// Origin is who asked: "desktop" (this app), "cli" (the CLI through
	// the gateway) or "agent" (a paired client, named by ClientName).
	Origin     string `json:"origin"`
	ClientName string `json:"clientName,omitempty"`
	// Template and Vars are the template the prompt was rendered from.
	Template string            `json:"template,omitempty"`
	Vars     map[string]string `json:"vars,omitempty"`
	Site     string            `json:"site,omitempty"`
	TabID    string            `json:"tabId,omitempty"`
	Model    string            `json:"model,omitempty"`
	Prompt   string            `json:"prompt"`
	NewChat  bool              `json:"newChat,omitempty"`
	Created  time.Time         `json:"created"`
	Updated  time.Time         `json:"updated"`
	Error    *errs.Envelope    `json:"error"`
	// Session is the run's record once it started (redacted as for
	// export), with the answer, model proof, receipts and artifacts.
	Session *service.Run `json:"session"`
	// Timeline is the session's journal: every state with its time.
	Timeline []service.JournalEntry `json:"timeline"`
}

// Start sends spec as a new run and returns it as created (its progress
// comes as EventRun events). Errors: bad_input for an empty prompt, no
// site and no tab, a new chat with a tab or in code mode, an unknown kind,
// a repository root without paths (or the reverse); unknown_site;
// capability_missing for code mode on a site without sandbox zips; store
// errors.
func (r *Runs) Start(spec RunSpec) (RunInfo, error) {
	req, err := jobRequestOf(spec)
	if err != nil {
		return RunInfo{}, err
	}
	var out RunInfo
	err = r.sh.withService(func(svc service.Service) error {
		ctx := context.Background()
		j, err := svc.SubmitJob(ctx, desktopCaller, req)
		if err != nil {
			return err
		}
		out, err = r.info(ctx, svc, j)
		return err
	})
	return out, err
}

// jobRequestOf turns the compose box's spec into the Service's request,
// from the desktop user: the one place a RunSpec's own form (its kind
// names, its zip count, a template or an edited text) is read.
func jobRequestOf(spec RunSpec) (service.JobRequest, error) {
	req := service.JobRequest{Kind: service.KindAsk, Prompt: spec.Prompt, Site: strings.TrimSpace(spec.Site),
		Model: strings.TrimSpace(spec.Model), Effort: strings.TrimSpace(spec.Effort), Tool: strings.TrimSpace(spec.Tool), TabID: strings.TrimSpace(spec.TabID), NewChat: spec.NewChat,
		SessionID: strings.TrimSpace(spec.FollowUp), ShownRun: strings.TrimSpace(spec.ShownRun), RequestedBy: service.DesktopRequester,
		Temporary: spec.Temporary, ArchiveAfter: spec.ArchiveAfter, Project: strings.TrimSpace(spec.Project), GPT: strings.TrimSpace(spec.GPT)}
	for _, f := range spec.Files {
		if f = strings.TrimSpace(f); f != "" {
			req.Files = append(req.Files, f)
		}
	}
	if name := strings.TrimSpace(spec.Template); name != "" {
		if strings.TrimSpace(spec.Prompt) != "" {
			return service.JobRequest{}, errs.New(errs.BadInput, "the run has both a prompt and template %s", name).
				WithHint("send the template's variables without the text, or the edited text without the template")
		}
		req.Prompt, req.Template, req.Vars = "", name, spec.Vars
	} else if len(spec.Vars) > 0 {
		return service.JobRequest{}, errs.New(errs.BadInput, "the run has template variables but no template").WithHint("choose the template again")
	}
	if req.Model == defaultModel {
		req.Model = ""
	}
	switch spec.Kind {
	case "", runKindAsk:
	case runKindCode:
		if spec.Zips != "" && spec.Zips != "one" && spec.Zips != "several" {
			return service.JobRequest{}, errs.New(errs.BadInput, "code mode asks for one zip or several, not %q", spec.Zips)
		}
		req.Kind, req.Contract, req.MultiZip, req.AllowInline = service.KindCode, strings.TrimSpace(spec.Contract), spec.Zips == "several", spec.AllowInline
		req.RepoRoot = strings.TrimSpace(spec.RepoRoot)
		for _, p := range spec.SourcePaths {
			if p = strings.TrimSpace(p); p != "" {
				req.SourcePaths = append(req.SourcePaths, p)
			}
		}
	default:
		return service.JobRequest{}, errs.New(errs.BadInput, "unknown run kind %q", spec.Kind).WithHint("send an ask or a code run")
	}
	return req, nil
}

// BroadcastSpec is one prompt for several sites.
type BroadcastSpec struct {
	// Prompt is the text; or Template with Vars, as in RunSpec.
	Prompt   string            `json:"prompt"`
	Template string            `json:"template"`
	Vars     map[string]string `json:"vars"`
	Sites    []string          `json:"sites"`
	// Models maps a site to its model alias ("" or absent: the site's).
	Models map[string]string `json:"models"`
	// NewChat asks every site in a fresh chat of its own new tab, so that
	// several open tabs of a site do not stop its run (tab_ambiguous).
	NewChat bool `json:"newChat"`
	// Files go to every site, as RunSpec.Files.
	Files []string `json:"files"`
}

// Broadcast sends spec's prompt to every site of spec.Sites at once (each
// in its open tab, or a new one; in a new chat with NewChat), with
// spec.Models[site] as that site's model. It returns the runs in the order
// of the sites. Nothing is sent when a site is unknown or repeated; the
// requests differ in their site and model alone, so one the Service
// refuses (an empty prompt) is refused for the first site, before anything
// is sent. Errors: bad_input for no sites, a repeated site, an empty
// prompt, or a prompt with a template; unknown_site; as Start for a run
// that could not be created (the runs before it are running).
func (r *Runs) Broadcast(spec BroadcastSpec) ([]RunInfo, error) {
	if len(spec.Sites) == 0 {
		return nil, errs.New(errs.BadInput, "a broadcast needs at least one site").WithHint("tick the sites to send to")
	}
	reqs := make([]service.JobRequest, 0, len(spec.Sites))
	seen := map[string]bool{}
	for _, id := range spec.Sites {
		if seen[id] {
			return nil, errs.New(errs.BadInput, "%s is listed twice in the broadcast", id)
		}
		seen[id] = true
		req, err := jobRequestOf(RunSpec{Site: id, Model: spec.Models[id], Prompt: spec.Prompt, Template: spec.Template, Vars: spec.Vars, NewChat: spec.NewChat, Files: spec.Files})
		if err != nil {
			return nil, err
		}
		reqs = append(reqs, req)
	}
	out := []RunInfo{}
	err := r.sh.withService(func(svc service.Service) error {
		ctx := context.Background()
		for _, id := range spec.Sites {
			// The registry's own answer for an unknown site, before
			// anything is sent.
			if _, err := svc.ListModels(ctx, desktopCaller, service.ListModelsRequest{Site: id}); err != nil {
				return err
			}
		}
		// Its runs' ends make one notification (notify.Groups).
		return r.sh.notes.Broadcast(func(add func(string)) error {
			for i, req := range reqs {
				j, err := svc.SubmitJob(ctx, desktopCaller, req)
				if err != nil {
					return fmt.Errorf("start the %s run: %w", spec.Sites[i], err)
				}
				add(j.ID)
				info, err := r.info(ctx, svc, j)
				if err != nil {
					return err
				}
				out = append(out, info)
			}
			return nil
		})
	})
	return out, err
}

// Cancel stops run id (a run whose prompt was already sent stays
// collectable) and returns its state then. Errors: hub_not_found.
func (r *Runs) Cancel(id string) (RunInfo, error) {
	info, err := r.jobCall(func(ctx context.Context, svc service.Service) (service.Job, error) {
		return svc.CancelJob(ctx, desktopCaller, service.JobRef{ID: id})
	})
	if err != nil {
		slog.Warn("run not cancelled", "run", id, "err", err)
	} else {
		slog.Info("run cancelled", "run", id, "state", info.State, "ended", info.Ended)
	}
	return info, err
}

// Collect collects the rest of the answer of run id, which was stopped
// after its prompt was sent (RunInfo.Collectable), without sending the
// prompt again: the run's reattach, as a new run whose progress comes as
// EventRun events. Errors: hub_not_found; bad_input for a run that has no
// session yet; session_stale when the run's tab is gone.
func (r *Runs) Collect(id string) (RunInfo, error) {
	return r.jobCall(func(ctx context.Context, svc service.Service) (service.Job, error) {
		j, err := svc.GetJob(ctx, desktopCaller, service.JobRef{ID: id})
		if err != nil {
			return service.Job{}, err
		}
		if j.Detail == nil || j.Detail.Run == nil {
			return service.Job{}, errs.New(errs.BadInput, "run %s stopped before it began: there is nothing to collect", id).
				WithHint("send the prompt again")
		}
		res, err := svc.ReattachSession(ctx, desktopCaller, service.ReattachRequest{Session: j.Detail.Run.ID})
		return res.Job, err
	})
}

// Retry sends run id's prompt again, to the same site, tab and model, as a
// new run, and returns the new run. Errors: hub_not_found; as Start.
func (r *Runs) Retry(id string) (RunInfo, error) {
	return r.jobCall(func(ctx context.Context, svc service.Service) (service.Job, error) {
		return svc.RetryJob(ctx, desktopCaller, service.JobRef{ID: id})
	})
}

// jobCall runs call and shows the job it returns.
func (r *Runs) jobCall(call func(context.Context, service.Service) (service.Job, error)) (RunInfo, error) {
	var out RunInfo
	err := r.sh.withService(func(svc service.Service) error {
		ctx := context.Background()
		j, err := call(ctx, svc)
		if err != nil {
			return err
		}
		out, err = r.info(ctx, svc, j)
		return err
	})
	return out, err
}

// Get returns run id with its session and the session's timeline. Errors:
// hub_not_found; store errors.
func (r *Runs) Get(id string) (RunInfo, error) {
	var out RunInfo
	err := r.sh.withService(func(svc service.Service) error {
		ctx := context.Background()
		j, err := svc.GetJob(ctx, desktopCaller, service.JobRef{ID: id})
		if err != nil {
			return err
		}
		out = runInfoOf(j)
		one := []RunInfo{out}
		nameClients(ctx, svc, one)
		out = one[0]
		if j.Detail == nil || j.Detail.Run == nil {
			return nil
		}
		view, err := svc.ViewSession(ctx, desktopCaller, service.SessionRef{ID: j.Detail.Run.ID})
		if err != nil {
			return err
		}
		out.Session, out.Timeline = view.Session, view.Journal
		trash.MarkFiles(out.Session, os.Getenv)
		return nil
	})
	return out, err
}

// info is the panel's view of j: its run redacted as for export, once it
// started (without its timeline; Get adds that).
func (r *Runs) info(ctx context.Context, svc service.Service, j service.Job) (RunInfo, error) {
	out := runInfoOf(j)
	if j.Detail == nil || j.Detail.Run == nil {
		return out, nil
	}
	view, err := svc.ViewSession(ctx, desktopCaller, service.SessionRef{ID: j.Detail.Run.ID})
	if err != nil {
		return RunInfo{}, err
	}
	out.Session = view.Session
	return out, nil
}

// runInfoOf reads a job of the Service, without its run's record (which
// the panel shows redacted: see info).
func runInfoOf(j service.Job) RunInfo {
	var d service.JobDetail
	if j.Detail != nil {
		d = *j.Detail
	}
	out := RunInfo{ID: j.ID, Kind: string(j.Kind), State: j.State, Ended: d.Ended, RequestedBy: j.RequestedBy,
		Origin: originOf(j.RequestedBy), Template: d.Spec.Template, Vars: d.Spec.Vars, Site: d.Spec.Site, TabID: d.Spec.TabID, Model: d.Spec.Model, Prompt: d.Spec.Prompt, NewChat: d.Spec.NewChat,
		Created: j.CreatedAt, Updated: j.UpdatedAt, Error: wording.ForDesktop(j.Error), Timeline: []service.JournalEntry{}}
	if run := d.Run; run != nil {
		if out.Prompt == "" {
			out.Prompt = run.Prompt // a template's rendering
		}
		if out.Site == "" {
			out.Site = run.Site
		}
	}
	if out.Prompt == "" && d.Spec.Template != "" {
		out.Prompt = d.Spec.Text()
	}
	// A run cancelled while it streamed is cancelled with its partial
	// answer, and the rest may still be collected.
	if run := d.Run; out.Ended && run != nil && run.Collectable() {
		out.Collectable = true
	}
	// A run stopped otherwise after the send stays in its session's state
	// (the answer may still be collected); the panel shows it as cancelled.
	if st := record.State(out.State); out.Ended && st.Valid() && !st.Terminal() {
		out.Collectable = true
		if out.Error != nil && out.Error.Code == errs.Cancelled {
			out.State = string(record.StateCancelled)
		}
	}
	out.State = wording.ShownState(out.Ended, out.State, out.Error)
	return out
}

// Sites lists the site registry (built-in sites and the user's), sorted by
// id. Errors: config_invalid for a site override that does not parse.
func (r *Runs) Sites() ([]service.SiteInfo, error) {
	out := []service.SiteInfo{}
	err := r.sh.withService(func(svc service.Service) error {
		list, err := svc.ListSites(context.Background(), desktopCaller, service.ListSitesRequest{})
		if list != nil {
			out = list
		}
		return err
	})
	return out, err
}

// Models lists the model aliases of site siteID from the capability
// registry ("default" first), each with its features. Errors: unknown_site;
// config_invalid.
func (r *Runs) Models(siteID string) ([]service.ModelInfo, error) {
	out := []service.ModelInfo{}
	err := r.sh.withService(func(svc service.Service) error {
		list, err := svc.ListModels(context.Background(), desktopCaller, service.ListModelsRequest{Site: siteID})
		if list != nil {
			out = list
		}
		return err
	})
	return out, err
}

// Templates lists the prompt templates: the built-in ones and the user's.
// Errors: store errors.
func (r *Runs) Templates() ([]service.Template, error) {
	out := []service.Template{}
	err := r.sh.withService(func(svc service.Service) error {
		list, err := svc.ListTemplates(context.Background(), desktopCaller, service.ListTemplatesRequest{})
		if list != nil {
			out = list
		}
		return err
	})
	return out, err
}

// RenderTemplate fills template name's variables with vars and returns the
// prompt. Errors: bad_input naming a missing or unknown variable, or an
// unknown template.
func (r *Runs) RenderTemplate(name string, vars map[string]string) (string, error) {
	var out string
	err := r.sh.withService(func(svc service.Service) error {
		res, err := svc.RenderTemplate(context.Background(), desktopCaller, service.RenderRequest{Name: name, Vars: vars})
		out = res.Text
		return err
	})
	return out, err
}
