package testsite

import (
	_ "embed"
	"encoding/json"
	"net/http"
	"time"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// simScript builds the simulated test site's page in the browser.
//
//go:embed sim.js
var simScript []byte

// SimSite returns the simulator's stand-in for the test site: a page, a
// login page and one send endpoint streaming NDJSON.
func SimSite() sim.Site {
	return sim.Site{
		ID:           ID,
		Host:         "chat.testsite.example",
		Title:        "Test site",
		Script:       simScript,
		DefaultModel: "ts-default",
		Drift: map[string]string{
			"composer": "textarea.ts-input",
			"send":     "button.ts-go:not([disabled])",
			"stop":     "button.ts-halt",
			"answer":   ".ts-md",
		},
		Routes: routes,
	}
}

func routes(s *sim.Server) http.Handler {
	mux := http.NewServeMux()
	page := func(w http.ResponseWriter, r *http.Request) { s.ServePage(w, r, ID, r.PathValue("id")) }
	mux.HandleFunc("GET /{$}", page)
	mux.HandleFunc("GET /c/{id}", page)
	mux.HandleFunc("GET /login", s.LoginPage(ID))
	mux.HandleFunc("POST /login", s.LoginPage(ID))
	mux.HandleFunc("POST /api/ask", func(w http.ResponseWriter, r *http.Request) { ask(s, w, r) })
	return s.Gate(ID, mux)
}

// ask answers one prompt: refused with 429 under a rate limit or usage cap,
// else the answer's lines, cut or ended by an error line as the scenario
// says.
func ask(s *sim.Server, w http.ResponseWriter, r *http.Request) {
	if !s.HasSession(r, ID) {
		sim.WriteJSON(w, http.StatusUnauthorized, sim.O("error", sim.O("code", "unauthorized", "message", "Log in first")))
		return
	}
	var req struct {
		Conversation string `json:"conversation"`
		Prompt       string `json:"prompt"`
	}
	_ = json.NewDecoder(http.MaxBytesReader(w, r.Body, 8<<20)).Decode(&req)
	refuse := func(code, msg string) sim.Refusal {
		return sim.Refusal{Status: http.StatusTooManyRequests, ContentType: "application/json", Body: func(sim.Turn, time.Time) string {
			return sim.CompactJSON(sim.O("error", sim.O("code", code, "message", msg)))
		}}
	}
	conv := req.Conversation
	if conv == "" {
		conv = sim.NewUUID()
	}
	t, ok := s.BeginTurn(w, ID, conv, req.Prompt, refuse("rate_limited", "Too many requests"), refuse("usage_cap", "You've reached your usage limit"))
	if !ok {
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	f := sim.NewFlusher(w)
	line := func(v sim.Obj) { f.Write(sim.CompactJSON(v) + "\n") }
	line(sim.O("conversation", conv))
	line(sim.O("model", t.Answer.Model))
	if !t.Pieces(r.Context(), t.Answer.Text, func(p, _ string) { line(sim.O("text", p)) }) {
		if t.Scenario.Name == sim.ScenarioError {
			line(sim.O("error", sim.O("code", "generation_error", "message", "Something went wrong. Please try again.")))
			return
		}
		sim.AbortStream()
	}
	line(sim.O("done", true))
}
