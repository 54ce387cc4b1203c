package gemini_test

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/provider/gemini"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/provider/sim/simimage"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/runs"
)

// TestGeminisGeneratedImagesComeHome: the images a Gemini turn names in its
// stream (candidate [12][7][0][*][0][3][3], lh3.googleusercontent.com/gg-dl/
// addresses) are fetched full size in the tab, proven images by their bytes
// and saved with their provenance, byte for byte what the host served; the
// answer's text stays the answer.
func TestGeminisGeneratedImagesComeHome(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	tab := providertest.Open(t, ctx, gemini.ID, factory, providertest.Setup{})
	dir := t.TempDir()
	prompt := "Draw two gulls " + sim.Directive(sim.ScenarioImage, "count", "2", "size", "400x300")
	res, err := tab.Ask(t, ctx, providertest.Request{Prompt: prompt, Deliverable: runs.ImagesHome(dir, 0)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != providertest.NormalAnswer(prompt) || len(res.Images) != 2 {
		t.Fatalf("answer %q with images %+v; want the answer and two images", res.Answer, res.Images)
	}
	for _, img := range res.Images {
		got, err := os.ReadFile(img.Path)
		if err != nil {
			t.Fatal(err)
		}
		if img.Kind != record.ArtifactImage || img.Verdict != "verified" || img.Width != 400 || img.Height != 300 || !bytes.Equal(got, simimage.PNG(img.SiteFile, 400, 300)) {
			t.Fatalf("image %+v is not the 400x300 png the host served", img)
		}
		if _, err := os.Stat(img.Path + ".provenance.json"); err != nil {
			t.Fatal(err)
		}
	}
	if n := tab.H.Server.SubmissionCount(gemini.ID); n != 1 {
		t.Fatalf("%d submissions, want 1", n)
	}
}
