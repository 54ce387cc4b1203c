package chatgpt_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/browser/fetch"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/chatgpt"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/site"
)

// recorder wraps the adapter's Fetcher and keeps what a leak check needs:
// the signed download URLs handed to Download. It changes nothing.
type recorder struct {
	inner chatgpt.Downloader
	mu    sync.Mutex
	urls  []string
	mints int
}

func (r *recorder) Mint(ctx context.Context, u string) (int, []byte, error) {
	r.mu.Lock()
	r.mints++
	r.mu.Unlock()
	return r.inner.Mint(ctx, u)
}

func (r *recorder) Download(ctx context.Context, u string, w io.Writer, limit int64) (artifact.FetchInfo, error) {
	r.mu.Lock()
	r.urls = append(r.urls, u)
	r.mu.Unlock()
	return r.inner.Download(ctx, u, w, limit)
}

// secrets are the strings that must never be written: the page's bearer
// token and every estuary signature.
func (r *recorder) secrets(t *testing.T, token string) []string {
	t.Helper()
	out := []string{token}
	for _, raw := range r.urls {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		sig := u.Query().Get("sig")
		if len(sig) < 32 {
			t.Fatalf("download url carries no signature to check for")
		}
		out = append(out, sig)
	}
	return out
}

// codeTurn asks one code-mode prompt in a fresh tab and retrieves its zips
// into a temporary directory.
type codeTurn struct {
	tab     *providertest.Tab
	adapter *chatgpt.Adapter
	res     *provider.Result
	scan    *artifact.ScanResult
	rec     *recorder
	dir     string
	results []artifact.Result
	err     error // of RetrieveAll
	took    time.Duration
	token   string
}

func runCode(t *testing.T, ctx context.Context, directive string, opts ...chatgpt.FetcherOption) *codeTurn {
	t.Helper()
	tab := providertest.Open(t, ctx, chatgpt.ID, factory, providertest.Setup{})
	a := tab.Adapter.(*chatgpt.Adapter)
	res, err := tab.Ask(t, ctx, providertest.Request{Prompt: "Build a tiny CLI that greets.\n" + directive})
	if err != nil {
		t.Fatalf("ask: %v", err)
	}
	if n := tab.H.Server.SubmissionCount(sim.ChatGPT); n != 1 {
		t.Fatalf("%d submissions for one code turn, want exactly 1", n)
	}
	conv, err := a.Conversation(ctx, res.ConversationID)
	if err != nil {
		t.Fatalf("read conversation: %v", err)
	}
	scan, err := chatgpt.ScanConversation(conv)
	if err != nil {
		t.Fatalf("scan conversation: %v", err)
	}
	c := &codeTurn{tab: tab, adapter: a, res: res, scan: scan, dir: t.TempDir()}
	c.rec = &recorder{inner: a.Fetcher(opts...)}
	t0 := time.Now()
	c.results, c.err = artifact.RetrieveAll(ctx, chatgpt.NewSandbox(c.rec), res.ConversationID, scan.Zips, c.dir, artifact.Provenance{Site: chatgpt.ID})
	c.took = time.Since(t0)
	// The token the page holds, read the way the adapter reads it, for the
	// leak check.
	sess, err := fetch.Text(ctx, tab.Page, sim.URL(sim.ChatGPT, "/api/auth/session"), fetch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		AccessToken string `json:"accessToken"`
	}
	if err := json.Unmarshal([]byte(sess.Body), &s); err != nil || s.AccessToken == "" {
		t.Fatalf("session answer has no token: %v", err)
	}
	c.token = s.AccessToken
	return c
}

// files lists every regular file under dir, relative, with forward slashes.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// noSecrets fails when a secret appears in any file under dir or in any of
// the texts (error messages, envelopes as JSON).
func noSecrets(t *testing.T, dir string, secrets []string, texts ...string) {
	t.Helper()
	for _, f := range files(t, dir) {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range secrets {
			if bytes.Contains(b, []byte(s)) {
				t.Fatalf("%s holds a secret (%d chars)", f, len(s))
			}
		}
	}
	for i, txt := range texts {
		for _, s := range secrets {
			if strings.Contains(txt, s) {
				t.Fatalf("output %d holds a secret (%d chars)", i, len(s))
			}
		}
	}
}

