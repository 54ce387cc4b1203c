package service

import (
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/record"
)

// JobKind says what a job does.
type JobKind string

// The kinds of job.
const (
	// KindAsk sends one prompt and collects the answer.
	KindAsk JobKind = "ask"
	// KindCode sends a code-mode prompt and retrieves and verifies the
	// answer's zips.
	KindCode JobKind = "code"
	// KindReattach resumes an interrupted run from its journal; it never
	// sends a prompt that was already sent.
	KindReattach JobKind = "reattach"
)

// Job states of the Service's own making; once a job's run has started the
// job reports the run's state.
const (
	// StateAwaitingApproval: nothing was sent; the job runs only once the
	// user approves it.
	StateAwaitingApproval = "awaiting_approval"
	// StateStarting: approved or created by the owner; the run is being
	// set up.
	StateStarting = "starting"
	// StateFinishing: the run has ended and the job is recording what it
	// found; its end follows at once.
	StateFinishing = "finishing"
	// StateQueued: the run waits for its tab, which another run drives,
	// or for the run going on on a site that takes one at a time
	// (JobDetail.Waiting says which); it starts when that run is done.
	StateQueued = "queued"
)

// BrowserMode says how a run finds its browser.
type BrowserMode string

// The browser modes.
const (
	// BrowserLaunch launches Ferry's own browser on the data directory's
	// profile.
	BrowserLaunch BrowserMode = "launch"
	// BrowserAttach attaches to a running browser at URL (a loopback
	// DevTools address or a DevToolsActivePort path).
	BrowserAttach BrowserMode = "attach"
)

// BrowserSpec is the browser a request asks for when the implementation has
// none of its own (an owner always uses its own long-lived browser).
type BrowserSpec struct {
	Mode     BrowserMode `json:"mode"`
	URL      string      `json:"url,omitempty"`
	Chromium string      `json:"chromium,omitempty"`
	Headless bool        `json:"headless,omitempty"`
	Args     []string    `json:"args,omitempty"`
}

// Validate checks the spec. Errors: errs.BadInput for an unknown mode,
// attach without a URL, or launch or own with one.
func (b BrowserSpec) Validate() error {
	switch b.Mode {
	case BrowserLaunch:
		if b.URL != "" {
			return errs.New(errs.BadInput, "a launched browser takes no address, got %q", clip(b.URL, 120)).
				WithHint("set mode \"attach\" to use the browser at that address, or drop the url")
		}
	case BrowserOwn:
		if b.URL != "" {
			return errs.New(errs.BadInput, "Ferry's own browser takes no address, got %q", clip(b.URL, 120)).
				WithHint("set mode \"attach\" to use the browser at that address, or drop the url")
		}
	case BrowserAttach:
		if strings.TrimSpace(b.URL) == "" {
			return errs.New(errs.BadInput, "attaching to a browser needs its address").
				WithHint("set url to ws://127.0.0.1:PORT/devtools/browser/ID or a DevToolsActivePort path")
		}
	default:
		return errs.New(errs.BadInput, "unknown browser mode %q", clip(string(b.Mode), 40)).
			WithHint("set mode to \"launch\", \"attach\" or \"own\"")
	}
	return nil
}

