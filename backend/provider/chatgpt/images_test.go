package chatgpt_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider/chatgpt"
	"github.com/ferrydesk/ferry/backend/provider/chatgpt/internal/chatgptsim"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/provider/sim/simimage"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/runs"
)

// TestAGeneratedImageComesHomeByteExact: an image turn (the image tool, or
// a plain prompt ChatGPT answers with images) ends with an empty answer and
// its images, each fetched through the page (files/{id}/download, then the
// cookie-bound estuary), proven an image by its bytes and saved with its
// provenance, byte for byte what the site served. A lapsed download address
// is asked for once more; one that stays refused, bytes that are not an
// image and a refused image fail the run with nothing saved and nothing
// sent twice.
func TestAGeneratedImageComesHomeByteExact(t *testing.T) {
	type want struct {
		images        int
		width, height int
		code          errs.Code
		evidence      string // a word of the error's evidence
	}
	cases := []struct {
		name, prompt, tool string
		want               want
	}{
		{name: "the image tool", prompt: "Draw the harbour at dawn", tool: "image", want: want{images: 1, width: 1024, height: 1024}},
		{name: "a plain prompt answered with two images", prompt: "Paint two boats " + sim.Directive(chatgptsim.ScenarioImage, "count", "2", "size", "640x480"),
			want: want{images: 2, width: 640, height: 480}},
		{name: "a download address that lapsed once", prompt: "Draw a gull " + sim.Directive(chatgptsim.ScenarioImageExpired, "times", "1", "size", "320x200"),
			want: want{images: 1, width: 320, height: 200}},
		{name: "a download address that stays refused", prompt: "Draw a pier " + sim.Directive(chatgptsim.ScenarioImageExpired, "size", "320x200"),
			want: want{code: errs.ArtifactForbidden, evidence: "file_"}},
		{name: "bytes that are an HTML page", prompt: "Draw a crane " + sim.Directive(chatgptsim.ScenarioImageWrongType), want: want{code: errs.ArtifactCorrupt, evidence: "not_image"}},
		{name: "a refused image", prompt: "Draw a forbidden thing " + sim.Directive(chatgptsim.ScenarioImageRefused), tool: "image",
			want: want{code: errs.ImageRefused, evidence: "content policy"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			tab := providertest.Open(t, ctx, chatgpt.ID, factory, providertest.Setup{})
			dir := t.TempDir()
			res, err := tab.Ask(t, ctx, providertest.Request{Prompt: c.prompt, Tool: c.tool, Deliverable: runs.ImagesHome(dir, 0)})
			subs := tab.H.Server.Submissions(chatgpt.ID)
			if len(subs) != 1 {
				t.Fatalf("%d submissions, want the prompt sent once", len(subs))
			}
			if c.tool == "image" && !slices.Contains(subs[0].Tools, "picture_v2") {
				t.Fatalf("the send carried tools %v, want picture_v2", subs[0].Tools)
			}
			files, _ := os.ReadDir(dir)
			if c.want.code != "" {
				e := errs.From(err)
				if res != nil || e.Code != c.want.code || !strings.Contains(strings.Join(evidence(e), " "), c.want.evidence) {
					t.Fatalf("Ask = %+v, %v (evidence %v); want %s naming %q", res, err, e.Evidence, c.want.code, c.want.evidence)
				}
				if len(files) != 0 {
					t.Fatalf("the failed run left %d files in the output directory: %v", len(files), files)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Answer != "" || len(res.Images) != c.want.images {
				t.Fatalf("answer %q with %d images %+v; want an empty answer with %d", res.Answer, len(res.Images), res.Images, c.want.images)
			}
			if len(files) != 2*c.want.images {
				t.Fatalf("the output directory holds %v, want each image and its sidecar", files)
			}
			for _, img := range res.Images {
				checkSavedImage(t, img, c.prompt, res.ConversationID, c.want.width, c.want.height)
			}
			// The page shows them as the site does (an img in a div
			// id="image-<file>"), which Ferry does not need.
			var shown int
			if err := tab.Page.EvalInto(ctx, &shown, `() => document.querySelectorAll('div.imagegen-image[id^="image-file_"] img[alt^="Generated image"]').length`); err != nil || shown != c.want.images {
				t.Fatalf("the page shows %d generated images (%v), want %d", shown, err, c.want.images)
			}
		})
	}
}

// checkSavedImage checks one saved image against the bytes the simulator
// makes for its file, and its sidecar's provenance.
func checkSavedImage(t *testing.T, img record.Artifact, prompt, conversation string, w, h int) {
	t.Helper()
	if img.Kind != record.ArtifactImage || img.Verdict != "verified" || img.MIME != "image/png" || img.Width != w || img.Height != h || !strings.HasSuffix(img.Path, ".png") {
		t.Fatalf("image %+v, want a verified %dx%d png", img, w, h)
	}
	got, err := os.ReadFile(img.Path)
	if err != nil {
		t.Fatal(err)
	}
	served := sha256.Sum256(simimage.PNG(img.SiteFile, w, h))
	if sum := sha256.Sum256(got); sum != served || hex.EncodeToString(sum[:]) != img.SHA256 || int64(len(got)) != img.Bytes {
		t.Fatalf("%s holds %d bytes (sha256 %x), not the %x the site served for %s", img.Path, len(got), sum, served, img.SiteFile)
	}
	side, err := os.ReadFile(img.Path + ".provenance.json")
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(side, &p); err != nil {
		t.Fatal(err)
	}
	digest := sha256.Sum256([]byte(prompt))
	if p["kind"] != "image" || p["site"] != chatgpt.ID || p["fileId"] != img.SiteFile || p["conversationId"] != conversation ||
		p["conversationUrl"] != "https://chatgpt.com/c/"+conversation || p["promptSha256"] != hex.EncodeToString(digest[:]) ||
		p["sha256"] != img.SHA256 || p["width"] != float64(w) || p["mime"] != "image/png" || !strings.HasPrefix(p["title"].(string), "Sim: ") {
		t.Fatalf("provenance %s", side)
	}
	if strings.Contains(string(side), "sig=") || strings.Contains(string(side), "estuary") {
		t.Fatalf("the provenance holds the signed download address: %s", side)
	}
}

func evidence(e *errs.Envelope) []string {
	var out []string
	for k, v := range e.Evidence {
		out = append(out, k, v)
	}
	return out
}
