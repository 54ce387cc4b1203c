package service

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
)

// Desktop is what the owner's window needs beyond the jobs, sessions and
// tabs every face uses: the settings, the owner's long-lived browser, the
// site registry, the artifacts library, the history as the window shows it
// (redacted, with dates), the runs going on now and the setup checks. The
// owner's faces may do all of it; an agent none of it (errs.HubForbidden).
//
// An implementation without the thing asked for (a remote one for an
// operation only the owner process can serve) answers InProcessOnly.
type Desktop interface {
	// Settings returns the settings in force.
	Settings(ctx context.Context, c Caller, req SettingsRequest) (config.Settings, error)
	// SaveSettings saves the settings atomically; on success they are in
	// force at once and returned (errs.ConfigInvalid changes nothing).
	SaveSettings(ctx context.Context, c Caller, req SaveSettingsRequest) (config.Settings, error)
	// CheckSites checks a "sites" setting's text without saving it: its
	// JSON, each entry, and the sites they make over the built-in ones.
	CheckSites(ctx context.Context, c Caller, req CheckSitesRequest) (SitesSetting, error)
	// ApplySiteOverride adds a "sites" entry (a site check's override) to
	// the settings, checked as SaveSettings checks them, and returns the
	// settings in force (errs.ConfigInvalid changes nothing).
	ApplySiteOverride(ctx context.Context, c Caller, req ApplySiteOverrideRequest) (config.Settings, error)

	// ListSites lists the site registry, built-in and the user's, by id.
	ListSites(ctx context.Context, c Caller, req ListSitesRequest) ([]SiteInfo, error)
	// ListModels lists a site's model aliases ("default" first) with
	// their features (errs.UnknownSite).
	ListModels(ctx context.Context, c Caller, req ListModelsRequest) ([]ModelInfo, error)

	// RetryJob submits a job's request again as a new job of c.
	RetryJob(ctx context.Context, c Caller, req JobRef) (Job, error)
	// RetryRun submits a stored run's request again as a new job of c,
	// unless its prompt may already be at the site and the request does
	// not confirm sending it again (the result then says why).
	RetryRun(ctx context.Context, c Caller, req RetryRunRequest) (RetryRunResult, error)
	// ListActiveJobs lists the jobs going on now, whoever asked, oldest
	// first.
	ListActiveJobs(ctx context.Context, c Caller, req ListActiveJobsRequest) ([]Job, error)

	// ViewSession returns a run, resolved by id or unambiguous prefix,
	// redacted as for export, with its journal.
	ViewSession(ctx context.Context, c Caller, req SessionRef) (SessionDetail, error)
	// SearchHistory searches the runs for a history list: the hits alone,
	// never whole runs, and how many matched.
	SearchHistory(ctx context.Context, c Caller, req HistoryQuery) (HistoryPage, error)

	// ListArtifacts lists the zips and generated images of the artifacts
	// directory and the zips of its quarantine, newest first, each checked
	// against its provenance (req.Path: only the file at that path).
	ListArtifacts(ctx context.Context, c Caller, req ListArtifactsRequest) (ArtifactList, error)

	// BrowserState describes the owner's long-lived browser without
	// connecting it.
	BrowserState(ctx context.Context, c Caller, req BrowserStateRequest) (BrowserState, error)
	// ConnectBrowser connects the owner's browser unless it is connected
	// (or, with Reconnect, drops it and connects again with the settings
	// in force) and returns its state, also with the error.
	ConnectBrowser(ctx context.Context, c Caller, req ConnectBrowserRequest) (BrowserState, error)
	// TabStates lists the tabs of the owner's browser with what a run
	// would meet in each; none when the browser is not connected (it is
	// not started for this).
	TabStates(ctx context.Context, c Caller, req TabStatesRequest) ([]TabState, error)
	// TabAction shows, closes or shows the login page of one tab of the
	// owner's browser (errs.TargetNotFound for a tab that is not open;
	// errs.UnknownSite for login on a tab of no known site).
	TabAction(ctx context.Context, c Caller, req TabActionRequest) (TabActionResult, error)

	// CheckSetup runs the setup checks of `ferry doctor` for this data
	// directory.
	CheckSetup(ctx context.Context, c Caller, req CheckSetupRequest) (SetupReport, error)

	// Welcome says whether the window opens on its Get started view (no
	// site ever used, the view not dismissed) and whether a site is
	// logged in (welcome.go).
	Welcome(ctx context.Context, c Caller, req WelcomeRequest) (Welcome, error)
	// SiteLogins reads, in the tabs of the owner's browser and without
	// starting it, whether a user is logged in to each site of the
	// registry, by id.
	SiteLogins(ctx context.Context, c Caller, req SiteLoginsRequest) ([]SiteLogin, error)
	// OpenLogin opens the site's login page in the owner's browser
	// (starting it), in a tab already on it or a new one, and brings that
	// tab and its window to the front: the one operation that does, as the
	// user asked to see it (errs.UnknownSite; errs.CapabilityMissing for a
	// browser without a window).
	OpenLogin(ctx context.Context, c Caller, req OpenLoginRequest) (SiteLogin, error)
	// DismissWelcome records in the settings that the user left the Get
	// started view, and returns the settings in force.
	DismissWelcome(ctx context.Context, c Caller, req DismissWelcomeRequest) (config.Settings, error)

	// CheckFiles checks the files a run would attach on a site (its
	// capability, limits, the files' sizes and names as sent) without
	// attaching or sending anything: every file's verdict at once. The
	// refusals are in the FilesCheck; the error is for the request itself
	// (errs.UnknownSite, errs.ConfigInvalid).
	CheckFiles(ctx context.Context, c Caller, req FilesCheckRequest) (FilesCheck, error)

	// ShowRunTab shows the tab of a run's conversation in the owner's
	// browser (connecting it first): the tab in front, its window raised;
	// a tab opened on the conversation when none shows it any more.
	ShowRunTab(ctx context.Context, c Caller, req SessionRef) (TabState, error)
}

