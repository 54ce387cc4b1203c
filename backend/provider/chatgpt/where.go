package chatgpt

import (
	"cmp"
	"context"
	"encoding/json"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/browser/fetch"
	"github.com/ferrydesk/ferry/backend/errs"
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

// Projects and custom GPTs, from providers.md ("Tools", "Projects"): a
// project's page is /g/g-p-<id>[-slug]/project and its chats
// /g/<short_url>/c/<id>; GET /backend-api/gizmos/snorlax/sidebar lists the
// projects (items[].gizmo.gizmo.{id, short_url, display.name}); a custom
// GPT is /g/g-<id>[-slug].
var (
	projectPath = regexp.MustCompile(`^/g/(g-p-[A-Za-z0-9]{32}(?:-[A-Za-z0-9-]*)?)(?:/project)?/?$`)
	gptPath     = regexp.MustCompile(`^/g/(g-[A-Za-z0-9]+(?:-[A-Za-z0-9-]*)?)/?$`)
)

// Place resolves where a new chat opens (runs.Placer): kind "gpt" takes a
// custom GPT's address; kind "project" a project's address or its name,
// looked up among the account's projects (exactly, else ignoring case).
// Errors: BadInput for an address that is not one, a name no project has
// or several have (the projects listed); the sidebar read's envelopes.
func (a *Adapter) Place(ctx context.Context, kind, ref string) (record.Place, error) {
	ref = strings.TrimSpace(ref)
	if u, err := url.Parse(ref); err == nil && u.Scheme != "" {
		re := gptPath
		if kind == "project" {
			re = projectPath
		}
		m := re.FindStringSubmatch(u.EscapedPath())
		if u.Scheme != "https" || u.Host != "chatgpt.com" || m == nil || (kind == "gpt" && strings.HasPrefix(m[1], "g-p-")) {
			return record.Place{}, errs.New(errs.BadInput, "%s is not the address of a ChatGPT %s", clipRef(ref), placeWord(kind)).
				WithHint("copy the address from the %s's page: https://chatgpt.com/g/%s…", placeWord(kind), map[bool]string{true: "g-p-", false: "g-"}[kind == "project"])
		}
		return placeAt(a.origin(), kind, "", m[1]), nil
	}
	if kind != "project" {
		return record.Place{}, errs.New(errs.BadInput, "a custom GPT is chosen by its address, not %q", clipRef(ref)).
			WithHint("copy the GPT's address: https://chatgpt.com/g/g-…")
	}
	projects, err := a.Projects(ctx)
	if err != nil {
		return record.Place{}, err
	}
	var exact, folded []record.Place
	names := make([]string, 0, len(projects))
	for _, p := range projects {
		names = append(names, p.Name)
		if p.Name == ref {
			exact = append(exact, p)
		}
		if strings.EqualFold(p.Name, ref) {
			folded = append(folded, p)
		}
	}
	found := exact
	if len(found) == 0 {
		found = folded
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return record.Place{}, errs.New(errs.BadInput, "ChatGPT has no project named %q (its projects: %s)", clipRef(ref), cmp.Or(strings.Join(names, ", "), "none")).
			WithHint("give one of the names listed, or the project's address")
	}
	return record.Place{}, errs.New(errs.BadInput, "%d ChatGPT projects are named %q", len(found), clipRef(ref)).
		WithHint("give the project's address (https://chatgpt.com/g/g-p-…/project) instead of its name")
}

func placeAt(origin, kind, name, short string) record.Place {
	addr := origin + "/g/" + short
	if kind == "project" {
		addr += "/project"
	}
	return record.Place{Kind: kind, Name: name, Address: addr}
}

func placeWord(kind string) string {
	if kind == "gpt" {
		return "custom GPT"
	}
	return kind
}

func clipRef(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
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
			if !projectPath.MatchString("/g/" + g.ShortURL) {
				continue
			}
			out = append(out, placeAt(a.origin(), "project", g.Display.Name, g.ShortURL))
		}
		return out, nil
	}
}