func envelopeTexts(results []artifact.Result, err error) []string {
	var out []string
	add := func(e error) {
		if e == nil {
			return
		}
		b, _ := json.Marshal(errs.From(e))
		out = append(out, e.Error(), string(b), fmt.Sprintf("%+v", e))
	}
	add(err)
	for _, r := range results {
		add(r.Err)
	}
	return out
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// codeArtifactsCase is a sandbox scenario of TestCodeArtifacts and what
// retrieving it must give.
type codeArtifactsCase struct {
	name     string
	scenario string
	params   []string
	zips     int       // zips the conversation names
	good     int       // zips saved as good
	code     errs.Code // of RetrieveAll ("" = success)
	// quarantined: the refused zip sits under quarantine/ with its sidecar
	quarantined bool
}

func TestCodeArtifacts(t *testing.T) {
	cases := []codeArtifactsCase{
		{"one zip is fetched in the page, verified and saved with its provenance", sim.ScenarioCodeZip, nil, 1, 1, "", false},
		{"several zips are each fetched and saved", sim.ScenarioMultiZip, []string{"zips", "3"}, 3, 3, "", false},
		{"an expired sandbox is artifact_expired and saves nothing", sim.ScenarioSandboxExpired, nil, 1, 0, errs.ArtifactExpired, false},
		{"an estuary 403 is artifact_forbidden and saves nothing", sim.ScenarioEstuary403, nil, 1, 0, errs.ArtifactForbidden, false},
		{"a bad CRC is artifact_corrupt and leaves no file", sim.ScenarioZipBadCRC, nil, 1, 0, errs.ArtifactCorrupt, false},
		{"a truncated zip is artifact_corrupt and leaves no file", sim.ScenarioZipTruncated, nil, 1, 0, errs.ArtifactCorrupt, false},
		{"a zip-slip entry is artifact_unsafe and quarantined", sim.ScenarioZipSlip, nil, 1, 0, errs.ArtifactUnsafe, true},
		{"a zip bomb is artifact_unsafe and quarantined", sim.ScenarioZipBomb, nil, 1, 0, errs.ArtifactUnsafe, true},
		{"a symlink entry is artifact_unsafe and quarantined", sim.ScenarioZipSymlink, nil, 1, 0, errs.ArtifactUnsafe, true},
	}
	// Every case runs with the default way (the browser's own download, as
	// this browser shares Ferry's files) and with the way a browser that
	// does not share them gets (over the DevTools connection).
	for _, way := range []fetch.Way{"", fetch.WayStream} {
		for _, tc := range cases {
			name := tc.name
			wantWay := way
			if way == "" {
				wantWay = fetch.WayURLDownload
			} else {
				name = string(way) + ": " + name
			}
			runCodeArtifactsCase(t, name, way, wantWay, tc)
		}
	}
}

// runCodeArtifactsCase is tc fetched by way ("" for the default), which
// must move the bytes by wantWay.
func runCodeArtifactsCase(t *testing.T, name string, way, wantWay fetch.Way, tc codeArtifactsCase) {
	t.Run(name, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
		defer cancel()
		c := runCode(t, ctx, sim.Directive(tc.scenario, tc.params...), chatgpt.WithWay(way))
		if len(c.scan.Zips) != tc.zips {
			t.Fatalf("scan found %d zips, want %d: %+v", len(c.scan.Zips), tc.zips, c.scan.Zips)
		}
		if got := errs.CodeOf(c.err); got != tc.code {
			t.Fatalf("RetrieveAll error %v (code %q), want code %q", c.err, got, tc.code)
		}
		good := 0
		for i, r := range c.results {
			if r.Err != nil {
				if errs.CodeOf(r.Err) != tc.code {
					t.Fatalf("zip %s failed with %v, want %s", r.Path, r.Err, tc.code)
				}
				continue
			}
			good++
			want, err := sim.ZipBytes(tc.scenario, 0, i+1)
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(r.Saved.Path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%s: saved %d bytes (sha %s), the sandbox served %d (sha %s)", r.Path, len(got), sum(got)[:12], len(want), sum(want)[:12])
			}
			var prov artifact.Provenance
			b, err := os.ReadFile(r.Saved.SidecarPath)
			if err != nil || json.Unmarshal(b, &prov) != nil {
				t.Fatalf("sidecar %s: %v", r.Saved.SidecarPath, err)
			}
			if prov.SHA256 != sum(want) || prov.ConversationID != c.res.ConversationID || prov.SandboxPath != r.Path || prov.MessageID == "" || len(prov.Files) == 0 {
				t.Fatalf("sidecar %+v does not describe the zip", prov)
			}
			if filepath.Base(r.Saved.Path) != filepath.Base(r.Path) {
				t.Fatalf("saved as %s, want the sandbox name %s", r.Saved.Path, r.Path)
			}
			if tr := r.Saved.Transport; tr.Way != string(wantWay) || (way == "" && (tr.FilesShared == nil || !*tr.FilesShared)) {
				t.Fatalf("transport %+v, want %s (and the files shared, for the default)", tr, wantWay)
			}
		}
		if good != tc.good {
			t.Fatalf("%d zips saved as good, want %d", good, tc.good)
		}
		all := files(t, c.dir)
		for _, f := range all {
			if strings.Contains(f, ".part") {
				t.Fatalf("a partial file was left behind: %s", f)
			}
			if tc.good == 0 && !strings.HasPrefix(f, artifact.QuarantineDir+"/") {
				t.Fatalf("a failed retrieval left %s outside quarantine", f)
			}
		}
		if tc.quarantined {
			r := c.results[0]
			if r.Saved == nil || !r.Saved.Quarantined || !strings.HasPrefix(r.Saved.Path, filepath.Join(c.dir, artifact.QuarantineDir)) {
				t.Fatalf("unsafe zip not quarantined: %+v", r.Saved)
			}
			if len(all) != 2 {
				t.Fatalf("quarantine holds %v, want the zip and its sidecar", all)
			}
		} else if tc.good == 0 && len(all) != 0 {
			t.Fatalf("a refused zip left %v", all)
		}
		if tc.code == errs.ArtifactExpired {
			if len(c.rec.urls) != 0 {
				t.Fatalf("an expired sandbox still downloaded %d urls", len(c.rec.urls))
			}
		} else if len(c.rec.urls) != tc.zips {
			t.Fatalf("%d downloads for %d zips", len(c.rec.urls), tc.zips)
		}
		noSecrets(t, c.dir, c.rec.secrets(t, c.token), envelopeTexts(c.results, c.err)...)
	})
}