// JobRequest asks for a job: the one request behind `ferry ask`, `ferry
// code`, `ferry reattach`, the desktop's compose box and an agent's POST
// /v1/jobs.
type JobRequest struct {
	Kind JobKind `json:"kind"`
	// Prompt is sent as is; or Template names a template whose rendering
	// with Vars is the prompt.
	Prompt string `json:"prompt"`
	Site   string `json:"site,omitempty"`
	Model  string `json:"model,omitempty"`
	// Effort is the reasoning-effort tier to choose on a site whose picker
	// has tiers (ChatGPT's "pro", or the page's words "Extra High"); ""
	// keeps whatever is selected.
	Effort string `json:"effort,omitempty"`
	// Tool is a tool of the site's composer to switch on for the prompt
	// (ChatGPT's "web-search", "deep-research", "image"); an ask only, on
	// a named site. "" asks with none.
	Tool string `json:"tool,omitempty"`
	// ConfirmPlan starts a deep research's plan at once (with the
	// deep-research tool only) instead of after the plan's countdown.
	ConfirmPlan bool `json:"confirmPlan,omitempty"`
	// Temporary asks in the site's temporary chat, which the site keeps no
	// history of (an ask in a new chat on a named site).
	Temporary bool `json:"temporary,omitempty"`
	// ArchiveAfter archives the conversation on the site once the answer
	// is safe in Ferry's history (an ask).
	ArchiveAfter bool `json:"archiveAfter,omitempty"`
	// Project (an address or a name) or GPT (an address) opens an ask's new
	// chat in that project or custom GPT of the site.
	Project  string            `json:"project,omitempty"`
	GPT      string            `json:"gpt,omitempty"`
	Template string            `json:"template,omitempty"`
	Vars     map[string]string `json:"vars,omitempty"`
	// Contract is a code job's output contract ("" is code).
	Contract string `json:"contract,omitempty"`
	// SessionID names the run a reattach job resumes, or the run whose
	// conversation an ask job continues (a follow-up: the run's site and
	// conversation, in the tab that shows it or one navigated to it); an
	// unambiguous id prefix is enough.
	SessionID string `json:"sessionId,omitempty"`
	// TabID pins the run to exactly that tab (a CDP TargetID).
	TabID string `json:"tabId,omitempty"`
	// NewChat asks in a fresh chat: a new tab of Site, whatever tabs of it
	// are open (needs Site and no TabID).
	NewChat bool `json:"newChat,omitempty"`
	// ShownRun is the run (a session id) whose conversation the owner has
	// on screen (the desktop's Compose shows it): a job naming no tab goes
	// to the tab that shows that conversation when several tabs of its
	// site are open, and a new chat sent again after that run stopped
	// before its send takes its tab. A preference, never a pin; ignored
	// for agents.
	ShownRun string `json:"shownRun,omitempty"`
	// Conversation is, for a code job, the ChatGPT conversation id to
	// continue; for an ask job, the address of a conversation to go on
	// with (one Ferry did not start: its site is the address's), in the
	// tab that shows it or one opened on it.
	Conversation string `json:"conversation,omitempty"`
	// Code jobs: the code-mode options. OutDir, RepoRoot and SourcePaths
	// name local paths and are accepted from the owner only.
	MultiZip               bool     `json:"multiZip,omitempty"`
	AllowInline            bool     `json:"allowInline,omitempty"`
	ArchitectureAuthorized bool     `json:"architectureAuthorized,omitempty"`
	Goal                   string   `json:"goal,omitempty"`
	GoalLock               bool     `json:"goalLock,omitempty"`
	Research               bool     `json:"research,omitempty"`
	OutDir                 string   `json:"outDir,omitempty"`
	RepoRoot               string   `json:"repoRoot,omitempty"`
	SourcePaths            []string `json:"sourcePaths,omitempty"`
	// SourceAs is how RepoRoot's SourcePaths go: SourceAsProvenance (a
	// code job's default: the prompt names the pushed commit) or
	// SourceAsZip (one zip of the tracked, clean files at HEAD, attached;
	// the only form an ask job takes).
	SourceAs string `json:"sourceAs,omitempty"`
	// Files are the absolute local paths of the files an ask or code job
	// attaches to its prompt; each is proven in the composer, by name and
	// ready, before the prompt is typed. An agent's files must lie under
	// the roots the user allowed its client.
	Files []string `json:"files,omitempty"`
	// InlineFiles pastes Files (text only) into the prompt as one fenced,
	// line-numbered bundle instead of attaching them.
	InlineFiles bool `json:"inlineFiles,omitempty"`
	// TimeoutSeconds bounds the run (0: the implementation's default).
	TimeoutSeconds int `json:"timeoutSeconds,omitempty"`
	// CooldownSeconds is the wait after a rate limit before the one retry
	// (0: the settings' run.rateLimitCooldown; else 1 s to 1 h).
	CooldownSeconds int `json:"cooldownSeconds,omitempty"`
	// Browser is the browser of an in-process run (nil: the
	// implementation's default). An owner runs every job in its own.
	Browser *BrowserSpec `json:"browser,omitempty"`
	// RequestedBy is the requester id the job records. The Service sets it
	// from the Caller; a value sent by a client is ignored.
	RequestedBy string `json:"requestedBy,omitempty"`
}

