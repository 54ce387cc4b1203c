package app

import (
	"context"
	"os"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/app/internal/desktop"
	"github.com/ferrydesk/ferry/app/internal/trash"
	"github.com/ferrydesk/ferry/app/internal/wording"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/service"
)

// Sessions is the frontend's API for the history of runs.
type Sessions struct {
	sh   *shell
	desk desktop.Desktop
}

// SessionList is one page of a history search. The History view asks for
// it on every keystroke, so it carries only what a list row shows
// (HistoryItem), never whole runs: an answer can be hundreds of KB, and a
// page of them would be megabytes of JSON per key. The opened run comes
// from Show.
type SessionList struct {
	// Items are the best matches, best first; never nil (empty on errors).
	Items []HistoryItem `json:"items"`
	// Total is how many runs matched, of which Items are the best.
	Total int `json:"total"`
}

// HistoryItem is one row of a SessionList: the run's summary and the search
// hit that found it (match positions for highlighting, and the answer
// snippet, a short excerpt, which is all of the answer a row carries).
type HistoryItem struct {
	Session HistorySummary `json:"session"`
	Hit     service.Hit    `json:"hit"`
}

// HistorySummary is what a History row needs of a run, and nothing more:
// no answer, code blocks, receipts or artifacts. It comes from the search
// index alone, so a keystroke reads no run from the store: the prompt is
// the opening the index keeps of the run's title, the user's own words
// (the hit's prompt match positions index it).
type HistorySummary struct {
	ID   string `json:"id"`
	Site string `json:"site"`
	// Model is the model the run proved it used, else the one it asked for
	// ("" when neither is known).
	Model string `json:"model,omitempty"`
	State string `json:"state"`
	// Tool is the site's tool the run asked for ("web-search"); "" for none.
	Tool    string    `json:"tool,omitempty"`
	Created time.Time `json:"created"`
	Prompt  string    `json:"prompt"`
	// Artifacts counts the files the run produced.
	Artifacts int `json:"artifacts,omitempty"`
}

// summarize makes a History row of a search hit. The prompt moves to the
// summary rather than being sent twice.
func summarize(h service.Hit) HistoryItem {
	it := HistoryItem{
		Session: HistorySummary{
			ID: h.ID, Site: h.Site, Model: h.Model, State: h.State, Tool: h.Tool,
			Created: h.Created, Prompt: h.Prompt, Artifacts: len(h.Files),
		},
		Hit: h,
	}
	it.Hit.Prompt = ""
	return it
}

// HistoryFilter is what the History view asks for: fuzzy text, exact site,
// state and tool ("" for any; tool "none" for the runs that asked for no
// tool), and the creation dates as RFC 3339 instants
// ("" for no bound; From inclusive, To exclusive). The frontend turns the
// user's local dates into instants, since only it knows what "today" means
// on the user's screen.
type HistoryFilter struct {
	Query string `json:"query"`
	Site  string `json:"site"`
	State string `json:"state"`
	// States lets a run in any of them through (a state group of the view).
	States []string `json:"states"`
	Tool   string   `json:"tool"`
	From   string   `json:"from"`
	To     string   `json:"to"`
	Limit  int      `json:"limit"`
}

// Find searches the runs as List does, narrowed to the creation dates of
// f and its tool. Errors: bad_input for a date that is not RFC 3339, for
// From not before To, for an unknown tool (naming those there are), and as
// List.
func (s *Sessions) Find(f HistoryFilter) (SessionList, error) {
	q := service.HistoryQuery{Query: strings.TrimSpace(f.Query), Site: f.Site, State: f.State, States: f.States, Tool: f.Tool, Limit: f.Limit}
	var err error
	if q.From, err = parseBound("from", f.From); err != nil {
		return SessionList{Items: []HistoryItem{}}, err
	}
	if q.To, err = parseBound("to", f.To); err != nil {
		return SessionList{Items: []HistoryItem{}}, err
	}
	return s.search(q)
}

// parseBound reads one date bound of a HistoryFilter.
func parseBound(name, v string) (time.Time, error) {
	if strings.TrimSpace(v) == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(v))
	if err != nil {
		return time.Time{}, errs.New(errs.BadInput, "the %q date %q is not an RFC 3339 instant", name, v).
			WithHint("pick the date again in the History filter")
	}
	return t, nil
}

