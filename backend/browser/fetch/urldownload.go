package fetch

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/redact"
)

// WayURLDownload has the browser download the address itself, streaming it
// to a file in a private temporary directory: the page starts the download
// (an <a download> to the address: its cookies, its origin), the Fetch
// domain pauses the response at its headers so that status and headers are
// known before any byte is written, a 200 is let through to the download
// manager and anything else is failed. No body crosses the DevTools
// connection and none is held whole in memory, by the browser or by Go.
const WayURLDownload Way = "url-download"

// errOtherOrigin marks WayURLDownload's refusal of an address of another
// origin, so that the default way can fall back to WayStream.
var errOtherOrigin = errors.New("not the page's origin")

// maxErrorBody caps the body of a refusal that is read for the caller.
const maxErrorBody = 1 << 20

// fetchURLDownload implements WayURLDownload.
func fetchURLDownload(ctx context.Context, p *browser.Page, rawURL string, opts BytesOptions) (io.ReadCloser, *Meta, error) {
	unlock, err := lockStream(ctx, p)
	if err != nil {
		return nil, nil, err
	}
	b := p.Browser()
	// Browser.setDownloadBehavior is per browser context and shared with
	// WayDownload: one download at a time.
	defer b.LockDownloads()()

	// Only a same-origin address keeps the tab where it is: elsewhere the
	// download attribute is ignored and a response without
	// Content-Disposition: attachment would replace the page.
	var where struct {
		Href   string `json:"href"`
		Origin string `json:"origin"`
		Same   bool   `json:"same"`
	}
	if err := p.EvalInto(ctx, &where, `(u) => { try { const x = new URL(u, location.href); x.hash = ''; return {href: x.href, origin: x.origin, same: x.origin === location.origin}; } catch (e) { return {}; } }`, rawURL); err != nil {
		unlock()
		return nil, nil, err
	}
	href := where.Href
	if href == "" {
		unlock()
		return nil, nil, &Error{URL: rawURL, Reason: "not a valid URL"}
	}
	if !where.Same {
		unlock()
		return nil, nil, errs.Wrap(errOtherOrigin, errs.BadInput, "the %s way only fetches addresses of the page's own origin, and %s is not one", WayURLDownload, redact.URL(href)).
			WithHint("use the %s way for other origins", WayStream)
	}
	dir, err := os.MkdirTemp(opts.DownloadDir, "ferry-download-")
	if err != nil {
		unlock()
		return nil, nil, errs.Wrap(err, errs.ArtifactSaveFailed, "make a temporary download directory: %v", err)
	}
	// The link carries a fragment of its own: it is never sent, but the
	// browser's download events name it (across redirects too), so they
	// are told apart from any other download of the same address, such as
	// the failed item a refused earlier attempt leaves behind. The download
	// list's entries are found by it too.
	var tag [8]byte
	_, _ = rand.Read(tag[:])
	mark := "#ferry-" + hex.EncodeToString(tag[:])
	clicked := false // from the click on, the browser's download list may hold an entry
	fail := func(err error) (io.ReadCloser, *Meta, error) {
		_ = removeDownloadDir(dir)
		if clicked {
			forgetLater(b, p.ContextID(), "", mark)
		}
		return nil, nil, err
	}

	// Browser-level events (the download's progress) are subscribed to
	// before anything starts, so none is missed.
	dlEvents, stopDL := b.Events(ctx)
	defer stopDL()

	s := &streamFetch{p: p, ctx: ctx, unlock: unlock, urls: []string{href}, origin: where.Origin,
		loopDone: make(chan struct{}), paused: make(chan pausedResponse, 1), loopErr: make(chan error, 1),
		pageRes: make(chan fetchReply, 1), pageErr: make(chan error, 1)}
	s.pageRes <- fetchReply{} // no page promise to wait for
	evCtx, stopEvents := context.WithCancel(context.WithoutCancel(ctx))
	s.stopEvents = stopEvents
	events, stopSub := p.Events(evCtx)
	go func() {
		defer close(s.loopDone)
		defer stopSub()
		s.loop(evCtx, events)
	}()
	restore := func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
		defer cancel()
		_ = b.Call(cctx, "restore the download behaviour", "Browser.setDownloadBehavior", proto.BrowserSetDownloadBehavior{
			Behavior: proto.BrowserSetDownloadBehaviorBehaviorDefault, BrowserContextID: p.ContextID(),
		}, nil)
	}
	defer restore()
	// cleanup stops the interception and frees the tab's Fetch domain; it
	// runs once, at the latest when this function returns.
	done := false
	cleanup := func(complete bool) {
		if !done {
			done = true
			s.cleanup(complete)
		}
	}
	defer cleanup(false)

	if err := s.enable(ctx); err != nil {
		return fail(err)
	}
	set := proto.BrowserSetDownloadBehavior{
		Behavior:         proto.BrowserSetDownloadBehaviorBehaviorAllowAndName,
		DownloadPath:     dir,
		EventsEnabled:    true,
		BrowserContextID: p.ContextID(),
	}
	if err := b.Call(ctx, "allow the download", "Browser.setDownloadBehavior", set, nil); err != nil {
		return fail(err)
	}
	// A page that cancels every click on a link (a client-side router)
	// would stop the download: that is known at once, not at the deadline.
	var started bool
	if err := p.EvalInto(ctx, &started, `(u) => {
  const a = document.createElement('a');
  a.href = u; a.download = ''; a.style.display = 'none';
  document.documentElement.appendChild(a);
  const ok = a.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, view: window}));
  a.remove();
  return ok;
}`, href+mark); err != nil {
		clicked = true
		return fail(err)
	}
	clicked = true
	if !started {
		return fail(errs.New(errs.ArtifactFetchFailed, "the page cancelled the click that starts the download").
			WithHint("use the %s way for this site", WayStream))
	}

	var pr pausedResponse