// Validate checks what every implementation needs before it looks at the
// store or the browser. Errors: errs.BadInput with a hint naming the
// field to fix: an unknown kind, an empty prompt, an ask job with no site
// and no tab, newChat with no site or with a tab, sessionId on an ask with a tab or newChat, a reattach with no
// session, a negative timeout, a cooldown outside 1 s to 1 h, an invalid
// browser.
func (r JobRequest) Validate() error {
	switch r.Kind {
	case KindAsk, KindCode:
		if strings.TrimSpace(r.Prompt) == "" && r.Template == "" {
			return errs.New(errs.BadInput, "the job has an empty prompt").
				WithHint("set \"prompt\", or \"template\" with its \"vars\"")
		}
	case KindReattach:
		if strings.TrimSpace(r.SessionID) == "" {
			return errs.New(errs.BadInput, "a reattach job needs the run to resume").
				WithHint("set \"sessionId\" to the run's id or an unambiguous prefix")
		}
	default:
		return errs.New(errs.BadInput, "unknown job kind %q", clip(string(r.Kind), 40)).
			WithHint("set \"kind\" to ask, code or reattach")
	}
	if r.Kind == KindAsk {
		if err := r.validateAskTarget(); err != nil {
			return err
		}
	}
	if err := r.validateFiles(); err != nil {
		return err
	}
	if err := r.validateSources(); err != nil {
		return err
	}
	if strings.TrimSpace(r.Tool) != "" && (r.Kind != KindAsk || r.Site == "") {
		return errs.New(errs.BadInput, "a tool is chosen for an ask on a named site, not for this %s job", r.Kind).
			WithHint("set \"site\" (e.g. chatgpt) on an ask job, or drop \"tool\"")
	}
	if (r.Project != "" || r.GPT != "") && (r.Kind != KindAsk || r.Site == "" || r.TabID != "" || r.SessionID != "" || r.Conversation != "" || r.Temporary) {
		return errs.New(errs.BadInput, "a project or a custom GPT opens an ask's new chat on a named site: no tab, run or conversation to continue, no temporary chat").
			WithHint("set \"site\" on an ask and drop \"tabId\", \"sessionId\", \"conversation\" and \"temporary\"")
	}
	if (r.Temporary || r.ArchiveAfter) && r.Kind != KindAsk {
		return errs.New(errs.BadInput, "temporary and archiveAfter are for an ask, not for this %s job", r.Kind).
			WithHint("drop \"temporary\" and \"archiveAfter\"")
	}
	if r.Temporary && (r.Site == "" || r.TabID != "" || r.SessionID != "" || r.Conversation != "" || r.ArchiveAfter) {
		return errs.New(errs.BadInput, "a temporary chat is a new chat on a named site, which leaves nothing to archive: it takes no tab, run or conversation to continue, and no archiveAfter").
			WithHint("set \"site\" and drop \"tabId\", \"sessionId\", \"conversation\" and \"archiveAfter\"")
	}
	if r.ConfirmPlan && strings.TrimSpace(r.Tool) != ResearchTool {
		return errs.New(errs.BadInput, "confirmPlan starts a deep research's plan, and this ask uses no deep-research tool").
			WithHint("add \"tool\": \"deep-research\", or drop \"confirmPlan\"")
	}
	if r.NewChat && (r.Site == "" || r.TabID != "") {
		return errs.New(errs.BadInput, "newChat needs a site and no tab: a new chat opens its own tab").
			WithHint("set \"site\" and drop \"tabId\"")
	}
	if r.TimeoutSeconds < 0 {
		return errs.New(errs.BadInput, "timeoutSeconds must be positive, got %d", r.TimeoutSeconds).
			WithHint("leave timeoutSeconds out for the default")
	}
	if c := r.Cooldown(); c != 0 && (c < config.MinRateLimitCooldown || c > config.MaxRateLimitCooldown) {
		return errs.New(errs.BadInput, "cooldownSeconds must be between %d and %d, got %d",
			int(config.MinRateLimitCooldown.Seconds()), int(config.MaxRateLimitCooldown.Seconds()), r.CooldownSeconds).
			WithHint("leave cooldownSeconds out for the settings' run.rateLimitCooldown")
	}
	if r.Browser != nil {
		return r.Browser.Validate()
	}
	return nil
}

