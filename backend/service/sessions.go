package service

import (
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// MaxListLimit bounds the runs one listing or search returns.
const MaxListLimit = 1000

// SessionQuery narrows a listing of runs. Query is fuzzy text over the
// runs (best match first); without it the listing is newest first. State
// is a pipeline state and Tool a site's tool the runs asked for, or "none"
// for those that asked for none (an unknown state or tool is
// errs.BadInput from the implementation, naming those there are). Limit 0
// is the implementation's default.
type SessionQuery struct {
	Site  string `json:"site,omitempty"`
	State string `json:"state,omitempty"`
	Tool  string `json:"tool,omitempty"`
	Query string `json:"query,omitempty"`
	Limit int    `json:"limit,omitempty"`
}

// Validate checks the query. Errors: errs.BadInput for a limit outside 0
// to MaxListLimit.
func (q SessionQuery) Validate() error { return checkLimit(q.Limit) }

// SearchRequest searches runs: "site:ID", "state:STATE" and "tool:NAME"
// words of Query narrow the results, the other words are the fuzzy text.
type SearchRequest struct {
	Query string `json:"q"`
	Limit int    `json:"limit,omitempty"`
}

// Validate checks the request. Errors: errs.BadInput for a blank query or a
// limit outside 0 to MaxListLimit.
func (r SearchRequest) Validate() error {
	if strings.TrimSpace(r.Query) == "" {
		return errs.New(errs.BadInput, "search needs a query").WithHint("give the words to look for, e.g. \"q\": \"invoice site:chatgpt\"")
	}
	return checkLimit(r.Limit)
}

func checkLimit(n int) error {
	if n < 0 || n > MaxListLimit {
		return errs.New(errs.BadInput, "limit must be a whole number from 1 to %d, got %d", MaxListLimit, n).
			WithHint("leave the limit out for the default")
	}
	return nil
}

// SessionSummary is one run of a listing, with the record and the search
// hit that found it in Extra.
type SessionSummary struct {
	ID        string        `json:"id"`
	Site      string        `json:"site"`
	Title     string        `json:"title"`
	UpdatedAt time.Time     `json:"updatedAt"`
	Extra     *SessionExtra `json:"extra,omitempty"`
}

// SessionExtra is the whole record of a listed run, the hit that found it
// and the number of runs that matched in all, so that every face prints
// exactly what the embedded CLI prints.
type SessionExtra struct {
	Listed Listed `json:"listed"`
	Total  int    `json:"total"`
}

// SessionRef names a run by its id or an unambiguous prefix of it.
type SessionRef struct {
	ID string `json:"id"`
}

// Validate checks the reference. Errors: errs.BadInput for a blank id.
func (r SessionRef) Validate() error {
	if strings.TrimSpace(r.ID) == "" {
		return errs.New(errs.BadInput, "no run named").WithHint("give the run's id or a prefix of it (`ferry sessions list` shows them)")
	}
	return nil
}

// Session is one run with its content.
type Session struct {
	SessionSummary
	Detail *SessionDetail `json:"detail,omitempty"`
}

// SessionDetail is a run's record and its journal.
type SessionDetail struct {
	Session *Run           `json:"session"`
	Journal []JournalEntry `json:"journal"`
	// Thread lists the runs of the run's conversation thread (the first,
	// then its follow-ups, oldest first, this run included) that the
	// caller may see; absent for a run that is no one's follow-up and has
	// none.
	Thread []SessionSummary `json:"thread,omitempty"`
}

// The export formats.
const (
	FormatMarkdown = "md"
	FormatJSON     = "json"
)

// ExportRequest asks for run ID as Markdown or JSON, secrets redacted.
type ExportRequest struct {
	ID     string `json:"id"`
	Format string `json:"format"`
}

// Validate checks the request. Errors: errs.BadInput for a blank id or a
// format other than md and json.
func (r ExportRequest) Validate() error {
	if err := (SessionRef{ID: r.ID}).Validate(); err != nil {
		return err
	}
	if r.Format != FormatMarkdown && r.Format != FormatJSON {
		return errs.New(errs.BadInput, "unknown export format %q", clip(r.Format, 20)).WithHint("use md or json")
	}
	return nil
}

// Export is a run rendered for sharing.
type Export struct {
	ID     string `json:"id"`
	Format string `json:"format"`
	Body   string `json:"body"`
}

// PollRequest checks a run once. Session "" is the only active run.
// Browser asks for the run's tab to pass the freshness gate, in the browser
// at BrowserURL, else the implementation's, within TimeoutMs (0: no bound
// of its own).
type PollRequest struct {
	Session    string `json:"session,omitempty"`
	Browser    bool   `json:"browser,omitempty"`
	BrowserURL string `json:"browserUrl,omitempty"`
	TimeoutMs  int64  `json:"timeoutMs,omitempty"`
}

// Validate checks the request. Errors: errs.BadInput for a negative timeout
// or a browser address that is not loopback.
func (r PollRequest) Validate() error {
	if r.TimeoutMs < 0 {
		return errs.New(errs.BadInput, "timeoutMs must be positive, got %d", r.TimeoutMs).WithHint("leave it out for no bound")
	}
	return CheckBrowserURL(r.BrowserURL)
}

// PollResult is a run's record and whether its tab passed the freshness
// gate.
type PollResult struct {
	Session *Run `json:"session"`
	Fresh   bool `json:"fresh"`
}

// ReattachRequest resumes an interrupted run (Session "" is the only active
// run) in the browser at BrowserURL, else the implementation's, within
// TimeoutMs (0: the default). Browser says the caller named a browser
// (BrowserURL, or Ferry's own running browser): an implementation without
// a long-lived browser of its own refuses an active run without one.
//
// Launch is how to start Ferry's own browser when the run lost its browser
// (its record says browser_disconnected or a lost tab after the send) and
// neither a named browser, the implementation's, nor Ferry's running one
// is there: the reattach then opens the run's conversation in it. Nil uses
// the implementation's defaults. Only an in-process implementation honours
// it: an owner launches with its own settings.
type ReattachRequest struct {
	Session    string       `json:"session,omitempty"`
	Browser    bool         `json:"browser,omitempty"`
	BrowserURL string       `json:"browserUrl,omitempty"`
	TimeoutMs  int64        `json:"timeoutMs,omitempty"`
	Launch     *BrowserSpec `json:"launch,omitempty"`
}

// Validate checks the request. Errors: errs.BadInput for a negative
// timeout, a browser address that is not loopback, or a Launch that is not
// a valid launch spec.
func (r ReattachRequest) Validate() error {
	if r.TimeoutMs < 0 {
		return errs.New(errs.BadInput, "timeoutMs must be positive, got %d", r.TimeoutMs).WithHint("leave it out for the default")
	}
	if r.Launch != nil {
		if r.Launch.Mode != BrowserLaunch {
			return errs.New(errs.BadInput, "launch must be a launch spec, got mode %q", r.Launch.Mode)
		}
		if err := r.Launch.Validate(); err != nil {
			return err
		}
	}
	return CheckBrowserURL(r.BrowserURL)
}

// ReattachResult is the job that resumes the run, and whether this request
// started it (only then is it the caller's to cancel).
type ReattachResult struct {
	Job     Job  `json:"job"`
	Started bool `json:"started"`
}

// DoctorRequest checks the tabs of active and stale runs; Browser looks at
// them in the browser at BrowserURL, else the implementation's; Recover
// reopens stale runs' conversations in new tabs.
type DoctorRequest struct {
	Browser    bool   `json:"browser,omitempty"`
	BrowserURL string `json:"browserUrl,omitempty"`
	Recover    bool   `json:"recover,omitempty"`
}

// Validate checks the request. Errors: errs.BadInput for a browser address
// that is not loopback.
func (r DoctorRequest) Validate() error { return CheckBrowserURL(r.BrowserURL) }

// DoctorReport is the verdict on one run's tab: ok, stale, recovered or
// unchecked.
type DoctorReport struct {
	ID         string `json:"id"`
	Site       string `json:"site"`
	State      string `json:"state"`
	Verdict    string `json:"verdict"`
	Detail     string `json:"detail,omitempty"`
	Candidates string `json:"candidates,omitempty"`
}
