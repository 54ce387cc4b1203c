package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/site"
)

// Runs is the frontend's API for sending prompts. Every run goes through
// the hub backend's job runner, the same one agents' jobs use, with the
// app's long-lived browser; the desktop's runs need no approval and their
// sessions have origin desktop. Progress arrives as EventRun events.
type Runs struct {
	sh *shell
}

// Run kinds of RunSpec.Kind.
const (
	runKindAsk  = "ask"
	runKindCode = "code"
)

// RunSpec is one prompt to send.
type RunSpec struct {
	// Kind is "ask" (the default) or "code" (the answer's sandbox zips are
	// retrieved and verified).
	Kind string `json:"kind"`
	// Site is a site id; TabID pins the run to exactly that tab (its site
	// is inferred). One of the two is needed.
	Site  string `json:"site"`
	TabID string `json:"tabId"`
	// Model is a model alias of the site; "" keeps the site's selection.
	Model  string `json:"model"`
	Prompt string `json:"prompt"`
	// Template names the template whose rendering with Vars is the prompt
	// (Prompt then stays empty): the session records the template's name.
	// A prompt edited after rendering is sent as Prompt, without Template.
	Template string            `json:"template"`
	Vars     map[string]string `json:"vars"`
	// NewChat opens a fresh chat in a new tab of Site.
	NewChat bool `json:"newChat"`

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
	// after its prompt was sent: State then says cancelled, the session
	// keeps the state it stopped in, and `ferry reattach` can still
	// collect the answer.
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
	Session *job.Session `json:"session"`
	// Timeline is the session's journal: every state with its time.
	Timeline []job.Entry `json:"timeline"`
}

// ModelInfo is one model alias of a site with what Ferry can do with it.
type ModelInfo struct {
	Alias    string   `json:"alias"`
	Features []string `json:"features"`
}

// SiteInfo is a site of the registry, for the pickers.
type SiteInfo struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Address string `json:"address"`
	// Code says the site can produce sandbox zips (code mode).
	Code    bool `json:"code"`
	Builtin bool `json:"builtin"`
}

// Start sends spec as a new run and returns it as created (its progress
// comes as EventRun events). Errors: bad_input for an empty prompt, no
// site and no tab, a new chat with a tab or in code mode, an unknown kind,
// a repository root without paths (or the reverse); unknown_site;
// capability_missing for code mode on a site without sandbox zips; store
// errors.
func (r *Runs) Start(spec RunSpec) (RunInfo, error) {
	js, err := jobSpecOf(spec)
	if err != nil {
		return RunInfo{}, err
	}
	var out RunInfo
	err = r.sh.withHub(func(c *core.Core, h *ownerHub) error {
		j, err := h.backend.CreateJob(context.Background(), js, core.CreateOptions{})
		if err != nil {
			return err
		}
		out, err = runInfoOf(j)
		return err
	})
	return out, err
}

// jobSpecOf turns the UI's spec into the hub's, from the desktop user.
func jobSpecOf(spec RunSpec) (hub.JobSpec, error) {
	js := hub.JobSpec{Kind: hub.KindAsk, Prompt: spec.Prompt, Site: strings.TrimSpace(spec.Site),
		Model: strings.TrimSpace(spec.Model), TabID: strings.TrimSpace(spec.TabID), NewChat: spec.NewChat,
		RequestedBy: core.DesktopRequester}
	if name := strings.TrimSpace(spec.Template); name != "" {
		if strings.TrimSpace(spec.Prompt) != "" {
			return hub.JobSpec{}, errs.New(errs.BadInput, "the run has both a prompt and template %s", name).
				WithHint("send the template's variables without the text, or the edited text without the template")
		}
		js.Prompt, js.Template, js.Vars = "", name, spec.Vars
	} else if len(spec.Vars) > 0 {
		return hub.JobSpec{}, errs.New(errs.BadInput, "the run has template variables but no template").WithHint("choose the template again")
	}
	if js.Model == site.DefaultModel {
		js.Model = ""
	}
	switch spec.Kind {
	case "", runKindAsk:
	case runKindCode:
		if spec.Zips != "" && spec.Zips != "one" && spec.Zips != "several" {
			return hub.JobSpec{}, errs.New(errs.BadInput, "code mode asks for one zip or several, not %q", spec.Zips)
		}
		js.Kind, js.Contract, js.MultiZip, js.AllowInline = hub.KindCode, strings.TrimSpace(spec.Contract), spec.Zips == "several", spec.AllowInline
		js.RepoRoot = strings.TrimSpace(spec.RepoRoot)
		for _, p := range spec.SourcePaths {
			if p = strings.TrimSpace(p); p != "" {
				js.SourcePaths = append(js.SourcePaths, p)
			}
		}
	default:
		return hub.JobSpec{}, errs.New(errs.BadInput, "unknown run kind %q", spec.Kind).WithHint("send an ask or a code run")
	}
	return js, nil
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
}

