package service

import (
	"context"

	"github.com/ferrydesk/ferry/backend/config"
)

// LocalOnly implements Desktop for a Service that is not the owner's own
// process (the remote one over the local API): every operation answers
// InProcessOnly. Such an implementation embeds it and overrides what its
// wire can carry.
type LocalOnly struct{}

var _ Desktop = LocalOnly{}

// Settings answers InProcessOnly.
func (LocalOnly) Settings(context.Context, Caller, SettingsRequest) (config.Settings, error) {
	return config.Settings{}, InProcessOnly("reading the settings")
}

// SaveSettings answers InProcessOnly.
func (LocalOnly) SaveSettings(context.Context, Caller, SaveSettingsRequest) (config.Settings, error) {
	return config.Settings{}, InProcessOnly("saving the settings")
}

// CheckSites answers InProcessOnly.
func (LocalOnly) CheckSites(context.Context, Caller, CheckSitesRequest) (SitesSetting, error) {
	return SitesSetting{}, InProcessOnly("checking the sites setting")
}

// ApplySiteOverride answers InProcessOnly.
func (LocalOnly) ApplySiteOverride(context.Context, Caller, ApplySiteOverrideRequest) (config.Settings, error) {
	return config.Settings{}, InProcessOnly("applying a site override")
}

// ListSites answers InProcessOnly.
func (LocalOnly) ListSites(context.Context, Caller, ListSitesRequest) ([]SiteInfo, error) {
	return nil, InProcessOnly("listing the sites")
}

// ListModels answers InProcessOnly.
func (LocalOnly) ListModels(context.Context, Caller, ListModelsRequest) ([]ModelInfo, error) {
	return nil, InProcessOnly("listing a site's models")
}

// RetryJob answers InProcessOnly.
func (LocalOnly) RetryJob(context.Context, Caller, JobRef) (Job, error) {
	return Job{}, InProcessOnly("retrying a run")
}

// RetryRun answers InProcessOnly.
func (LocalOnly) RetryRun(context.Context, Caller, RetryRunRequest) (RetryRunResult, error) {
	return RetryRunResult{}, InProcessOnly("retrying a run")
}

// ListActiveJobs answers InProcessOnly.
func (LocalOnly) ListActiveJobs(context.Context, Caller, ListActiveJobsRequest) ([]Job, error) {
	return nil, InProcessOnly("listing every run going on")
}

// ViewSession answers InProcessOnly.
func (LocalOnly) ViewSession(context.Context, Caller, SessionRef) (SessionDetail, error) {
	return SessionDetail{}, InProcessOnly("viewing a redacted run")
}

// SearchHistory answers InProcessOnly.
func (LocalOnly) SearchHistory(context.Context, Caller, HistoryQuery) (HistoryPage, error) {
	return HistoryPage{}, InProcessOnly("searching the history by date")
}

// ListArtifacts answers InProcessOnly.
func (LocalOnly) ListArtifacts(context.Context, Caller, ListArtifactsRequest) (ArtifactList, error) {
	return ArtifactList{}, InProcessOnly("listing the artifacts library")
}

// BrowserState answers InProcessOnly.
func (LocalOnly) BrowserState(context.Context, Caller, BrowserStateRequest) (BrowserState, error) {
	return BrowserState{}, InProcessOnly("the owner's browser state")
}

// ConnectBrowser answers InProcessOnly.
func (LocalOnly) ConnectBrowser(context.Context, Caller, ConnectBrowserRequest) (BrowserState, error) {
	return BrowserState{}, InProcessOnly("connecting the owner's browser")
}

// TabStates answers InProcessOnly.
func (LocalOnly) TabStates(context.Context, Caller, TabStatesRequest) ([]TabState, error) {
	return nil, InProcessOnly("probing the owner's tabs")
}

// ShowRunTab answers InProcessOnly.
func (LocalOnly) ShowRunTab(context.Context, Caller, SessionRef) (TabState, error) {
	return TabState{}, InProcessOnly("showing a run's tab")
}

// TabAction answers InProcessOnly.
func (LocalOnly) TabAction(context.Context, Caller, TabActionRequest) (TabActionResult, error) {
	return TabActionResult{}, InProcessOnly("acting on the owner's tabs")
}

// CheckSetup answers InProcessOnly.
func (LocalOnly) CheckSetup(context.Context, Caller, CheckSetupRequest) (SetupReport, error) {
	return SetupReport{}, InProcessOnly("the setup checks")
}

// Welcome answers InProcessOnly.
func (LocalOnly) Welcome(context.Context, Caller, WelcomeRequest) (Welcome, error) {
	return Welcome{}, InProcessOnly("the Get started view")
}

// SiteLogins answers InProcessOnly.
func (LocalOnly) SiteLogins(context.Context, Caller, SiteLoginsRequest) ([]SiteLogin, error) {
	return nil, InProcessOnly("reading the sites' logins")
}

// OpenLogin answers InProcessOnly.
func (LocalOnly) OpenLogin(context.Context, Caller, OpenLoginRequest) (SiteLogin, error) {
	return SiteLogin{}, InProcessOnly("opening a site's login page")
}

// DismissWelcome answers InProcessOnly.
func (LocalOnly) DismissWelcome(context.Context, Caller, DismissWelcomeRequest) (config.Settings, error) {
	return config.Settings{}, InProcessOnly("leaving the Get started view")
}

// CheckFiles answers InProcessOnly.
func (LocalOnly) CheckFiles(context.Context, Caller, FilesCheckRequest) (FilesCheck, error) {
	return FilesCheck{}, InProcessOnly("checking files to attach")
}
