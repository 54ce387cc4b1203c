package fetch

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
)

// Way is a way of moving a response body out of the page while the browser
// keeps the cookies. See the package README for the measured throughputs.
type Way string

// The ways Bytes knows.
const (
	// WayChunkedEval reads the body stream in the page and returns it in
	// base64 chunks through Runtime.evaluate. Nothing is held in the page
	// beyond one chunk; slowest.
	WayChunkedEval Way = "chunked-eval"
	// WayBlobIO reads the body into a Blob in the page and streams it out
	// with IO.resolveBlob + IO.read.
	WayBlobIO Way = "blob-io"
	// WayDownload reads the body into a Blob and has the browser save it as
	// a download (Browser.setDownloadBehavior) into a private temporary
	// directory, from which Go reads the file and then deletes it.
	WayDownload Way = "download"
)

// DefaultWay is the fastest sound way as measured by BenchmarkFetchBytes
// and BenchmarkRetrieveZip (see docs/figures.md): the browser downloads the address
// itself, streaming it to disk, after Ferry has seen the status and
// headers; only the path crosses the DevTools connection and neither the
// browser nor Go holds the body. It needs a browser that shares Ferry's
// files (SharesFiles); for one that does not, and for an address of another
// origin than the page's, which that way refuses, Bytes moves the body
// over the DevTools connection with WayStream instead (≥ 50 % of its speed,
// measured in the same runs).
var DefaultWay = WayURLDownload

// BytesOptions configures Bytes.
type BytesOptions struct {
	Options
	Way      Way   // "" means DefaultWay
	MaxBytes int64 // 0 means no cap; over the cap is ArtifactTooLarge
	// ChunkBytes is the bytes per CDP message: one IO.read of fetch-stream
	// and blob-io (default 256 KiB), one evaluate of chunked-eval (default
	// 4 MiB).
	ChunkBytes int
	// ReadsInFlight is how many IO.read calls fetch-stream and blob-io keep
	// in flight (default 8).
	ReadsInFlight int
	DownloadDir   string // parent of the private temporary directory for WayDownload and WayURLDownload; default os.TempDir()
}

// defaultChunk is chunked-eval's chunk.
const defaultChunk = 4 << 20

// Bytes fetches rawURL in the tab p with the page's cookies and returns
// the response's metadata and a reader of its body, for any status (a 403
// body is small and may explain itself; the caller decides). The body is
// never one CDP message: it moves in bounded chunks or as a file. The reader
// uses ctx for its reads; Close it to free the page's copy and any temporary
// file. The metadata names the way that moved the body (Meta.Way) and,
// when that had to be known, whether the browser shares Ferry's files
// (Meta.Files).
//
// The ways that have the browser write a file (WayURLDownload,
// WayDownload) ask SharesFiles first. Left to its default, Bytes moves
// the body over the DevTools connection (WayStream) when the browser does
// not share Ferry's files or when the address is of another origin than
// the page's.
//
// Errors: an *Error when the page cannot fetch at all; ArtifactTooLarge
// when Content-Length or the bytes read exceed MaxBytes (then the reader's
// Read fails the same way); ArtifactCorrupt when a streaming way
// (WayURLDownload, WayStream) gets fewer bytes than Content-Length
// announced; ArtifactFetchFailed when the browser abandons a download, or
// when WayURLDownload or WayDownload is asked explicitly of a browser that
// does not share Ferry's files; BadInput for an unknown Way, or for
// WayURLDownload asked explicitly for an address of another origin;
// otherwise envelopes as for Page.Eval.
func Bytes(ctx context.Context, p *browser.Page, rawURL string, opts BytesOptions) (io.ReadCloser, *Meta, error) {
	way := opts.Way
	if way == "" {
		way = DefaultWay
	}
	var files *FileSharing
	if way == WayURLDownload || way == WayDownload {
		fs, err := SharesFiles(ctx, p, opts.DownloadDir)
		if err != nil {
			return nil, nil, err
		}
		files = &fs
		if !fs.Shared {
			if opts.Way != "" {
				return nil, nil, errs.New(errs.ArtifactFetchFailed, "the %s way needs a browser that saves its downloads where Ferry reads them, and this one does not: %s", way, fs.Detail).
					WithEvidence("files_shared", "false").
					WithHint("leave the way at its default: %s moves the bytes over the DevTools connection", WayStream)
			}
			way = WayStream
		}
	}
	rc, meta, err := fetchBy(ctx, p, way, rawURL, opts)
	if opts.Way == "" && way == WayURLDownload && errors.Is(err, errOtherOrigin) {
		way = WayStream
		rc, meta, err = fetchStream(ctx, p, rawURL, opts)
	}
	if meta != nil {
		meta.Way, meta.Files = way, files
	}
	return rc, meta, err
}