// InProcessOnly is the envelope of an implementation that cannot serve op
// (the remote one, for what only the owner's own process can do).
func InProcessOnly(op string) *errs.Envelope {
	return errs.New(errs.CapabilityMissing, "%s is only available in the Ferry process that owns the data directory", op).
		WithHint("do it in the Ferry app, or in `ferry serve`'s own process")
}

// SettingsRequest asks for the settings in force.
type SettingsRequest struct{}

// Validate accepts every request.
func (SettingsRequest) Validate() error { return nil }

// SaveSettingsRequest saves Settings.
type SaveSettingsRequest struct {
	Settings config.Settings `json:"settings"`
}

// Validate checks the settings. Errors: errs.ConfigInvalid naming the field
// (a *config.FieldError in the chain).
func (r SaveSettingsRequest) Validate() error { return r.Settings.Validate() }

// CheckSitesRequest checks Text as the "sites" setting.
type CheckSitesRequest struct {
	Text string `json:"text"`
}

// Validate accepts every request: the text is the implementation's to
// check, with the line and column of each problem.
func (CheckSitesRequest) Validate() error { return nil }

// SitesSetting is a checked "sites" setting: one JSON object per entry.
type SitesSetting struct {
	Sites []json.RawMessage `json:"sites"`
}

// ListSitesRequest lists the site registry.
type ListSitesRequest struct{}

// Validate accepts every request.
func (ListSitesRequest) Validate() error { return nil }