// validateAskTarget checks where an ask job runs: a site, a tab, a run to
// follow up or a conversation address, and no two that contradict.
func (r JobRequest) validateAskTarget() error {
	switch {
	case r.Site == "" && r.TabID == "" && r.SessionID == "" && r.Conversation == "":
		return errs.New(errs.BadInput, "an ask job needs a site, a tab, a run or a conversation to continue").
			WithHint("set \"site\" (e.g. chatgpt), \"tabId\", \"sessionId\" or \"conversation\"")
	case r.SessionID != "" && (r.TabID != "" || r.NewChat || r.Conversation != ""):
		return errs.New(errs.BadInput, "sessionId continues that run's conversation: it takes no tabId, newChat or conversation").
			WithHint("drop tabId, newChat and conversation, or drop sessionId")
	case r.Conversation != "" && (r.TabID != "" || r.NewChat):
		return errs.New(errs.BadInput, "conversation continues that conversation: it takes no tabId and no newChat").
			WithHint("drop tabId and newChat, or drop conversation")
	case r.Conversation != "":
		u, err := url.Parse(r.Conversation)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return errs.New(errs.BadInput, "conversation %q is not a conversation's address", clip(r.Conversation, 80)).
				WithHint("give the full address the browser shows, e.g. https://chatgpt.com/c/<id>")
		}
	}
	return nil
}

// MaxFiles bounds how many files one job names (a site's own limit is
// usually lower and is checked against the site).
const MaxFiles = 100

// validateFiles checks the files a job names: ask and code jobs only,
// absolute paths, each once, at most MaxFiles, inlineFiles only with files.
func (r JobRequest) validateFiles() error {
	if r.InlineFiles && len(r.Files) == 0 {
		return errs.New(errs.BadInput, "inlineFiles needs files").WithHint("set \"files\", or drop inlineFiles")
	}
	if len(r.Files) == 0 {
		return nil
	}
	if r.Kind != KindAsk && r.Kind != KindCode {
		return errs.New(errs.BadInput, "a %s job takes no files", r.Kind).WithHint("drop \"files\"")
	}
	if len(r.Files) > MaxFiles {
		return errs.New(errs.BadInput, "the job names %d files, more than %d", len(r.Files), MaxFiles).
			WithHint("name fewer files, or send an archive")
	}
	seen := map[string]bool{}
	for _, f := range r.Files {
		if !filepath.IsAbs(f) {
			return errs.New(errs.BadInput, "file %q is not an absolute path", clip(f, 120)).
				WithHint("give every file as an absolute path")
		}
		c := filepath.Clean(f)
		if seen[c] {
			return errs.New(errs.BadInput, "file %q is named twice", clip(f, 120)).WithHint("name each file once")
		}
		seen[c] = true
	}
	return nil
}

