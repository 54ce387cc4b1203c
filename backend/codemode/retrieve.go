package codemode

import (
	"context"
	"net/url"
	"path/filepath"
	"time"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/version"
)

// RetrieveReceiptKind names the format of the receipt Retrieve writes.
const RetrieveReceiptKind = "ferry.retrieve.receipt/v1"

// RetrieveRequest is one `ferry retrieve`: the zips of an existing
// conversation brought home, nothing typed or sent.
type RetrieveRequest struct {
	// Conversation is the conversation id (<site>/c/<id>).
	Conversation string
	// TabID, when set, is exactly the tab to read through; otherwise a tab
	// that shows the conversation, else any tab of the site, else a new
	// background tab on the conversation, closed again afterwards.
	TabID string
	// OutDir is the absolute, existing output directory (see OutDir).
	OutDir string
	// Timeout bounds the whole retrieval; it must be positive.
	Timeout time.Duration
	// Limits are the download and verifier caps.
	Limits config.ArtifactSettings
}

// Validate checks the request before anything is opened. Errors: BadInput
// for a conversation id that is not one, or a timeout that is not positive.
func (r RetrieveRequest) Validate() error {
	if err := CheckConvID(r.Conversation); err != nil {
		return err
	}
	if r.Timeout <= 0 {
		return errs.New(errs.BadInput, "--timeout must be positive, got %s", r.Timeout)
	}
	return nil
}

// RetrieveReceipt is the record Retrieve writes beside its outputs. Like
// the code receipt it holds ids, hashes and local paths, never a token, a
// cookie or a signed download URL.
type RetrieveReceipt = record.RetrieveReceipt

// Retrieve reads conversation req.Conversation in a tab of the browser tabs
// opens, finds every sandbox zip on its current branch through the tab's
// provider.ArtifactSource, and brings each home as a code run does
// (minted and fetched inside the page, verified, saved atomically into
// req.OutDir with its provenance sidecar; unsafe zips go to quarantine/,
// damaged ones are deleted). It writes the receipt
// (<time>-<conversation>-retrieve.receipt.json) into req.OutDir and
// returns it with the run's error: nil when at least one zip was saved
// and verified (the others named in a warning); BadInput (see Validate);
// the browser's and the tab's envelopes; CapabilityMissing for a tab
// without a sandbox; the conversation's envelopes; ArtifactNotFound when
// no zip is named; the artifact envelopes of the zips; Timeout when
// req.Timeout passed. The receipt is nil, and the error the cause, when
// the request is bad or the receipt of a run that succeeded could not be
// written; a receipt that cannot be written after a failure is a warning
// in it instead.
func Retrieve(ctx context.Context, tabs Tabs, reg *site.Registry, req RetrieveRequest) (*RetrieveReceipt, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, req.Timeout)
	defer cancel()
	rc := &RetrieveReceipt{Kind: RetrieveReceiptKind, Site: SiteID, ConversationID: req.Conversation,
		ConversationURL: siteConversationURL(reg, req.Conversation), Zips: []ZipReceipt{}, StartedAt: time.Now().UTC(), FerryVersion: version.Version}
	runErr := retrieveInto(ctx, tabs, reg, req, rc)
	if runErr != nil && ctx.Err() != nil && errs.CodeOf(runErr) != errs.Timeout {
		runErr = errs.Wrap(runErr, errs.Timeout, "the zips were not retrieved within --timeout %s", req.Timeout)
	}
	rc.FinishedAt = time.Now().UTC()
	if runErr != nil {
		rc.Error = errs.From(runErr)
	}
	rc.OK = runErr == nil
	rc.Path = filepath.Join(req.OutDir, rc.StartedAt.Format("20060102T150405Z")+"-"+shortID(rc.ConversationID)+"-retrieve"+ReceiptSuffix)
	if warning, err := WriteReceipt(rc.Path, rc, runErr); err != nil {
		return nil, err
	} else if warning != "" {
		rc.Warnings = append(rc.Warnings, warning)
		rc.Path = ""
	}
	return rc, runErr
}

// siteConversationURL is the address of conversation conv on the sandbox
// site's origin, or "" when the registry has no usable address for it.
func siteConversationURL(reg *site.Registry, conv string) string {
	s, err := reg.Get(SiteID)
	if err != nil {
		return ""
	}
	u, err := url.Parse(s.Address)
	if err != nil || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host + "/c/" + conv
}

// retrieveInto does the browser part of Retrieve, filling rc.
func retrieveInto(ctx context.Context, tabs Tabs, reg *site.Registry, req RetrieveRequest, rc *RetrieveReceipt) error {
	b, err := tabs.OpenBrowser(ctx)
	if err != nil {
		return err
	}
	defer func() {
		c, stop := context.WithTimeout(context.Background(), 15*time.Second)
		defer stop()
		_ = b.Close(c)
	}()
	page, s, created, err := ConversationTab(ctx, tabs, b, reg, req.Conversation, req.TabID, true)
	if err != nil {
		return err
	}
	rc.TabID, rc.TabWasCreated = page.ID(), created
	defer func() {
		c, stop := context.WithTimeout(context.Background(), 5*time.Second)
		defer stop()
		if created {
			_ = page.Close(c) // only a fetch context: the user did not ask for it
			return
		}
		_ = page.Detach(c)
	}()
	_, src, err := sourceOf(page, s, reg)
	if err != nil {
		return err
	}
	scan, err := src.SandboxFiles(ctx, req.Conversation)
	if err != nil {
		return err
	}
	rc.Rejected = scan.Rejected
	results, err := artifact.RetrieveAll(ctx, src, req.Conversation, scan.Zips, req.OutDir,
		artifact.Provenance{Site: SiteID}, RetrieveOptions(req.Limits)...)
	for _, x := range results {
		rc.Zips = append(rc.Zips, ZipReceiptOf(x))
	}
	if err != nil {
		return err
	}
	if failed := artifact.Failed(results); failed != "" {
		rc.Warnings = append(rc.Warnings, "not saved as good: "+failed)
	}
	return nil
}
