package chatgpt

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"

	"github.com/ferrydesk/ferry/backend/browser/fetch"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
)

// session reads /api/auth/session in the page and keeps the access token.
// No user means logged out. A 403 with cf-mitigated is a Cloudflare check on
// the API, which says nothing about the login.
func (a *Adapter) session(ctx context.Context) (string, error) {
	resp, err := fetch.Text(ctx, a.Page, a.origin()+"/api/auth/session", fetchOpts(""))
	if err != nil {
		return "", provider.SessionCheckFailed(err, "the ChatGPT session")
	}
	if resp.Status == 403 && resp.Headers["cf-mitigated"] != "" {
		return "", errs.New(errs.CloudflareChallenge, "ChatGPT's session endpoint is behind a Cloudflare check").WithEvidence("status", "403")
	}
	if resp.Status != 200 {
		return "", errs.New(errs.LoginRequired, "ChatGPT's session endpoint answered HTTP %d", resp.Status).WithEvidence("status", strconv.Itoa(resp.Status))
	}
	var s struct {
		User *struct {
			ID string `json:"id"`
		} `json:"user"`
		AccessToken string `json:"accessToken"`
	}
	if err := json.Unmarshal([]byte(resp.Body), &s); err != nil {
		return "", errs.New(errs.LoginRequired, "ChatGPT's session endpoint did not answer JSON").WithEvidence("status", "200")
	}
	if s.User == nil || s.AccessToken == "" {
		return "", errs.New(errs.LoginRequired, "ChatGPT is not logged in (the session names no user)").WithEvidence("signal", "api/auth/session")
	}
	a.token = s.AccessToken
	return s.AccessToken, nil
}

func (a *Adapter) origin() string {
	u, err := url.Parse(a.Site().Address)
	if err != nil {
		return "https://chatgpt.com"
	}
	return u.Scheme + "://" + u.Host
}

func fetchOpts(token string) fetch.Options {
	o := fetch.Options{Headers: map[string]string{"accept": "application/json"}}
	if token != "" {
		o.Headers["authorization"] = "Bearer " + token
	}
	return o
}

// conversation reads GET /backend-api/conversation/<id> in the page with the
// bearer token, fetching a fresh token once when the first is refused.
func (a *Adapter) conversation(ctx context.Context, id string) (*conversation, error) {
	if a.token == "" {
		if _, err := a.session(ctx); err != nil {
			return nil, err
		}
	}
	u := a.origin() + "/backend-api/conversation/" + url.PathEscape(id)
	for attempt := 0; ; attempt++ {
		resp, err := fetch.Text(ctx, a.Page, u, fetchOpts(a.token))
		if err != nil {
			return nil, errs.Wrap(err, errs.GenerationError, "read the conversation: %v", errs.CodeOf(err))
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
			return nil, errs.New(errs.GenerationError, "ChatGPT answered HTTP %d for the conversation", resp.Status).WithEvidence("status", strconv.Itoa(resp.Status))
		}
		var c conversation
		if err := json.Unmarshal([]byte(resp.Body), &c); err != nil {
			return nil, errs.Wrap(err, errs.GenerationError, "decode the conversation: %v", err)
		}
		return &c, nil
	}
}

// conversation is the part of the conversation JSON Ferry reads.
type conversation struct {
	CurrentNode string          `json:"current_node"`
	Mapping     map[string]node `json:"mapping"`
}

type node struct {
	Parent  string   `json:"parent"`
	Message *message `json:"message"`
}

type message struct {
	ID     string `json:"id"`
	Author struct {
		Role string `json:"role"`
		Name string `json:"name"`
	} `json:"author"`
	Content struct {
		ContentType string            `json:"content_type"`
		Parts       []json.RawMessage `json:"parts"`
	} `json:"content"`
	Recipient string         `json:"recipient"`
	Status    string         `json:"status"`
	Channel   string         `json:"channel"`
	Metadata  map[string]any `json:"metadata"`
}

// answer walks from current_node up to the last finished assistant text
// message outside the commentary and analysis channels.
func (c *conversation) answer() (*message, bool) {
	seen := map[string]bool{}
	for id := c.CurrentNode; id != "" && !seen[id]; id = c.Mapping[id].Parent {
		seen[id] = true
		m := c.Mapping[id].Message
		if m == nil || m.Author.Role != "assistant" || m.Content.ContentType != "text" || m.Channel == "commentary" || m.Channel == "analysis" {
			continue
		}
		return m, m.Status == "" || m.Status == "finished_successfully"
	}
	return nil, false
}

// text joins the message's string parts and turns its citation spans
// (U+E200 … U+E201, with U+E202–U+E206 separators) into Markdown links
// from metadata.content_references (linkCitations).
func (m *message) text() string {
	var b strings.Builder
	for _, p := range m.Content.Parts {
		var s string
		if json.Unmarshal(p, &s) == nil {
			b.WriteString(s)
		}
	}
	return linkCitations(b.String(), m.Metadata["content_references"])
}

func (m *message) slug() string {
	for _, k := range []string{"model_slug", "resolved_model_slug"} {
		if s, ok := m.Metadata[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}
