package grok

import (
	_ "embed"
	"encoding/json"
	"net/http"
	"time"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// simScript builds the simulated Grok page in the browser (see SimSite).
//
//go:embed sim.js
var simScript []byte

// SimSite returns the simulator's stand-in for Grok: its pages, its API and
// the page script, registered with sim.Register.
//
// Fidelity checklist against the providers reference (providers.md): each
// fact and where it is reproduced; "GAP" marks facts not reproduced.
//
// Grok (sim.go, sim.js): div.tiptap.ProseMirror[contenteditable]
// [aria-label="Ask Grok anything"]; [data-testid="chat-submit"] disabled and
// invisible until text; Enter inserts a newline, Ctrl/Cmd+Enter sends;
// [data-testid="chat-stop"]; .message-bubble (both roles) ›
// .response-content-markdown; div.action-buttons; button[aria-label="Model
// select"] → [role="menuitem"]; GET /rest/user-settings 200/401; POST
// /rest/app-chat/conversations/new and /{id}/responses NDJSON (conversation,
// token with isThinking, isSoftStop, finalMetadata, modelResponse); a listing
// GET follows each turn. "under heavy usage"; a refused send is HTTP 429
// {"code":8,"message":"Too many requests","details":[]} (a usage cap: the
// same code, other words); the anti-bot layer's refusal (scenario
// anti_bot) is HTTP 403 {"code":7,"message":"Request rejected by anti-bot
// rules.","details":[]} with a generic notice on the page (its words are
// not public). Logged out: a landing page with "Sign in" /
// "Sign up" and no composer, REST 401. GAP: "not available in your region".
func SimSite() sim.Site {
	return sim.Site{
		ID:            ID,
		Host:          "grok.com",
		Title:         "Grok",
		Script:        simScript,
		DefaultModel:  "grok-4",
		ThinkingModel: "grok-4-thinking",
		Scenarios:     []string{sim.ScenarioThinking, sim.ScenarioAntiBot, sim.ScenarioRenamedSend, sim.ScenarioTierGated},
		Drift: map[string]string{
			"composer": "div.editor-surface[contenteditable=\"true\"][aria-label=\"Message Grok\"]",
			"send":     "[data-testid=\"composer-submit\"]:not([disabled])",
			"stop":     "[data-testid=\"composer-stop\"]",
			"answer":   ".message-bubble .answer-markdown",
		},
		Routes: func(s *sim.Server) http.Handler { return simServer{s}.routes() },
	}
}

// simServer is the simulator as Grok's handlers see it.
type simServer struct{ *sim.Server }

func (s simServer) routes() http.Handler {
	mux := http.NewServeMux()
	page := func(w http.ResponseWriter, r *http.Request) { s.ServePage(w, r, ID, r.PathValue("id")) }
	mux.HandleFunc("GET /{$}", page)
	mux.HandleFunc("GET /chat/{id}", page)
	mux.HandleFunc("GET /rest/user-settings", func(w http.ResponseWriter, r *http.Request) {
		if !s.HasSession(r, ID) || s.PageScenario(ID).Name == sim.ScenarioLoggedOut {
			sim.WriteJSON(w, http.StatusUnauthorized, sim.O("code", 16, "message", "Not authenticated", "details", []any{}))
			return
		}
		sim.WriteJSON(w, http.StatusOK, sim.O("preferences", sim.O("theme", "system"), "userId", "sim-user"))
	})
	mux.HandleFunc("GET /rest/app-chat/conversations", func(w http.ResponseWriter, r *http.Request) {
		sim.WriteJSON(w, http.StatusOK, sim.O("conversations", []any{}, "nextPageToken", ""))
	})
	mux.HandleFunc("POST /rest/app-chat/conversations/new", func(w http.ResponseWriter, r *http.Request) { s.grokSend(w, r, "") })
	mux.HandleFunc("POST /rest/app-chat/conversations/{id}/responses", func(w http.ResponseWriter, r *http.Request) { s.grokSend(w, r, r.PathValue("id")) })
	return s.Gate(ID, mux)
}

func (s simServer) grokSend(w http.ResponseWriter, r *http.Request, conv string) {
	if !s.HasSession(r, ID) {
		sim.WriteJSON(w, http.StatusUnauthorized, sim.O("code", 16, "message", "Not authenticated"))
		return
	}
	var req struct {
		Message   string `json:"message"`
		ModelName string `json:"modelName"`
	}
	_ = json.NewDecoder(http.MaxBytesReader(w, r.Body, 8<<20)).Decode(&req)
	if conv == "" {
		conv = sim.NewUUID()
	}
	// A refused send answers its gRPC status as JSON: code 8
	// (RESOURCE_EXHAUSTED) for a short rate limit and a usage cap alike.
	jsonErr := func(status int, msg string) sim.Refusal {
		return sim.Refusal{Status: status, ContentType: "application/json", Body: func(sim.Turn, time.Time) string {
			return sim.CompactJSON(sim.O("code", 8, "message", msg, "details", []any{}))
		}}
	}
	// A mode the account's plan lacks is refused with the tier it needs.
	if req.ModelName == "grok-4-heavy" && s.PageScenario(ID).Name == sim.ScenarioTierGated {
		s.Record(sim.Submission{Site: ID, ConversationID: conv, Prompt: req.Message, Scenario: sim.ScenarioTierGated, Refused: true})
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte(sim.CompactJSON(sim.O("code", 7, "message", "Requires TIER_SUPERGROK_HEAVY", "details", []any{}))))
		return
	}
	// The anti-bot layer refuses a request that lacks a valid
	// x-statsig-id and __cf_bm with 403 and gRPC code 7.
	if sc := s.TurnScenario(ID, conv, req.Message); sc.Name == sim.ScenarioAntiBot {
		s.Record(sim.Submission{Site: ID, ConversationID: conv, Prompt: req.Message, Scenario: sc.Name, Refused: true})
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte(sim.CompactJSON(sim.O("code", 7, "message", "Request rejected by anti-bot rules.", "details", []any{}))))
		return
	}
	t, ok := s.BeginTurn(w, ID, conv, req.Message, jsonErr(429, "Too many requests"), jsonErr(429, "You've reached your limit. Please try again later or upgrade."))
	if !ok {
		return
	}
	model := t.Answer.Model
	if req.ModelName != "" && t.Scenario.Name != sim.ScenarioThinking {
		model = req.ModelName
	}
	w.Header().Set("Content-Type", "application/json")
	f := sim.NewFlusher(w)
	line := func(v sim.Obj) { f.Write(sim.CompactJSON(sim.O("result", v)) + "\n") }
	respID := sim.NewUUID()
	line(sim.O("conversation", sim.O("conversationId", conv, "title", "New conversation", "starred", false, "createTime", time.Now().UTC().Format(time.RFC3339Nano))))
	line(sim.O("response", sim.O("userResponse", sim.O("responseId", sim.NewUUID(), "message", req.Message, "sender", "human"), "isThinking", false, "isSoftStop", false, "responseId", respID)))
	for _, th := range t.Answer.Thoughts {
		for _, c := range sim.Chunks(th+" ", t.Pace.Chunk) {
			line(sim.O("response", sim.O("token", c, "isThinking", true, "isSoftStop", false, "responseId", respID)))
			if !sim.Sleep(r.Context(), t.Pace.Interval) {
				return
			}
		}
	}
	done := t.Pieces(r.Context(), t.Answer.Text, func(p, _ string) {
		line(sim.O("response", sim.O("token", p, "isThinking", false, "isSoftStop", false, "responseId", respID)))
	})
	if !done {
		if t.Scenario.Name == sim.ScenarioError {
			line(sim.O("response", sim.O("error", sim.O("code", 13, "message", "Grok is under heavy usage right now. Please try again later."), "responseId", respID)))
			return
		}
		sim.AbortStream()
	}
	line(sim.O("response", sim.O("token", "", "isThinking", false, "isSoftStop", true, "responseId", respID)))
	line(sim.O("response", sim.O("finalMetadata", sim.O("followUpSuggestions", []any{}, "toolsUsed", sim.O()), "responseId", respID)))
	line(sim.O("response", sim.O("modelResponse", sim.O("responseId", respID, "message", t.Answer.Text, "sender", "ASSISTANT", "model", model, "partial", false))))
	line(sim.O("title", sim.O("newTitle", "Sim: "+sim.PromptTopic(req.Message))))
}
