package core

import (
	"encoding/json"
	"fmt"

	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/search"
	"github.com/ferrydesk/ferry/backend/service"
)

// The service's records mirror the pipeline's field for field with the same
// JSON form (package service cannot import job without pulling the browser
// into every face). These functions convert through that JSON form, so that
// a record shows the same bytes in either type; TestServiceMirrorsKeepEveryField
// fails when a field of the pipeline's records has no mirror.

// mirror converts v into the type whose JSON form is v's. A failure is a
// bug (the two types disagree), reported as an error for the caller to
// wrap.
func mirror[T any](v any) (T, error) {
	var out T
	b, err := json.Marshal(v)
	if err != nil {
		return out, fmt.Errorf("encode %T: %w", v, err)
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return out, fmt.Errorf("decode %T as %T: %w", v, out, err)
	}
	return out, nil
}

// RunOf is the service's view of s (nil for nil).
func RunOf(s *job.Session) *service.Run {
	if s == nil {
		return nil
	}
	r, err := mirror[service.Run](s)
	if err != nil {
		panic(err) // the mirror test keeps the types in step
	}
	return &r
}

// SessionOf is the pipeline's record of r (nil for nil): what the CLI's
// printers and job.Export take.
func SessionOf(r *service.Run) *job.Session {
	if r == nil {
		return nil
	}
	s, err := mirror[job.Session](r)
	if err != nil {
		panic(err)
	}
	return &s
}

// journalOf is the service's view of a journal.
func journalOf(entries []job.Entry) []service.JournalEntry {
	out, err := mirror[[]service.JournalEntry](entries)
	if err != nil {
		panic(err)
	}
	if out == nil {
		out = []service.JournalEntry{}
	}
	return out
}

func hitOf(h search.Hit) service.Hit {
	out, err := mirror[service.Hit](h)
	if err != nil {
		panic(err)
	}
	return out
}

func findingOf(f *job.Finding) *service.Finding {
	if f == nil {
		return nil
	}
	return &service.Finding{From: string(f.From), Looked: f.Looked, Found: f.Found, Action: f.Action, Detail: f.Detail}
}

// jobFindingOf is the pipeline's finding of f (nil for nil).
func jobFindingOf(f *service.Finding) *job.Finding {
	if f == nil {
		return nil
	}
	return &job.Finding{From: job.State(f.From), Looked: f.Looked, Found: f.Found, Action: f.Action, Detail: f.Detail}
}

func receiptOf(r *CodeReceipt) *service.CodeReceipt {
	if r == nil {
		return nil
	}
	out, err := mirror[service.CodeReceipt](r)
	if err != nil {
		panic(err)
	}
	return &out
}

// codeReceiptOf is the code receipt of r (nil for nil), as `ferry code --json`
// prints it.
func codeReceiptOf(r *service.CodeReceipt) *CodeReceipt {
	if r == nil {
		return nil
	}
	out, err := mirror[CodeReceipt](r)
	if err != nil {
		panic(err)
	}
	return &out
}

// runEventOf is the service's view of a run event.
func runEventOf(ev job.Event) service.RunEvent {
	out, err := mirror[service.RunEvent](ev)
	if err != nil {
		panic(err)
	}
	return out
}
