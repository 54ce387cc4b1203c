package chatgpt_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/chatgpt"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

func TestMain(m *testing.M) { providertest.Main(m) }

func factory(env provider.Env) (provider.Adapter, error) { return chatgpt.New(env) }

func TestConformance(t *testing.T) {
	providertest.Run(t, chatgpt.ID, factory, providertest.Config{
		Model:     "thinking",
		Canonical: canonical,
		Layouts:   []string{sim.ScenarioOlderTurns, sim.ScenarioLocalChatURL},
	})
}

// canonical reads the conversation from Go, outside the browser, and checks
// that the adapter returned its final answer and named its model.
func canonical(t *testing.T, h *providertest.Harness, res *provider.Result) {
	t.Helper()
	if res.ConversationID == "" || res.MessageID == "" {
		t.Fatalf("result names no conversation or message: %+v", res)
	}
	req, _ := http.NewRequest("GET", sim.URL(sim.ChatGPT, "/backend-api/conversation/"+res.ConversationID), nil)
	req.Header.Set("Authorization", "Bearer "+h.Server.AccessToken())
	req.AddCookie(h.Server.SessionCookie(sim.ChatGPT))
	resp, err := h.Server.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var c struct {
		CurrentNode string `json:"current_node"`
		Mapping     map[string]struct {
			Message *struct {
				ID      string `json:"id"`
				Content struct {
					Parts []string `json:"parts"`
				} `json:"content"`
				Metadata struct {
					ModelSlug string `json:"model_slug"`
				} `json:"metadata"`
			} `json:"message"`
		} `json:"mapping"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
		t.Fatalf("decode conversation (HTTP %d): %v", resp.StatusCode, err)
	}
	m := c.Mapping[c.CurrentNode].Message
	if m == nil || m.ID != res.MessageID {
		t.Fatalf("current node %s is not the answer %s", c.CurrentNode, res.MessageID)
	}
	if got := strings.Join(m.Content.Parts, ""); got != res.Answer {
		t.Fatalf("site's record %q differs from the answer %q", got, res.Answer)
	}
	// The page names the model only on the older turn markup
	// (data-message-model-slug); the newest shows none.
	domSlug := ""
	if h.Server.PageScenario(sim.ChatGPT).Name == sim.ScenarioOlderTurns {
		domSlug = m.Metadata.ModelSlug
	}
	if res.Model.Slug != m.Metadata.ModelSlug || res.Model.DOMSlug != domSlug {
		t.Fatalf("model proof %+v, the site recorded %q (the page %q)", res.Model, m.Metadata.ModelSlug, domSlug)
	}
	if res.Content.Source != "conversation_api" || len(res.Warnings) != 0 {
		t.Fatalf("content %+v warnings %v, want the canonical text without warnings", res.Content, res.Warnings)
	}
}
