package sim

import (
	"encoding/binary"
	"encoding/json"
	"io"
	"net/http"
	"time"
)

func (s *Server) kimiRoutes() http.Handler {
	mux := http.NewServeMux()
	page := func(w http.ResponseWriter, r *http.Request) { s.servePage(w, r, Kimi, r.PathValue("id")) }
	mux.HandleFunc("GET /{$}", page)
	mux.HandleFunc("GET /chat/{id}", page)
	mux.HandleFunc("POST /apiv2/kimi.gateway.chat.v1.ChatService/Chat", s.kimiChat)
	return s.siteGate(Kimi, mux)
}

// connectFrame is one Connect streaming envelope: flags u8, length u32 BE, JSON.
func connectFrame(flags byte, payload []byte) []byte {
	b := make([]byte, 5+len(payload))
	b[0] = flags
	binary.BigEndian.PutUint32(b[1:], uint32(len(payload)))
	copy(b[5:], payload)
	return b
}

func (s *Server) kimiChat(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Content-Type") != "application/connect+json" {
		http.Error(w, "unsupported content type (want application/connect+json)", http.StatusUnsupportedMediaType)
		return
	}
	if !s.hasSession(r, Kimi) {
		writeJSONResponse(w, http.StatusUnauthorized, o("code", "unauthenticated", "message", "login required"))
		return
	}
	raw, _ := io.ReadAll(http.MaxBytesReader(w, r.Body, 8<<20))
	var req struct {
		ChatID  string `json:"chat_id"`
		Message struct {
			Blocks []struct {
				Text struct {
					Content string `json:"content"`
				} `json:"text"`
			} `json:"blocks"`
		} `json:"message"`
	}
	if len(raw) < 5 || int(binary.BigEndian.Uint32(raw[1:5])) != len(raw)-5 || json.Unmarshal(raw[5:], &req) != nil {
		http.Error(w, "malformed connect envelope", http.StatusBadRequest)
		return
	}
	prompt := ""
	for _, b := range req.Message.Blocks {
		prompt += b.Text.Content
	}
	conv := req.ChatID
	if conv == "" {
		conv = newUUID()
	}
	endErr := func(code, msg string) refusal {
		return refusal{status: 200, ctype: "application/connect+json", body: func(siteTurn, time.Time) string {
			return string(connectFrame(2, []byte(compactJSON(o("error", o("code", code, "message", msg))))))
		}}
	}
	t, ok := s.beginTurn(w, Kimi, conv, prompt, endErr("resource_exhausted", "Too many requests, please try again later"), endErr("resource_exhausted", "You've reached the usage limit"))
	if !ok {
		return
	}
	w.Header().Set("Content-Type", "application/connect+json")
	f := newFlusher(w)
	frame := func(v obj) { f.writeBytes(connectFrame(0, []byte(compactJSON(v)))) }
	frame(o("op", "set", "mask", "chat", "chat", o("id", conv, "name", "Sim: "+promptTopic(prompt))))
	frame(o("op", "set", "mask", "message", "message", o("id", newUUID(), "role", "assistant", "status", "MESSAGE_STATUS_GENERATING", "scenario", "SCENARIO_K2")))
	frame(o("op", "set", "mask", "block.text", "block", o("id", "0", "text", o("content", ""))))
	done := t.pieces(r.Context(), t.a.Text, func(p, _ string) {
		frame(o("op", "append", "mask", "block.text.content", "block", o("id", "0", "text", o("content", p))))
	})
	if !done {
		if t.sc.Name == ScenarioError {
			f.writeBytes(connectFrame(2, []byte(compactJSON(o("error", o("code", "internal", "message", "Service is busy, please try again later"))))))
			return
		}
		abortStream()
	}
	frame(o("op", "set", "mask", "message.status", "message", o("status", "MESSAGE_STATUS_COMPLETED")))
	frame(o("done", o()))
	f.writeBytes(connectFrame(2, []byte("{}")))
}