// Broadcast sends spec's prompt to every site of spec.Sites at once (each
// in its open tab, or a new one; in a new chat with NewChat), with
// spec.Models[site] as that site's model. It returns the runs in the order
// of the sites. Nothing is sent when a site is unknown or repeated.
// Errors: bad_input for no sites, a repeated site, an empty prompt, or a
// prompt with a template; unknown_site; as Start for a run that could not
// be created (the runs before it are running).
func (r *Runs) Broadcast(spec BroadcastSpec) ([]RunInfo, error) {
	sites, models := spec.Sites, spec.Models
	if len(sites) == 0 {
		return nil, errs.New(errs.BadInput, "a broadcast needs at least one site").WithHint("tick the sites to send to")
	}
	if strings.TrimSpace(spec.Prompt) == "" && strings.TrimSpace(spec.Template) == "" {
		return nil, errs.New(errs.BadInput, "the prompt is empty")
	}
	out := []RunInfo{}
	err := r.sh.withHub(func(c *core.Core, h *ownerHub) error {
		reg, err := c.Sites()
		if err != nil {
			return err
		}
		seen := map[string]bool{}
		for _, id := range sites {
			if seen[id] {
				return errs.New(errs.BadInput, "%s is listed twice in the broadcast", id)
			}
			seen[id] = true
			if _, err := reg.Get(id); err != nil {
				return err
			}
		}
		for _, id := range sites {
			js, err := jobSpecOf(RunSpec{Site: id, Model: models[id], Prompt: spec.Prompt, Template: spec.Template, Vars: spec.Vars, NewChat: spec.NewChat})
			if err != nil {
				return err
			}
			j, err := h.backend.CreateJob(context.Background(), js, core.CreateOptions{})
			if err != nil {
				return fmt.Errorf("start the %s run: %w", id, err)
			}
			info, err := runInfoOf(j)
			if err != nil {
				return err
			}
			out = append(out, info)
		}
		return nil
	})
	return out, err
}

// Cancel stops run id (a run whose prompt was already sent stays
// collectable) and returns its state then. Errors: hub_not_found.
func (r *Runs) Cancel(id string) (RunInfo, error) {
	var out RunInfo
	err := r.sh.withHub(func(c *core.Core, h *ownerHub) error {
		j, err := h.backend.CancelJob(context.Background(), id)
		if err != nil {
			return err
		}
		out, err = runInfoOf(j)
		return err
	})
	return out, err
}

// Retry sends run id's prompt again, to the same site, tab and model, as a
// new run, and returns the new run. Errors: hub_not_found; as Start.
func (r *Runs) Retry(id string) (RunInfo, error) {
	var out RunInfo
	err := r.sh.withHub(func(c *core.Core, h *ownerHub) error {
		ctx := context.Background()
		j, err := h.backend.GetJob(ctx, id)
		if err != nil {
			return err
		}
		if j.Detail == nil {
			return errs.New(errs.StoreCorrupt, "read run %s: it carries no record", id)
		}
		spec := j.Detail.Spec
		spec.RequestedBy = core.DesktopRequester
		nj, err := h.backend.CreateJob(ctx, spec, core.CreateOptions{})
		if err != nil {
			return err
		}
		out, err = runInfoOf(nj)
		return err
	})
	return out, err
}

