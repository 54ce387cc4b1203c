package app

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/app/internal/desktop"
	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
)

// fakeDesktop records what the bound structs asked of the desktop; its save
// dialog "chooses" saveTo, its folder dialog folder.
type fakeDesktop struct {
	copied, revealed, opened []string
	saveTo                   string
	folder                   string
	noOpener                 bool // no file manager or application answers
}

func (f *fakeDesktop) CopyText(text string) error { f.copied = append(f.copied, text); return nil }
func (f *fakeDesktop) Reveal(path string) error {
	if f.noOpener {
		return errs.New(errs.CapabilityMissing, "nothing answered")
	}
	f.revealed = append(f.revealed, path)
	return nil
}
func (f *fakeDesktop) Open(path string) error {
	if f.noOpener {
		return errs.New(errs.CapabilityMissing, "nothing answered")
	}
	f.opened = append(f.opened, path)
	return nil
}
func (f *fakeDesktop) SavePath(_, _ string) (string, error) { return f.saveTo, nil }
func (f *fakeDesktop) ChooseFolder(string) (string, error)  { return f.folder, nil }
func (f *fakeDesktop) SaveFile(_, _ string, data []byte) (string, error) {
	if f.saveTo == "" {
		return "", nil
	}
	return f.saveTo, desktop.WriteFileAtomic(f.saveTo, data)
}