func TestFetcherRefusesForeignURLs(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tab := providertest.Open(t, ctx, chatgpt.ID, factory, providertest.Setup{})
	f := tab.Adapter.(*chatgpt.Adapter).Fetcher()
	for _, u := range []string{
		"https://chatgpt.com.evil.test/backend-api/estuary/content?id=file_0123456789abcdef",
		"https://chatgpt.com/backend-api/files/download?id=file_0123456789abcdef",
		"http://chatgpt.com/backend-api/estuary/content?id=file_0123456789abcdef",
	} {
		var buf bytes.Buffer
		_, err := f.Download(ctx, u, &buf, 1<<20)
		if !errs.Has(err, errs.ArtifactMintFailed) || buf.Len() != 0 {
			t.Fatalf("Download(%s) = %v with %d bytes, want a refusal before any fetch", u, err, buf.Len())
		}
	}
}

func TestDownloadOverTheLimitIsTooLarge(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	c := runCode(t, ctx, sim.Directive(sim.ScenarioCodeZip, "zip_size", "2MiB"))
	if c.err != nil {
		t.Fatalf("the 2 MiB zip itself failed: %v", c.err)
	}
	// Mint again and fetch with a 1 MiB limit.
	z := c.scan.Zips[0]
	mu, err := chatgpt.MintURL(c.res.ConversationID, z.MessageIDs[0], z.Path)
	if err != nil {
		t.Fatal(err)
	}
	f := c.adapter.Fetcher()
	status, body, err := f.Mint(ctx, mu)
	if err != nil {
		t.Fatal(err)
	}
	m, err := chatgpt.ParseMintResponse(status, body)
	if err != nil {
		t.Fatal(err)
	}
	for _, way := range []fetch.Way{fetch.WayURLDownload, fetch.WayStream, fetch.WayDownload, fetch.WayBlobIO, fetch.WayChunkedEval} {
		var buf bytes.Buffer
		_, err := c.adapter.Fetcher(chatgpt.WithWay(way)).Download(ctx, m.DownloadURL, &buf, 1<<20)
		if !errs.Has(err, errs.ArtifactTooLarge) || int64(buf.Len()) > 1<<20 {
			t.Fatalf("%s: %v after %d bytes, want artifact_too_large within the limit", way, err, buf.Len())
		}
		if strings.Contains(err.Error(), "sig=") {
			t.Fatalf("%s: error holds the signed query", way)
		}
	}
}

