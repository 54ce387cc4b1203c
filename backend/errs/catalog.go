package errs

import (
	"fmt"
	"sort"
)

// Code is a stable, machine-readable error code. Codes are part of Ferry's
// public contract (CLI --json output, the local API, stored runs): never
// rename one.
type Code string

// Class groups codes by what the caller can do about them; each class has its
// own CLI exit code.
type Class int

// The classes, in exit-code order. See ExitCode.
const (
	ClassOK          Class = iota // 0: success
	ClassInternal                 // 1: a bug or an unexpected failure
	ClassBadInput                 // 2: the request itself is wrong
	ClassBlocked                  // 3: blocked before anything was sent
	ClassRouting                  // 4: the target tab or session could not be resolved
	ClassDeliverable              // 5: the answer came but the deliverable is missing
	ClassTimeout                  // 6: the deadline passed
	ClassArtifact                 // 7: an artifact could not be retrieved or verified
	ClassCancelled                // 8: the user cancelled
	ClassDiskFull                 // 9: the disk holding Ferry's data is (nearly) full
)

var classNames = map[Class]string{
	ClassOK: "ok", ClassInternal: "internal", ClassBadInput: "bad input",
	ClassBlocked: "blocked before send", ClassRouting: "routing failure",
	ClassDeliverable: "deliverable missing", ClassTimeout: "timeout",
	ClassArtifact: "artifact failure", ClassCancelled: "cancelled",
	ClassDiskFull: "disk full",
}

func (c Class) String() string { return classNames[c] }

// ExitCode is the process exit status for the class.
func (c Class) ExitCode() int { return int(c) }

// Spec is the catalog entry of a code.
type Spec struct {
	Code      Code
	Stage     Stage
	Class     Class
	Retryable bool
	Hint      string // the default "what to do"
}

// The catalog. Codes are grouped by class; hints say what the user can do.
const (
	Internal  Code = "internal"
	Cancelled Code = "cancelled"
	Timeout   Code = "timeout"

	BadInput              Code = "bad_input"
	UnknownCommand        Code = "unknown_command"
	ConfigInvalid         Code = "config_invalid"
	UnknownSite           Code = "unknown_site"
	TemplateInvalid       Code = "template_invalid"
	TemplateNotFound      Code = "template_not_found"
	PromptTooLarge        Code = "prompt_too_large"
	AuthorizationRequired Code = "authorization_required"
	SiteIncomplete        Code = "site_incomplete"

	StoreBusy         Code = "store_busy"
	StoreCorrupt      Code = "store_corrupt"
	StoreSchemaNewer  Code = "store_schema_newer"
	StoreIO           Code = "store_io"
	DataDirUnwritable Code = "data_dir_unwritable"
	DiskFull          Code = "disk_full"

	BrowserNotFound     Code = "browser_not_found"
	BrowserLaunchFailed Code = "browser_launch_failed"
	BrowserDisconnected Code = "browser_disconnected"
	LoginRequired       Code = "login_required"
	CloudflareChallenge Code = "cloudflare_challenge"
	RateLimited         Code = "rate_limited"
	UsageCap            Code = "usage_cap"
	AccountBlocked      Code = "account_blocked"
	ConsentRequired     Code = "consent_required"
	CapabilityMissing   Code = "capability_missing"
	ModelUnavailable    Code = "model_unavailable"
	ToolUnavailable     Code = "tool_unavailable"
	PolicyDenied        Code = "policy_denied"
	ApprovalRejected    Code = "approval_rejected"
	ComposerNotFound    Code = "composer_not_found"
	ComposerMismatch    Code = "composer_mismatch"
	SendUnconfirmed     Code = "send_unconfirmed"
	NoDisplay           Code = "no_display"
	HotkeyTaken         Code = "hotkey_taken"
	EnvironmentNotReady Code = "environment_not_ready"

	TargetNotFound    Code = "target_not_found"
	TargetCrashed     Code = "target_crashed"
	NavigatedAway     Code = "navigated_away"
	SessionNotFound   Code = "session_not_found"
	SessionStale      Code = "session_stale"
	SessionAmbiguous  Code = "session_ambiguous"
	TabAmbiguous      Code = "tab_ambiguous"
	TabBusy           Code = "tab_busy"
	NavigationAborted Code = "navigation_aborted"

	DeliverableMissing  Code = "deliverable_missing"
	AnswerEmpty         Code = "answer_empty"
	ContractViolation   Code = "contract_violation"
	ConversationTooLong Code = "conversation_too_long"
	GenerationError     Code = "generation_error"
	ModelMismatch       Code = "model_mismatch"

	ArtifactNotFound    Code = "artifact_not_found"
	ArtifactExpired     Code = "artifact_expired"
	ArtifactMintFailed  Code = "artifact_mint_failed"
	ArtifactFetchFailed Code = "artifact_fetch_failed"
	ArtifactCorrupt     Code = "artifact_corrupt"
	ArtifactUnsafe      Code = "artifact_unsafe"
	ArtifactTooLarge    Code = "artifact_too_large"
	ArtifactSaveFailed  Code = "artifact_save_failed"
	ArtifactForbidden   Code = "artifact_forbidden"
	CodeArtifactMissing Code = "code_artifact_missing"
	ImageRefused        Code = "image_refused"
	ResearchNotStarted  Code = "research_not_started"

	HubUnauthorized    Code = "hub_unauthorized"
	HubForbidden       Code = "hub_forbidden"
	HubRateLimited     Code = "hub_rate_limited"
	HubNotRunning      Code = "hub_not_running"
	HubQueueFull       Code = "hub_queue_full"
	HubNotFound        Code = "hub_not_found"
	PairingCodeInvalid Code = "pairing_code_invalid"
	VersionMismatch    Code = "version_mismatch"

	AttachmentRejected    Code = "attachment_rejected"
	AttachmentUnconfirmed Code = "attachment_unconfirmed"
)