// List searches the runs: query is fuzzy text over prompt, answer, site,
// model and file names ("" lists newest first), site and state filter
// exactly ("" for any), limit caps the items (0 for the default). It
// searches the owner's shared history, whose index is built once, so a
// keystroke costs a search, not a rebuild. Errors: bad_input for an
// unknown state, a bad limit or query; store errors.
func (s *Sessions) List(query, site, state string, limit int) (SessionList, error) {
	return s.search(service.HistoryQuery{Query: strings.TrimSpace(query), Site: site, State: state, Limit: limit})
}

func (s *Sessions) search(q service.HistoryQuery) (SessionList, error) {
	out := SessionList{Items: []HistoryItem{}}
	err := s.sh.withService(func(svc service.Service) error {
		page, err := svc.SearchHistory(context.Background(), desktopCaller, q)
		if err != nil {
			return err
		}
		out.Items = make([]HistoryItem, 0, len(page.Hits))
		for _, h := range page.Hits {
			it := summarize(h)
			if record.State(h.State).Active() {
				// A run still in a step may have stopped there because
				// its browser went away (rare rows: only these are read).
				if v, err := svc.ViewSession(context.Background(), desktopCaller, service.SessionRef{ID: h.ID}); err == nil && v.Session != nil && v.Session.Error != nil {
					it.Session.State = wording.ShownState(true, h.State, v.Session.Error)
				}
			}
			out.Items = append(out.Items, it)
		}
		out.Total = page.Total
		return nil
	})
	return out, err
}

// Show returns the run id (a full id or an unambiguous prefix), redacted as
// for export, with its journal. Errors: session_not_found,
// session_ambiguous; store errors.
func (s *Sessions) Show(id string) (service.SessionDetail, error) {
	var out service.SessionDetail
	err := s.sh.withService(func(svc service.Service) error {
		var err error
		out, err = svc.ViewSession(context.Background(), desktopCaller, service.SessionRef{ID: id})
		if err == nil && out.Session != nil {
			out.Session.Error = wording.ForDesktop(out.Session.Error)
			trash.MarkFiles(out.Session, os.Getenv)
		}
		return err
	})
	return out, err
}

// Export returns the run id rendered as format ("md" or "json"), redacted.
// Errors: bad_input for another format; as Show.
func (s *Sessions) Export(id, format string) (string, error) {
	return s.export(id, format)
}

// CopyExport puts the export of run id in format on the clipboard. Errors:
// as Export; internal when the clipboard refuses.
func (s *Sessions) CopyExport(id, format string) error {
	text, err := s.export(id, format)
	if err != nil {
		return err
	}
	return s.desk.CopyText(text)
}

// SaveExport asks where to save the export of run id in format and writes
// it there; it returns the path, or "" when the user cancelled. Errors: as
// Export; bad_input for a folder that cannot be written.
func (s *Sessions) SaveExport(id, format string) (string, error) {
	text, err := s.export(id, format)
	if err != nil {
		return "", err
	}
	ext := ".md"
	if format == service.FormatJSON {
		ext = ".json"
	}
	return s.desk.SaveFile("Export the run", "ferry-"+id+ext, []byte(text))
}

// SaveReport asks where to save the failure report of run id (one zip, see
// `ferry report`) and writes it there; it returns the path, or "" when the
// user cancelled. Errors: as Show; bad_input for a run that did not fail or
// a folder that cannot be written.
func (s *Sessions) SaveReport(id string) (string, error) {
	var rep service.Report
	err := s.sh.withService(func(svc service.Service) error {
		var err error
		rep, err = svc.ReportSession(context.Background(), desktopCaller, service.ReportRequest{ID: id})
		return err
	})
	if err != nil {
		return "", err
	}
	return s.desk.SaveFile("Save the failure report", rep.Name, rep.Zip)
}

func (s *Sessions) export(id, format string) (string, error) {
	var out string
	err := s.sh.withService(func(svc service.Service) error {
		ex, err := svc.ExportSession(context.Background(), desktopCaller, service.ExportRequest{ID: id, Format: format})
		out = ex.Body
		return err
	})
	return out, err
}