// TestBigZipEndToEnd sends a code turn whose sandbox zip is 50 MiB and
// brings it home through the page with the default way.
func TestBigZipEndToEnd(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const size = 50 << 20
	c := runCode(t, ctx, sim.Directive(sim.ScenarioCodeZip, "zip_size", "50MiB"), chatgpt.WithDownloadDir(t.TempDir()))
	if c.err != nil {
		t.Fatalf("retrieve: %v", c.err)
	}
	saved := c.results[0].Saved
	st, err := os.Stat(saved.Path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() < size*9/10 {
		t.Fatalf("saved %d bytes, want about %d", st.Size(), size)
	}
	want, err := sim.ZipBytes(sim.ScenarioCodeZip, size, 1)
	if err != nil {
		t.Fatal(err)
	}
	if sum(want) != saved.Verdict.SHA256 {
		t.Fatalf("saved sha %s, the sandbox served %s", saved.Verdict.SHA256, sum(want))
	}
	mbs := float64(st.Size()) / 1e6 / c.took.Seconds()
	t.Logf("50 MiB zip: mint + in-page download + verify + atomic save in %s = %.1f MB/s (ask took %d ms)", c.took.Round(time.Millisecond), mbs, c.res.Timings.TotalMS)
}

// BenchmarkFetchWays retrieves the same 64 MiB sandbox zip through the real
// estuary route with each in-page way (mint, fetch in the page, copy into
// a file), without verification, so the figure is the byte path alone.
//
//	go test ./backend/provider/chatgpt -run '^$' -bench FetchWays -benchtime 2x
func BenchmarkFetchWays(b *testing.B) {
	const size = 64 << 20
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	h := providertest.Shared(b)
	h.Server.Reset()
	tabT := &tabHolder{}
	if err := tabT.open(ctx, h); err != nil {
		b.Fatal(err)
	}
	defer tabT.close()
	a := tabT.a
	res, z := askForZip(ctx, b, a, "64MiB")
	dir := b.TempDir()
	mintOnce := func(b *testing.B) string {
		mu, _ := chatgpt.MintURL(res.ConversationID, z.MessageIDs[0], z.Path)
		status, body, err := a.Fetcher().Mint(ctx, mu)
		if err != nil {
			b.Fatal(err)
		}
		m, err := chatgpt.ParseMintResponse(status, body)
		if err != nil {
			b.Fatal(err)
		}
		return m.DownloadURL
	}
	// The machine's ceiling in the same run: the same bytes over loopback
	// HTTP straight into a file, the session cookie handed to Go (which
	// Ferry never does).
	b.Run("loopback-ceiling", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			req, _ := http.NewRequestWithContext(ctx, "GET", mintOnce(b), nil)
			req.AddCookie(h.Server.SessionCookie(sim.ChatGPT))
			resp, err := h.Server.Client().Do(req)
			if err != nil {
				b.Fatal(err)
			}
			out, err := os.CreateTemp(dir, "bench-*.zip")
			if err != nil {
				b.Fatal(err)
			}
			n, err := io.Copy(out, resp.Body)
			resp.Body.Close()
			out.Close()
			os.Remove(out.Name())
			if err != nil || resp.StatusCode != 200 || n < size*9/10 {
				b.Fatalf("HTTP %d, %d bytes, %v", resp.StatusCode, n, err)
			}
			b.SetBytes(n)
		}
	})
	for _, way := range []fetch.Way{fetch.WayURLDownload, fetch.WayStream, fetch.WayDownload, fetch.WayBlobIO, fetch.WayChunkedEval} {
		b.Run(string(way), func(b *testing.B) {
			f := a.Fetcher(chatgpt.WithWay(way), chatgpt.WithDownloadDir(dir))
			b.SetBytes(size)
			for i := 0; i < b.N; i++ {
				mu, _ := chatgpt.MintURL(res.ConversationID, z.MessageIDs[0], z.Path)
				status, body, err := f.Mint(ctx, mu)
				if err != nil {
					b.Fatal(err)
				}
				m, err := chatgpt.ParseMintResponse(status, body)
				if err != nil {
					b.Fatal(err)
				}
				out, err := os.CreateTemp(dir, "bench-*.zip")
				if err != nil {
					b.Fatal(err)
				}
				info, err := f.Download(ctx, m.DownloadURL, out, artifact.DefaultMaxDownload)
				out.Close()
				os.Remove(out.Name())
				if err != nil {
					b.Fatal(err)
				}
				if info.Bytes < size*9/10 {
					b.Fatalf("%d bytes", info.Bytes)
				}
				b.SetBytes(info.Bytes)
			}
		})
	}
}

