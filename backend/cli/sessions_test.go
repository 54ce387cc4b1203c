package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/record"
)

// seedSessions writes runs into the store of dataDir through the repository.
func seedSessions(t *testing.T, dataDir string, ss ...job.Session) {
	t.Helper()
	ctx := context.Background()
	c, err := core.Open(ctx, core.Options{DataDir: dataDir})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	repo, err := c.History(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ss {
		if _, err := repo.Create(ctx, &ss[i]); err != nil {
			t.Fatal(err)
		}
	}
}

func exitOf(code errs.Code) int { return errs.ExitCode(errs.New(code, "x")) }

func TestSessionsCommands(t *testing.T) {
	t.Parallel()
	dd := t.TempDir()
	base := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	seedSessions(t, dd,
		job.Session{ID: "run-old", Site: "chatgpt", Prompt: "explain badger compaction", Answer: "levels merge", State: job.StateDone, Created: base,
			ConversationURL: "https://chatgpt.com/c/1?token=SECRETX"},
		job.Session{ID: "run-a", Site: "claude", Prompt: "write a ferry haiku", State: job.StateStreaming, Created: base.Add(time.Hour)},
		job.Session{ID: "run-b", Site: "chatgpt", Prompt: "plan a sailing trip", State: job.StateSubmitting, Created: base.Add(2 * time.Hour)},
	)
	d := "--data-dir=" + dd

	t.Run("list prints every run newest first", func(t *testing.T) {
		r := ferry(t, nil, "sessions", "list", d)
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		b, a, o := strings.Index(r.stdout, "run-b"), strings.Index(r.stdout, "run-a"), strings.Index(r.stdout, "run-old")
		if b < 0 || a < 0 || o < 0 || !(b < a && a < o) {
			t.Fatalf("order wrong:\n%s", r.stdout)
		}
	})
	t.Run("list --json with a query and a site finds the matching run", func(t *testing.T) {
		r := ferry(t, nil, "sessions", "list", "--json", "--query", "badgr compact", "--site", "chatgpt", d)
		var out struct {
			Sessions []struct{ ID string } `json:"sessions"`
			Total    int                   `json:"total"`
		}
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil {
			t.Fatalf("exit %d: %s %s", r.code, r.stdout, r.stderr)
		}
		if len(out.Sessions) != 1 || out.Sessions[0].ID != "run-old" {
			t.Fatalf("got %+v", out)
		}
	})
	t.Run("list refuses an unknown state", func(t *testing.T) {
		r := ferry(t, nil, "sessions", "list", "--state", "sideways", d)
		if r.code != exitOf(errs.BadInput) || !strings.Contains(r.stderr, "sideways") {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
	})
	t.Run("show by prefix prints the run and its journal", func(t *testing.T) {
		r := ferry(t, nil, "sessions", "show", "run-o", d)
		if r.code != 0 || !strings.Contains(r.stdout, "explain badger compaction") || !strings.Contains(r.stdout, "## Journal") {
			t.Fatalf("exit %d:\n%s%s", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("export as json redacts the conversation token", func(t *testing.T) {
		r := ferry(t, nil, "sessions", "export", "run-old", "--format", "json", d)
		if r.code != 0 || !json.Valid([]byte(r.stdout)) || strings.Contains(r.stdout, "SECRETX") || !strings.Contains(r.stdout, "chatgpt.com/c/1") {
			t.Fatalf("exit %d:\n%s%s", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("export refuses an unknown format", func(t *testing.T) {
		r := ferry(t, nil, "sessions", "export", "run-old", "--format", "pdf", d)
		if r.code != exitOf(errs.BadInput) {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
	})
	t.Run("show of a missing run is session_not_found", func(t *testing.T) {
		r := ferry(t, nil, "sessions", "show", "nope", "--json", d)
		if r.code != exitOf(errs.SessionNotFound) || !strings.Contains(r.stdout, "session_not_found") {
			t.Fatalf("exit %d: %s", r.code, r.stdout)
		}
	})
	t.Run("poll without --session fails closed listing the active runs", func(t *testing.T) {
		r := ferry(t, nil, "poll", d)
		if r.code != exitOf(errs.SessionAmbiguous) || !strings.Contains(r.stderr, "run-a") || !strings.Contains(r.stderr, "run-b") {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
	})
	t.Run("poll of a finished run prints its answer", func(t *testing.T) {
		r := ferry(t, nil, "poll", "--session", "run-old", d)
		if r.code != 0 || !strings.Contains(r.stdout, "done") || !strings.Contains(r.stdout, "levels merge") {
			t.Fatalf("exit %d: %s %s", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("reattach of an active run needs the browser", func(t *testing.T) {
		r := ferry(t, nil, "reattach", "--session", "run-b", "--json", d)
		if r.code != exitOf(errs.BadInput) || !strings.Contains(r.stdout, "browser-url") {
			t.Fatalf("exit %d: %s", r.code, r.stdout)
		}
	})
	t.Run("doctor without a browser lists active runs as unchecked", func(t *testing.T) {
		r := ferry(t, nil, "sessions", "doctor", "--json", d)
		if r.code != 0 || strings.Count(r.stdout, "unchecked") != 2 {
			t.Fatalf("exit %d: %s %s", r.code, r.stdout, r.stderr)
		}
	})
}

func TestSessionsListFiltersByTool(t *testing.T) {
	t.Parallel()
	dd := t.TempDir()
	base := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	seedSessions(t, dd,
		job.Session{ID: "run-plain", Site: "chatgpt", Prompt: "tide tables for the harbour", State: job.StateDone, Created: base},
		job.Session{ID: "run-web", Site: "chatgpt", Prompt: "tide tables today", ToolRequested: "web-search", State: job.StateDone, Created: base.Add(time.Hour),
			Tool: &record.ToolProof{Requested: "web-search", Selected: "Web search", Request: "search", Verified: true}},
		job.Session{ID: "run-deep", Site: "chatgpt", Prompt: "the science of tides", ToolRequested: "deep-research", State: job.StateFailed, Created: base.Add(2 * time.Hour)},
	)
	d := "--data-dir=" + dd
	listed := func(t *testing.T, args ...string) string {
		t.Helper()
		r := ferry(t, nil, append([]string{"sessions", "list", "--json", d}, args...)...)
		var out struct {
			Sessions []struct{ ID, Tool string } `json:"sessions"`
		}
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil {
			t.Fatalf("exit %d: %s %s", r.code, r.stdout, r.stderr)
		}
		var got []string
		for _, s := range out.Sessions {
			got = append(got, s.ID+"="+s.Tool)
		}
		return strings.Join(got, ",")
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"without --tool every run is listed with the tool it asked for", nil, "run-deep=deep-research,run-web=web-search,run-plain="},
		{"--tool keeps the runs that asked for it", []string{"--tool", "web-search"}, "run-web=web-search"},
		{"--tool none keeps the runs that asked for none", []string{"--tool", "none"}, "run-plain="},
		{"--tool combines with --state", []string{"--tool", "deep-research", "--state", "failed"}, "run-deep=deep-research"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := listed(t, tc.args...); got != tc.want {
				t.Fatalf("listed %q, want %q", got, tc.want)
			}
		})
	}
	t.Run("the table has a tool column, none for a run without one", func(t *testing.T) {
		r := ferry(t, nil, "sessions", "list", d)
		if r.code != 0 || !strings.Contains(r.stdout, "TOOL") {
			t.Fatalf("exit %d:\n%s%s", r.code, r.stdout, r.stderr)
		}
		for _, l := range strings.Split(r.stdout, "\n") {
			f := strings.Fields(l)
			if len(f) > 3 && f[0] == "run-plain" && f[3] != "none" || len(f) > 3 && f[0] == "run-web" && f[3] != "web-search" {
				t.Errorf("row %q shows the wrong tool", l)
			}
		}
	})
	t.Run("an unknown tool is bad input naming the tools there are", func(t *testing.T) {
		r := ferry(t, nil, "sessions", "list", "--tool", "canvas", d)
		if r.code != exitOf(errs.BadInput) || !strings.Contains(r.stderr, "canvas") || !strings.Contains(r.stderr, "none, deep-research, image, web-search") {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
	})
	t.Run("through a running owner the local API passes the tool on", func(t *testing.T) {
		startServe(t, dd)
		if got := listed(t, "--tool", "none"); got != "run-plain=" {
			t.Fatalf("listed %q through the owner, want run-plain alone", got)
		}
		r := ferry(t, nil, "sessions", "list", "--tool", "canvas", d)
		if r.code != exitOf(errs.BadInput) || !strings.Contains(r.stderr, "web-search") {
			t.Fatalf("an unknown tool through the owner: exit %d: %s", r.code, r.stderr)
		}
	})
}