// SiteInfo is a site of the registry, for the pickers.
type SiteInfo struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Address string `json:"address"`
	// Code says the site can produce sandbox zips (code mode).
	Code    bool `json:"code"`
	Builtin bool `json:"builtin"`
	// Efforts are the site's effort tiers, cheapest first (none: the site
	// has no effort choice).
	Efforts []string `json:"efforts,omitempty"`
	// Tools are the tools its composer offers for a prompt (none: the
	// site offers none Ferry can choose).
	Tools []string `json:"tools,omitempty"`
	// Temporary says the site has a temporary chat (JobRequest.Temporary);
	// Places that it opens a new chat in a project or custom GPT, lists
	// the account's projects (ListProjects) and archives a conversation
	// (JobRequest.Project, GPT, ArchiveAfter).
	Temporary bool `json:"temporary,omitempty"`
	Places    bool `json:"places,omitempty"`
}

// ListModelsRequest lists the model aliases of Site.
type ListModelsRequest struct {
	Site string `json:"site"`
}

// Validate checks the request. Errors: errs.BadInput for no site.
func (r ListModelsRequest) Validate() error {
	if strings.TrimSpace(r.Site) == "" {
		return errs.New(errs.BadInput, "listing models needs a site").WithHint("name the site, e.g. chatgpt")
	}
	return nil
}

// ModelInfo is one model alias of a site with what Ferry can do with it.
type ModelInfo struct {
	Alias    string   `json:"alias"`
	Features []string `json:"features"`
}

// ListActiveJobsRequest lists the jobs going on now.
type ListActiveJobsRequest struct{}

// Validate accepts every request.
func (ListActiveJobsRequest) Validate() error { return nil }

// HistoryQuery narrows the history: fuzzy Query (best match first; without
// it newest first), exact Site, State and Tool ("" for any; Tool "none"
// keeps the runs that asked for no tool), the creation time
// from From (inclusive) to To (exclusive), zero for no bound, and at most
// Limit hits (0: the default).
type HistoryQuery struct {
	Query string `json:"query,omitempty"`
	Site  string `json:"site,omitempty"`
	State string `json:"state,omitempty"`
	// States lets a run in any of them through (the History view's "running"
	// is several of the pipeline's states).
	States []string `json:"states,omitempty"`
	// Tool is a site's tool the runs asked for, or "none" (an unknown one
	// is errs.BadInput from the implementation, naming those there are).
	Tool  string    `json:"tool,omitempty"`
	From  time.Time `json:"from,omitzero"`
	To    time.Time `json:"to,omitzero"`
	Limit int       `json:"limit,omitempty"`
}

// Validate checks the query. Errors: errs.BadInput for a limit outside 0
// to MaxListLimit, or From not before To.
func (q HistoryQuery) Validate() error {
	if !q.From.IsZero() && !q.To.IsZero() && !q.From.Before(q.To) {
		return errs.New(errs.BadInput, "the date range from %s to %s is empty", q.From.Format(time.RFC3339), q.To.Format(time.RFC3339)).
			WithHint("choose a start date before the end date")
	}
	return checkLimit(q.Limit)
}

// HistoryPage is the best hits of a history search and how many runs
// matched in all.
type HistoryPage struct {
	Hits  []Hit `json:"hits"`
	Total int   `json:"total"`
}

// CheckSetupRequest runs the setup checks.
type CheckSetupRequest struct{}

// Validate accepts every request.
func (CheckSetupRequest) Validate() error { return nil }

// SetupReport is the setup checks' verdict; OK is false when a required
// check failed.
type SetupReport struct {
	OK      bool         `json:"ok"`
	Version string       `json:"version"`
	Checks  []SetupCheck `json:"checks"`
}

// SetupStatus is the outcome of one setup check.
type SetupStatus string

// The outcomes of a setup check. A warning does not fail the report; a
// failure of a required check does.
const (
	SetupOK   SetupStatus = "ok"
	SetupWarn SetupStatus = "warn"
	SetupFail SetupStatus = "fail"
)

// SetupCheck is one line of a SetupReport.
type SetupCheck struct {
	ID       string      `json:"id"`
	Title    string      `json:"title"`
	Status   SetupStatus `json:"status"`
	Detail   string      `json:"detail"`
	Fix      string      `json:"fix,omitempty"`
	Required bool        `json:"required"`
}
