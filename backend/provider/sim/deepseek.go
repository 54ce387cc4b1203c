package sim

import (
	"encoding/json"
	"net/http"
	"time"
)

func (s *Server) deepseekRoutes() http.Handler {
	mux := http.NewServeMux()
	page := func(w http.ResponseWriter, r *http.Request) {
		if !s.hasSession(r, DeepSeek) && s.pageScenario(DeepSeek).Name == ScenarioLoggedOut {
			http.Redirect(w, r, "/sign_in", http.StatusFound)
			return
		}
		s.servePage(w, r, DeepSeek, r.PathValue("id"))
	}
	mux.HandleFunc("GET /{$}", page)
	mux.HandleFunc("GET /a/chat/s/{id}", page)
	mux.HandleFunc("GET /sign_in", s.loginPage(DeepSeek))
	mux.HandleFunc("POST /sign_in", s.loginPage(DeepSeek))
	mux.HandleFunc("POST /api/v0/chat_session/create", func(w http.ResponseWriter, r *http.Request) {
		if !s.hasSession(r, DeepSeek) {
			writeJSONResponse(w, http.StatusOK, o("code", 40003, "msg", "Authorization Failed (invalid token)", "data", nil))
			return
		}
		writeJSONResponse(w, http.StatusOK, o("code", 0, "msg", "", "data", o("biz_code", 0, "biz_msg", "", "biz_data", o("id", newUUID(), "seq_id", 1))))
	})
	mux.HandleFunc("POST /api/v0/chat/create_pow_challenge", func(w http.ResponseWriter, r *http.Request) {
		writeJSONResponse(w, http.StatusOK, o("code", 0, "msg", "", "data", o("biz_code", 0, "biz_data", o("challenge", o(
			"algorithm", "DeepSeekHashV1", "challenge", s.macHex("pow", time.Now().String())[:64], "salt", "sim", "difficulty", 1, "expire_at", time.Now().Add(5*time.Minute).UnixMilli(), "signature", s.macHex("powsig")[:64], "target_path", "/api/v0/chat/completion")))))
	})
	mux.HandleFunc("POST /api/v0/chat/completion", s.deepseekCompletion)
	return s.siteGate(DeepSeek, mux)
}

func (s *Server) deepseekCompletion(w http.ResponseWriter, r *http.Request) {
	if !s.hasSession(r, DeepSeek) {
		writeJSONResponse(w, http.StatusOK, o("code", 40003, "msg", "Authorization Failed (invalid token)", "data", nil))
		return
	}
	if r.Header.Get("x-ds-pow-response") == "" {
		writeJSONResponse(w, http.StatusOK, o("code", 40301, "msg", "Missing PoW response", "data", nil))
		return
	}
	var req struct {
		SessionID       string `json:"chat_session_id"`
		Prompt          string `json:"prompt"`
		ThinkingEnabled bool   `json:"thinking_enabled"`
		ModelType       string `json:"model_type"`
	}
	_ = json.NewDecoder(http.MaxBytesReader(w, r.Body, 8<<20)).Decode(&req)
	sseErr := func(msg string) refusal {
		return refusal{status: 200, ctype: "text/event-stream; charset=utf-8", body: func(siteTurn, time.Time) string {
			return "\ufeffdata: " + compactJSON(o("type", "error", "content", msg)) + "\r\n\r\n"
		}}
	}
	t, ok := s.beginTurn(w, DeepSeek, req.SessionID, req.Prompt, sseErr("You are sending messages too frequently. Please wait a moment before sending again."), sseErr("You have reached the daily usage limit."))
	if !ok {
		return
	}
	model := req.ModelType
	if model == "" || t.sc.Name == ScenarioThinking {
		model = t.a.Model
	}
	w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	f := newFlusher(w)
	// The real stream may start with a BOM and uses CRLF line ends.
	ev := func(name string, v obj) {
		s := ""
		if name != "" {
			s = "event: " + name + "\r\n"
		}
		f.write(s + "data: " + compactJSON(v) + "\r\n\r\n")
	}
	f.write("\ufeff")
	ev("ready", o("request_message_id", 1, "response_message_id", 2, "model_type", model))
	thinking := len(t.a.Thoughts) > 0
	frags := []any{}
	if thinking {
		frags = append(frags, o("id", 1, "type", "THINK", "content", "", "elapsed_secs", nil))
	}
	ev("", o("v", o("response", o("message_id", 2, "parent_id", 1, "model", "", "role", "ASSISTANT", "thinking_enabled", thinking, "status", "WIP", "accumulated_token_usage", 0, "fragments", frags))))
	if thinking {
		first := true
		for _, th := range t.a.Thoughts {
			for _, c := range chunks(th+" ", t.pace.Chunk) {
				if first {
					ev("", o("p", "response/fragments/-1/content", "o", "APPEND", "v", c))
					first = false
				} else {
					ev("", o("v", c))
				}
				if !sleep(r.Context(), t.pace.Interval) {
					return
				}
			}
		}
	}
	started := false
	done := t.pieces(r.Context(), t.a.Text, func(p, _ string) {
		switch {
		case !started:
			ev("", o("p", "response/fragments", "o", "APPEND", "v", []any{o("id", 2, "type", "RESPONSE", "content", p, "references", []any{})}))
			started = true
		case started:
			ev("", o("v", p))
		}
	})
	if !done {
		if t.sc.Name == ScenarioError {
			ev("", o("type", "error", "content", "The server is busy. Please try again later."))
			return
		}
		abortStream()
	}
	ev("", o("p", "response", "o", "BATCH", "v", []any{o("p", "accumulated_token_usage", "v", 64), o("p", "quasi_status", "v", "FINISHED")}))
	ev("", o("p", "response/status", "o", "SET", "v", "FINISHED"))
	ev("title", o("content", "Sim: "+promptTopic(req.Prompt)))
	ev("close", o("click_behavior", "none", "auto_resume", false))
}
