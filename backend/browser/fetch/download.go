package fetch

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
)

// fetchDownload: the page fetches the body into a Blob (status and headers
// known first, cookies used), then an <a download> to the Blob's object URL
// has the browser write it to a private directory. Only the file name
// crosses the DevTools connection. Browser.setDownloadBehavior is
// browser-wide (or per browser context), so one such download runs at a
// time and the default behaviour is restored afterwards.
func fetchDownload(ctx context.Context, p *browser.Page, rawURL string, opts BytesOptions) (io.ReadCloser, *Meta, error) {
	r, release, err := fetchBlob(ctx, p, rawURL, opts)
	if err != nil {
		return nil, nil, err
	}
	defer release()

	dir, err := os.MkdirTemp(opts.DownloadDir, "ferry-download-")
	if err != nil {
		return nil, nil, errs.Wrap(err, errs.ArtifactSaveFailed, "make a temporary download directory: %v", err)
	}
	path, err := downloadBlob(ctx, p, r.ID, dir)
	if err != nil {
		_ = removeDownloadDir(dir)
		forgetLater(p.Browser(), p.ContextID(), dir, "")
		return nil, nil, err
	}
	f, err := os.Open(path)
	// The file is open (or gone): its entry can leave the download list.
	forgetLater(p.Browser(), p.ContextID(), dir, "")
	if err != nil {
		_ = removeDownloadDir(dir)
		return nil, nil, errs.Wrap(err, errs.ArtifactFetchFailed, "open the downloaded file: %v", err)
	}
	st, err := f.Stat()
	if err == nil && st.Size() != r.Meta.Size {
		err = fmt.Errorf("the browser wrote %d of %d bytes", st.Size(), r.Meta.Size)
	}
	if err != nil {
		_ = f.Close()
		_ = removeDownloadDir(dir)
		return nil, nil, errs.Wrap(err, errs.ArtifactFetchFailed, "check the downloaded file: %v", err)
	}
	meta := r.Meta
	return &tempFile{File: f, dir: dir}, &meta, nil
}

// downloadBlob saves the Blob stored under id into dir and returns the
// file's path.
func downloadBlob(ctx context.Context, p *browser.Page, id, dir string) (string, error) {
	b := p.Browser()
	defer b.LockDownloads()()

	events, stop := b.Events(ctx)
	defer stop()

	set := proto.BrowserSetDownloadBehavior{
		Behavior:         proto.BrowserSetDownloadBehaviorBehaviorAllowAndName,
		DownloadPath:     dir,
		EventsEnabled:    true,
		BrowserContextID: p.ContextID(),
	}
	if err := b.Call(ctx, "allow the download", "Browser.setDownloadBehavior", set, nil); err != nil {
		return "", err
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
		defer cancel()
		_ = b.Call(cctx, "restore the download behaviour", "Browser.setDownloadBehavior", proto.BrowserSetDownloadBehavior{
			Behavior: proto.BrowserSetDownloadBehaviorBehaviorDefault, BrowserContextID: p.ContextID(),
		}, nil)
	}()

	var objURL string
	if err := p.EvalInto(ctx, &objURL, `(id) => {`+storeJS+`
  const blob = __store[id];
  if (!blob) return '';
  const u = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = u; a.download = 'ferry-' + id; a.style.display = 'none';
  document.documentElement.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(u), 600000);
  return u;
}`, id); err != nil {
		return "", err
	}
	if objURL == "" {
		return "", errs.New(errs.ArtifactFetchFailed, "the fetched body is gone from the page")
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
		defer cancel()
		_, _ = p.Eval(cctx, `(u) => URL.revokeObjectURL(u)`, objURL)
	}()

	guid := ""
	for {
		select {
		case <-ctx.Done():
			return "", p.Failure(ctx, "wait for the download", ctx.Err())
		case <-p.Done():
			return "", p.Err()
		case m, ok := <-events:
			if !ok {
				return "", p.Failure(ctx, "wait for the download", b.Err())
			}
			switch m.Method {
			case "Browser.downloadWillBegin":
				var e proto.BrowserDownloadWillBegin
				if m.Load(&e) && e.URL == objURL {
					guid = e.GUID
				}
			case "Browser.downloadProgress":
				var e proto.BrowserDownloadProgress
				if !m.Load(&e) || guid == "" || e.GUID != guid {
					continue
				}
				switch e.State {
				case proto.BrowserDownloadProgressStateCompleted:
					return filepath.Join(dir, guid), nil
				case proto.BrowserDownloadProgressStateCanceled:
					return "", errs.New(errs.ArtifactFetchFailed, "the browser cancelled the download")
				}
			}
		}
	}
}

// removeDownloadDir removes a download's private directory for good. The
// browser may still be writing there a moment after it reported the
// download cancelled (its file thread deletes the partial file, and
// creates the directory again to do so), so a removal that fails, or a
// directory that comes back, is removed again until it stays gone for
// downloadDirSettle, for at most cleanupTimeout.
func removeDownloadDir(dir string) error {
	deadline := time.Now().Add(cleanupTimeout)
	for {
		err := os.RemoveAll(dir)
		if err == nil {
			time.Sleep(downloadDirSettle)
			if _, serr := os.Lstat(dir); os.IsNotExist(serr) {
				return nil
			}
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = os.RemoveAll(dir)
			}
			return err
		}
		time.Sleep(downloadDirSettle)
	}
}

// downloadDirSettle is how long a removed download directory must stay gone.
const downloadDirSettle = 100 * time.Millisecond

// tempFile deletes its private directory when closed.
type tempFile struct {
	*os.File
	dir string
}

func (t *tempFile) Close() error {
	err := t.File.Close()
	if rerr := os.RemoveAll(t.dir); err == nil { // a finished download: the browser is done with it
		err = rerr
	}
	return err
}
