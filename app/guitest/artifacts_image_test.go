//go:build gui

package guitest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider/sim/simimage"
	"github.com/ferrydesk/ferry/backend/store"
)

// seedImages writes into the data directory a run that asked for an image
// and the image it brought home, saved through artifact.SaveImage as a run
// saves it (so its sidecar is real), an image without a sidecar, and a
// deep research's run with its report (artifact.SaveReport).
func seedImages(t *testing.T, dataDir string) (runID, good, bare string) {
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
	s, err := repo.Create(ctx, &job.Session{Site: "chatgpt", Prompt: "draw a ferry crossing at dawn", State: job.StateDone, ToolRequested: "image"})
	if err != nil {
		t.Fatal(err)
	}
	research, err := repo.Create(ctx, &job.Session{Site: "chatgpt", Prompt: "research the estuary ferries", State: job.StateDone, ToolRequested: "deep-research"})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(dataDir, "artifacts")
	_, good, err = artifact.SaveImage(ctx, dir, "Ferry at dawn", bytes.NewReader(simimage.PNG("ferry at dawn", 600, 400)), 0,
		artifact.ImageProvenance{Site: "chatgpt", Session: s.ID, ConversationURL: "https://chatgpt.com/c/abc", FileID: "file_1", Title: "Ferry at dawn"})
	if err != nil {
		t.Fatalf("save the image: %v", err)
	}
	// A deep research's report, saved as its run saves it.
	rep := &artifact.Report{Markdown: "# Estuary ferries\n\nNineteen sources agree [Harbour Authority](https://example.org/harbour).", Title: "Estuary ferries",
		Header: "Research completed in 12m · 19 citations · 328 searches", Citations: 19, Searches: 328, Sources: 120}
	if _, _, err := artifact.SaveReport(ctx, dir, rep, artifact.ReportProvenance{Site: "chatgpt", Session: research.ID, ConversationURL: "https://chatgpt.com/c/def"}); err != nil {
		t.Fatalf("save the report: %v", err)
	}
	bare = filepath.Join(dir, "stray.png")
	if err := os.WriteFile(bare, simimage.PNG("stray", 40, 40), 0o600); err != nil {
		t.Fatal(err)
	}
	return s.ID, good, bare
}