// fetchBy fetches rawURL by way.
func fetchBy(ctx context.Context, p *browser.Page, way Way, rawURL string, opts BytesOptions) (io.ReadCloser, *Meta, error) {
	switch way {
	case WayChunkedEval:
		return fetchChunked(ctx, p, rawURL, opts)
	case WayBlobIO:
		return fetchBlobIO(ctx, p, rawURL, opts)
	case WayDownload:
		return fetchDownload(ctx, p, rawURL, opts)
	case WayStream:
		return fetchStream(ctx, p, rawURL, opts)
	case WayURLDownload:
		return fetchURLDownload(ctx, p, rawURL, opts)
	}
	return nil, nil, errs.New(errs.BadInput, "unknown way of fetching bytes %q", way).
		WithHint("use %q, %q, %q, %q or %q", WayStream, WayURLDownload, WayChunkedEval, WayBlobIO, WayDownload)
}

// storeJS keeps per-fetch state in the page under a symbol, out of the
// site's way.
const storeJS = `const __store = (globalThis[Symbol.for('ferry.fetch')] ||= {});`

const toBase64JS = `
const __b64 = (u8) => {
  if (u8.toBase64) return u8.toBase64();
  let s = '';
  for (let i = 0; i < u8.length; i += 0x8000) s += String.fromCharCode.apply(null, u8.subarray(i, i + 0x8000));
  return btoa(s);
};`

type chunkReply struct {
	Error string `json:"error"`
	B64   string `json:"b64"`
	Done  bool   `json:"done"`
}

// fetchChunked: the body's ReadableStream stays in the page; each Read
// pulls up to ChunkBytes through Runtime.evaluate.
func fetchChunked(ctx context.Context, p *browser.Page, rawURL string, opts BytesOptions) (io.ReadCloser, *Meta, error) {
	var r fetchReply
	err := p.EvalInto(ctx, &r, `async (url, o) => {`+storeJS+fetchPrelude+`
  try {
    const {r, meta} = await __fetch(url, o);
    const id = crypto.randomUUID();
    __store[id] = {reader: r.body ? r.body.getReader() : null, buf: null, done: !r.body};
    return {meta, id};
  } catch (e) { return {error: String(e && e.message || e)}; }
}`, rawURL, opts.args())
	if err != nil {
		return nil, nil, err
	}
	if err := r.err(rawURL); err != nil {
		return nil, nil, err
	}
	chunk := opts.ChunkBytes
	if chunk <= 0 {
		chunk = defaultChunk
	}
	release := func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
		defer cancel()
		_, _ = p.Eval(cctx, `(id) => {`+storeJS+`
  const s = __store[id]; delete __store[id];
  if (s && s.reader) s.reader.cancel().catch(() => {});
}`, r.ID)
	}
	if opts.MaxBytes > 0 && r.Meta.Size > opts.MaxBytes {
		release()
		return nil, nil, tooLarge(opts.MaxBytes, r.Meta.Size)
	}
	next := func() ([]byte, bool, error) {
		var c chunkReply
		err := p.EvalInto(ctx, &c, `async (id, n) => {`+storeJS+toBase64JS+`
  const s = __store[id];
  if (!s) return {error: 'the fetch state is gone from the page (it navigated?)'};
  const parts = [];
  let size = 0;
  if (s.buf) { parts.push(s.buf); size = s.buf.length; s.buf = null; }
  while (size < n && !s.done) {
    const {done, value} = await s.reader.read();
    if (done) { s.done = true; break; }
    parts.push(value); size += value.length;
  }
  let all = parts.length === 1 ? parts[0] : new Uint8Array(size);
  if (parts.length !== 1) { let o = 0; for (const x of parts) { all.set(x, o); o += x.length; } }
  if (all.length > n) { s.buf = all.subarray(n); all = all.subarray(0, n); }
  const done = s.done && !s.buf;
  if (done) delete __store[id];
  return {b64: __b64(all), done};
}`, r.ID, chunk)
		if err != nil {
			return nil, false, err
		}
		if c.Error != "" {
			return nil, false, errs.New(errs.ArtifactFetchFailed, "read the response body in the page: %s", c.Error)
		}
		b, err := base64.StdEncoding.DecodeString(c.B64)
		if err != nil {
			return nil, false, errs.Wrap(err, errs.Internal, "decode a body chunk: %v", err)
		}
		return b, c.Done, nil
	}
	meta := r.Meta
	return &chunkReader{next: next, release: release, max: opts.MaxBytes, selfReleasing: true}, &meta, nil
}

const cleanupTimeout = 5e9 // 5 s for best-effort cleanup in the page

