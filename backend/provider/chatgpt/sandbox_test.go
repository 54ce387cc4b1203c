package chatgpt

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/errs"
)

// fakeChatGPT serves interpreter/download and estuary/content over TLS on
// loopback, the way chatgpt.com answers them.
type fakeChatGPT struct {
	mu       sync.Mutex
	files    map[string][]byte // sandbox path -> bytes
	expired  bool
	forbid   bool
	mintMsgs []string // message ids the mint accepted, in order asked
	cutAt    int      // >0: the download stops after this many bytes
}

func (s *fakeChatGPT) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case strings.HasSuffix(r.URL.Path, "/interpreter/download"):
		if r.Header.Get("Authorization") != "Bearer test-token" {
			w.WriteHeader(401)
			return
		}
		if s.expired {
			json.NewEncoder(w).Encode(map[string]string{"status": "error", "error_code": "ace_pod_expired"})
			return
		}
		msg, p := r.URL.Query().Get("message_id"), r.URL.Query().Get("sandbox_path")
		if msg != "m-final" {
			w.WriteHeader(400)
			io.WriteString(w, `{"detail":"message does not hold the file"}`)
			return
		}
		s.mintMsgs = append(s.mintMsgs, msg)
		if _, ok := s.files[p]; !ok {
			w.WriteHeader(404)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"status": "success",
			"download_url": "https://chatgpt.com/backend-api/estuary/content?id=file_" + fmt.Sprintf("%032x", len(p)) + "&sig=abc&p=" + url.QueryEscape(p),
			"file_name":    p[strings.LastIndex(p, "/")+1:]})
	case r.URL.Path == "/backend-api/estuary/content":
		if s.forbid {
			w.WriteHeader(403)
			return
		}
		b := s.files[r.URL.Query().Get("p")]
		if s.cutAt > 0 {
			w.Header().Set("Content-Length", fmt.Sprint(len(b)))
			w.Write(b[:s.cutAt])
			return
		}
		w.Write(b)
	default:
		w.WriteHeader(404)
	}
}

// httpFetcher is the loopback stand-in for the in-page fetch: it sends the
// bearer token to the mint and streams downloads with a limit, mapping
// statuses through DownloadStatusError like the browser's will.
type httpFetcher struct{ c *http.Client }

func newHTTPFetcher(t *testing.T, h http.Handler) *httpFetcher {
	srv := httptest.NewTLSServer(h)
	t.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()
	tr := &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true},
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, addr) // chatgpt.com -> the loopback server
		},
	}
	return &httpFetcher{c: &http.Client{Transport: tr}}
}

func (f *httpFetcher) Mint(ctx context.Context, u string) (int, []byte, error) {
	req, _ := http.NewRequestWithContext(ctx, "GET", u, nil)
	req.Header.Set("Authorization", "Bearer test-token")
	resp, err := f.c.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

func (f *httpFetcher) Download(ctx context.Context, u string, w io.Writer, limit int64) (artifact.FetchInfo, error) {
	req, _ := http.NewRequestWithContext(ctx, "GET", u, nil)
	resp, err := f.c.Do(req)
	if err != nil {
		return artifact.FetchInfo{}, errs.Wrap(err, errs.ArtifactFetchFailed, "fetch: %v", err)
	}
	defer resp.Body.Close()
	if err := artifact.DownloadStatusError(resp.StatusCode); err != nil {
		return artifact.FetchInfo{}, err
	}
	n, err := io.Copy(w, io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return artifact.FetchInfo{Bytes: n}, errs.Wrap(err, errs.ArtifactFetchFailed, "read body: %v", err)
	}
	if n > limit {
		return artifact.FetchInfo{Bytes: n}, artifact.TooLargeError(limit)
	}
	return artifact.FetchInfo{Bytes: n, ContentType: resp.Header.Get("Content-Type")}, nil
}

// goodZip is a small archive the verifier accepts.
func goodZip(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create("app/main.go")
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, "package main\n")
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestSandboxMintsWithTheMessageThatHoldsTheFile(t *testing.T) {
	good := goodZip(t)
	z := artifact.Found{Path: "/mnt/data/app.zip", MessageIDs: []string{"m-exec", "m-final"}}
	cases := []struct {
		name   string
		server *fakeChatGPT
		mint   errs.Code // of the mint
		fetch  errs.Code // of the fetch of a minted download
	}{
		{"a file the final message holds", &fakeChatGPT{files: map[string][]byte{z.Path: good}}, "", ""},
		{"an expired sandbox", &fakeChatGPT{expired: true, files: map[string][]byte{z.Path: good}}, errs.ArtifactExpired, ""},
		{"a file the sandbox no longer holds", &fakeChatGPT{}, errs.ArtifactExpired, ""},
		{"a forbidden download", &fakeChatGPT{forbid: true, files: map[string][]byte{z.Path: good}}, "", errs.ArtifactForbidden},
		{"a truncated transfer", &fakeChatGPT{cutAt: 40, files: map[string][]byte{z.Path: good}}, "", errs.ArtifactFetchFailed},
	}
	for _, c := range cases {
		t.Run(c.name+" mints and fetches with the right outcome", func(t *testing.T) {
			d, err := NewSandbox(newHTTPFetcher(t, c.server)).MintDownload(context.Background(), "conv-1", z)
			if got := errs.CodeOf(err); got != c.mint {
				t.Fatalf("mint code = %q, want %q (%v)", got, c.mint, err)
			}
			if err != nil {
				if errs.From(err).Evidence["sandboxPath"] != z.Path {
					t.Errorf("the mint's envelope does not name the sandbox path: %+v", errs.From(err))
				}
				return
			}
			if d.MessageID != "m-final" || fmt.Sprint(c.server.mintMsgs) != "[m-final]" {
				t.Errorf("minted with %q, the mint accepted %v; want m-final after m-exec was refused", d.MessageID, c.server.mintMsgs)
			}
			var buf bytes.Buffer
			_, err = d.Fetch(context.Background(), &buf, artifact.DefaultMaxDownload)
			if got := errs.CodeOf(err); got != c.fetch {
				t.Fatalf("fetch code = %q, want %q (%v)", got, c.fetch, err)
			}
			if err == nil && !bytes.Equal(buf.Bytes(), good) {
				t.Errorf("fetched %d bytes, not the file", buf.Len())
			}
		})
	}
}

func TestRetrieveRecordsWhereTheZipCameFrom(t *testing.T) {
	srv := &fakeChatGPT{files: map[string][]byte{"/mnt/data/app.zip": goodZip(t)}}
	dir := t.TempDir()
	s, err := artifact.Retrieve(context.Background(), NewSandbox(newHTTPFetcher(t, srv)), "conv-1", artifact.Found{Path: "/mnt/data/app.zip", MessageIDs: []string{"m-exec", "m-final"}}, dir, artifact.Provenance{Site: "chatgpt"})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(s.SidecarPath)
	var p artifact.Provenance
	json.Unmarshal(raw, &p)
	if p.MessageID != "m-final" || p.ConversationID != "conv-1" || p.SandboxPath != "/mnt/data/app.zip" || p.ConversationURL != "https://chatgpt.com/c/conv-1" {
		t.Errorf("provenance = %+v", p)
	}
	if bytes.Contains(raw, []byte("sig=")) || bytes.Contains(raw, []byte("test-token")) {
		t.Errorf("the sidecar holds a signed URL or token: %s", raw)
	}
}
