package codemode

import (
	"context"
	"time"

	"github.com/ferrydesk/ferry/backend/attach"
	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/prompt"
	"github.com/ferrydesk/ferry/backend/site"
)

// SiteID is the site whose sandbox code mode drives: its prompts name the
// sandbox's /mnt/data paths and its adapter is a provider.ArtifactSource.
const SiteID = "chatgpt"

// DefaultTimeout is the deadline of a code run whose request gives none.
const DefaultTimeout = 30 * time.Minute

// Request is one code-mode run: the site builds a project in its sandbox
// and the verified zips come home.
type Request struct {
	// Site must be "" or SiteID; with TargetID and Conversation empty it
	// is required.
	Site string
	// Model is a model alias of the site; "" keeps the selected one.
	Model string
	// Effort is a reasoning-effort tier of the site; "" keeps the selected one.
	Effort string
	// Prompt is the task, or "" with a Template rendered with Vars.
	Prompt   string
	Template string
	Vars     map[string]string
	// TargetID pins the run to exactly that tab.
	TargetID string
	// NewChat runs the task in a new tab on the site's new-chat address;
	// it excludes TargetID and Conversation.
	NewChat bool
	// Browser is a connected browser to use (not closed); when nil the
	// run opens one through its Host and closes it.
	Browser *browser.Browser
	// Timeout bounds the whole run (default DefaultTimeout).
	Timeout time.Duration
	// RateLimitCooldown is the wait after a rate-limit refusal before the
	// one retry (default: the settings').
	RateLimitCooldown time.Duration
	// Origin says who asked (default job.OriginCLI).
	Origin job.Origin
	// Files are attached to the first message, already checked against
	// the site (attach.Prepare): each proven in the composer before the
	// prompt is typed.
	Files []attach.File
	// OnEvent receives the events of each step's run, on the run's
	// goroutine.
	OnEvent func(job.Event)

	Options
}

// Options are what a code run asks of ChatGPT beyond a prompt: where it
// continues, how the zips come home, and the output contract. A face's
// request carries them as they are (runs.CodeRequest).
type Options struct {
	// Conversation continues the conversation <site>/c/<Conversation>: in
	// the tab that shows it (or TargetID, which must show it), else in a
	// new background tab.
	Conversation string
	// MultiZip asks for one named zip per logical part instead of one zip.
	MultiZip bool
	// AllowInline saves the answer's code blocks as a verified zip when the
	// answer has no sandbox zip.
	AllowInline bool
	// OutDir receives the zips, sidecars, the source provenance and the
	// receipt; "" is the settings' artifacts.outputDir, else the Host's
	// artifacts directory. It is created when missing.
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

// Outcome is everything a code run produced: the receipt written beside
// the outputs and the session of each step sent (one, or up to three for
// the all contract), the last one holding the artifacts.
type Outcome struct {
	Receipt  *Receipt
	Sessions []*job.Session
}

// Last is the session of the last step sent, or nil when none was created.
func (o *Outcome) Last() *job.Session {
	if o == nil || len(o.Sessions) == 0 {
		return nil
	}
	return o.Sessions[len(o.Sessions)-1]
}

// Tabs is how code mode reaches the browser and its tabs; core wires it.
type Tabs interface {
	// OpenBrowser connects to the run's browser (launched or attached);
	// the caller closes it. Errors: the browser's envelopes.
	OpenBrowser(ctx context.Context) (*browser.Browser, error)
	// ResolveTab finds the tab a run drives: exactly tabID when given,
	// else the one open tab of siteID, or a new one (created). Errors:
	// BadInput, NavigatedAway, TabAmbiguous, UnknownSite, the browser's.
	ResolveTab(ctx context.Context, b *browser.Browser, reg *site.Registry, siteID, tabID string) (page *browser.Page, s site.Site, created bool, err error)
	// NewChatTab is a tab on the site's new-chat address: a new one
	// (created), or a free one of the requester's own navigated there.
	// Errors: UnknownSite, the browser's.
	NewChatTab(ctx context.Context, b *browser.Browser, reg *site.Registry, siteID string) (page *browser.Page, s site.Site, created bool, err error)
}

// Host is what a code run takes from the application that wires it.
type Host interface {
	Tabs
	// Settings are the settings in force.
	Settings() config.Settings
	// ArtifactsDir is the output directory when neither the request nor
	// the settings name one.
	ArtifactsDir() string
	// Sites is the site registry with the settings' overrides. Errors:
	// ConfigInvalid.
	Sites() (*site.Registry, error)
	// Sessions is the run history. Errors: the store's envelopes.
	Sessions(ctx context.Context) (*job.Repo, error)
	// Task is the prompt text, or the rendering of template with vars
	// (exactly one of them). Errors: BadInput for both or vars without a
	// template, TemplateNotFound, a missing variable's BadInput.
	Task(ctx context.Context, text, template string, vars map[string]string) (string, error)
}