// How a job's sources go (JobRequest.SourceAs).
const (
	// SourceAsProvenance names the repository, the pushed commit and the
	// paths in the prompt (a code job's default).
	SourceAsProvenance = "provenance"
	// SourceAsZip attaches one zip of the tracked, clean files under the
	// paths at HEAD.
	SourceAsZip = "zip"
)

// validateSources checks repoRoot, sourcePaths and sourceAs: the first two
// together, sourceAs one of its values and only with them, and an ask job's
// sources only as a zip.
func (r JobRequest) validateSources() error {
	switch r.SourceAs {
	case "", SourceAsProvenance, SourceAsZip:
	default:
		return errs.New(errs.BadInput, "sourceAs %q is neither %s nor %s", clip(r.SourceAs, 40), SourceAsProvenance, SourceAsZip).
			WithHint("set \"sourceAs\" to \"zip\" to attach the sources, or leave it out")
	}
	if (r.RepoRoot == "") != (len(r.SourcePaths) == 0) {
		return errs.New(errs.BadInput, "repoRoot and sourcePaths go together").
			WithHint("pass --repo DIR and one --source PATH per file or directory")
	}
	if r.SourceAs != "" && r.RepoRoot == "" {
		return errs.New(errs.BadInput, "sourceAs needs repoRoot and sourcePaths").
			WithHint("pass --repo DIR and --source PATH with --source-as")
	}
	if r.RepoRoot != "" && r.Kind != KindAsk && r.Kind != KindCode {
		return errs.New(errs.BadInput, "a %s job takes no sources", r.Kind).WithHint("drop repoRoot and sourcePaths")
	}
	if r.SourceAs == SourceAsZip && r.InlineFiles {
		return errs.New(errs.BadInput, "the sources' zip cannot be inlined into the prompt").
			WithHint("drop --inline-files, or send the sources as --file entries with it")
	}
	if r.Kind == KindAsk && r.RepoRoot != "" && r.SourceAs != SourceAsZip {
		return errs.New(errs.BadInput, "an ask job sends its sources only as a zip").
			WithHint("add --source-as zip (\"sourceAs\": \"zip\")")
	}
	return nil
}

// Timeout is TimeoutSeconds as a duration (0: the default).
func (r JobRequest) Timeout() time.Duration { return time.Duration(r.TimeoutSeconds) * time.Second }

// ResearchTool is the tool of a deep research; DefaultAskTimeout and
// ResearchTimeout bound an ask whose request gives no timeout, the
// second one with that tool (a site's research takes 5–30 minutes).
const (
	ResearchTool      = "deep-research"
	DefaultAskTimeout = 20 * time.Minute
	ResearchTimeout   = 45 * time.Minute
)

// RunTimeout is how long the run may take: Timeout, else the default of
// its kind of ask.
func (r JobRequest) RunTimeout() time.Duration {
	switch {
	case r.TimeoutSeconds > 0:
		return r.Timeout()
	case strings.TrimSpace(r.Tool) == ResearchTool:
		return ResearchTimeout
	}
	return DefaultAskTimeout
}

// Cooldown is CooldownSeconds as a duration (0: the settings').
func (r JobRequest) Cooldown() time.Duration { return time.Duration(r.CooldownSeconds) * time.Second }

// Text is what the job will send, in words for an approval: the prompt, or
// the template with its variables (the owner renders it).
func (r JobRequest) Text() string {
	if r.Template == "" {
		return r.Prompt
	}
	keys := make([]string, 0, len(r.Vars))
	for k := range r.Vars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString("template " + r.Template)
	for _, k := range keys {
		b.WriteString("\n" + k + " = " + r.Vars[k])
	}
	return b.String()
}

// Summary is Text with its whitespace folded, at most 200 characters: what
// an approval shows.
func (r JobRequest) Summary() string { return Summarize(r.Text(), 200) }

