package provider

import (
	"context"

	"github.com/ferrydesk/ferry/backend/artifact"
)

// ArtifactSource is the optional capability of an adapter whose site keeps
// the files a model writes in a sandbox that Ferry can bring home
// (ChatGPT's code interpreter). Code mode checks for it by type assertion,
// as rclone checks fs.Copier:
//
//	src, ok := a.(provider.ArtifactSource)
//
// and answers CapabilityMissing for an adapter without it. Every request
// runs inside the adapter's tab, so the site's cookies never leave the
// browser; a signed download address never leaves the artifact.Download
// that holds it.
type ArtifactSource interface {
	// SandboxFiles reads conversation conversationID in the tab and lists
	// the sandbox zips its current branch names (with the messages that
	// hold each, and the hostile paths refused), and the branch itself.
	// Errors are envelopes: BadInput for an id the site does not accept,
	// RateLimited, GenerationError for a record that cannot be read,
	// ArtifactNotFound for a branch that cannot be walked, and the login
	// check's (LoginRequired, CloudflareChallenge).
	SandboxFiles(ctx context.Context, conversationID string) (*SandboxScan, error)
	// Minter mints the one-time download of a listed zip and names the
	// conversation's address for the provenance.
	artifact.Minter
}

// SandboxScan is what SandboxFiles found in a conversation.
type SandboxScan struct {
	artifact.ScanResult
	// Branch is the conversation's current branch, oldest message first.
	Branch []BranchMessage
}

// BranchMessage is one message of a conversation's current branch.
type BranchMessage struct {
	ID string
	// Role is the author's role: "user", "assistant", "tool" or "system".
	Role string
	// Text is the message's text parts, joined by newlines.
	Text string
}