wait:
	for {
		select {
		case pr = <-s.paused:
			break wait
		case err := <-s.loopErr:
			return fail(err)
		case m, ok := <-dlEvents:
			if !ok {
				return fail(p.Failure(ctx, "wait for the response headers", b.Err()))
			}
			// A download that begins before its response was paused
			// escaped the check of its status: stop it.
			var e proto.BrowserDownloadWillBegin
			if m.Method != "Browser.downloadWillBegin" || !m.Load(&e) || !strings.HasSuffix(e.URL, mark) {
				continue
			}
			// A request Ferry failed shows as a failed download too; its
			// reason was posted before the failure was sent.
			select {
			case err := <-s.loopErr:
				return fail(err)
			default:
			}
			cctx, stop := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
			_ = b.Call(cctx, "cancel the download", "Browser.cancelDownload", proto.BrowserCancelDownload{GUID: e.GUID, BrowserContextID: p.ContextID()}, nil)
			stop()
			return fail(errs.New(errs.ArtifactFetchFailed, "the browser began the download before Ferry could check its status, so it was cancelled"))
		case <-ctx.Done():
			return fail(p.Failure(ctx, "wait for the response headers", ctx.Err()))
		case <-p.Done():
			return fail(p.Err())
		}
	}
	meta := pr.meta
	if meta.Status != 200 || (opts.MaxBytes > 0 && meta.Size > opts.MaxBytes) {
		// A refusal explains itself in a small body; the download manager
		// never sees it.
		var body []byte
		if meta.Size >= 0 && meta.Size <= maxErrorBody {
			var res proto.FetchGetResponseBodyResult
			if err := p.Exec(ctx, "Fetch.getResponseBody", proto.FetchGetResponseBody{RequestID: pr.id}, &res); err == nil {
				body = []byte(res.Body)
				if res.Base64Encoded {
					body, _ = base64.StdEncoding.DecodeString(res.Body)
				}
			}
		}
		s.reqID = pr.id // failed by cleanup
		cleanup(false)
		_ = removeDownloadDir(dir)
		forgetLater(b, p.ContextID(), "", mark) // a refused request leaves a failed entry
		if meta.Status == 200 {
			return nil, nil, tooLarge(opts.MaxBytes, meta.Size)
		}
		return io.NopCloser(bytes.NewReader(body)), &meta, nil
	}
	// From here the download manager owns the request.
	if err := p.Exec(ctx, "Fetch.continueRequest", proto.FetchContinueRequest{RequestID: pr.id}, nil); err != nil {
		s.reqID = pr.id
		return fail(err)
	}
	cleanup(true)

	path, err := waitDownload(ctx, p, dlEvents, mark, dir, meta.Size, opts.MaxBytes)
	if err != nil {
		return fail(err)
	}
	f, err := os.Open(path)
	if err != nil {
		return fail(errs.Wrap(err, errs.ArtifactFetchFailed, "open the downloaded file: %v", err))
	}
	st, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return fail(errs.Wrap(err, errs.ArtifactFetchFailed, "check the downloaded file: %v", err))
	}
	if meta.Size >= 0 && meta.Headers["content-encoding"] == "" && st.Size() != meta.Size {
		_ = f.Close()
		return fail(truncated(st.Size(), meta.Size))
	}
	if opts.MaxBytes > 0 && st.Size() > opts.MaxBytes {
		_ = f.Close()
		return fail(tooLarge(opts.MaxBytes, st.Size()))
	}
	// The file is open: its entry can leave the download list.
	forgetLater(b, p.ContextID(), dir, mark)
	return &tempFile{File: f, dir: dir}, &meta, nil
}

