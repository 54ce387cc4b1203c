package aistudio

import (
	_ "embed"
	"encoding/json"
	"net/http"
	"time"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// simScript builds the simulated AIStudio page in the browser (see SimSite).
//
//go:embed sim.js
var simScript []byte

// SimSite returns the simulator's stand-in for AIStudio: its pages, its API and
// the page script, registered with sim.Register.
//
// Fidelity checklist against the providers reference (providers.md): each
// fact and where it is reproduced; "GAP" marks facts not reproduced.
//
// Google AI Studio (sim.go, sim.js): /prompts/new_chat?model=,
// /u/<n>/prompts/…; ms-zero-state and button.model-selector-card; footer
// ms-prompt-box textarea[formcontrolname="promptText"] (Angular: value read on
// input events); span.v3-token-count-value leaves "0" after input; one footer
// ms-run-button button, "Run"/"Stop" by text, aria-disabled when empty, per-turn
// Rerun buttons; ms-chat-turn, ms-text-chunk .cmark-node, ms-thought-chunk;
// .turn-footer button[iconname="thumb_up"] appears after completion. GAP: the
// network RPC is invented (NDJSON on /_/ms/GenerateContent); the reference
// describes none.
func SimSite() sim.Site {
	return sim.Site{
		ID:           ID,
		Host:         "aistudio.google.com",
		Title:        "New chat | Google AI Studio",
		Script:       simScript,
		DefaultModel: "gemini-3-pro-preview",
		Scenarios:    []string{sim.ScenarioThinking},
		Drift: map[string]string{
			"composer": "footer ms-input-box textarea",
			"send":     "footer ms-submit-button button[aria-disabled=\"false\"]",
		},
		PageOnlyChats: true,
		Routes:        func(s *sim.Server) http.Handler { return simServer{s}.routes() },
	}
}

// simServer is the simulator as AIStudio's handlers see it.
type simServer struct{ *sim.Server }

func (s simServer) routes() http.Handler {
	mux := http.NewServeMux()
	page := func(w http.ResponseWriter, r *http.Request) { s.ServePage(w, r, ID, r.PathValue("id")) }
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/prompts/new_chat", http.StatusFound)
	})
	mux.HandleFunc("GET /prompts/{id}", page)
	mux.HandleFunc("GET /u/{n}/prompts/{id}", page)
	mux.HandleFunc("POST /_/ms/GenerateContent", s.aistudioGenerate)
	return s.Gate(ID, mux)
}

// aistudioGenerate streams newline-delimited JSON chunks. The real RPC is
// not described in providers.md (a gap): adapters read AI Studio's DOM.
func (s simServer) aistudioGenerate(w http.ResponseWriter, r *http.Request) {
	if !s.HasSession(r, ID) {
		sim.WriteJSON(w, http.StatusUnauthorized, sim.O("error", sim.O("code", 401, "message", "Request had invalid authentication credentials.")))
		return
	}
	var req struct {
		Prompt string `json:"prompt"`
		Model  string `json:"model"`
		Chat   string `json:"chat"`
	}
	_ = json.NewDecoder(http.MaxBytesReader(w, r.Body, 8<<20)).Decode(&req)
	jerr := func(status int, msg string) sim.Refusal {
		return sim.Refusal{Status: status, ContentType: "application/json", Body: func(sim.Turn, time.Time) string {
			return sim.CompactJSON(sim.O("error", sim.O("code", status, "message", msg, "status", "RESOURCE_EXHAUSTED")))
		}}
	}
	t, ok := s.BeginTurn(w, ID, req.Chat, req.Prompt, jerr(429, "You've reached your rate limit. Please try again later."), jerr(429, "You exceeded your current quota."))
	if !ok {
		return
	}
	model := req.Model
	if model == "" {
		model = t.Answer.Model
	}
	w.Header().Set("Content-Type", "application/json")
	f := sim.NewFlusher(w)
	line := func(v sim.Obj) { f.Write(sim.CompactJSON(v) + "\n") }
	for _, th := range t.Answer.Thoughts {
		for _, c := range sim.Chunks(th+" ", t.Pace.Chunk) {
			line(sim.O("thought", true, "text", c))
			if !sim.Sleep(r.Context(), t.Pace.Interval) {
				return
			}
		}
	}
	done := t.Pieces(r.Context(), t.Answer.Text, func(p, _ string) { line(sim.O("text", p)) })
	if !done {
		if t.Scenario.Name == sim.ScenarioError {
			line(sim.O("error", sim.O("code", 500, "message", "An internal error has occurred.")))
			return
		}
		sim.AbortStream()
	}
	line(sim.O("finishReason", "STOP", "modelVersion", model))
}
