package chatgpt

import (
	"context"
	"strconv"

	"github.com/ferrydesk/ferry/backend/browser/fetch"
	"github.com/ferrydesk/ferry/backend/errs"
)

// Conversation reads GET /backend-api/conversation/<id> in the page (bearer
// token, one token refresh on 401) and parses it for the artifact scan.
// Errors: BadInput for an id that is not a ChatGPT id, RateLimited for 429,
// GenerationError for other statuses or a body that is not a conversation,
// the session check's envelopes (LoginRequired, CloudflareChallenge).
func (a *Adapter) Conversation(ctx context.Context, id string) (*Conversation, error) {
	// The id shape MintURL accepts: checked here too so that no other
	// path is ever fetched with the bearer token.
	if !idRe.MatchString(id) {
		return nil, errs.New(errs.BadInput, "conversation id %q is not a ChatGPT id", id).
			WithHint("pass the id from the conversation URL https://chatgpt.com/c/<id>")
	}
	if a.token == "" {
		if _, err := a.session(ctx); err != nil {
			return nil, err
		}
	}
	target := a.origin() + "/backend-api/conversation/" + id
	for attempt := 0; ; attempt++ {
		resp, err := fetch.Text(ctx, a.Page, target, fetchOpts(a.token))
		if err != nil {
			return nil, fetchErr(err, errs.GenerationError, "read the conversation")
		}
		switch {
		case resp.Status == 401 && attempt == 0:
			if _, err := a.session(ctx); err != nil {
				return nil, err
			}
			continue
		case resp.Status == 429:
			return nil, errs.New(errs.RateLimited, "ChatGPT refused to load the conversation (HTTP 429)").WithEvidence("status", "429")
		case resp.Status != 200:
			return nil, errs.New(errs.GenerationError, "ChatGPT answered HTTP %d for the conversation", resp.Status).
				WithEvidence("status", strconv.Itoa(resp.Status))
		}
		c, err := ParseConversation([]byte(resp.Body))
		if err != nil {
			return nil, errs.Wrap(err, errs.GenerationError, "decode the conversation: %v", errs.CodeOf(err))
		}
		return c, nil
	}
}
