package chatgpt_test

import (
	"context"
	"encoding/json"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/site"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/chatgpt"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/runs"
)

func TestMain(m *testing.M) { providertest.Main(m) }

func factory(env provider.Env) (provider.Adapter, error) { return chatgpt.New(env) }

func TestConformance(t *testing.T) {
	providertest.Run(t, chatgpt.ID, factory, providertest.Config{
		Model:     "pro",
		Canonical: canonical,
		Images:    func(dir string) job.Deliverable { return runs.ImagesHome(dir, 0) },
		Layouts:   []string{sim.ScenarioOlderTurns, sim.ScenarioLocalChatURL},
		// The pickers of 2026-07-10 and 2026-08-07; the slider is the default.
		PickerLayouts: []string{sim.ScenarioPickerIntelligence, sim.ScenarioPickerPower},
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

// TestARunGoesToChatNotWork: a tab showing Work (the header's Chat/Work
// toggle, 2026-07/08) is switched to Chat with a trusted click before the
// prompt is typed; a toggle that will not switch refuses the run with
// nothing typed or sent.
func TestARunGoesToChatNotWork(t *testing.T) {
	t.Run("a tab on Work is switched to Chat and the prompt goes to Chat", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		tab := providertest.Open(t, ctx, chatgpt.ID, factory, providertest.Setup{Scenario: sim.ScenarioWorkMode})
		res, err := tab.Ask(t, ctx, providertest.Request{Prompt: "A question for Chat"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Answer != providertest.NormalAnswer("A question for Chat") {
			t.Fatalf("answer %q", res.Answer)
		}
		if subs := tab.H.Server.Submissions(chatgpt.ID); len(subs) != 1 || subs[0].Mode != "primary_assistant" {
			t.Fatalf("submissions %+v, want one to Chat (primary_assistant)", subs)
		}
	})
	t.Run("a toggle that stays on Work refuses the run before typing", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		tab := providertest.Open(t, ctx, chatgpt.ID, factory, providertest.Setup{Scenario: sim.ScenarioWorkStuck})
		res, err := tab.Ask(t, ctx, providertest.Request{Prompt: "A question that must not go to Work"})
		if res != nil || errs.CodeOf(err) != errs.CapabilityMissing {
			t.Fatalf("Ask = %+v, %v; want capability_missing", res, err)
		}
		if e := errs.From(err); e.Evidence["mode"] != "Work" || !strings.Contains(e.RetryHint, "Chat") {
			t.Fatalf("envelope %+v, want the mode it saw and a hint to switch to Chat", e)
		}
		if n := tab.H.Server.SubmissionCount(chatgpt.ID); n != 0 {
			t.Fatalf("%d submissions, want none", n)
		}
		var typed string
		if err := tab.Page.EvalInto(ctx, &typed, `() => document.querySelector('#prompt-textarea').innerText.trim()`); err != nil || typed != "" {
			t.Fatalf("the composer holds %q (%v), want nothing typed", typed, err)
		}
	})
}

// TestAWelcomeBackPageContinuesAsTheOneAccountOrStops: ChatGPT's "Welcome
// back" page (a lapsed session, its accounts still known) is answered with
// the one account or the one the settings name; among several and none
// named, the run stops with login_required listing them, nothing sent.
func TestAWelcomeBackPageContinuesAsTheOneAccountOrStops(t *testing.T) {
	two := map[string]string{"accounts": "ana@example.com,bo@example.com"}
	for _, tc := range []struct {
		name    string
		params  map[string]string
		account string
		chosen  string // "" when the run must stop
	}{
		{"the one account is chosen", nil, "", "sim.user@example.com"},
		{"among two, none named, the run stops and lists them", two, "", ""},
		{"among two, the one the settings name is chosen", two, "bo@example.com", "bo@example.com"},
		{"among two, a named account not listed stops the run", two, "cy@example.com", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			setup := providertest.Setup{Scenario: sim.ScenarioWelcomeBack, Params: tc.params}
			if tc.account != "" {
				setup.Overrides = []site.Override{{ID: chatgpt.ID, Account: tc.account}}
			}
			tab := providertest.Open(t, ctx, chatgpt.ID, factory, setup)
			res, err := tab.Ask(t, ctx, providertest.Request{Prompt: "Who am I?"})
			if tc.chosen == "" {
				if res != nil || errs.CodeOf(err) != errs.LoginRequired {
					t.Fatalf("Ask = %+v, %v; want login_required", res, err)
				}
				if e := errs.From(err); e.Evidence["accounts"] != "ana@example.com, bo@example.com" || !strings.Contains(e.RetryHint, `"account"`) {
					t.Fatalf("envelope %+v, want both accounts listed and the setting named", e)
				}
				if n := tab.H.Server.SubmissionCount(chatgpt.ID); n != 0 {
					t.Fatalf("%d submissions, want none", n)
				}
				return
			}
			if err != nil {
				t.Fatalf("Ask: %v", err)
			}
			if got := tab.H.Server.PageScenario(chatgpt.ID).Param("chosen", ""); got != tc.chosen {
				t.Fatalf("the page continued as %q, want %q", got, tc.chosen)
			}
			if res.Answer != providertest.NormalAnswer("Who am I?") || tab.H.Server.SubmissionCount(chatgpt.ID) != 1 {
				t.Fatalf("answer %q after %d submissions", res.Answer, tab.H.Server.SubmissionCount(chatgpt.ID))
			}
		})
	}
}
