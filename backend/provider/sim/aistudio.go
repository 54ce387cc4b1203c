package sim

import (
	"encoding/json"
	"net/http"
	"time"
)

func (s *Server) aistudioRoutes() http.Handler {
	mux := http.NewServeMux()
	page := func(w http.ResponseWriter, r *http.Request) { s.servePage(w, r, AIStudio, r.PathValue("id")) }
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/prompts/new_chat", http.StatusFound)
	})
	mux.HandleFunc("GET /prompts/{id}", page)
	mux.HandleFunc("GET /u/{n}/prompts/{id}", page)
	mux.HandleFunc("POST /_/ms/GenerateContent", s.aistudioGenerate)
	return s.siteGate(AIStudio, mux)
}

// aistudioGenerate streams newline-delimited JSON chunks. The real RPC is
// not described in providers.md (a gap): adapters read AI Studio's DOM.
func (s *Server) aistudioGenerate(w http.ResponseWriter, r *http.Request) {
	if !s.hasSession(r, AIStudio) {
		writeJSONResponse(w, http.StatusUnauthorized, o("error", o("code", 401, "message", "Request had invalid authentication credentials.")))
		return
	}
	var req struct {
		Prompt string `json:"prompt"`
		Model  string `json:"model"`
		Chat   string `json:"chat"`
	}
	_ = json.NewDecoder(http.MaxBytesReader(w, r.Body, 8<<20)).Decode(&req)
	jerr := func(status int, msg string) refusal {
		return refusal{status: status, ctype: "application/json", body: func(siteTurn, time.Time) string {
			return compactJSON(o("error", o("code", status, "message", msg, "status", "RESOURCE_EXHAUSTED")))
		}}
	}
	t, ok := s.beginTurn(w, AIStudio, req.Chat, req.Prompt, jerr(429, "You've reached your rate limit. Please try again later."), jerr(429, "You exceeded your current quota."))
	if !ok {
		return
	}
	model := req.Model
	if model == "" {
		model = t.a.Model
	}
	w.Header().Set("Content-Type", "application/json")
	f := newFlusher(w)
	line := func(v obj) { f.write(compactJSON(v) + "\n") }
	for _, th := range t.a.Thoughts {
		for _, c := range chunks(th+" ", t.pace.Chunk) {
			line(o("thought", true, "text", c))
			if !sleep(r.Context(), t.pace.Interval) {
				return
			}
		}
	}
	done := t.pieces(r.Context(), t.a.Text, func(p, _ string) { line(o("text", p)) })
	if !done {
		if t.sc.Name == ScenarioError {
			line(o("error", o("code", 500, "message", "An internal error has occurred.")))
			return
		}
		abortStream()
	}
	line(o("finishReason", "STOP", "modelVersion", model))
}