// chunkReader turns a "give me the next chunk" function into an
// io.ReadCloser that enforces the size cap.
type chunkReader struct {
	next    func() ([]byte, bool, error)
	release func()
	max     int64
	// selfReleasing: the page drops its state when it hands out the last
	// chunk, so Close after EOF has nothing to free.
	selfReleasing bool

	buf      []byte
	done     bool
	err      error
	n        int64
	released bool
}

func (c *chunkReader) Read(b []byte) (int, error) {
	for len(c.buf) == 0 {
		if c.err != nil {
			return 0, c.err
		}
		if c.done {
			return 0, io.EOF
		}
		chunk, done, err := c.next()
		if err != nil {
			c.err = err
			return 0, err
		}
		c.n += int64(len(chunk))
		if c.max > 0 && c.n > c.max {
			c.err = tooLarge(c.max, c.n)
			return 0, c.err
		}
		c.buf, c.done = chunk, done
		if done && c.selfReleasing {
			c.released = true
		}
	}
	n := copy(b, c.buf)
	c.buf = c.buf[n:]
	return n, nil
}

func (c *chunkReader) Close() error {
	if !c.released {
		c.released = true
		c.release()
	}
	if c.err == nil {
		c.err = errors.New("read after close")
	}
	return nil
}

// blobJS fetches into a Blob kept in the page's store.
const blobJS = `async (url, o) => {` + storeJS + fetchPrelude + `
  try {
    const {r, meta} = await __fetch(url, o);
    const blob = await r.blob();
    const id = crypto.randomUUID();
    __store[id] = blob;
    meta.size = blob.size;
    return {meta, id};
  } catch (e) { return {error: String(e && e.message || e)}; }
}`

func fetchBlob(ctx context.Context, p *browser.Page, rawURL string, opts BytesOptions) (fetchReply, func(), error) {
	var r fetchReply
	if err := p.EvalInto(ctx, &r, blobJS, rawURL, opts.args()); err != nil {
		return r, nil, err
	}
	if err := r.err(rawURL); err != nil {
		return r, nil, err
	}
	release := func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
		defer cancel()
		_, _ = p.Eval(cctx, `(id) => {`+storeJS+` delete __store[id]; }`, r.ID)
	}
	if opts.MaxBytes > 0 && r.Meta.Size > opts.MaxBytes {
		release()
		return r, nil, tooLarge(opts.MaxBytes, r.Meta.Size)
	}
	return r, release, nil
}

// fetchBlobIO: the Blob is resolved to a browser-side stream handle and
// read with IO.read, which needs no JavaScript per chunk.
func fetchBlobIO(ctx context.Context, p *browser.Page, rawURL string, opts BytesOptions) (io.ReadCloser, *Meta, error) {
	r, release, err := fetchBlob(ctx, p, rawURL, opts)
	if err != nil {
		return nil, nil, err
	}
	var obj proto.RuntimeEvaluateResult
	err = p.Exec(ctx, "Runtime.evaluate", proto.RuntimeEvaluate{
		Expression: `globalThis[Symbol.for('ferry.fetch')][` + jsString(r.ID) + `]`}, &obj)
	if err == nil && (obj.Result == nil || obj.Result.ObjectID == "") {
		err = errs.New(errs.ArtifactFetchFailed, "the fetched body is gone from the page")
	}
	var uuid struct {
		UUID string `json:"uuid"`
	}
	if err == nil {
		err = p.Exec(ctx, "IO.resolveBlob", map[string]string{"objectId": string(obj.Result.ObjectID)}, &uuid)
	}
	if err != nil {
		release()
		return nil, nil, err
	}
	handle := "blob:" + uuid.UUID
	cleanup := func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
		defer cancel()
		_ = p.Exec(cctx, "IO.close", map[string]string{"handle": handle}, nil)
		_ = p.Exec(cctx, "Runtime.releaseObject", map[string]string{"objectId": string(obj.Result.ObjectID)}, nil)
		release()
	}
	body := newIOReader(ctx, p, handle, opts.ChunkBytes, opts.ReadsInFlight)
	meta := r.Meta
	cr := &chunkReader{next: body.next, release: func() { body.close(); cleanup() }, max: opts.MaxBytes}
	return &closeAfterEOF{chunkReader: cr}, &meta, nil
}

// closeAfterEOF releases the browser-side stream as soon as the body has
// been read, not only on Close.
type closeAfterEOF struct{ *chunkReader }

func (c *closeAfterEOF) Read(b []byte) (int, error) {
	n, err := c.chunkReader.Read(b)
	if err == io.EOF && !c.released {
		c.released = true
		c.release()
	}
	return n, err
}

func jsString(s string) string {
	return fmt.Sprintf("%q", s) // a UUID: plain ASCII, Go and JS quoting agree
}
