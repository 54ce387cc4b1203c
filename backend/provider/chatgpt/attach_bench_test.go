package chatgpt_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/attach"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// BenchmarkAttach20MiB measures attaching a 20 MiB file to ChatGPT on the
// simulator, from the call to the file proven ready in the composer (set on
// the file input over CDP, uploaded by the page: slot, PUT, processing
// stream, tile by name, send enabled), next to the same bytes sent by
// plain loopback HTTP through the same three requests with no browser.
// The simulator's processing phase (300 ms) is in both.
//
//	go test ./backend/provider/chatgpt -run '^$' -bench Attach20MiB -benchtime 3x
func BenchmarkAttach20MiB(b *testing.B) {
	const size = 20 << 20
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	h := providertest.Shared(b)
	h.Server.Reset()
	data := make([]byte, size)
	if _, err := rand.Read(data); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "big.bin")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	files, err := attach.Prepare([]string{path}, attach.Limits{MaxFiles: 10, MaxFileBytes: 512 << 20}, "ChatGPT")
	if err != nil {
		b.Fatal(err)
	}

	b.Run("ferry-attach-until-ready", func(b *testing.B) {
		b.SetBytes(size)
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			th := &tabHolder{}
			if err := th.open(ctx, h); err != nil {
				b.Fatal(err)
			}
			if err := th.a.Ready(ctx); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			if _, err := th.a.Attach(ctx, files); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			th.close()
			b.StartTimer()
		}
	})

	b.Run("loopback-http", func(b *testing.B) {
		b.SetBytes(size)
		c := h.Server.Client()
		post := func(u string, body any) *http.Response {
			raw, _ := json.Marshal(body)
			req, _ := http.NewRequestWithContext(ctx, "POST", sim.URL(sim.ChatGPT, u), bytes.NewReader(raw))
			req.Header.Set("content-type", "application/json")
			resp, err := c.Do(req)
			if err != nil || resp.StatusCode != 200 {
				b.Fatalf("POST %s: %v %v", u, resp, err)
			}
			return resp
		}
		for i := 0; i < b.N; i++ {
			resp := post("/backend-api/files", map[string]any{"file_name": "big.bin", "file_size": size, "use_case": "my_files"})
			var slot struct {
				URL string `json:"upload_url"`
				ID  string `json:"file_id"`
			}
			_ = json.NewDecoder(resp.Body).Decode(&slot)
			resp.Body.Close()
			req, _ := http.NewRequestWithContext(ctx, "PUT", sim.URL(sim.ChatGPT, slot.URL), bytes.NewReader(data))
			req.Header.Set("x-ms-blob-type", "BlockBlob")
			put, err := c.Do(req)
			if err != nil || put.StatusCode != http.StatusCreated {
				b.Fatalf("PUT: %v %v", put, err)
			}
			put.Body.Close()
			proc := post("/backend-api/files/process_upload_stream", map[string]any{"file_id": slot.ID})
			body, _ := io.ReadAll(proc.Body)
			proc.Body.Close()
			if !strings.Contains(string(body), "file.processing.completed") {
				b.Fatalf("processing: %s", body)
			}
		}
	})
}