var catalog = map[Code]Spec{}

func def(code Code, stage Stage, class Class, retryable bool, hint string) {
	if _, dup := catalog[code]; dup {
		panic(fmt.Sprintf("errs: duplicate code %q", code))
	}
	catalog[code] = Spec{Code: code, Stage: stage, Class: class, Retryable: retryable, Hint: hint}
}

func init() {
	def(Internal, StageInternal, ClassInternal, false, "this is a bug in Ferry: run `ferry doctor` and report it with the evidence shown")
	def(Cancelled, StageInternal, ClassCancelled, true, "run the command again when you are ready")
	def(Timeout, StagePoll, ClassTimeout, true, "the work may still finish in the browser: check the tab, or run again with a longer --timeout")

	def(BadInput, StageInput, ClassBadInput, false, "fix the input named in the message and run again; `ferry help` lists commands and flags")
	def(UnknownCommand, StageInput, ClassBadInput, false, "run `ferry help` for the list of commands")
	def(ConfigInvalid, StageInput, ClassBadInput, false, "fix the settings file at the line shown, or run `ferry settings reset` to keep it as .bak and start from defaults")
	def(UnknownSite, StageInput, ClassBadInput, false, "use the id of a built-in site (chatgpt, gemini, aistudio, grok, claude, kimi, deepseek) or of a site defined in the settings (`ferry settings show` prints where they are)")
	def(TemplateNotFound, StageInput, ClassBadInput, false, "use the name of a stored template (the template list in Ferry shows them)")
	def(TemplateInvalid, StageInput, ClassBadInput, false, "fix the template at the place shown")
	def(PromptTooLarge, StageComposer, ClassBadInput, false, "shorten the prompt or attach the material as a file")
	def(AuthorizationRequired, StagePolicy, ClassBadInput, false, "pass the authorization flag named in the message to confirm you want this")
	def(SiteIncomplete, StageInput, ClassBadInput, false, "give every selector role the message lists for the custom site")

	def(StoreBusy, StageStore, ClassBlocked, true, "another Ferry process owns this data directory: use it (the CLI talks to a running app), close it, or pass a different --data-dir")
	def(StoreCorrupt, StageStore, ClassInternal, false, "run `ferry doctor` to see what is damaged; `ferry sessions restore` brings back the newest backup and keeps the damaged store aside")
	def(StoreSchemaNewer, StageStore, ClassBlocked, false, "this data directory was written by a newer Ferry: upgrade Ferry, or pass a different --data-dir")
	def(StoreIO, StageStore, ClassInternal, true, "check free disk space and permissions of the data directory")
	def(DataDirUnwritable, StageStore, ClassBlocked, false, "make the data directory writable, or pass another one with --data-dir or FERRY_DATA_DIR")
	def(DiskFull, StageStore, ClassDiskFull, true, "free space on the disk that holds the directory named in the message, or move the data directory to a larger disk with --data-dir or FERRY_DATA_DIR, then run again")

	def(BrowserNotFound, StageBrowser, ClassBlocked, false, "install Chrome, Edge or Chromium, or pass --chromium PATH, or attach with --browser-url")
	def(BrowserLaunchFailed, StageBrowser, ClassBlocked, true, "close other browsers using Ferry's profile and run again; `ferry doctor` checks the browser")
	def(BrowserDisconnected, StageBrowser, ClassBlocked, true, "the browser went away: start it again, then run `ferry reattach` for runs in flight")
	def(LoginRequired, StageSession, ClassBlocked, false, "log in to the site in the browser window, then retry")
	def(CloudflareChallenge, StageInterstitial, ClassBlocked, true, "solve the check in the browser window, then Retry")
	def(RateLimited, StageInterstitial, ClassBlocked, true, "wait until the limit resets (see evidence), then retry")
	def(UsageCap, StageInterstitial, ClassBlocked, true, "your plan's limit is reached: wait for the reset time, or pick another model or site")
	def(AccountBlocked, StageInterstitial, ClassBlocked, false, "the site flagged the account: resolve it on the site in the browser window")
	def(ConsentRequired, StageInterstitial, ClassBlocked, true, "answer the site's consent page in the browser window, then retry")
	def(CapabilityMissing, StageCapability, ClassBlocked, false, "pick a site or model that has the feature (the site's models are listed in Ferry's Compose view)")
	def(ModelUnavailable, StageCapability, ClassBlocked, false, "pick another model, or check the site's model picker in the browser")
	def(ToolUnavailable, StageCapability, ClassBlocked, false, "ask without the tool, or switch it on in the site's tab by hand and ask there; nothing was sent")
	def(PolicyDenied, StagePolicy, ClassBlocked, false, "the request is outside what this client may do: change the client's settings in Ferry")
	def(ApprovalRejected, StagePolicy, ClassBlocked, false, "the run was rejected in Ferry; ask the user, or submit a different request")
	def(ComposerNotFound, StageComposer, ClassBlocked, true, "the site's page changed or is not ready: reload the tab, or override the composer selector in settings")
	def(ComposerMismatch, StageComposer, ClassBlocked, true, "the text in the composer did not match the prompt; nothing was sent: retry, or report the site change")
	def(SendUnconfirmed, StageSend, ClassRouting, false, "check the tab: the prompt may or may not have been sent; run `ferry reattach` to look for it before sending again")
	def(NoDisplay, StageInput, ClassBlocked, false, "run under a display, e.g. `xvfb-run -a make run`, or use the `ferry` CLI")
	def(EnvironmentNotReady, StageInput, ClassBlocked, false, "apply the fixes `ferry doctor` prints, then run it again")
	def(HotkeyTaken, StageInput, ClassBlocked, false, "choose another quick-prompt hotkey in Settings")

	def(TargetNotFound, StageSession, ClassRouting, false, "the tab is gone: run `ferry sessions doctor` to reopen the conversation in a new tab")
	def(TargetCrashed, StageBrowser, ClassRouting, true, "reload the tab in the browser, then run `ferry reattach`")
	def(NavigatedAway, StageSession, ClassRouting, true, "bring the tab back to the site (it paused when it left), then retry")
	def(SessionNotFound, StageSession, ClassRouting, false, "list sessions with `ferry sessions list`")
	def(SessionStale, StageSession, ClassRouting, false, "run `ferry sessions doctor` for candidates, and rebind or reopen the conversation")
	def(SessionAmbiguous, StageSession, ClassRouting, false, "several sessions are active: pass --session with one of the ids listed")
	def(TabAmbiguous, StageSession, ClassRouting, false, "several tabs match: pass --tab with one of the target ids listed")
	def(TabBusy, StageComposer, ClassBlocked, true, "the tab is still answering an earlier prompt: let it finish (or stop it in the browser), then retry, or use --new-chat")
	def(NavigationAborted, StageBrowser, ClassRouting, true, "the page navigated while Ferry worked on it: retry")

	def(DeliverableMissing, StagePoll, ClassDeliverable, false, "the answer lacks what the contract asks for: read it in the session, then retry or rephrase")
	def(AnswerEmpty, StagePoll, ClassDeliverable, true, "the site finished without an answer: check the tab, then retry")
	def(ContractViolation, StagePoll, ClassDeliverable, false, "the answer does not follow the output contract: see evidence")
	def(ConversationTooLong, StageInterstitial, ClassDeliverable, true, "start a new chat (Ferry does this once by itself) and resend")
	def(GenerationError, StagePoll, ClassDeliverable, true, "the site reported an error for this turn: retry when it recovers")
	def(ModelMismatch, StagePoll, ClassDeliverable, false, "the answer came from another model than requested: see evidence, pick the model in the site, retry")

	def(ArtifactNotFound, StageArtifact, ClassArtifact, false, "the answer names no sandbox file: ask for the zip again")
	def(ArtifactExpired, StageArtifact, ClassArtifact, false, "the sandbox expired: ask ChatGPT to rebuild the zip in the same conversation")
	def(ArtifactMintFailed, StageArtifact, ClassArtifact, true, "check that you are logged in to ChatGPT in the browser, then retry")
	def(ArtifactFetchFailed, StageArtifact, ClassArtifact, true, "retry the download; the conversation still holds the file")
	def(ArtifactCorrupt, StageArtifact, ClassArtifact, true, "the zip is damaged or truncated and was not saved as good: retry the download or ask for it again")
	def(ArtifactUnsafe, StageArtifact, ClassArtifact, false, "the zip breaks a safety rule (see evidence) and was quarantined: do not extract it")
	def(ArtifactTooLarge, StageArtifact, ClassArtifact, false, "the artifact exceeds the configured size limit: raise it in Settings if you trust it")
	def(ArtifactForbidden, StageArtifact, ClassArtifact, false, "the site refused the download (HTTP 403): check the login and any Cloudflare check in the browser, then retry")
	def(ArtifactSaveFailed, StageArtifact, ClassArtifact, true, "check free disk space and permissions of the output directory")
	def(ImageRefused, StageArtifact, ClassDeliverable, false, "the site would not make the image (its words are in the evidence): change the prompt, then ask again")
	def(ResearchNotStarted, StageArtifact, ClassDeliverable, false, "the site answered without doing the research (its answer is kept in the run), or its plan waited to be started: ask again with --tool deep-research, with --confirm-plan to start the plan at once")
	def(CodeArtifactMissing, StageArtifact, ClassDeliverable, false, "the answer came without a sandbox zip: ask again for the zip, or pass --allow-inline to save the answer's code blocks as a zip")

	def(HubUnauthorized, StagePolicy, ClassBlocked, false, "send the token in the Authorization header as `Bearer <token>` (never in the URL); pair again if the client was revoked")
	def(HubForbidden, StagePolicy, ClassBlocked, false, "call the local API at 127.0.0.1, localhost or [::1] with the hub's port, from no web page origin, with an owner token for owner actions")
	def(HubRateLimited, StagePolicy, ClassBlocked, true, "wait for the time in Retry-After (see evidence), then send again")
	def(HubNotRunning, StageInput, ClassBlocked, true, "start the Ferry app or `ferry serve`, or run the command without a running owner (embedded)")
	def(HubQueueFull, StageInput, ClassBlocked, true, "the hub is unreachable and 200 messages are waiting: wait for the reconnect, or start the Ferry app")
	def(HubNotFound, StageInput, ClassBadInput, false, "check the id or path; `ferry approvals list` and the client list show the ids")
	def(VersionMismatch, StagePolicy, ClassBlocked, false, "restart the older of the two Ferry processes (the message names both versions) so that both run the same build")
	def(AttachmentRejected, StageComposer, ClassBlocked, false, "nothing was sent: the site (or its limits) refused the file named; send fewer or smaller files, or another type, then run again")
	def(AttachmentUnconfirmed, StageComposer, ClassBlocked, true, "nothing was sent: the file named never showed in the composer as ready; check the tab, then run again")
	def(PairingCodeInvalid, StagePolicy, ClassBadInput, false, "ask for a new pairing code in Ferry (codes work once and for at most 5 minutes) and type it exactly")
}

func mustSpec(code Code) Spec {
	s, ok := catalog[code]
	if !ok {
		panic(fmt.Sprintf("errs: code %q is not in the catalog", code))
	}
	return s
}

// Lookup returns the catalog entry of code.
func Lookup(code Code) (Spec, bool) {
	s, ok := catalog[code]
	return s, ok
}

// Catalog returns every code's entry, sorted by class then code.
func Catalog() []Spec {
	out := make([]Spec, 0, len(catalog))
	for _, s := range catalog {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Class != out[j].Class {
			return out[i].Class < out[j].Class
		}
		return out[i].Code < out[j].Code
	})
	return out
}

// ClassOf returns the class of err: ClassOK for nil, the catalog's class for
// an envelope, and the class From gives for any other error.
func ClassOf(err error) Class {
	if err == nil {
		return ClassOK
	}
	return mustSpec(From(err).Code).Class
}

// ExitCode maps err to the CLI's exit status (see the table in docs/cli.md).
func ExitCode(err error) int { return ClassOf(err).ExitCode() }
