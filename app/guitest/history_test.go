//go:build gui

package guitest

import (
	"archive/zip"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/store"
)

// hostileAnswer is an answer a compromised site might send: the detail pane
// must show it as text, never run it.
const hostileAnswer = "Here is **the plan**.\n\n<img src=x onerror=\"window.__pwned=1\">\n\n[click](javascript:window.__pwned=2)\n\n```go\nfunc main() {}\n```\n\n[Download project.zip](sandbox:/mnt/data/project.zip)"

// seedHistory writes two runs into the data directory's store through the
// job repository (before the app owns the store): a done one whose answer
// links the verified zip it saved, and a failed one; and a verified and a
// quarantined zip into its artifacts directory through artifact.Save.
func seedHistory(t *testing.T, dataDir string) (haikuID string, good, bad string) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(dataDir, "db"))
	if err != nil {
		t.Fatalf("open the store to seed it: %v", err)
	}
	repo, err := job.OpenRepo(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	s, err := repo.Create(ctx, &job.Session{Site: "chatgpt", Prompt: "write a haiku about river ferries", Answer: hostileAnswer, State: job.StateDone})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := repo.Create(ctx, &job.Session{Site: "claude", Prompt: "explain badger compaction", Answer: "Levels merge.", State: job.StateFailed}); err != nil {
		t.Fatal(err)
	}

	mk := func(name string) []byte {
		var buf bytes.Buffer
		w := zip.NewWriter(&buf)
		f, _ := w.Create(name)
		f.Write([]byte("package main\n"))
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	dir := filepath.Join(dataDir, "artifacts")
	g, err := artifact.Save(ctx, dir, "project.zip", bytes.NewReader(mk("project/main.go")), artifact.Provenance{Site: "chatgpt", Session: s.ID})
	if err != nil {
		t.Fatalf("save the good zip: %v", err)
	}
	if _, err := repo.Update(ctx, s.ID, "saved project.zip", func(s *job.Session) error {
		s.Artifacts = []job.Artifact{{Name: "project.zip", Path: g.Path, Verdict: "verified"}}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	b, _ := artifact.Save(ctx, dir, "slip.zip", bytes.NewReader(mk("../../.ssh/authorized_keys")), artifact.Provenance{Site: "chatgpt"})
	if b == nil || !b.Quarantined {
		t.Fatalf("the zip-slip archive was not quarantined: %+v", b)
	}
	return s.ID, g.Path, b.Path
}

// seedInterrupted adds a run interrupted while its answer arrived (stale),
// as seedHistory does.
func seedInterrupted(t *testing.T, dataDir string) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(dataDir, "db"))
	if err != nil {
		t.Fatalf("open the store to seed it: %v", err)
	}
	defer st.Close()
	repo, err := job.OpenRepo(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := repo.Create(ctx, &job.Session{Site: "gemini", Prompt: "list the harbour tides", State: job.StateStale, StateBefore: job.StateStreaming}); err != nil {
		t.Fatal(err)
	}
}

// TestHistoryAndArtifacts drives the History and Artifacts views against a
// seeded data directory: search as you type with highlights, keyboard
// selection, the detail with a hostile answer kept inert, and drag-out data
// for a verified zip only.
func TestHistoryAndArtifacts(t *testing.T) {
	t.Parallel()
	requireDisplay(t)
	requireFrontendBuilt(t)
	bin := buildApp(t, devTags)
	b := launchBrowser(t)
	shots := t.TempDir()

	dir := t.TempDir()
	haikuID, good, bad := seedHistory(t, filepath.Join(dir, "data"))
	seedInterrupted(t, filepath.Join(dir, "data"))
	app := startDevApp(t, bin, dir)
	page := openShell(t, b, app.url)

	page.MustElement(`[role=tab][data-view=history]`).MustClick()
	waitTitle(t, page, "History")

	t.Run("the seeded runs are listed before typing", func(t *testing.T) {
		page.MustWait(`() => document.querySelectorAll('[data-testid=history-list] [role=option]').length === 3`)
	})

	t.Run("the state filter offers the states a user knows, each standing for the states behind it", func(t *testing.T) {
		opts := page.MustEval(`() => [...document.querySelectorAll('[data-testid=history-state] option')].map(o => o.value + '=' + o.textContent.trim()).join(' | ')`).Str()
		if want := "=All states | running=Running | done=Done | failed=Failed | cancelled=Cancelled | waiting=Waiting"; opts != want {
			t.Errorf("the state filter offers %q, want %q", opts, want)
		}
		rows := func() string {
			return page.MustEval(`() => [...document.querySelectorAll('[data-testid=history-list] [role=option] .site')].map(e => e.textContent).join(',')`).Str()
		}
		for _, tc := range []struct{ pick, want string }{{"Waiting", "Gemini"}, {"Failed", "Claude"}, {"Done", "ChatGPT"}, {"Running", ""}} {
			page.MustElement(`[data-testid=history-state]`).MustSelect(tc.pick)
			if err := page.Timeout(eventWithin).Wait(rod.Eval(`(want) => [...document.querySelectorAll('[data-testid=history-list] [role=option] .site')].map(e => e.textContent).join(',') === want`, tc.want)); err != nil {
				t.Errorf("%s lists %q, want %q", tc.pick, rows(), tc.want)
			}
		}
		page.MustElement(`[data-testid=history-state]`).MustSelect("All states")
		page.MustWait(`() => document.querySelectorAll('[data-testid=history-list] [role=option]').length === 3`)
	})

	t.Run("typing filters the list and highlights the match", func(t *testing.T) {
		page.MustElement(`[data-testid=history-search]`).MustInput("haiku")
		page.MustWait(`() => document.querySelectorAll('[data-testid=history-list] [role=option]').length === 1`)
		row := page.MustElement(`[data-testid=history-list] [role=option]`)
		if id := row.MustAttribute("data-id"); id == nil || *id != haikuID {
			t.Fatalf("the remaining row is %v, want %s", id, haikuID)
		}
		marked := page.MustEval(`() => [...document.querySelectorAll('[data-testid=history-list] [data-testid=history-prompt] mark')].map(m => m.textContent).join('')`).Str()
		if marked != "haiku" {
			t.Errorf("highlighted %q, want haiku", marked)
		}
		savePageShot(t, page, shots, "ferry-history-search.png")
	})

	t.Run("Enter opens the selected run's detail with the hostile answer inert", func(t *testing.T) {
		page.KeyActions().Type(input.Enter).MustDo()
		page.MustWait(`() => (document.querySelector('[data-testid=detail-prompt]')?.textContent ?? '').includes('river ferries')`)
		md := page.MustElement(`[data-testid=markdown]`)
		if got := md.MustEval(`() => this.querySelectorAll('img,script,iframe').length`).Int(); got != 0 {
			t.Errorf("the answer put %d active elements into the page", got)
		}
		if href := md.MustEval(`() => [...this.querySelectorAll('a')].map(a => a.getAttribute('href')).join(',')`).Str(); href != "" {
			t.Errorf("a link with href %q was rendered from a javascript: URL", href)
		}
		if got := md.MustEval(`() => this.querySelector('strong')?.textContent ?? ''`).Str(); got != "the plan" {
			t.Errorf("bold text rendered as %q", got)
		}
		if !strings.Contains(md.MustText(), "<img src=x") {
			t.Errorf("the hostile markup is not shown as text: %q", md.MustText())
		}
		if pwned := page.MustEval(`() => window.__pwned ?? 0`).Int(); pwned != 0 {
			t.Errorf("the answer ran script (window.__pwned=%d)", pwned)
		}
		savePageShot(t, page, shots, "ferry-history-detail.png")
	})

	t.Run("the site filter narrows the list", func(t *testing.T) {
		page.MustElement(`[data-testid=history-search]`).MustSelectAllText().MustInput("")
		page.MustWait(`() => document.querySelectorAll('[data-testid=history-list] [role=option]').length === 3`)
		page.MustElement(`[data-testid=history-site]`).MustSelect("claude")
		page.MustWait(`() => document.querySelectorAll('[data-testid=history-list] [role=option]').length === 1`)
		if site := page.MustElement(`[data-testid=history-list] [role=option] .site`).MustText(); site != "Claude" {
			t.Errorf("filtered row is from %q", site)
		}
	})

	page.MustElement(`[role=tab][data-view=artifacts]`).MustClick()
	waitTitle(t, page, "Artifacts")
	page.MustWait(`() => document.querySelectorAll('[data-testid=artifact]').length === 2`)

	t.Run("the verified zip is draggable and its dragstart carries the file URL", func(t *testing.T) {
		card := page.MustElement(`[data-testid=artifact][data-status=verified]`)
		if d := card.MustAttribute("draggable"); d == nil || *d != "true" {
			t.Fatalf("verified card draggable=%v", d)
		}
		got := card.MustEval(`() => {
			const dt = new DataTransfer();
			const ev = new DragEvent('dragstart', {bubbles: true, cancelable: true, dataTransfer: dt});
			const cancelled = !this.dispatchEvent(ev);
			return {cancelled, uri: dt.getData('text/uri-list'), text: dt.getData('text/plain')};
		}`).Map()
		if got["cancelled"].Bool() {
			t.Error("the drag of a verified zip was cancelled")
		}
		if uri := got["uri"].Str(); uri != "file://"+good {
			t.Errorf("text/uri-list %q, want file://%s", uri, good)
		}
		if text := got["text"].Str(); text != good {
			t.Errorf("text/plain %q, want %s", text, good)
		}
		if v := card.MustElement(`[data-testid=artifact-verdict]`).MustText(); v != "Verified" {
			t.Errorf("verdict reads %q", v)
		}
	})

	t.Run("the quarantined zip is not draggable and says why", func(t *testing.T) {
		card := page.MustElement(`[data-testid=artifact][data-status=quarantined]`)
		if d := card.MustAttribute("draggable"); d == nil || *d != "false" {
			t.Errorf("quarantined card draggable=%v", d)
		}
		if why := card.MustElement(`[data-testid=artifact-why]`).MustText(); !strings.Contains(why, "unsafe_name") {
			t.Errorf("the quarantined card says %q, want the unsafe_name reason", why)
		}
		got := card.MustEval(`() => {
			const dt = new DataTransfer();
			const ev = new DragEvent('dragstart', {bubbles: true, cancelable: true, dataTransfer: dt});
			const cancelled = !this.dispatchEvent(ev);
			return {cancelled, uri: dt.getData('text/uri-list')};
		}`).Map()
		if !got["cancelled"].Bool() || got["uri"].Str() != "" {
			t.Errorf("a drag of the quarantined zip was not refused: %v", got)
		}
		if !strings.HasPrefix(bad, filepath.Join(dir, "data", "artifacts", "quarantine")) {
			t.Errorf("quarantined path %s", bad)
		}
		savePageShot(t, page, shots, "ferry-artifacts.png")
	})

	t.Run("a zip tells its story and links to its run", func(t *testing.T) {
		card := page.MustElement(`[data-testid=artifact][data-status=verified]`)
		story := card.MustElement(`[data-testid=artifact-story]`).MustText()
		if !strings.Contains(story, "write a haiku about river ferries") || card.MustElement(`[data-testid=artifact-when]`).MustText() == "" {
			t.Errorf("story %q, want when and the run's prompt", story)
		}
		if tip := card.MustAttribute("title"); tip != nil {
			t.Errorf("the card has a tooltip %q that covers its buttons", *tip)
		}
		savePageShot(t, page, shots, "artifacts-with-runs.png")
		card.MustElement(`[data-testid=artifact-run]`).MustClick()
		waitTitle(t, page, "History")
		page.MustWait(`(id) => document.querySelector('[data-testid=history-list] [aria-selected=true]')?.dataset.id === id`, haikuID)
		page.MustElement(`[role=tab][data-view=artifacts]`).MustClick()
		waitTitle(t, page, "Artifacts")
	})

	t.Run("Show in folder without a file manager says so and copies the folder", func(t *testing.T) {
		// The test's session has no file manager: xdg-open finds nothing to run.
		page.MustElement(`[data-testid=artifact][data-status=verified] [data-testid=reveal]`).MustClick()
		page.MustWait(`() => [...document.querySelectorAll('[role=alert], [role=status]')].some(e => e.textContent.includes('No file manager answered'))`)
	})

	t.Run("Move to trash takes the zip and its provenance to the trash", func(t *testing.T) {
		page.MustElement(`[data-testid=artifact][data-status=verified] [data-testid=delete]`).MustClick()
		page.MustWait(`() => !document.querySelector('[data-testid=artifact][data-status=verified]')`)
		trash := filepath.Join(dir, "home", ".local", "share", "Trash")
		for _, name := range []string{"files/project.zip", "files/project.zip.provenance.json", "info/project.zip.trashinfo"} {
			if _, err := os.Stat(filepath.Join(trash, name)); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
		if _, err := os.Stat(good); !os.IsNotExist(err) {
			t.Errorf("the zip is still in the artifacts folder: %v", err)
		}
	})

	t.Run("History says the run's zip was moved to the trash, and its answer's link too", func(t *testing.T) {
		page.MustElement(`[role=tab][data-view=history]`).MustClick()
		waitTitle(t, page, "History")
		page.MustElement(`[data-testid=history-list] [role=option][data-id="` + haikuID + `"]`).MustClick()
		if err := page.Timeout(eventWithin).Wait(rod.Eval(`() => !!document.querySelector('[data-testid=detail-artifact]')`)); err != nil {
			t.Fatalf("the run's detail lists no zip: %v", err)
		}
		if got := page.MustElement(`[data-testid=detail-artifact]`).MustText(); !strings.Contains(got, "moved to trash") || strings.Contains(got, "verified") {
			t.Errorf("History lists the trashed zip as %q", got)
		}
		chip, err := page.Element(`[data-testid=markdown] [data-testid=saved-file]`)
		if err != nil {
			t.Fatalf("the answer's sandbox link is no chip: %v\n%s", err, page.MustElement(`[data-testid=markdown]`).MustText())
		}
		if got := chip.MustText(); !strings.Contains(got, "moved to trash") {
			t.Errorf("the answer's link to the trashed zip reads %q", got)
		}
	})

	app.stop(t)
	t.Logf("screenshots in %s", shots)
}
