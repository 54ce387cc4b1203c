package sim

import (
	"encoding/json"
	"net/http"
	"time"
)

const claudeOrg = "8f3e2b1c-sim0-4c7d-9a1e-000000000001"

func (s *Server) claudeRoutes() http.Handler {
	mux := http.NewServeMux()
	page := func(w http.ResponseWriter, r *http.Request) { s.servePage(w, r, Claude, r.PathValue("id")) }
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/new", http.StatusFound) })
	mux.HandleFunc("GET /new", page)
	mux.HandleFunc("GET /chat/{id}", page)
	mux.HandleFunc("GET /login", s.loginPage(Claude))
	mux.HandleFunc("POST /login", s.loginPage(Claude))
	mux.HandleFunc("GET /api/organizations", func(w http.ResponseWriter, r *http.Request) {
		if !s.hasSession(r, Claude) || s.pageScenario(Claude).Name == ScenarioLoggedOut {
			writeJSONResponse(w, http.StatusForbidden, o("type", "error", "error", o("type", "permission_error", "message", "Invalid authorization")))
			return
		}
		writeJSONResponse(w, http.StatusOK, []any{o("uuid", claudeOrg, "name", "Sim's Organization")})
	})
	mux.HandleFunc("POST /api/organizations/{org}/chat_conversations", func(w http.ResponseWriter, r *http.Request) {
		if !s.hasSession(r, Claude) {
			writeJSONResponse(w, http.StatusForbidden, o("type", "error", "error", o("type", "permission_error", "message", "Invalid authorization")))
			return
		}
		writeJSONResponse(w, http.StatusCreated, o("uuid", newUUID(), "name", "", "created_at", time.Now().UTC().Format(time.RFC3339)))
	})
	mux.HandleFunc("POST /api/organizations/{org}/chat_conversations/{id}/completion", s.claudeCompletion)
	return s.siteGate(Claude, mux)
}

func sseEvent(f *flusher, name string, v obj) {
	f.write("event: " + name + "\ndata: " + compactJSON(v) + "\n\n")
}

func (s *Server) claudeCompletion(w http.ResponseWriter, r *http.Request) {
	if !s.hasSession(r, Claude) {
		writeJSONResponse(w, http.StatusForbidden, o("type", "error", "error", o("type", "permission_error", "message", "Invalid authorization")))
		return
	}
	var req struct {
		Prompt string `json:"prompt"`
		Model  string `json:"model"`
	}
	_ = json.NewDecoder(http.MaxBytesReader(w, r.Body, 8<<20)).Decode(&req)
	errBody := func(status int, typ, msg string) refusal {
		return refusal{status: status, ctype: "application/json", body: func(_ siteTurn, until time.Time) string {
			return compactJSON(o("type", "error", "error", o("type", typ, "message", msg, "resets_at", until.Unix())))
		}}
	}
	t, ok := s.beginTurn(w, Claude, r.PathValue("id"), req.Prompt,
		errBody(429, "rate_limit_error", "Too many requests. Please slow down."),
		errBody(429, "rate_limit_error", "You've reached your usage limit."))
	if !ok {
		return
	}
	model := t.a.Model
	if req.Model != "" {
		model = req.Model
	}
	w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	f := newFlusher(w)
	msgID := "chatcompl_" + s.macHex("claude", t.conv, t.prompt)[:24]
	sseEvent(f, "message_start", o("type", "message_start", "message", o("id", msgID, "type", "message", "role", "assistant", "model", model, "content", []any{}, "stop_reason", nil)))
	if t.sc.Name == ScenarioConversationTooLong {
		sseEvent(f, "error", o("type", "error", "error", o("type", "invalid_request_error", "message", "prompt is too long")))
		return
	}
	sseEvent(f, "content_block_start", o("type", "content_block_start", "index", 0, "content_block", o("type", "text", "text", "")))
	done := t.pieces(r.Context(), t.a.Text, func(p, _ string) {
		sseEvent(f, "content_block_delta", o("type", "content_block_delta", "index", 0, "delta", o("type", "text_delta", "text", p)))
	})
	if !done {
		if t.sc.Name == ScenarioError {
			sseEvent(f, "error", o("type", "error", "error", o("type", "overloaded_error", "message", "Overloaded")))
			return
		}
		abortStream()
	}
	sseEvent(f, "content_block_stop", o("type", "content_block_stop", "index", 0))
	sseEvent(f, "message_delta", o("type", "message_delta", "delta", o("stop_reason", "end_turn", "stop_sequence", nil)))
	sseEvent(f, "message_limit", o("type", "message_limit", "message_limit", o("type", "within_limit")))
	sseEvent(f, "message_stop", o("type", "message_stop"))
}
