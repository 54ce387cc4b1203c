package chatgpt

import (
	"context"
	"errors"
	"io"
	"strconv"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/browser/fetch"
	"github.com/ferrydesk/ferry/backend/errs"
)

// Fetcher is the adapter's Downloader: every request runs inside the
// ChatGPT tab, so the session cookies (HttpOnly ones included) never leave
// the browser. The mint carries the bearer token of /api/auth/session, held
// in the adapter's memory only; the estuary URL it returns is signed and
// works as a credential, so it is used once, in the page, and never logged,
// stored or put in an error.
type Fetcher struct {
	a           *Adapter
	way         fetch.Way
	downloadDir string
}

// FetcherOption changes how a Fetcher moves bytes.
type FetcherOption func(*Fetcher)

// WithWay picks how the body leaves the page (fetch.WayURLDownload,
// fetch.WayStream, fetch.WayDownload, fetch.WayBlobIO,
// fetch.WayChunkedEval); "" is fetch.DefaultWay, the fastest measured,
// or fetch.WayStream when the browser does not share Ferry's files (see
// fetch.Bytes).
func WithWay(w fetch.Way) FetcherOption { return func(f *Fetcher) { f.way = w } }

// WithDownloadDir sets the parent of the private temporary directory the
// browser writes into with fetch.WayURLDownload and fetch.WayDownload
// (default os.TempDir()). Put it on the output's file system when the zips
// are large.
func WithDownloadDir(dir string) FetcherOption { return func(f *Fetcher) { f.downloadDir = dir } }

// Fetcher returns the artifact fetcher of the adapter's tab.
func (a *Adapter) Fetcher(opts ...FetcherOption) *Fetcher {
	f := &Fetcher{a: a}
	for _, o := range opts {
		o(f)
	}
	return f
}

// Mint implements Downloader: GET mintURL in the page with the
// bearer token, fetching a fresh token once when the first is refused with
// 401. An HTTP error status is returned as the status, not as an error; a
// fetch the page cannot make at all is an ArtifactMintFailed envelope, and
// a session that cannot be read is the envelope of the session check
// (LoginRequired, CloudflareChallenge).
func (f *Fetcher) Mint(ctx context.Context, mintURL string) (int, []byte, error) {
	if f.a.token == "" {
		if _, err := f.a.session(ctx); err != nil {
			return 0, nil, err
		}
	}
	for attempt := 0; ; attempt++ {
		resp, err := fetch.Text(ctx, f.a.Page, mintURL, fetchOpts(f.a.token))
		if err != nil {
			return 0, nil, fetchErr(err, errs.ArtifactMintFailed, "mint the download url")
		}
		if resp.Status == 401 && attempt == 0 {
			if _, err := f.a.session(ctx); err != nil {
				return 0, nil, err
			}
			continue
		}
		return resp.Status, []byte(resp.Body), nil
	}
}

// Download implements Downloader: it accepts only a URL that
// ValidateDownloadURL accepts, fetches it in the page with the
// page's cookies through fetch.Bytes (no bearer: the estuary is
// cookie-bound), and copies at most limit bytes into w. Statuses map
// through artifact.DownloadStatusError (403 ArtifactForbidden, 404/410
// ArtifactExpired); more than limit bytes is ArtifactTooLarge; a fetch the
// page cannot make, or a body that breaks off, is ArtifactFetchFailed. No
// error holds the URL's signed query.
func (f *Fetcher) Download(ctx context.Context, downloadURL string, w io.Writer, limit int64) (artifact.FetchInfo, error) {
	var info artifact.FetchInfo
	if err := ValidateDownloadURL(downloadURL); err != nil {
		return info, err
	}
	opts := fetch.BytesOptions{
		Options:     fetch.Options{Headers: map[string]string{"accept": "*/*"}},
		Way:         f.way,
		MaxBytes:    limit,
		DownloadDir: f.downloadDir,
	}
	body, meta, err := fetch.Bytes(ctx, f.a.Page, downloadURL, opts)
	if err != nil {
		return info, fetchErr(err, errs.ArtifactFetchFailed, "download the zip")
	}
	defer body.Close()
	info.Transport = TransportOf(meta)
	info.ContentType = meta.Headers["content-type"]
	info.ContentDisposition = meta.Headers["content-disposition"]
	if err := artifact.DownloadStatusError(meta.Status); err != nil {
		return info, errs.From(err).WithEvidence("way", string(meta.Way))
	}
	src := io.Reader(body)
	if limit > 0 {
		src = io.LimitReader(body, limit+1)
	}
	// Whole chunks of the streaming ways (256 KiB) go to w at once, not in
	// io.Copy's 32 KiB pieces: fewer hand-offs through the caller's pipe.
	n, err := io.CopyBuffer(w, src, make([]byte, copyBuffer))
	info.Bytes = n
	if err != nil {
		if ctx.Err() != nil {
			return info, ctx.Err()
		}
		return info, errs.From(fetchErr(err, errs.ArtifactFetchFailed, "read the zip from the page")).WithEvidence("way", string(meta.Way))
	}
	if limit > 0 && n > limit {
		return info, artifact.TooLargeError(limit)
	}
	if meta.Size >= 0 && n != meta.Size {
		return info, errs.New(errs.ArtifactFetchFailed, "the download ended after %d of %d bytes", n, meta.Size).
			WithEvidence("bytes", strconv.FormatInt(n, 10)).WithEvidence("content_length", strconv.FormatInt(meta.Size, 10))
	}
	return info, nil
}

// TransportOf is the record of how fetch.Bytes moved a body: its way and,
// when the way depended on it, whether the browser shares Ferry's files.
func TransportOf(meta *fetch.Meta) artifact.Transport {
	t := artifact.Transport{Way: string(meta.Way)}
	if fs := meta.Files; fs != nil {
		shared := fs.Shared
		t.FilesShared = &shared
		t.Sharing = fs.How
		if fs.Detail != "" {
			t.Sharing += ": " + fs.Detail
		}
	}
	return t
}

// copyBuffer is the size of the writes Download makes into its writer.
const copyBuffer = 256 << 10

// fetchErr keeps an envelope's own code (TooLarge, a closed tab, a timeout)
// and gives a plain failure the code. fetch.Error already drops the
// URL's query from its text; the wrapped message names only what failed.
func fetchErr(err error, code errs.Code, what string) error {
	if errs.CodeOf(err) != "" {
		return err
	}
	var fe *fetch.Error
	if errors.As(err, &fe) {
		return errs.Wrap(err, code, "%s in the page: %s", what, fe.Reason)
	}
	return errs.Wrap(err, code, "%s: %v", what, err)
}

// Interface guard.
var _ Downloader = (*Fetcher)(nil)
