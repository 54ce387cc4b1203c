package kimi

import (
	_ "embed"
	"encoding/binary"
	"encoding/json"
	"io"
	"net/http"
	"time"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// simScript builds the simulated Kimi page in the browser (see SimSite).
//
//go:embed sim.js
var simScript []byte

// SimSite returns the simulator's stand-in for Kimi: its pages, its API and
// the page script, registered with sim.Register.
//
// Fidelity checklist against the providers reference (providers.md): each
// fact and where it is reproduced; "GAP" marks facts not reproduced.
//
// Kimi (sim.go, sim.js): Lexical .chat-input-editor[contenteditable]
// [data-lexical-editor="true"] (execCommand works, an extra input event
// duplicates); one div .send-button-container with .disabled/.stop/.loading;
// .chat-content-item-assistant .markdown; .segment-assistant-actions;
// .current-model; Connect POST /apiv2/kimi.chat.v1.ChatService/Chat (the
// newest capture; legacy_stream posts to kimi.gateway.chat.v1)
// (application/connect+json, [flags][len BE][json] both ways; op set/append,
// block.text.content, block.think first for a thinking model, rendered as
// a .markdown inside .thinking-container before the answer's; done,
// end-of-stream flag 2). Logged out: a .user-info-no-login "Log In"
// control; send opens a login dialog and sends nothing.
// GAP: Kimi's usage-cap wording (not public): a notice with role alert.
func SimSite() sim.Site {
	return sim.Site{
		ID:           ID,
		Host:         "www.kimi.com",
		Title:        "Kimi AI - Kimi K2",
		Script:       simScript,
		DefaultModel: "kimi-k2",
		Scenarios:    []string{sim.ScenarioThinking, sim.ScenarioLegacyStream},
		Drift: map[string]string{
			"composer": ".prompt-editor[contenteditable=\"true\"]",
			"send":     ".submit-wrapper:not(.stop):not(.loading):not(.disabled)",
			"stop":     ".submit-wrapper.stop",
			"answer":   ".chat-content-item-assistant .answer-md",
		},
		Routes: func(s *sim.Server) http.Handler { return simServer{s}.routes() },
	}
}

// simServer is the simulator as Kimi's handlers see it.
type simServer struct{ *sim.Server }

func (s simServer) routes() http.Handler {
	mux := http.NewServeMux()
	page := func(w http.ResponseWriter, r *http.Request) { s.ServePage(w, r, ID, r.PathValue("id")) }
	mux.HandleFunc("GET /{$}", page)
	mux.HandleFunc("GET /chat/{id}", page)
	mux.HandleFunc("POST /apiv2/kimi.chat.v1.ChatService/Chat", s.kimiChat)
	mux.HandleFunc("POST /apiv2/kimi.gateway.chat.v1.ChatService/Chat", s.kimiChat)
	return s.Gate(ID, mux)
}

// connectFrame is one Connect streaming envelope: flags u8, length u32 BE, JSON.
func connectFrame(flags byte, payload []byte) []byte {
	b := make([]byte, 5+len(payload))
	b[0] = flags
	binary.BigEndian.PutUint32(b[1:], uint32(len(payload)))
	copy(b[5:], payload)
	return b
}

func (s simServer) kimiChat(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Content-Type") != "application/connect+json" {
		http.Error(w, "unsupported content type (want application/connect+json)", http.StatusUnsupportedMediaType)
		return
	}
	if !s.HasSession(r, ID) {
		sim.WriteJSON(w, http.StatusUnauthorized, sim.O("code", "unauthenticated", "message", "login required"))
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
		conv = sim.NewUUID()
	}
	endErr := func(code, msg string) sim.Refusal {
		return sim.Refusal{Status: 200, ContentType: "application/connect+json", Body: func(sim.Turn, time.Time) string {
			return string(connectFrame(2, []byte(sim.CompactJSON(sim.O("error", sim.O("code", code, "message", msg))))))
		}}
	}
	t, ok := s.BeginTurn(w, ID, conv, prompt, endErr("resource_exhausted", "Too many requests, please try again later"), endErr("resource_exhausted", "You've reached the usage limit"))
	if !ok {
		return
	}
	w.Header().Set("Content-Type", "application/connect+json")
	f := sim.NewFlusher(w)
	frame := func(v sim.Obj) { f.WriteBytes(connectFrame(0, []byte(sim.CompactJSON(v)))) }
	frame(sim.O("op", "set", "mask", "chat", "chat", sim.O("id", conv, "name", "Sim: "+sim.PromptTopic(prompt))))
	frame(sim.O("op", "set", "mask", "message", "message", sim.O("id", sim.NewUUID(), "role", "assistant", "status", "MESSAGE_STATUS_GENERATING", "scenario", "SCENARIO_K2")))
	if len(t.Answer.Thoughts) > 0 {
		// A thinking model: think blocks first, never the answer.
		frame(sim.O("op", "set", "mask", "block.think", "block", sim.O("id", "think", "think", sim.O("content", ""))))
		for _, th := range t.Answer.Thoughts {
			frame(sim.O("op", "append", "mask", "block.think.content", "block", sim.O("id", "think", "think", sim.O("content", th+" "))))
			if !sim.Sleep(r.Context(), t.Pace.Interval) {
				return
			}
		}
	}
	frame(sim.O("op", "set", "mask", "block.text", "block", sim.O("id", "0", "text", sim.O("content", ""))))
	done := t.Pieces(r.Context(), t.Answer.Text, func(p, _ string) {
		frame(sim.O("op", "append", "mask", "block.text.content", "block", sim.O("id", "0", "text", sim.O("content", p))))
	})
	if !done {
		if t.Scenario.Name == sim.ScenarioError {
			f.WriteBytes(connectFrame(2, []byte(sim.CompactJSON(sim.O("error", sim.O("code", "internal", "message", "Service is busy, please try again later"))))))
			return
		}
		sim.AbortStream()
	}
	frame(sim.O("op", "set", "mask", "message.status", "message", sim.O("status", "MESSAGE_STATUS_COMPLETED")))
	frame(sim.O("done", sim.O()))
	f.WriteBytes(connectFrame(2, []byte("{}")))
}
