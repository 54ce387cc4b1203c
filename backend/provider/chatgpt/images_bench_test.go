package chatgpt_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/browser/fetch"
	"github.com/ferrydesk/ferry/backend/provider/chatgpt"
	"github.com/ferrydesk/ferry/backend/provider/chatgpt/internal/chatgptsim"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// BenchmarkImageDownload brings the four 1024×1024 images of one image turn
// (about 3 MB each, as generated photographs are) home the way an ask does
// (files/{id}/download and the estuary fetched in the tab, the bytes proven
// a whole image by decoding them, an atomic save with its sidecar); the
// fetch alone by the way FetchImage takes (fetch-stream) and by the
// browser's own download (url-download, the zips' default, whose fixed cost
// per file outweighs a few megabytes); and, in the same run, the same bytes
// over loopback HTTP straight to disk (the machine's ceiling). MB/s is of
// the images' bytes.
//
//	go test ./backend/provider/chatgpt -run '^$' -bench ImageDownload -benchtime 1x
func BenchmarkImageDownload(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	h := providertest.Shared(b)
	h.Server.Reset()
	th := &tabHolder{}
	if err := th.open(ctx, h); err != nil {
		b.Fatal(err)
	}
	defer th.close()
	a := th.a
	res, err := providertest.Ask(b, ctx, a, providertest.Request{Prompt: "Paint the harbour four times " + sim.Directive(chatgptsim.ScenarioImage, "count", "4")})
	if err != nil {
		b.Fatal(err)
	}
	turn, err := a.TurnImages(ctx, res.ConversationID, res.MessageID)
	if err != nil || len(turn.Images) != 4 {
		b.Fatalf("turn images %+v, %v", turn, err)
	}
	var total int64
	for _, img := range turn.Images {
		total += img.Bytes
	}
	dir := b.TempDir()

	b.Run("page-to-verified-file", func(b *testing.B) {
		b.SetBytes(total)
		for i := 0; i < b.N; i++ {
			for _, img := range turn.Images {
				var buf bytes.Buffer
				if _, err := a.FetchImage(ctx, img, &buf, 0); err != nil {
					b.Fatal(err)
				}
				if _, _, err := artifact.SaveImage(ctx, dir, img.FileID, &buf, 0, artifact.ImageProvenance{Site: chatgpt.ID}); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	for _, way := range []fetch.Way{fetch.WayStream, fetch.WayURLDownload} {
		b.Run("page-fetch-only-"+string(way), func(b *testing.B) {
			b.SetBytes(total)
			for i := 0; i < b.N; i++ {
				for _, img := range turn.Images {
					var buf bytes.Buffer
					if _, err := chatgpt.FetchImage(ctx, a.Fetcher(chatgpt.WithWay(way)), "https://chatgpt.com", img, &buf, 0); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
	b.Run("loopback-http-to-disk", func(b *testing.B) {
		b.SetBytes(total)
		for i := 0; i < b.N; i++ {
			for _, img := range turn.Images {
				status, body, err := a.Fetcher().Mint(ctx, "https://chatgpt.com/backend-api/files/"+img.FileID+"/download")
				var minted struct {
					DownloadURL string `json:"download_url"`
				}
				if err != nil || status != 200 || json.Unmarshal(body, &minted) != nil {
					b.Fatalf("mint: %d %v", status, err)
				}
				code, n, err := loopbackToDisk(ctx, h, minted.DownloadURL, dir)
				if err != nil || code != 200 || n != img.Bytes {
					b.Fatalf("HTTP %d, copied %d of %d bytes: %v", code, n, img.Bytes, err)
				}
			}
		}
	})
}