// Summarize folds the whitespace of text and keeps at most n characters of
// it, marking a cut with "…".
func Summarize(text string, n int) string {
	p := strings.Join(strings.Fields(text), " ")
	if utf8.RuneCountInString(p) <= n {
		return p
	}
	return string([]rune(p)[:n]) + "…"
}

// Job is a job as the Service shows it: its own state until its run starts,
// then its run's.
type Job struct {
	ID          string         `json:"id"`
	Kind        JobKind        `json:"kind"`
	State       string         `json:"state"`
	RequestedBy string         `json:"requestedBy,omitempty"`
	CreatedAt   time.Time      `json:"createdAt"`
	UpdatedAt   time.Time      `json:"updatedAt"`
	Error       *errs.Envelope `json:"error,omitempty"`
	Detail      *JobDetail     `json:"detail,omitempty"`
}

// JobDetail is a job's record and, once its run started, the run.
type JobDetail struct {
	Session  string     `json:"session,omitempty"`
	Approval string     `json:"approval"`
	Spec     JobRequest `json:"spec"`
	// Ended says the job will not change any more by itself: its run
	// returned, or it was rejected or cancelled before it ran.
	Ended bool `json:"ended"`
	Run   *Run `json:"run,omitempty"`
	// Receipt is a code job's receipt once its run returned.
	Receipt *CodeReceipt `json:"receipt,omitempty"`
	// Finding is what a reattach job found about the interrupted run.
	Finding *record.Finding `json:"finding,omitempty"`
	// RunError is the error the job's run itself returned (the Job's Error
	// also shows the run's recorded error when the run returned none).
	RunError *errs.Envelope `json:"runError,omitempty"`
	// Target is where the job runs, as resolved when it was submitted (nil
	// for a job stored before targets were kept).
	Target *JobTarget `json:"target,omitempty"`
	// Waiting is what a queued job waits for ("the ChatGPT tab, which
	// another run drives").
	Waiting string `json:"waiting,omitempty"`
}

// JobTarget is where a job runs, resolved when it is submitted: what its
// approval shows the user.
type JobTarget struct {
	// Site is the site the job asks, resolved from its tab or conversation
	// when the request named none ("" when it could not be resolved).
	Site string `json:"site,omitempty"`
	// Where says in words which tab or conversation the job uses: "a new
	// chat", "its own conversation 'T'", "your existing conversation 'T'".
	Where string `json:"where"`
	// Continues says the job goes on in a conversation that exists already
	// rather than starting one.
	Continues bool `json:"continues"`
	// Existing says the job uses a tab, conversation or run of the user's
	// (not one its own client's jobs opened).
	Existing bool `json:"existing,omitempty"`
	// Files are the files the job would attach, as checked when it was
	// submitted (names, sizes).
	Files []Attachment `json:"files,omitempty"`
}

// Ended reports whether j will not change any more by itself.
func (j Job) Ended() bool { return j.Detail != nil && j.Detail.Ended }

// JobRef names a job.
type JobRef struct {
	ID string `json:"id"`
}

// Validate checks the reference. Errors: errs.BadInput for an empty id.
func (r JobRef) Validate() error {
	if strings.TrimSpace(r.ID) == "" {
		return errs.New(errs.BadInput, "no job named").WithHint("give the job's id (job-…)")
	}
	return nil
}

// JobEvent is one thing a watched job reports: Type EventRunUpdate with the
// Run's state change or the Job's new view, EventRunPartial with the
// answer so far.
type JobEvent struct {
	Type  string    `json:"type"`
	JobID string    `json:"jobId"`
	Time  time.Time `json:"time"`
	Run   *RunEvent `json:"run,omitempty"`
	Job   *Job      `json:"job,omitempty"`
}

// WatchRequest follows job ID to its end.
type WatchRequest struct {
	ID string `json:"id"`
}

// Validate checks the request. Errors: as JobRef.Validate.
func (r WatchRequest) Validate() error { return JobRef(r).Validate() }

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