// tabHolder opens the ChatGPT page in its own browser context for a
// benchmark (providertest.Open takes a *testing.T).
type tabHolder struct {
	bc *browser.BrowserContext
	p  *browser.Page
	a  *chatgpt.Adapter
}

func (th *tabHolder) open(ctx context.Context, h *providertest.Harness) error {
	reg := site.Builtin()
	s, err := reg.Get(chatgpt.ID)
	if err != nil {
		return err
	}
	if th.bc, err = h.Browser.NewContext(ctx); err != nil {
		return err
	}
	p, err := th.bc.OpenTab(ctx, "about:blank")
	if err != nil {
		return err
	}
	if err := p.Navigate(ctx, sim.URL(sim.ChatGPT, "/")); err != nil {
		return err
	}
	th.p = p
	th.a, err = chatgpt.New(provider.Env{Page: p, Site: s, Sites: reg})
	return err
}

func (th *tabHolder) close() {
	if th.bc != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = th.bc.Dispose(ctx)
	}
}

// askForZip asks for one code-mode zip of size (e.g. "64MiB") and returns the
// answer and the zip the canonical conversation names.
func askForZip(ctx context.Context, b *testing.B, a *chatgpt.Adapter, size string) (*provider.Result, artifact.Found) {
	b.Helper()
	res, err := providertest.Ask(b, ctx, a, providertest.Request{Prompt: "Build it.\n" + sim.Directive(sim.ScenarioCodeZip, "zip_size", size)})
	if err != nil {
		b.Fatal(err)
	}
	conv, err := a.Conversation(ctx, res.ConversationID)
	if err != nil {
		b.Fatal(err)
	}
	scan, err := chatgpt.ScanConversation(conv)
	if err != nil || len(scan.Zips) != 1 {
		b.Fatalf("scan: %v %+v", err, scan)
	}
	return res, scan.Zips[0]
}
