package job

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/store"
)

// oldRuns are runs as the store held them before a run could ask for a
// tool: no toolRequested, no tool proof.
var oldRuns = []struct {
	id      string
	created time.Time
	raw     string
}{
	{"old-1", time.Date(2026, 1, 2, 9, 0, 0, 0, time.UTC),
		`{"id":"old-1","site":"chatgpt","modelRequested":"gpt-5","model":{"requested":"gpt-5","slug":"gpt-5","verified":true},` +
			`"prompt":"tide tables for the harbour","created":"2026-01-02T09:00:00Z","updated":"2026-01-02T09:01:00Z","state":"done",` +
			`"answer":"High water at noon.","origin":"cli","approval":"not_required","seq":3}`},
	{"old-2", time.Date(2026, 1, 3, 9, 0, 0, 0, time.UTC),
		`{"id":"old-2","site":"claude","model":{"requested":"default"},"prompt":"a poem about tides",` +
			`"created":"2026-01-03T09:00:00Z","updated":"2026-01-03T09:00:00Z","state":"failed","origin":"desktop","approval":"not_required","seq":2}`},
}

// seedOldRuns writes oldRuns into the store in dir as the previous version
// did: the record and its creation index key.
func seedOldRuns(t *testing.T, dir string) {
	t.Helper()
	st := openStore(t, dir)
	defer st.Close()
	err := st.Update(func(tx *store.Tx) error {
		for _, o := range oldRuns {
			if err := tx.Put(store.SessionKey(o.id), []byte(o.raw)); err != nil {
				return err
			}
			if err := tx.Put(store.SessionIndexKey(o.created, o.id), nil); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestListFiltersByTool(t *testing.T) {
	dir := t.TempDir()
	seedOldRuns(t, dir)
	r, st := openRepo(t, dir)
	defer st.Close()
	ctx := context.Background()
	base := time.Date(2026, 2, 1, 9, 0, 0, 0, time.UTC)
	for i, s := range []Session{
		{ID: "web", Site: "chatgpt", Prompt: "tide tables today", ToolRequested: "web-search", State: StateDone,
			Tool: &record.ToolProof{Requested: "web-search", Selected: "Web search", Request: "search", Verified: true}},
		{ID: "deep", Site: "chatgpt", Prompt: "the science of tides", ToolRequested: "deep-research", State: StateFailed},
		// A run whose proof alone names its tool is filed under it too.
		{ID: "proof", Site: "chatgpt", Prompt: "draw a tide chart", State: StateDone, Tool: &record.ToolProof{Requested: "image", Verified: true}},
		{ID: "plain", Site: "chatgpt", Prompt: "tides without tools", State: StateDone},
	} {
		s.Created = base.Add(time.Duration(i) * time.Hour)
		if _, err := r.Create(ctx, &s); err != nil {
			t.Fatal(err)
		}
	}
	list := func(t *testing.T, f Filter) string {
		t.Helper()
		got, total, err := r.List(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, l := range got {
			ids = append(ids, l.Session.ID+"="+l.Hit.Tool)
		}
		if total != len(got) {
			t.Fatalf("total %d for %d runs", total, len(got))
		}
		return strings.Join(ids, ",")
	}
	for _, tc := range []struct {
		name string
		f    Filter
		want string
	}{
		{"an old store lists its runs, which asked for no tool, beside the new", Filter{}, "plain=,proof=image,deep=deep-research,web=web-search,old-2=,old-1="},
		{"none keeps the old runs and the new ones without a tool", Filter{Tool: "none"}, "plain=,old-2=,old-1="},
		{"a tool keeps its runs", Filter{Tool: "web-search"}, "web=web-search"},
		{"a tool compares without case and blanks", Filter{Tool: " Deep-Research "}, "deep=deep-research"},
		{"the proof's tool counts when the request named none", Filter{Tool: "image"}, "proof=image"},
		{"the tool combines with a site and a query", Filter{Tool: "none", Site: "chatgpt", Query: "tide tables"}, "old-1="},
		{"the tool combines with a state", Filter{Tool: "deep-research", State: StateDone}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := list(t, tc.f); got != tc.want {
				t.Fatalf("listed %q, want %q", got, tc.want)
			}
		})
	}
	t.Run("an unknown tool is bad input naming the tools there are", func(t *testing.T) {
		_, _, err := r.List(ctx, Filter{Tool: "canvas"})
		if !errs.Has(err, errs.BadInput) {
			t.Fatalf("err = %v, want bad_input", err)
		}
		for _, name := range []string{"canvas", "none", "deep-research", "image", "web-search"} {
			if !strings.Contains(err.Error(), name) {
				t.Errorf("the error %q does not name %s", err, name)
			}
		}
	})
}
