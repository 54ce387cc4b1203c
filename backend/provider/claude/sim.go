package claude

import (
	_ "embed"
	"encoding/json"
	"net/http"
	"time"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

const claudeOrg = "8f3e2b1c-sim0-4c7d-9a1e-000000000001"

// simScript builds the simulated Claude page in the browser (see SimSite).
//
//go:embed sim.js
var simScript []byte

// SimSite returns the simulator's stand-in for Claude: its pages, its API and
// the page script, registered with sim.Register.
//
// Fidelity checklist against the providers reference (providers.md): each
// fact and where it is reproduced; "GAP" marks facts not reproduced.
//
// Claude (sim.go, sim.js): ProseMirror [aria-label="Write your prompt
// to Claude"][data-testid="chat-input"] (property writes fail silently); send
// button[aria-label="Send message"][data-testid="chat-input-send"] disabled
// until hydration and text; button[aria-label="Stop response"];
// div[data-is-streaming] true→false; div.font-claude-response;
// [data-testid="user-message"]; the newest layout (2026-08): every message
// in div[data-test-render-count] › div › (message, bar), the bar's first
// button the copy control, no action-bar test ids; the older layout
// (scenario older_turns): action-bar-copy on both roles, action-bar-retry
// on assistant rows; model-selector-dropdown → [role="menuitemradio"];
// input#chat-input-file-upload-onpage; POST …/chat_conversations then
// …/completion SSE (message_start, content_block_delta text_delta,
// message_stop; with thinking, a thinking block of thinking_summary_delta
// first, rendered inside .font-claude-response outside .standard-markdown);
// "Claude hit the maximum length for this conversation…"; the usage cap:
// a 429 whose error message is JSON {"type":"exceeded_limit","resetsAt":…},
// then (and on load for an account at the cap) the banner "You’ve hit your
// limit for Claude messages. Limits will reset at …" without a role, the
// composer blocked (no request goes out). GAP: the cap a refused send
// shows lasts until the page reloads (the real site keeps it across
// reloads: usage_cap_on_load is that page).
// Attachments (sim.MountUploads, Sim.uploads): tiles in the composer
// (data-testid="file-thumbnail", aria-label the file name) with a spinner
// while uploading; send disabled meanwhile; the completion names the files;
// the sent turn shows them. The upload requests are ChatGPT's shape (the
// reference has none for Claude): GAP.
// GAP: "This response reached its tool use limit." with Continue.
func SimSite() sim.Site {
	return sim.Site{
		ID:           ID,
		Host:         "claude.ai",
		Title:        "Claude",
		Script:       simScript,
		DefaultModel: "claude-sonnet-4-6",
		Scenarios:    []string{sim.ScenarioThinking, sim.ScenarioConversationTooLong, sim.ScenarioSessionExpired, sim.ScenarioRenamedSend, sim.ScenarioUploadSlow, sim.ScenarioUploadLimit, sim.ScenarioUploadNoTile, sim.ScenarioUploadStall, sim.ScenarioOlderTurns},
		Drift: map[string]string{
			"composer": "[contenteditable=\"true\"][data-testid=\"composer-input\"]",
			"send":     "button[data-testid=\"composer-send\"]:not([disabled])",
			"copy":     "[data-testid=\"turn-copy\"]",
		},
		Routes: func(s *sim.Server) http.Handler { return simServer{s}.routes() },
	}
}

// simServer is the simulator as Claude's handlers see it.
type simServer struct{ *sim.Server }

func (s simServer) routes() http.Handler {
	mux := http.NewServeMux()
	page := func(w http.ResponseWriter, r *http.Request) { s.ServePage(w, r, ID, r.PathValue("id")) }
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/new", http.StatusFound) })
	mux.HandleFunc("GET /new", page)
	mux.HandleFunc("GET /chat/{id}", page)
	mux.HandleFunc("GET /login", s.LoginPage(ID))
	mux.HandleFunc("POST /login", s.LoginPage(ID))
	mux.HandleFunc("GET /api/organizations", func(w http.ResponseWriter, r *http.Request) {
		if !s.HasSession(r, ID) || s.PageScenario(ID).Name == sim.ScenarioLoggedOut {
			sim.WriteJSON(w, http.StatusForbidden, sim.O("type", "error", "error", sim.O("type", "permission_error", "message", "Invalid authorization")))
			return
		}
		sim.WriteJSON(w, http.StatusOK, []any{sim.O("uuid", claudeOrg, "name", "Sim's Organization")})
	})
	mux.HandleFunc("POST /api/organizations/{org}/chat_conversations", func(w http.ResponseWriter, r *http.Request) {
		if !s.HasSession(r, ID) {
			sim.WriteJSON(w, http.StatusForbidden, sim.O("type", "error", "error", sim.O("type", "permission_error", "message", "Invalid authorization")))
			return
		}
		sim.WriteJSON(w, http.StatusCreated, sim.O("uuid", sim.NewUUID(), "name", "", "created_at", time.Now().UTC().Format(time.RFC3339)))
	})
	mux.HandleFunc("POST /api/organizations/{org}/chat_conversations/{id}/completion", s.claudeCompletion)
	s.MountUploads(mux, ID, "/api/organizations/"+claudeOrg, 30<<20, func(name string) string { return name + " exceeds the maximum file size." })
	return s.Gate(ID, mux)
}

func sseEvent(f *sim.Flusher, name string, v sim.Obj) {
	f.Write("event: " + name + "\ndata: " + sim.CompactJSON(v) + "\n\n")
}

func (s simServer) claudeCompletion(w http.ResponseWriter, r *http.Request) {
	if !s.HasSession(r, ID) {
		sim.WriteJSON(w, http.StatusForbidden, sim.O("type", "error", "error", sim.O("type", "permission_error", "message", "Invalid authorization")))
		return
	}
	var req struct {
		Prompt string   `json:"prompt"`
		Model  string   `json:"model"`
		Files  []string `json:"files"`
	}
	_ = json.NewDecoder(http.MaxBytesReader(w, r.Body, 8<<20)).Decode(&req)
	if len(req.Files) > 0 {
		names, err := s.AttachmentNames(ID, req.Files)
		if err != nil {
			sim.WriteJSON(w, http.StatusBadRequest, sim.O("type", "error", "error", sim.O("type", "invalid_request_error", "message", err.Error())))
			return
		}
		s.StageAttachments(ID, names)
	}
	rate := sim.Refusal{Status: 429, ContentType: "application/json", Body: func(sim.Turn, time.Time) string {
		return sim.CompactJSON(sim.O("type", "error", "error", sim.O("type", "rate_limit_error", "message", "Too many requests. Please slow down.")))
	}}
	// At the usage cap the error's message is itself JSON: exceeded_limit
	// with resetsAt (unix seconds), hours away.
	usage := sim.Refusal{Status: 429, ContentType: "application/json", Body: func(_ sim.Turn, until time.Time) string {
		limit := sim.CompactJSON(sim.O("type", "exceeded_limit", "resetsAt", until.Unix(), "remaining", 0, "perModelLimit", false))
		return sim.CompactJSON(sim.O("type", "error", "error", sim.O("type", "rate_limit_error", "message", limit)))
	}}
	t, ok := s.BeginTurn(w, ID, r.PathValue("id"), req.Prompt, rate, usage)
	if !ok {
		return
	}
	model := t.Answer.Model
	if req.Model != "" {
		model = req.Model
	}
	w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	f := sim.NewFlusher(w)
	msgID := "chatcompl_" + s.MACHex("claude", t.Conv, t.Prompt)[:24]
	sseEvent(f, "message_start", sim.O("type", "message_start", "message", sim.O("id", msgID, "type", "message", "role", "assistant", "model", model, "content", []any{}, "stop_reason", nil)))
	if t.Scenario.Name == sim.ScenarioConversationTooLong {
		sseEvent(f, "error", sim.O("type", "error", "error", sim.O("type", "invalid_request_error", "message", "prompt is too long")))
		return
	}
	text := 0
	if len(t.Answer.Thoughts) > 0 {
		// Extended thinking: a thinking block whose summary deltas come
		// first; never part of the answer.
		sseEvent(f, "content_block_start", sim.O("type", "content_block_start", "index", 0, "content_block", sim.O("type", "thinking", "thinking", "")))
		for _, th := range t.Answer.Thoughts {
			sseEvent(f, "content_block_delta", sim.O("type", "content_block_delta", "index", 0, "delta", sim.O("type", "thinking_summary_delta", "summary", sim.O("summary", th))))
			if !sim.Sleep(r.Context(), t.Pace.Interval) {
				return
			}
		}
		sseEvent(f, "content_block_stop", sim.O("type", "content_block_stop", "index", 0))
		text = 1
	}
	sseEvent(f, "content_block_start", sim.O("type", "content_block_start", "index", text, "content_block", sim.O("type", "text", "text", "")))
	done := t.Pieces(r.Context(), t.Answer.Text, func(p, _ string) {
		sseEvent(f, "content_block_delta", sim.O("type", "content_block_delta", "index", text, "delta", sim.O("type", "text_delta", "text", p)))
	})
	if !done {
		if t.Scenario.Name == sim.ScenarioError {
			sseEvent(f, "error", sim.O("type", "error", "error", sim.O("type", "overloaded_error", "message", "Overloaded")))
			return
		}
		sim.AbortStream()
	}
	sseEvent(f, "content_block_stop", sim.O("type", "content_block_stop", "index", text))
	sseEvent(f, "message_delta", sim.O("type", "message_delta", "delta", sim.O("stop_reason", "end_turn", "stop_sequence", nil)))
	sseEvent(f, "message_limit", sim.O("type", "message_limit", "message_limit", sim.O("type", "within_limit")))
	sseEvent(f, "message_stop", sim.O("type", "message_stop"))
}
