package app

import (
	"context"
	"strings"

	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
)

// Sessions is the frontend's API for the history of runs.
type Sessions struct {
	sh   *shell
	desk desktop
}

// SessionList is one page of a history search.
type SessionList struct {
	Items []job.Listed `json:"items"`
	// Total is how many runs matched, of which Items are the best.
	Total int `json:"total"`
}

// SessionDetail is one run with its journal.
type SessionDetail struct {
	Session *job.Session `json:"session"`
	Journal []job.Entry  `json:"journal"`
}

// List searches the runs: query is fuzzy text over prompt, answer, site,
// model and file names ("" lists newest first), site and state filter
// exactly ("" for any), limit caps the items (0 for the default). It
// searches the core's shared history, whose index is built once, so a
// keystroke costs a search, not a rebuild. Errors: bad_input for an
// unknown state, a bad limit or query; store errors.
func (s *Sessions) List(query, site, state string, limit int) (SessionList, error) {
	out := SessionList{Items: []job.Listed{}}
	err := s.sh.withCore(func(c *core.Core) error {
		items, total, err := c.SearchHistory(context.Background(),
			job.Filter{Query: strings.TrimSpace(query), Site: site, State: job.State(state), Limit: limit})
		if err != nil {
			return err
		}
		out.Items, out.Total = items, total
		return nil
	})
	return out, err
}

// Show returns the run id (a full id or an unambiguous prefix), redacted as
// for export, with its journal. Errors: session_not_found,
// session_ambiguous; store errors.
func (s *Sessions) Show(id string) (SessionDetail, error) {
	var out SessionDetail
	err := s.sh.withCore(func(c *core.Core) error {
		ctx := context.Background()
		repo, err := c.History(ctx)
		if err != nil {
			return err
		}
		sess, err := repo.Resolve(ctx, id)
		if err != nil {
			return err
		}
		journal, err := repo.Journal(ctx, sess.ID)
		if err != nil {
			return err
		}
		out = SessionDetail{Session: job.Redacted(sess), Journal: journal}
		return nil
	})
	return out, err
}

// Export returns the run id rendered as format ("md" or "json"), redacted.
// Errors: bad_input for another format; as Show.
func (s *Sessions) Export(id, format string) (string, error) {
	b, err := s.export(id, format)
	return string(b), err
}

// CopyExport puts the export of run id in format on the clipboard. Errors:
// as Export; internal when the clipboard refuses.
func (s *Sessions) CopyExport(id, format string) error {
	b, err := s.export(id, format)
	if err != nil {
		return err
	}
	return s.desk.CopyText(string(b))
}

// SaveExport asks where to save the export of run id in format and writes
// it there; it returns the path, or "" when the user cancelled. Errors: as
// Export; bad_input for a folder that cannot be written.
func (s *Sessions) SaveExport(id, format string) (string, error) {
	b, err := s.export(id, format)
	if err != nil {
		return "", err
	}
	ext := ".md"
	if format == job.FormatJSON {
		ext = ".json"
	}
	return s.desk.SaveFile("Export the run", "ferry-"+id+ext, b)
}

func (s *Sessions) export(id, format string) ([]byte, error) {
	if format != job.FormatMarkdown && format != job.FormatJSON {
		return nil, errs.New(errs.BadInput, "unknown export format %q", format).WithHint("export as md or json")
	}
	var out []byte
	err := s.sh.withCore(func(c *core.Core) error {
		ctx := context.Background()
		repo, err := c.History(ctx)
		if err != nil {
			return err
		}
		sess, err := repo.Resolve(ctx, id)
		if err != nil {
			return err
		}
		journal, err := repo.Journal(ctx, sess.ID)
		if err != nil {
			return err
		}
		out, err = job.Export(sess, journal, format)
		return err
	})
	return out, err
}
