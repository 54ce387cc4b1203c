package chatgpt

import (
	"context"
	"encoding/json"
	"io"
	"strings"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
)

// The adapter's provider.ArtifactSource: the code interpreter's files of a
// conversation, found in the conversation's record and brought home
// through the download mint, every request made inside the tab.

// SandboxFiles implements provider.ArtifactSource: it reads the
// conversation (see Conversation, whose envelopes it returns) and scans its
// current branch (ScanConversation: ArtifactNotFound for a branch that
// cannot be walked).
func (a *Adapter) SandboxFiles(ctx context.Context, conversationID string) (*provider.SandboxScan, error) {
	c, err := a.Conversation(ctx, conversationID)
	if err != nil {
		return nil, err
	}
	return scanSandbox(c)
}

// scanSandbox is the sandbox scan of c with its current branch.
func scanSandbox(c *Conversation) (*provider.SandboxScan, error) {
	branch, err := c.Branch()
	if err != nil {
		return nil, err
	}
	scan, err := ScanConversation(c)
	if err != nil {
		return nil, err
	}
	out := &provider.SandboxScan{ScanResult: *scan, Branch: make([]provider.BranchMessage, 0, len(branch))}
	for _, m := range branch {
		out.Branch = append(out.Branch, provider.BranchMessage{ID: m.ID, Role: m.Author.Role, Text: m.text()})
	}
	return out, nil
}

// text is the message's text parts joined by newlines.
func (m *RecordMessage) text() string {
	var parts []string
	for _, raw := range m.Content.Parts {
		var p string
		if json.Unmarshal(raw, &p) == nil {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, "\n")
}

// MintDownload implements provider.ArtifactSource through the tab's
// Fetcher (see Sandbox.MintDownload).
func (a *Adapter) MintDownload(ctx context.Context, conversationID string, z artifact.Found) (*artifact.Download, error) {
	return NewSandbox(a.Fetcher()).MintDownload(ctx, conversationID, z)
}

// ConversationAddress implements provider.ArtifactSource: the conversation's
// address on Origin.
func (a *Adapter) ConversationAddress(conversationID string) string {
	return Origin + "/c/" + conversationID
}

// Sandbox is ChatGPT's download mint over a Downloader: the adapter's
// Fetcher in production, a loopback client in tests.
type Sandbox struct{ d Downloader }

// NewSandbox returns the mint that sends its requests through d.
func NewSandbox(d Downloader) *Sandbox { return &Sandbox{d: d} }

// MintDownload implements artifact.Minter: it mints the download URL with
// each of z's message ids in turn, moving on only when a mint fails for
// that message (an expired sandbox or a refusal ends the attempt), and
// returns the download of the URL it got, which fetches it through the
// Downloader. Errors: ArtifactNotFound without a message id; BadInput for
// ids or a path MintURL refuses; the envelopes of ParseMintResponse (with
// the sandbox path as evidence); ArtifactMintFailed for a mint the
// Downloader could not send; ctx's error.
func (s *Sandbox) MintDownload(ctx context.Context, conversationID string, z artifact.Found) (*artifact.Download, error) {
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
		status, body, err := s.d.Mint(ctx, u)
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
	url := minted.DownloadURL
	return &artifact.Download{MessageID: messageID, Fetch: func(ctx context.Context, w io.Writer, limit int64) (artifact.FetchInfo, error) {
		return s.d.Download(ctx, url, w, limit)
	}}, nil
}

// ConversationAddress implements artifact.Minter: the conversation's address
// on Origin.
func (s *Sandbox) ConversationAddress(conversationID string) string {
	return Origin + "/c/" + conversationID
}

// Interface guards.
var (
	_ provider.ArtifactSource = (*Adapter)(nil)
	_ artifact.Minter         = (*Sandbox)(nil)
)