// truncated is the envelope of a body shorter than its Content-Length: the
// connection broke off, and what arrived is not the file.
func truncated(got, want int64) error {
	return errs.New(errs.ArtifactCorrupt, "the body ended after %d of the %d bytes its Content-Length announced", got, want).
		WithEvidence("bytes", strconv.FormatInt(got, 10)).WithEvidence("content_length", strconv.FormatInt(want, 10))
}

// waitDownload follows the browser's download of the link marked with the
// fragment mark to its end and
// returns the file's path. A download past max is cancelled
// (ArtifactTooLarge); one the browser abandons is ArtifactCorrupt when
// fewer bytes than the announced size had arrived, ArtifactFetchFailed
// otherwise; ctx or the tab ending cancels it.
func waitDownload(ctx context.Context, p *browser.Page, events <-chan *rod.Message, mark, dir string, size, max int64) (string, error) {
	guid := ""
	var received float64
	// cancel stops the download and waits (at most cleanupTimeout) for the
	// browser to report it cancelled: until then the browser may still
	// write, and even re-create dir after the caller removed it.
	cancel := func() {
		if guid == "" {
			return
		}
		cctx, stop := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
		defer stop()
		if err := p.Browser().Call(cctx, "cancel the download", "Browser.cancelDownload",
			proto.BrowserCancelDownload{GUID: guid, BrowserContextID: p.ContextID()}, nil); err != nil {
			return
		}
		for {
			select {
			case <-cctx.Done():
				return
			case m, ok := <-events:
				if !ok {
					return
				}
				var e proto.BrowserDownloadProgress
				if m.Method == "Browser.downloadProgress" && m.Load(&e) && e.GUID == guid &&
					e.State != proto.BrowserDownloadProgressStateInProgress {
					return
				}
			}
		}
	}
	for {
		select {
		case <-ctx.Done():
			cancel()
			return "", p.Failure(ctx, "wait for the download", ctx.Err())
		case <-p.Done():
			cancel()
			return "", p.Err()
		case m, ok := <-events:
			if !ok {
				return "", p.Failure(ctx, "wait for the download", p.Browser().Err())
			}
			switch m.Method {
			case "Browser.downloadWillBegin":
				var e proto.BrowserDownloadWillBegin
				if m.Load(&e) && strings.HasSuffix(e.URL, mark) && guid == "" {
					guid = e.GUID
				}
			case "Browser.downloadProgress":
				var e proto.BrowserDownloadProgress
				if !m.Load(&e) || guid == "" || e.GUID != guid {
					continue
				}
				received = e.ReceivedBytes
				if max > 0 && int64(received) > max {
					cancel()
					return "", tooLarge(max, int64(received))
				}
				switch e.State {
				case proto.BrowserDownloadProgressStateCompleted:
					return filepath.Join(dir, guid), nil
				case proto.BrowserDownloadProgressStateCanceled:
					if size >= 0 && int64(received) < size {
						return "", truncated(int64(received), size)
					}
					return "", errs.New(errs.ArtifactFetchFailed, "the browser abandoned the download")
				}
			}
		}
	}
}