// TestArtifactsShowsGeneratedImages: the Artifacts view shows a generated
// image as a card with its preview actually rendered, its pixels, type,
// title and run, and offers it for drag-out as a verified zip is; an image
// Ferry did not verify gets neither a preview nor a drag, and a page
// script cannot have a preview made of a file the library does not list.
func TestArtifactsShowsGeneratedImages(t *testing.T) {
	t.Parallel()
	requireDisplay(t)
	requireFrontendBuilt(t)
	bin := buildApp(t, devTags)
	b := launchBrowser(t)
	shots := t.TempDir()

	dir := t.TempDir()
	runID, good, bare := seedImages(t, filepath.Join(dir, "data"))
	app := startDevApp(t, bin, dir)
	page := openShell(t, b, app.url)

	page.MustElement(`[role=tab][data-view=artifacts]`).MustClick()
	waitTitle(t, page, "Artifacts")
	page.MustWait(`() => document.querySelectorAll('[data-testid=artifact][data-kind=image]').length === 2`)
	card := page.MustElement(`[data-testid=artifact][data-kind=image][data-status=verified]`)

	t.Run("the verified image's preview is rendered once its card is in sight", func(t *testing.T) {
		card.MustScrollIntoView()
		card.MustWait(`() => { const img = this.querySelector('img[data-testid=artifact-thumb]'); return !!img && img.complete && img.naturalWidth > 0; }`)
		size := card.MustEval(`() => { const img = this.querySelector('img[data-testid=artifact-thumb]'); return img.naturalWidth + 'x' + img.naturalHeight + ' ' + img.src.slice(0, 22); }`).Str()
		if size != "256x170 data:image/png;base64," {
			t.Errorf("the preview is %q, want a 256x170 PNG data URL", size)
		}
		if alt := *card.MustElement(`img[data-testid=artifact-thumb]`).MustAttribute("alt"); alt != "Ferry at dawn" {
			t.Errorf("the preview's alt text is %q", alt)
		}
		savePageShot(t, page, shots, "ferry-artifacts-image.png")
	})

	t.Run("the card tells the image's pixels, type, title and run", func(t *testing.T) {
		if facts := card.MustElement(`[data-testid=artifact-image-facts]`).MustText(); !strings.Contains(facts, "600 × 400 px · PNG") || !strings.Contains(facts, "Ferry at dawn") {
			t.Errorf("facts read %q", facts)
		}
		if run := card.MustElement(`[data-testid=artifact-run]`); *run.MustAttribute("data-run") != runID || !strings.Contains(run.MustText(), "draw a ferry crossing at dawn") {
			t.Errorf("the story names %q", run.MustText())
		}
		if v := card.MustElement(`[data-testid=artifact-verdict]`).MustText(); v != "Verified" {
			t.Errorf("verdict reads %q", v)
		}
		for _, id := range []string{"open", "save-as", "reveal", "copy-path", "delete", "drag-hint"} {
			if has, _, _ := card.Has(`[data-testid=` + id + `]`); !has {
				t.Errorf("the image's card offers no %s", id)
			}
		}
	})

	t.Run("the verified image is offered for drag-out with its file URL", func(t *testing.T) {
		if d := card.MustAttribute("draggable"); d == nil || *d != "true" {
			t.Fatalf("verified image card draggable=%v", d)
		}
		got := card.MustEval(`() => {
			const dt = new DataTransfer();
			const ev = new DragEvent('dragstart', {bubbles: true, cancelable: true, dataTransfer: dt});
			const cancelled = !this.dispatchEvent(ev);
			return {cancelled, uri: dt.getData('text/uri-list'), text: dt.getData('text/plain')};
		}`).Map()
		if got["cancelled"].Bool() || got["uri"].Str() != "file://"+good || got["text"].Str() != good {
			t.Errorf("dragstart gave %v, want file://%s", got, good)
		}
	})

	t.Run("an image Ferry did not verify has no preview and cannot be dragged out", func(t *testing.T) {
		stray := page.MustElement(`[data-testid=artifact][data-kind=image][data-status=unverified]`)
		stray.MustScrollIntoView()
		if p := *stray.MustAttribute("data-path"); p != bare {
			t.Fatalf("the unverified card is %s, want %s", p, bare)
		}
		if has, _, _ := stray.Has(`img`); has {
			t.Error("an unverified image shows a preview")
		}
		if txt := stray.MustElement(`[data-testid=artifact-no-preview]`).MustText(); !strings.Contains(txt, "not verified") {
			t.Errorf("its preview box reads %q", txt)
		}
		if d := stray.MustAttribute("draggable"); d == nil || *d != "false" {
			t.Errorf("unverified image card draggable=%v", d)
		}
		if why := stray.MustElement(`[data-testid=artifact-why]`).MustText(); !strings.Contains(why, "no provenance sidecar") {
			t.Errorf("it says %q", why)
		}
	})

	t.Run("a research report is a verified card with its title, header and run, dragged out as its file", func(t *testing.T) {
		rep := page.MustElement(`[data-testid=artifact][data-kind=report]`)
		rep.MustScrollIntoView()
		if st := *rep.MustAttribute("data-status"); st != "verified" {
			t.Fatalf("the report's card is %s: %s", st, rep.MustText())
		}
		facts := rep.MustElement(`[data-testid=artifact-report-facts]`).MustText()
		if !strings.Contains(facts, "“Estuary ferries”") || !strings.Contains(facts, "19 citations · 328 searches · 120 sources") {
			t.Errorf("the report's facts read %q", facts)
		}
		if run := rep.MustElement(`[data-testid=artifact-run]`); !strings.Contains(run.MustText(), "research the estuary ferries") {
			t.Errorf("the report's story names %q", run.MustText())
		}
		if has, _, _ := rep.Has(`[data-testid=artifact-thumb-box]`); has {
			t.Error("a report's card has an image's preview box")
		}
		path := *rep.MustAttribute("data-path")
		got := rep.MustEval(`() => {
			const dt = new DataTransfer();
			const ev = new DragEvent('dragstart', {bubbles: true, cancelable: true, dataTransfer: dt});
			const cancelled = !this.dispatchEvent(ev);
			return {cancelled, uri: dt.getData('text/uri-list')};
		}`).Map()
		if !strings.HasSuffix(path, ".md") || got["cancelled"].Bool() || got["uri"].Str() != "file://"+path {
			t.Errorf("dragstart of %s gave %v", path, got)
		}
		for _, id := range []string{"open", "save-as", "reveal"} {
			if has, _, _ := rep.Has(`[data-testid=` + id + `]`); !has {
				t.Errorf("the report's card offers no %s", id)
			}
		}
	})

	t.Run("a page script gets no preview of a file the library does not list", func(t *testing.T) {
		outside := filepath.Join(t.TempDir(), "ferry.png")
		if err := os.WriteFile(outside, simimage.PNG("outside", 20, 20), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{outside, bare, good + artifact.SidecarSuffix} {
			got := evalJSON(t, page, `async (p) => {
				try { return {url: await window.go.app.Artifacts.Thumbnail(p)}; } catch (e) { return {err: String(e && (e.message || e))}; }
			}`, p)
			if got["url"] != nil || got["err"] == nil {
				t.Errorf("Thumbnail(%s) = %v, want a refusal", p, got)
			}
		}
	})

	app.stop(t)
	t.Logf("screenshots in %s", shots)
}
