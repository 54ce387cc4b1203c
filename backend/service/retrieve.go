package service

import (
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// RetrieveRequest brings the verified zips of an existing ChatGPT
// conversation home, sending nothing: the request behind `ferry retrieve`.
// OutDir names a local path, so only the owner may retrieve.
type RetrieveRequest struct {
	// Conversation is the conversation id (the <id> of
	// https://chatgpt.com/c/<id>).
	Conversation string `json:"conversation"`
	// TabID, when set, is exactly the tab to read through.
	TabID string `json:"tabId,omitempty"`
	// OutDir receives the zips, sidecars and receipt: an absolute path, or
	// "" for the settings' artifacts.outputDir, else the data directory's
	// artifacts/.
	OutDir string `json:"outDir,omitempty"`
	// TimeoutMs bounds the retrieval; it must be positive.
	TimeoutMs int64 `json:"timeoutMs"`
	// Browser is the browser to read in (nil: the owner's long-lived
	// browser when it has one, else Ferry's own, launched).
	Browser *BrowserSpec `json:"browser,omitempty"`
}

// Validate checks the request before anything is opened. Errors:
// errs.BadInput for no conversation, a timeout that is not positive, an
// invalid browser.
func (r RetrieveRequest) Validate() error {
	if strings.TrimSpace(r.Conversation) == "" {
		return errs.New(errs.BadInput, "a retrieval needs the conversation").
			WithHint("set \"conversation\" to the <id> of https://chatgpt.com/c/<id>")
	}
	if r.TimeoutMs <= 0 {
		return errs.New(errs.BadInput, "--timeout must be positive, got %s", r.Timeout())
	}
	if r.Browser != nil {
		return r.Browser.Validate()
	}
	return nil
}

// Timeout is TimeoutMs as a duration.
func (r RetrieveRequest) Timeout() time.Duration {
	return time.Duration(r.TimeoutMs) * time.Millisecond
}

// Retrieved is a retrieval's answer on the wire: the receipt, and the
// run's error when it failed after the receipt was begun.
type Retrieved struct {
	Receipt *RetrieveReceipt `json:"receipt"`
	Error   *errs.Envelope   `json:"error,omitempty"`
}