// Get returns run id with its session and the session's timeline. Errors:
// hub_not_found; store errors.
func (r *Runs) Get(id string) (RunInfo, error) {
	var out RunInfo
	err := r.sh.withHub(func(c *core.Core, h *ownerHub) error {
		ctx := context.Background()
		j, err := h.backend.GetJob(ctx, id)
		if err != nil {
			return err
		}
		if out, err = runInfoOf(j); err != nil {
			return err
		}
		one := []RunInfo{out}
		nameClients(ctx, h, one)
		if out = one[0]; out.Session == nil {
			return nil
		}
		repo, err := c.Sessions(ctx)
		if err != nil {
			return err
		}
		out.Timeline, err = repo.Journal(ctx, out.Session.ID)
		return err
	})
	return out, err
}

// runInfoOf reads a hub job of this backend.
func runInfoOf(j hub.Job) (RunInfo, error) {
	var d service.JobDetail
	if j.Detail != nil {
		d = *j.Detail
	}
	out := RunInfo{ID: j.ID, Kind: string(j.Kind), State: j.State, Ended: d.Ended, RequestedBy: j.RequestedBy,
		Origin: originOf(j.RequestedBy), Template: d.Spec.Template, Vars: d.Spec.Vars, Site: d.Spec.Site, TabID: d.Spec.TabID, Model: d.Spec.Model, Prompt: d.Spec.Prompt, NewChat: d.Spec.NewChat,
		Created: j.CreatedAt, Updated: j.UpdatedAt, Error: j.Error, Timeline: []job.Entry{}}
	if run := core.SessionOf(d.Run); run != nil {
		out.Session = job.Redacted(run)
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
	// A run stopped after the send stays in its session's state (the
	// answer may still be collected); the panel shows it as cancelled.
	if st := job.State(out.State); out.Ended && st.Valid() && !st.Terminal() {
		out.Collectable = true
		if out.Error != nil && out.Error.Code == errs.Cancelled {
			out.State = string(job.StateCancelled)
		}
	}
	return out, nil
}

// Sites lists the site registry (built-in sites and the user's), sorted by
// id. Errors: config_invalid for a site override that does not parse.
func (r *Runs) Sites() ([]SiteInfo, error) {
	out := []SiteInfo{}
	err := r.sh.withCore(func(c *core.Core) error {
		reg, err := c.Sites()
		if err != nil {
			return err
		}
		for _, s := range reg.Sites() {
			out = append(out, SiteInfo{ID: s.ID, Name: s.Name, Address: s.Address, Code: s.Has(site.FeatureCodeArtifacts), Builtin: s.Builtin})
		}
		return nil
	})
	return out, err
}

// Models lists the model aliases of site siteID from the capability
// registry ("default" first), each with its features. Errors: unknown_site;
// config_invalid.
func (r *Runs) Models(siteID string) ([]ModelInfo, error) {
	out := []ModelInfo{}
	err := r.sh.withCore(func(c *core.Core) error {
		reg, err := c.Sites()
		if err != nil {
			return err
		}
		s, err := reg.Get(siteID)
		if err != nil {
			return err
		}
		aliases := s.ModelAliases()
		for i, a := range aliases {
			if a == site.DefaultModel && i > 0 {
				aliases[0], aliases[i] = aliases[i], aliases[0]
			}
		}
		for _, a := range aliases {
			fs, err := s.FeaturesFor(a)
			if err != nil {
				return err
			}
			names := make([]string, 0, len(fs))
			for _, f := range fs {
				names = append(names, string(f))
			}
			out = append(out, ModelInfo{Alias: a, Features: names})
		}
		return nil
	})
	return out, err
}

// Templates lists the prompt templates: the built-in ones and the user's.
// Errors: store errors.
func (r *Runs) Templates() ([]core.TemplateInfo, error) {
	out := []core.TemplateInfo{}
	err := r.sh.withCore(func(c *core.Core) error {
		list, err := c.Templates().List(context.Background())
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
	err := r.sh.withCore(func(c *core.Core) error {
		var err error
		out, err = c.RenderTemplate(context.Background(), name, vars)
		return err
	})
	return out, err
}
