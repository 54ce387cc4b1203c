package deepseek

import (
	_ "embed"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// simScript builds the simulated DeepSeek page in the browser (see SimSite).
//
//go:embed sim.js
var simScript []byte

// SimSite returns the simulator's stand-in for DeepSeek: its pages, its API and
// the page script, registered with sim.Register.
//
// Fidelity checklist against the providers reference (providers.md): each
// fact and where it is reproduced; "GAP" marks facts not reproduced.
//
// DeepSeek (sim.go, sim.js): textarea[placeholder='Message
// DeepSeek'] (React: native setter needed); [role='button'].ds-button--primary
// .ds-button--circle with ds-button--disabled/aria-disabled; .ds-loading while
// busy; .ds-assistant-message-main-content .ds-markdown; .md-code-block pre;
// Read aloud button in the last [data-virtual-list-item-key];
// div[data-model-type][aria-checked] (no_model_picker: none, as some
// accounts see the page); ds-toggle-button DeepThink/Search;
// /sign_in; chat_session/create, PoW challenge, completion SSE with BOM, CRLF,
// ready (model_type), THINK then RESPONSE fragments, bare {"v"} continuing the
// last path, BATCH, status FINISHED, title, close; {"type":"error"}; "The
// server is busy. Please try again later." with Retry. The web client 2.0.0's
// X-Client-Bundle-Id and x-hif-leim headers (the signature is not checked);
// a page of an outdated build (scenario client_outdated) sends X-App-Version
// and is refused with the API's JSON {"code":40005,"msg":
// "CLIENT_VERSION_TOO_LOW"} (its on-page words are not public: a toast
// asking to refresh). GAPs: the PoW answer is
// only required, not verified; the older #chat-input id.
func SimSite() sim.Site {
	return sim.Site{
		ID:            ID,
		Host:          "chat.deepseek.com",
		Title:         "DeepSeek - Into the Unknown",
		Script:        simScript,
		DefaultModel:  "default",
		ThinkingModel: "expert",
		Scenarios:     []string{sim.ScenarioThinking, sim.ScenarioTallSend, sim.ScenarioCoveredSend, sim.ScenarioNoModelPicker, sim.ScenarioClientOutdated},
		Drift: map[string]string{
			"composer": "textarea[placeholder=\"Ask DeepSeek\"]",
			"send":     "[role=\"button\"].ds-btn--main:not(.ds-button--disabled)",
			"answer":   ".ds-assistant-message-main-content .ds-md",
		},
		Routes: func(s *sim.Server) http.Handler { return simServer{s}.routes() },
	}
}

// simServer is the simulator as DeepSeek's handlers see it.
type simServer struct{ *sim.Server }

func (s simServer) routes() http.Handler {
	mux := http.NewServeMux()
	page := func(w http.ResponseWriter, r *http.Request) {
		if !s.HasSession(r, ID) && s.PageScenario(ID).Name == sim.ScenarioLoggedOut {
			http.Redirect(w, r, "/sign_in", http.StatusFound)
			return
		}
		// The first loads of client_outdated hold the old build: the page
		// learns which from the scenario's param build.
		if ps := s.PageScenario(ID); ps.Name == sim.ScenarioClientOutdated {
			left, build := ps.Int("loads", 1), "current"
			if left > 0 {
				left, build = left-1, "outdated"
			}
			s.SetScenario(ID, sim.Scenario{Name: ps.Name, Params: map[string]string{"loads": strconv.Itoa(left), "build": build}})
		}
		s.ServePage(w, r, ID, r.PathValue("id"))
	}
	mux.HandleFunc("GET /{$}", page)
	mux.HandleFunc("GET /a/chat/s/{id}", page)
	mux.HandleFunc("GET /sign_in", s.LoginPage(ID))
	mux.HandleFunc("POST /sign_in", s.LoginPage(ID))
	mux.HandleFunc("POST /api/v0/chat_session/create", func(w http.ResponseWriter, r *http.Request) {
		if !s.HasSession(r, ID) {
			sim.WriteJSON(w, http.StatusOK, sim.O("code", 40003, "msg", "Authorization Failed (invalid token)", "data", nil))
			return
		}
		sim.WriteJSON(w, http.StatusOK, sim.O("code", 0, "msg", "", "data", sim.O("biz_code", 0, "biz_msg", "", "biz_data", sim.O("id", sim.NewUUID(), "seq_id", 1))))
	})
	mux.HandleFunc("POST /api/v0/chat/create_pow_challenge", func(w http.ResponseWriter, r *http.Request) {
		sim.WriteJSON(w, http.StatusOK, sim.O("code", 0, "msg", "", "data", sim.O("biz_code", 0, "biz_data", sim.O("challenge", sim.O(
			"algorithm", "DeepSeekHashV1", "challenge", s.MACHex("pow", time.Now().String())[:64], "salt", "sim", "difficulty", 1, "expire_at", time.Now().Add(5*time.Minute).UnixMilli(), "signature", s.MACHex("powsig")[:64], "target_path", "/api/v0/chat/completion")))))
	})
	mux.HandleFunc("POST /api/v0/chat/completion", s.deepseekCompletion)
	return s.Gate(ID, mux)
}

func (s simServer) deepseekCompletion(w http.ResponseWriter, r *http.Request) {
	if !s.HasSession(r, ID) {
		sim.WriteJSON(w, http.StatusOK, sim.O("code", 40003, "msg", "Authorization Failed (invalid token)", "data", nil))
		return
	}
	if r.Header.Get("x-ds-pow-response") == "" {
		sim.WriteJSON(w, http.StatusOK, sim.O("code", 40301, "msg", "Missing PoW response", "data", nil))
		return
	}
	var req struct {
		SessionID       string `json:"chat_session_id"`
		Prompt          string `json:"prompt"`
		ThinkingEnabled bool   `json:"thinking_enabled"`
		ModelType       string `json:"model_type"`
	}
	_ = json.NewDecoder(http.MaxBytesReader(w, r.Body, 8<<20)).Decode(&req)
	// The web client 2.0.0 sends X-Client-Bundle-Id; an older build
	// (X-App-Version) is refused, the prompt not taken.
	if r.Header.Get("X-Client-Bundle-Id") == "" && s.PageScenario(ID).Name == sim.ScenarioClientOutdated {
		s.Record(sim.Submission{Site: ID, ConversationID: req.SessionID, Prompt: req.Prompt, Scenario: sim.ScenarioClientOutdated, Refused: true})
		sim.WriteJSON(w, http.StatusOK, sim.O("code", 40005, "msg", "CLIENT_VERSION_TOO_LOW", "data", nil))
		return
	}
	sseErr := func(msg string) sim.Refusal {
		return sim.Refusal{Status: 200, ContentType: "text/event-stream; charset=utf-8", Body: func(sim.Turn, time.Time) string {
			return "\ufeffdata: " + sim.CompactJSON(sim.O("type", "error", "content", msg)) + "\r\n\r\n"
		}}
	}
	t, ok := s.BeginTurn(w, ID, req.SessionID, req.Prompt, sseErr("You are sending messages too frequently. Please wait a moment before sending again."), sseErr("You have reached the daily usage limit."))
	if !ok {
		return
	}
	s.Annotate(ID, func(sub *sim.Submission) {
		sub.Model, sub.Effort = req.ModelType, map[bool]string{true: "deepthink", false: "standard"}[req.ThinkingEnabled]
	})
	model := req.ModelType
	if model == "" || t.Scenario.Name == sim.ScenarioThinking {
		model = t.Answer.Model
	}
	w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	f := sim.NewFlusher(w)
	// The real stream may start with a BOM and uses CRLF line ends.
	ev := func(name string, v sim.Obj) {
		s := ""
		if name != "" {
			s = "event: " + name + "\r\n"
		}
		f.Write(s + "data: " + sim.CompactJSON(v) + "\r\n\r\n")
	}
	f.Write("\ufeff")
	ev("ready", sim.O("request_message_id", 1, "response_message_id", 2, "model_type", model))
	thinking := len(t.Answer.Thoughts) > 0
	frags := []any{}
	if thinking {
		frags = append(frags, sim.O("id", 1, "type", "THINK", "content", "", "elapsed_secs", nil))
	}
	ev("", sim.O("v", sim.O("response", sim.O("message_id", 2, "parent_id", 1, "model", "", "role", "ASSISTANT", "thinking_enabled", thinking, "status", "WIP", "accumulated_token_usage", 0, "fragments", frags))))
	if thinking {
		first := true
		for _, th := range t.Answer.Thoughts {
			for _, c := range sim.Chunks(th+" ", t.Pace.Chunk) {
				if first {
					ev("", sim.O("p", "response/fragments/-1/content", "o", "APPEND", "v", c))
					first = false
				} else {
					ev("", sim.O("v", c))
				}
				if !sim.Sleep(r.Context(), t.Pace.Interval) {
					return
				}
			}
		}
	}
	started := false
	done := t.Pieces(r.Context(), t.Answer.Text, func(p, _ string) {
		switch {
		case !started:
			ev("", sim.O("p", "response/fragments", "o", "APPEND", "v", []any{sim.O("id", 2, "type", "RESPONSE", "content", p, "references", []any{})}))
			started = true
		case started:
			ev("", sim.O("v", p))
		}
	})
	if !done {
		if t.Scenario.Name == sim.ScenarioError {
			ev("", sim.O("type", "error", "content", "The server is busy. Please try again later."))
			return
		}
		sim.AbortStream()
	}
	ev("", sim.O("p", "response", "o", "BATCH", "v", []any{sim.O("p", "accumulated_token_usage", "v", 64), sim.O("p", "quasi_status", "v", "FINISHED")}))
	ev("", sim.O("p", "response/status", "o", "SET", "v", "FINISHED"))
	ev("title", sim.O("content", "Sim: "+sim.PromptTopic(req.Prompt)))
	ev("close", sim.O("click_behavior", "none", "auto_resume", false))
}
