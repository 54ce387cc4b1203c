package artifact

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
)

// DefaultMaxDownload caps the bytes fetched for one zip.
const DefaultMaxDownload = 1 << 30

// DownloadStatusError maps a download's HTTP status to its envelope, so that
// every Fetcher reports the same codes: nil for 200, ArtifactForbidden for
// 401 and 403 (the cookie-bound URL was refused), ArtifactExpired for 404
// and 410, ArtifactFetchFailed for anything else.
func DownloadStatusError(status int) error {
	switch status {
	case http.StatusOK:
		return nil
	case http.StatusUnauthorized, http.StatusForbidden:
		return errs.New(errs.ArtifactForbidden, "the download was refused (HTTP %d)", status).WithEvidence("status", fmt.Sprint(status))
	case http.StatusNotFound, http.StatusGone:
		return errs.New(errs.ArtifactExpired, "the file is gone from the sandbox (HTTP %d)", status).WithEvidence("status", fmt.Sprint(status))
	}
	return errs.New(errs.ArtifactFetchFailed, "the download answered HTTP %d", status).WithEvidence("status", fmt.Sprint(status))
}

// TooLargeError is the envelope a Fetcher returns when a download passes
// its limit.
func TooLargeError(limit int64) error {
	return errs.New(errs.ArtifactTooLarge, "the download is larger than the limit of %d bytes", limit).
		WithEvidence("limit", fmt.Sprint(limit))
}

type retrieveConfig struct {
	maxDownload int64
	save        []SaveOption
}

// RetrieveOption changes how Retrieve works.
type RetrieveOption func(*retrieveConfig)

// WithMaxDownload caps the bytes fetched for one zip.
func WithMaxDownload(n int64) RetrieveOption {
	return func(c *retrieveConfig) { c.maxDownload = n }
}

// WithSave passes options to Save.
func WithSave(opts ...SaveOption) RetrieveOption {
	return func(c *retrieveConfig) { c.save = append(c.save, opts...) }
}

// Retrieve brings one sandbox zip home: it mints the download URL with each
// candidate message id in turn (moving on only when a mint fails for that
// message; an expired sandbox or a refusal ends the attempt), checks the
// URL, streams the bytes through f into Save, and returns where the zip was
// saved. The provenance is completed with the conversation id, message id
// and sandbox path. Errors are the envelopes of ParseMintResponse, of the
// Fetcher, and of Save (verification included); nothing partial is left in
// dir.
func Retrieve(ctx context.Context, f Fetcher, conversationID string, z Found, dir string, prov Provenance, opts ...RetrieveOption) (*Saved, error) {
	cfg := retrieveConfig{maxDownload: DefaultMaxDownload}
	for _, o := range opts {
		o(&cfg)
	}
	if len(z.MessageIDs) == 0 {
		return nil, errs.New(errs.ArtifactNotFound, "no message holds %s, so no download can be minted", z.Path).WithEvidence("sandboxPath", z.Path)
	}
	var minted *Minted
	var messageID string
	var lastErr error
	for _, id := range z.MessageIDs {
		u, err := MintURL(conversationID, id, z.Path)
		if err != nil {
			return nil, err
		}
		status, body, err := f.Mint(ctx, u)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, errs.Wrap(err, errs.ArtifactMintFailed, "mint the download of %s: %v", z.Path, err)
		}
		minted, lastErr = ParseMintResponse(status, body)
		if lastErr == nil {
			messageID = id
			break
		}
		if !errs.Has(lastErr, errs.ArtifactMintFailed) {
			break
		}
	}
	if minted == nil {
		return nil, errs.From(lastErr).WithEvidence("sandboxPath", z.Path)
	}

	pr, pw := io.Pipe()
	dlErr := make(chan error, 1)
	go func() {
		_, err := f.Download(ctx, minted.DownloadURL, pw, cfg.maxDownload)
		pw.CloseWithError(err)
		dlErr <- err
	}()
	prov.ConversationID, prov.MessageID, prov.SandboxPath = conversationID, messageID, z.Path
	if prov.ConversationURL == "" {
		prov.ConversationURL = Origin + "/c/" + conversationID
	}
	saved, err := Save(ctx, dir, z.Path, pr, prov, cfg.save...)
	pr.CloseWithError(io.ErrClosedPipe) // unblocks a download that Save stopped reading
	// The download's own failure explains a failed save better than the
	// broken pipe it caused, unless Save failed first and broke the pipe.
	if derr := <-dlErr; derr != nil && !errors.Is(derr, io.ErrClosedPipe) && (err == nil || errs.Has(err, errs.ArtifactSaveFailed)) {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if errs.CodeOf(derr) == "" {
			derr = errs.Wrap(derr, errs.ArtifactFetchFailed, "download %s: %v", z.Path, derr)
		}
		return nil, errs.From(derr).WithEvidence("sandboxPath", z.Path)
	}
	if err != nil {
		return saved, errs.From(err).WithEvidence("sandboxPath", z.Path)
	}
	return saved, nil
}

// Result is the outcome of one zip of RetrieveAll.
type Result struct {
	Path  string `json:"path"`
	Saved *Saved `json:"-"`
	Err   error  `json:"-"`
}

// RetrieveAll retrieves each zip on its own, in order, and reports each
// outcome. The error is nil when at least one zip was saved as good (the
// caller warns about the rest, see Failed), ArtifactNotFound when there is
// no zip, and otherwise the first failure; ctx's error stops the loop.
func RetrieveAll(ctx context.Context, f Fetcher, conversationID string, zips []Found, dir string, prov Provenance, opts ...RetrieveOption) ([]Result, error) {
	if len(zips) == 0 {
		return nil, errs.New(errs.ArtifactNotFound, "the conversation names no /mnt/data zip")
	}
	var out []Result
	var first error
	good := 0
	for _, z := range zips {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		s, err := Retrieve(ctx, f, conversationID, z, dir, prov, opts...)
		out = append(out, Result{Path: z.Path, Saved: s, Err: err})
		if err == nil {
			good++
		} else if first == nil {
			first = err
		}
	}
	if good > 0 {
		return out, nil
	}
	return out, first
}

// Failed describes the zips of results that were not saved as good, for the
// warning of a run that succeeded with some of its zips.
func Failed(results []Result) string {
	var parts []string
	for _, r := range results {
		if r.Err != nil {
			parts = append(parts, fmt.Sprintf("%s (%s)", r.Path, errs.CodeOf(r.Err)))
		}
	}
	return strings.Join(parts, ", ")
}
