package artifact

import (
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

func (f *httpFetcher) Download(ctx context.Context, u string, w io.Writer, limit int64) (FetchInfo, error) {
	req, _ := http.NewRequestWithContext(ctx, "GET", u, nil)
	resp, err := f.c.Do(req)
	if err != nil {
		return FetchInfo{}, errs.Wrap(err, errs.ArtifactFetchFailed, "fetch: %v", err)
	}
	defer resp.Body.Close()
	if err := DownloadStatusError(resp.StatusCode); err != nil {
		return FetchInfo{}, err
	}
	n, err := io.Copy(w, io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return FetchInfo{Bytes: n}, errs.Wrap(err, errs.ArtifactFetchFailed, "read body: %v", err)
	}
	if n > limit {
		return FetchInfo{Bytes: n}, TooLargeError(limit)
	}
	return FetchInfo{Bytes: n, ContentType: resp.Header.Get("Content-Type")}, nil
}

func TestRetrieveAllOutcomes(t *testing.T) {
	good := goZip(t, goEntry{name: "app/main.go", data: "package main\n"})
	docs := goZip(t, goEntry{name: "docs/README.md", data: "# docs\n"})
	slip := goZip(t, goEntry{name: "../../.ssh/authorized_keys", data: "ssh-rsa x"})
	badCRC := rawZip{entries: []rawEntry{{name: "a.txt", data: []byte("hello"), crc: u32(7)}}}.bytes()
	bomb := rawZip{entries: []rawEntry{{name: "zeros", data: make([]byte, 4<<20), deflate: true}}}.bytes()
	symlink := goZip(t, goEntry{name: "link", data: "/etc/passwd", mode: 0o777 | 1<<27})
	found := func(paths ...string) []Found {
		var out []Found
		for _, p := range paths {
			out = append(out, Found{Path: p, MessageIDs: []string{"m-exec", "m-final"}})
		}
		return out
	}
	cases := []struct {
		name      string
		server    *fakeChatGPT
		zips      []Found
		opts      []RetrieveOption
		code      errs.Code // of the run
		each      []errs.Code
		wantFiles []string
	}{
		{"one good zip", &fakeChatGPT{files: map[string][]byte{"/mnt/data/app.zip": good}}, found("/mnt/data/app.zip"), nil,
			"", []errs.Code{""}, []string{"app.zip", "app.zip.provenance.json"}},
		{"several zips", &fakeChatGPT{files: map[string][]byte{"/mnt/data/app.zip": good, "/mnt/data/docs.zip": docs}}, found("/mnt/data/app.zip", "/mnt/data/docs.zip"), nil,
			"", []errs.Code{"", ""}, []string{"app.zip", "app.zip.provenance.json", "docs.zip", "docs.zip.provenance.json"}},
		{"one good zip and one missing", &fakeChatGPT{files: map[string][]byte{"/mnt/data/app.zip": good}}, found("/mnt/data/app.zip", "/mnt/data/gone.zip"), nil,
			"", []errs.Code{"", errs.ArtifactExpired}, []string{"app.zip", "app.zip.provenance.json"}},
		{"an expired sandbox", &fakeChatGPT{expired: true, files: map[string][]byte{"/mnt/data/app.zip": good}}, found("/mnt/data/app.zip"), nil,
			errs.ArtifactExpired, []errs.Code{errs.ArtifactExpired}, nil},
		{"a forbidden download", &fakeChatGPT{forbid: true, files: map[string][]byte{"/mnt/data/app.zip": good}}, found("/mnt/data/app.zip"), nil,
			errs.ArtifactForbidden, []errs.Code{errs.ArtifactForbidden}, nil},
		{"a bad CRC", &fakeChatGPT{files: map[string][]byte{"/mnt/data/app.zip": badCRC}}, found("/mnt/data/app.zip"), nil,
			errs.ArtifactCorrupt, []errs.Code{errs.ArtifactCorrupt}, nil},
		{"a truncated transfer", &fakeChatGPT{cutAt: 40, files: map[string][]byte{"/mnt/data/app.zip": good}}, found("/mnt/data/app.zip"), nil,
			errs.ArtifactFetchFailed, []errs.Code{errs.ArtifactFetchFailed}, nil},
		{"a zip-slip", &fakeChatGPT{files: map[string][]byte{"/mnt/data/app.zip": slip}}, found("/mnt/data/app.zip"), nil,
			errs.ArtifactUnsafe, []errs.Code{errs.ArtifactUnsafe}, []string{"quarantine/app.zip", "quarantine/app.zip.provenance.json"}},
		{"a zip bomb", &fakeChatGPT{files: map[string][]byte{"/mnt/data/app.zip": bomb}}, found("/mnt/data/app.zip"), nil,
			errs.ArtifactUnsafe, []errs.Code{errs.ArtifactUnsafe}, []string{"quarantine/app.zip", "quarantine/app.zip.provenance.json"}},
		{"a symlink", &fakeChatGPT{files: map[string][]byte{"/mnt/data/app.zip": symlink}}, found("/mnt/data/app.zip"), nil,
			errs.ArtifactUnsafe, []errs.Code{errs.ArtifactUnsafe}, []string{"quarantine/app.zip", "quarantine/app.zip.provenance.json"}},
		{"a download over the limit", &fakeChatGPT{files: map[string][]byte{"/mnt/data/app.zip": good}}, found("/mnt/data/app.zip"), []RetrieveOption{WithMaxDownload(50)},
			errs.ArtifactTooLarge, []errs.Code{errs.ArtifactTooLarge}, nil},
		{"no zip", &fakeChatGPT{}, nil, nil, errs.ArtifactNotFound, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name+" ends right with nothing partial on disk", func(t *testing.T) {
			dir := t.TempDir()
			srv := c.server
			f := newHTTPFetcher(t, srv)
			res, err := RetrieveAll(context.Background(), f, "conv-1", c.zips, dir, Provenance{Site: "chatgpt"}, c.opts...)
			if got := errs.CodeOf(err); got != c.code {
				t.Errorf("run code = %q, want %q (%v)", got, c.code, err)
			}
			var each []errs.Code
			for _, r := range res {
				each = append(each, errs.CodeOf(r.Err))
			}
			if fmt.Sprint(each) != fmt.Sprint(c.each) {
				t.Errorf("per-zip codes = %v, want %v", each, c.each)
			}
			if got := listDir(t, dir); strings.Join(got, ",") != strings.Join(c.wantFiles, ",") {
				t.Errorf("dir holds %v, want %v", got, c.wantFiles)
			}
			for _, r := range res {
				if r.Err == nil && (r.Saved == nil || !r.Saved.Verdict.OK) {
					t.Errorf("%s: success without a good verdict", r.Path)
				}
			}
			if c.code == "" && len(srv.mintMsgs) > 0 && srv.mintMsgs[0] != "m-final" {
				t.Errorf("mint used %v", srv.mintMsgs)
			}
		})
	}
}

func TestRetrieveRecordsWhereTheZipCameFrom(t *testing.T) {
	good := goZip(t, goEntry{name: "app/main.go", data: "package main\n"})
	srv := &fakeChatGPT{files: map[string][]byte{"/mnt/data/app.zip": good}}
	dir := t.TempDir()
	s, err := Retrieve(context.Background(), newHTTPFetcher(t, srv), "conv-1", Found{Path: "/mnt/data/app.zip", MessageIDs: []string{"m-exec", "m-final"}}, dir, Provenance{Site: "chatgpt"})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := readFile(s.SidecarPath)
	var p Provenance
	json.Unmarshal(raw, &p)
	if p.MessageID != "m-final" || p.ConversationID != "conv-1" || p.SandboxPath != "/mnt/data/app.zip" || p.ConversationURL != "https://chatgpt.com/c/conv-1" {
		t.Errorf("provenance = %+v", p)
	}
	if bytes.Contains(raw, []byte("sig=")) || bytes.Contains(raw, []byte("test-token")) {
		t.Errorf("the sidecar holds a signed URL or token: %s", raw)
	}
}

func readFile(p string) ([]byte, error) { return os.ReadFile(p) }
