package chatgpt

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/browser/fetch"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider/chatgpt/internal/place"
	"github.com/ferrydesk/ferry/backend/record"
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

// Place resolves where a new chat opens (runs.Placer): kind "gpt" takes a
// custom GPT's address; kind "project" a project's address or its name,
// looked up among the account's projects (place.ByName). Errors: BadInput
// for an address that is not one, a name no project has or several have
// (the projects listed); the sidebar read's envelopes.
func (a *Adapter) Place(ctx context.Context, kind, ref string) (record.Place, error) {
	ref = strings.TrimSpace(ref)
	if p, ok, err := place.FromAddress(a.origin(), kind, ref); ok || err != nil {
		return p, err
	}
	projects, err := a.Projects(ctx)
	if err != nil {
		return record.Place{}, err
	}
	return place.ByName(projects, ref)
}

// Projects lists the account's projects (runs.ProjectLister) from the
// sidebar the page reads (GET /backend-api/gizmos/snorlax/sidebar, bearer),
// each a record.Place of kind project. Errors: GenerationError for a
// status or a body that is not the list; the session check's.
func (a *Adapter) Projects(ctx context.Context) ([]record.Place, error) {
	if a.token == "" {
		if _, err := a.session(ctx); err != nil {
			return nil, err
		}
	}
	for attempt := 0; ; attempt++ {
		resp, err := fetch.Text(ctx, a.Page, a.origin()+"/backend-api/gizmos/snorlax/sidebar?conversations_per_gizmo=0", fetchOpts(a.token))
		if err != nil {
			return nil, fetchErr(err, errs.GenerationError, "list the projects")
		}
		if resp.Status == 401 && attempt == 0 {
			if _, err := a.session(ctx); err != nil {
				return nil, err
			}
			continue
		}
		var body struct {
			Items []struct {
				Gizmo struct {
					Gizmo struct {
						ID       string `json:"id"`
						ShortURL string `json:"short_url"`
						Display  struct {
							Name string `json:"name"`
						} `json:"display"`
					} `json:"gizmo"`
				} `json:"gizmo"`
			} `json:"items"`
		}
		if resp.Status != 200 || json.Unmarshal([]byte(resp.Body), &body) != nil {
			return nil, errs.New(errs.GenerationError, "ChatGPT answered HTTP %d for its projects, not their list", resp.Status).
				WithEvidence("status", strconv.Itoa(resp.Status))
		}
		out := make([]record.Place, 0, len(body.Items))
		for _, it := range body.Items {
			g := it.Gizmo.Gizmo
			if !place.IsProject(g.ShortURL) {
				continue
			}
			out = append(out, place.At(a.origin(), "project", g.Display.Name, g.ShortURL))
		}
		return out, nil
	}
}
