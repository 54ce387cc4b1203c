package sim

import (
	"encoding/json"
	"net/http"
	"time"
)

func (s *Server) grokRoutes() http.Handler {
	mux := http.NewServeMux()
	page := func(w http.ResponseWriter, r *http.Request) { s.servePage(w, r, Grok, r.PathValue("id")) }
	mux.HandleFunc("GET /{$}", page)
	mux.HandleFunc("GET /chat/{id}", page)
	mux.HandleFunc("GET /rest/user-settings", func(w http.ResponseWriter, r *http.Request) {
		if !s.hasSession(r, Grok) || s.pageScenario(Grok).Name == ScenarioLoggedOut {
			writeJSONResponse(w, http.StatusUnauthorized, o("code", 16, "message", "Not authenticated", "details", []any{}))
			return
		}
		writeJSONResponse(w, http.StatusOK, o("preferences", o("theme", "system"), "userId", "sim-user"))
	})
	mux.HandleFunc("GET /rest/app-chat/conversations", func(w http.ResponseWriter, r *http.Request) {
		writeJSONResponse(w, http.StatusOK, o("conversations", []any{}, "nextPageToken", ""))
	})
	mux.HandleFunc("POST /rest/app-chat/conversations/new", func(w http.ResponseWriter, r *http.Request) { s.grokSend(w, r, "") })
	mux.HandleFunc("POST /rest/app-chat/conversations/{id}/responses", func(w http.ResponseWriter, r *http.Request) { s.grokSend(w, r, r.PathValue("id")) })
	return s.siteGate(Grok, mux)
}

func (s *Server) grokSend(w http.ResponseWriter, r *http.Request, conv string) {
	if !s.hasSession(r, Grok) {
		writeJSONResponse(w, http.StatusUnauthorized, o("code", 16, "message", "Not authenticated"))
		return
	}
	var req struct {
		Message   string `json:"message"`
		ModelName string `json:"modelName"`
	}
	_ = json.NewDecoder(http.MaxBytesReader(w, r.Body, 8<<20)).Decode(&req)
	if conv == "" {
		conv = newUUID()
	}
	jsonErr := func(status int, msg string) refusal {
		return refusal{status: status, ctype: "application/json", body: func(siteTurn, time.Time) string {
			return compactJSON(o("error", o("code", 8, "message", msg, "details", []any{})))
		}}
	}
	t, ok := s.beginTurn(w, Grok, conv, req.Message, jsonErr(429, "Too many requests"), jsonErr(429, "You've reached your limit. Please try again later or upgrade."))
	if !ok {
		return
	}
	model := t.a.Model
	if req.ModelName != "" && t.sc.Name != ScenarioThinking {
		model = req.ModelName
	}
	w.Header().Set("Content-Type", "application/json")
	f := newFlusher(w)
	line := func(v obj) { f.write(compactJSON(o("result", v)) + "\n") }
	respID := newUUID()
	line(o("conversation", o("conversationId", conv, "title", "New conversation", "starred", false, "createTime", time.Now().UTC().Format(time.RFC3339Nano))))
	line(o("response", o("userResponse", o("responseId", newUUID(), "message", req.Message, "sender", "human"), "isThinking", false, "isSoftStop", false, "responseId", respID)))
	for _, th := range t.a.Thoughts {
		for _, c := range chunks(th+" ", t.pace.Chunk) {
			line(o("response", o("token", c, "isThinking", true, "isSoftStop", false, "responseId", respID)))
			if !sleep(r.Context(), t.pace.Interval) {
				return
			}
		}
	}
	done := t.pieces(r.Context(), t.a.Text, func(p, _ string) {
		line(o("response", o("token", p, "isThinking", false, "isSoftStop", false, "responseId", respID)))
	})
	if !done {
		if t.sc.Name == ScenarioError {
			line(o("response", o("error", o("code", 13, "message", "Grok is under heavy usage right now. Please try again later."), "responseId", respID)))
			return
		}
		abortStream()
	}
	line(o("response", o("token", "", "isThinking", false, "isSoftStop", true, "responseId", respID)))
	line(o("response", o("finalMetadata", o("followUpSuggestions", []any{}, "toolsUsed", o()), "responseId", respID)))
	line(o("response", o("modelResponse", o("responseId", respID, "message", t.a.Text, "sender", "ASSISTANT", "model", model, "partial", false))))
	line(o("title", o("newTitle", "Sim: "+promptTopic(req.Message))))
}
