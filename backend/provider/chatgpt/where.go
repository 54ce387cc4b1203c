package chatgpt

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/browser/fetch"
	"github.com/ferrydesk/ferry/backend/errs"
)

// Where a chat goes, from providers.md ("Tools"): a conversation is
// archived by `PATCH /backend-api/conversation/{id}` {"is_archived": true};
// a temporary chat (https://chatgpt.com/?temporary-chat=true) leaves a
// conv_key_<id> cookie that piles up with the next ones until requests
// fail on their header size.

// Archive archives conversation id (runs.Archiver) in the page with the
// bearer token, a fresh token once on 401. Errors: BadInput for an id that
// is not ChatGPT's; GenerationError for a status or an answer that is not
// the site's success; the session check's envelopes.
func (a *Adapter) Archive(ctx context.Context, id string) error {
	if !idRe.MatchString(id) {
		return errs.New(errs.BadInput, "conversation id %q is not a ChatGPT id", id)
	}
	if a.token == "" {
		if _, err := a.session(ctx); err != nil {
			return err
		}
	}
	for attempt := 0; ; attempt++ {
		o := fetchOpts(a.token)
		o.Method, o.Body = "PATCH", `{"is_archived":true}`
		o.Headers["content-type"] = "application/json"
		resp, err := fetch.Text(ctx, a.Page, a.origin()+"/backend-api/conversation/"+id, o)
		if err != nil {
			return fetchErr(err, errs.GenerationError, "archive the conversation")
		}
		if resp.Status == 401 && attempt == 0 {
			if _, err := a.session(ctx); err != nil {
				return err
			}
			continue
		}
		var body struct {
			Success bool `json:"success"`
		}
		if resp.Status != 200 || json.Unmarshal([]byte(resp.Body), &body) != nil || !body.Success {
			return errs.New(errs.GenerationError, "ChatGPT answered HTTP %d to archiving the conversation, not its success", resp.Status).
				WithEvidence("status", strconv.Itoa(resp.Status))
		}
		return nil
	}
}

// ForgetTemporary deletes the conv_key_<id> cookie temporary chat id left
// (runs.TemporaryForgetter), so that they do not pile up.
func (a *Adapter) ForgetTemporary(ctx context.Context, id string) error {
	if !idRe.MatchString(id) {
		return errs.New(errs.BadInput, "conversation id %q is not a ChatGPT id", id)
	}
	return a.Page.Exec(ctx, "Network.deleteCookies", proto.NetworkDeleteCookies{Name: "conv_key_" + id, URL: a.origin() + "/"}, nil)
}