func zipOf(t *testing.T, name, content string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	f, err := w.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte(content))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestSessionsThroughTheBoundStruct(t *testing.T) {
	sh, _, _ := openShell(t, nil)
	desk := &fakeDesktop{saveTo: filepath.Join(t.TempDir(), "run.md")}
	sessions := &Sessions{sh: sh, desk: desk}
	ctx := context.Background()
	var id string
	err := sh.withCore(func(c *core.Core) error {
		repo, err := c.History(ctx)
		if err != nil {
			return err
		}
		s, err := repo.Create(ctx, &job.Session{Site: "chatgpt", Prompt: "write a haiku about ferries", Answer: "Boats cross the water", State: job.StateDone})
		if err != nil {
			return err
		}
		id = s.ID
		_, err = repo.Create(ctx, &job.Session{Site: "claude", Prompt: "explain badger compaction", State: job.StateFailed})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("a query finds the matching run with match positions", func(t *testing.T) {
		got, err := sessions.List("haiku", "", "", 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Items) != 1 || got.Items[0].Session.ID != id || len(got.Items[0].Hit.Matches) == 0 {
			t.Fatalf("List(haiku) = %+v", got)
		}
	})
	t.Run("filters by site and state narrow the list", func(t *testing.T) {
		got, _ := sessions.List("", "claude", "", 0)
		if len(got.Items) != 1 || got.Items[0].Session.Site != "claude" {
			t.Errorf("site filter gave %+v", got.Items)
		}
		got, _ = sessions.List("", "", "done", 0)
		if len(got.Items) != 1 || got.Items[0].Session.ID != id {
			t.Errorf("state filter gave %+v", got.Items)
		}
	})
	t.Run("an unknown state is bad_input", func(t *testing.T) {
		if _, err := sessions.List("", "", "sideways", 0); !errs.Has(err, errs.BadInput) {
			t.Errorf("List(state=sideways): %v", err)
		}
	})
	t.Run("show returns the run and its journal", func(t *testing.T) {
		d, err := sessions.Show(id)
		if err != nil || d.Session.Prompt != "write a haiku about ferries" || len(d.Journal) == 0 {
			t.Errorf("Show = %+v, %v", d, err)
		}
		if _, err := sessions.Show("20000101-000000-ffffff"); !errs.Has(err, errs.SessionNotFound) {
			t.Errorf("Show(unknown): %v", err)
		}
	})
	t.Run("export renders markdown and json and refuses other formats", func(t *testing.T) {
		md, err := sessions.Export(id, "md")
		if err != nil || !strings.Contains(md, "# Ferry session "+id) {
			t.Errorf("md export %q, %v", md, err)
		}
		js, err := sessions.Export(id, "json")
		if err != nil || !strings.Contains(js, `"prompt": "write a haiku about ferries"`) {
			t.Errorf("json export %q, %v", js, err)
		}
		if _, err := sessions.Export(id, "pdf"); !errs.Has(err, errs.BadInput) {
			t.Errorf("pdf export: %v", err)
		}
	})
	t.Run("copy and save go through the desktop", func(t *testing.T) {
		if err := sessions.CopyExport(id, "md"); err != nil || len(desk.copied) != 1 || !strings.Contains(desk.copied[0], id) {
			t.Errorf("CopyExport: %v, copied %q", err, desk.copied)
		}
		path, err := sessions.SaveExport(id, "md")
		if err != nil || path != desk.saveTo {
			t.Fatalf("SaveExport = %q, %v", path, err)
		}
		if b, _ := os.ReadFile(path); !strings.Contains(string(b), "haiku") {
			t.Errorf("saved file holds %q", b)
		}
		desk.saveTo = ""
		if path, err := sessions.SaveExport(id, "json"); path != "" || err != nil {
			t.Errorf("a cancelled dialog gave %q, %v", path, err)
		}
	})
}

// TestSessionListCarriesNoAnswers: the History view lists on every
// keystroke, so a listed run is its summary and the hit's short snippet,
// never the answer, whose size has no bound.
func TestSessionListCarriesNoAnswers(t *testing.T) {
	sh, _, _ := openShell(t, nil)
	sessions := &Sessions{sh: sh, desk: &fakeDesktop{}}
	ctx := context.Background()
	// The marker sits 30 KB into a 50 KB answer, far past any snippet (the
	// answer's opening or a few hundred runes around a match). The filler
	// is digits, and the marker has no "h", so "haiku" cannot match the
	// answer and move the snippet near it.
	const marker = "QUOKKAMARKERZEBRA"
	filler := strings.Repeat("0123456789 ", 50_000/11)
	answer := filler[:30_000] + marker + filler[30_000:]
	created := map[string]*job.Session{}
	err := sh.withCore(func(c *core.Core) error {
		repo, err := c.History(ctx)
		if err != nil {
			return err
		}
		for _, s := range []*job.Session{
			{Site: "chatgpt", ModelRequested: "gpt-5", Prompt: "write a haiku about ferries", Answer: answer, State: job.StateDone,
				Artifacts: []job.Artifact{{Name: "a.zip"}, {Name: "b.zip"}}},
			{Site: "claude", Prompt: "a haiku that failed", Answer: answer, State: job.StateFailed,
				Error: errs.New(errs.Timeout, "the answer did not finish")},
		} {
			got, err := repo.Create(ctx, s)
			if err != nil {
				return err
			}
			created[got.Site] = got
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	for _, query := range []string{"", "haiku"} {
		t.Run("listing "+strconv.Quote(query)+" sends summaries without the answers", func(t *testing.T) {
			got, err := sessions.List(query, "", "", 100)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Items) != 2 || got.Total != 2 {
				t.Fatalf("List(%q) = %d items of %d, want both runs", query, len(got.Items), got.Total)
			}
			b, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(b, []byte(marker)) {
				t.Errorf("the list JSON holds the answer body (marker %q found)", marker)
			}
			if len(b) > 4<<10 {
				t.Errorf("the list of 2 runs is %d bytes of JSON, want under 4 KiB (each answer is %d bytes)", len(b), len(answer))
			}
			if len(got.Items[0].Hit.Snippet) == 0 || len(got.Items[0].Hit.Snippet) > 1<<10 {
				t.Errorf("snippet is %d bytes, want a short excerpt", len(got.Items[0].Hit.Snippet))
			}
		})
	}
	t.Run("a row holds what the History list shows", func(t *testing.T) {
		got, err := sessions.List("", "", "", 100)
		if err != nil {
			t.Fatal(err)
		}
		rows := map[string]HistorySummary{}
		for _, it := range got.Items {
			rows[it.Session.Site] = it.Session
		}
		done, want := rows["chatgpt"], created["chatgpt"]
		if done.ID != want.ID || done.Model != "gpt-5" || done.State != string(job.StateDone) || done.Prompt != want.Prompt ||
			!done.Created.Equal(want.Created) || done.Artifacts != 2 {
			t.Errorf("done row = %+v, want the run %s with model gpt-5 and 2 artifacts", done, want.ID)
		}
		failed := rows["claude"]
		if failed.ID != created["claude"].ID || failed.State != string(job.StateFailed) || failed.Model != "" || failed.Artifacts != 0 {
			t.Errorf("failed row = %+v, want state failed, no model, no artifacts", failed)
		}
	})
	t.Run("the JSON keeps the field names the view reads", func(t *testing.T) {
		got, _ := sessions.List("haiku", "", "", 100)
		b, _ := json.Marshal(got.Items[0])
		var row struct {
			Session map[string]any `json:"session"`
			Hit     map[string]any `json:"hit"`
		}
		if err := json.Unmarshal(b, &row); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"id", "site", "state", "created", "prompt"} {
			if _, ok := row.Session[k]; !ok {
				t.Errorf("session.%s missing from %s", k, b)
			}
		}
		if _, ok := row.Session["answer"]; ok {
			t.Errorf("session.answer present in %s", b)
		}
		if _, ok := row.Hit["matches"]; !ok {
			t.Errorf("hit.matches missing from %s", b)
		}
	})
	t.Run("a bad date range still gives an empty list, not null", func(t *testing.T) {
		got, err := sessions.Find(HistoryFilter{From: "2026-03-02T00:00:00Z", To: "2026-03-01T00:00:00Z"})
		if !errs.Has(err, errs.BadInput) {
			t.Fatalf("Find(reversed range): %v", err)
		}
		if b, _ := json.Marshal(got); !bytes.Contains(b, []byte(`"items":[]`)) {
			t.Errorf("Find(reversed range) = %s, want items []", b)
		}
	})
}

func TestArtifactsThroughTheBoundStruct(t *testing.T) {
	sh, _, dataDir := openShell(t, nil)
	desk := &fakeDesktop{}
	arts := &Artifacts{sh: sh, desk: desk}
	dir := filepath.Join(dataDir, "artifacts")
	ctx := context.Background()
	good, err := artifact.Save(ctx, dir, "good.zip", bytes.NewReader(zipOf(t, "main.go", "package main\n")), artifact.Provenance{Site: "chatgpt"})
	if err != nil {
		t.Fatal(err)
	}
	bad, _ := artifact.Save(ctx, dir, "slip.zip", bytes.NewReader(zipOf(t, "../evil", "x")), artifact.Provenance{Site: "chatgpt"})
	if bad == nil || !bad.Quarantined {
		t.Fatalf("slip.zip was not quarantined: %+v", bad)
	}

	t.Run("list shows the verified and the quarantined zip", func(t *testing.T) {
		l, err := arts.List()
		if err != nil || l.Dir != dir || len(l.Items) != 2 {
			t.Fatalf("List = %+v, %v", l, err)
		}
	})
	t.Run("a verified zip can be dragged, copied and revealed", func(t *testing.T) {
		p, err := arts.DragPath(good.Path)
		if err != nil || p != good.Path {
			t.Errorf("DragPath = %q, %v", p, err)
		}
		if err := arts.CopyPath(good.Path); err != nil || len(desk.copied) != 1 || desk.copied[0] != good.Path {
			t.Errorf("CopyPath: %v, copied %q", err, desk.copied)
		}
		if err := arts.RevealInFolder(good.Path); err != nil || len(desk.revealed) != 1 {
			t.Errorf("RevealInFolder: %v, revealed %q", err, desk.revealed)
		}
	})
	t.Run("a quarantined zip cannot be dragged", func(t *testing.T) {
		if _, err := arts.DragPath(bad.Path); !errs.Has(err, errs.ArtifactUnsafe) {
			t.Errorf("DragPath(quarantined): %v", err)
		}
	})
	t.Run("a path outside the library is refused", func(t *testing.T) {
		if err := arts.RevealInFolder("/etc/passwd"); !errs.Has(err, errs.ArtifactNotFound) {
			t.Errorf("RevealInFolder(/etc/passwd): %v", err)
		}
		if len(desk.revealed) != 1 {
			t.Errorf("the desktop was asked to reveal %q", desk.revealed)
		}
	})
}
