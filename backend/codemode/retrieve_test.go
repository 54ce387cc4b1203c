package codemode

import (
	"context"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/site"
)

// noBrowser is Tabs that must not be reached.
type noBrowser struct{ Tabs }

func TestARetrieveRequestIsCheckedBeforeAnythingOpens(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  RetrieveRequest
		code errs.Code
	}{
		{"a conversation id with a slash is bad input", RetrieveRequest{Conversation: "../etc", Timeout: time.Minute}, errs.BadInput},
		{"an empty conversation id is bad input", RetrieveRequest{Timeout: time.Minute}, errs.BadInput},
		{"a zero timeout is bad input", RetrieveRequest{Conversation: "abc-123"}, errs.BadInput},
		{"a negative timeout is bad input", RetrieveRequest{Conversation: "abc-123", Timeout: -time.Second}, errs.BadInput},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rc, err := Retrieve(context.Background(), noBrowser{}, site.Builtin(), tc.req)
			if rc != nil || !errs.Has(err, tc.code) {
				t.Fatalf("receipt %+v err %v, want no receipt and %s", rc, err, tc.code)
			}
		})
	}
	if err := (RetrieveRequest{Conversation: "abc-123", Timeout: time.Minute}).Validate(); err != nil {
		t.Fatalf("a good request was refused: %v", err)
	}
}

func TestTheRetrieveReceiptNamesTheSitesConversationAddress(t *testing.T) {
	if got := siteConversationURL(site.Builtin(), "abc-123"); got != "https://chatgpt.com/c/abc-123" {
		t.Fatalf("address %q", got)
	}
}
