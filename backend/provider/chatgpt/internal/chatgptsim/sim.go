// Package chatgptsim is the simulator's stand-in for ChatGPT: its pages,
// its backend-api, its stream and the WebSocket long turns move to; package
// chatgpt registers it with the simulator.
package chatgptsim

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/provider/sim/simzip"
)

// ID is the site the stand-in serves (chatgpt.ID).
const ID = "chatgpt"

// The simulator's session cookies of ChatGPT.
const (
	SessionCookie = "__Secure-next-auth.session-token"
	DeviceCookie  = "oai-did"
)

// simScript builds the simulated ChatGPT page in the browser (see Site).
//
//go:embed sim.js
var simScript []byte

// pickerScript is the simulated model and effort picker (sim_picker.js),
// loaded before the page's script.
//
//go:embed sim_picker.js
var pickerScript []byte

// researchScript is the simulated Deep Research widget (sim_research.js),
// loaded before the page's script.
//
//go:embed sim_research.js
var researchScript []byte

// toolsScript is the simulated composer tools menu (sim_tools.js), loaded
// before the page's script.
//
//go:embed sim_tools.js
var toolsScript []byte

// projectScript is the simulated project page's header and Sources tab
// (sim_project.js), loaded before the page's script.
//
//go:embed sim_project.js
var projectScript []byte

// Site returns the simulator's stand-in for ChatGPT: its pages, its
// backend-api (session, conversation stream, conversation JSON, sandbox
// download and estuary), the page script, registered with sim.Register.
//
// Fidelity checklist against the providers reference (providers.md): each
// fact and where it is reproduced; "GAP" marks facts not reproduced.
//
// ChatGPT (sim.go, sim_stream.go, sim_conv.go, sim.js):
//   - div#prompt-textarea[contenteditable].ProseMirror with
//     p[data-placeholder="Ask anything"].placeholder; hidden
//     textarea[name="prompt-textarea"] earlier; form[data-type="unified-composer"];
//     logged out: textarea#mobile-composer-prompt. Old selectors
//     textarea[data-id=…]/[placeholder*="Send a message"]: not rendered (current DOM).
//   - send button[data-testid="send-button"][aria-label="Send prompt"]
//     (#composer-submit-button) exists only while the composer has text.
//   - stop [data-testid="stop-button"] while streaming; read-aloud and voice
//     buttons carry no "stop" label; [data-is-streaming="true"],
//     [aria-busy="true"][data-message-author-role="assistant"], span.loading-shimmer.
//   - turns, the 2026-09-29 markup by default: div[data-turn-key] ›
//     [data-content-search-unit-key] › [data-conversation-role] › the id in
//     [data-chatgpt-selection-message-id] (mounted once the server names
//     the message) › [data-markdown-text-style="assistant-message"], with no
//     data-message-author-role, data-message-id, data-message-model-slug,
//     aria-busy, data-is-streaming or .markdown (the reference names none
//     of them on that layout). The older markup (scenario older_turns, and
//     under drift): article[data-testid^="conversation-turn-"][data-turn],
//     [data-message-author-role][data-message-id], data-message-model-slug,
//     .markdown; request-placeholder- ids until the server id arrives.
//     Virtualised thread: 6 turns mounted, older ones mount on scroll to top.
//   - transient addresses: a new chat shows /c/WEB:<uuid> (scenario
//     local_chat_url: /c/local-chatgpt%3A<32 hex>) from its send until a
//     while (param durable_after, 800 ms) after its first turn ends, then
//     /c/<id> (history.replaceState). When the real site swaps them is not
//     public: this is the demanding case (the whole first turn transient).
//   - the header's Chat/Work toggle: button[role=radio] "Chat" / "Work" with
//     aria-checked and data-state on|off; Work's composer says "Work on
//     anything"; only trusted clicks switch it (work_mode opens on Work,
//     work_stuck ignores clicks on Chat). The request's conversation_mode
//     kind is "primary_assistant" in Chat and "work" in Work (the kind
//     Work sends is not public: GAP, assumed). Work's 0–5 slider,
//     the sidebar's "Work" marks and Work conversations: GAP.
//   - code blocks pre › div.contain-inline-size › sticky header (language,
//     "Copy code") › div.overflow-y-auto › code.whitespace-pre! language-<lang>.
//   - finished-action bar copy-turn-action-button, good/bad-response,
//     aria-label="Share".
//   - the model and effort picker's three 2026 layouts and states: see
//     sim_picker.js (the tiers' request values beyond "standard" and
//     "extended" are not public: GAP, assumed). Work's 0–5 slider: GAP.
//   - input#upload-files (multiple, no accept), composer-plus-btn; uploads
//     POST /backend-api/files -> PUT upload_url (x-ms-blob-type BlockBlob,
//     201) -> process_upload_stream (started, file_ready, indexing,
//     completed: only then attached); tile div[role="group"][aria-label=name]
//     with a spinner and "Remove file N: name", names shortened with "…";
//     send disabled and Enter ignored while uploading; message
//     metadata.attachments (sim.MountUploads, Sim.uploads). Bearer on the
//     upload API and the file library's renames (a(1).txt): GAP.
//   - projects (sim_places.go): /g/g-p-<id>[-slug]/project pages, project
//     chats /g/<short_url>/c/<id> whose sends name gizmo_id, the sidebar
//     (gizmos/snorlax/sidebar); a project's Sources tab (?tab=sources) with
//     "Add sources", its dialog's input[type=file] taking the upload path,
//     confirmed by "Upload" ("Add", "Continue"), and the list the files
//     then show in (sim_sources.go, sim_project.js). The tab's markup and
//     the sources endpoints (gizmos/{id}/files): GAP, assumed.
//   - logged in: accounts-profile-button, history-item-N,
//     a[data-testid="create-new-chat-button"]; logged out: a[href*="/auth/login"],
//     "Log in", "Sign up for free", anonymous answers from gpt-5-mini via
//     /backend-anon/f/conversation. Login on auth.openai.com: GAP (login page
//     is chatgpt.com/auth/login).
//   - POST /backend-api/f/conversation with prepare (conduit_token) and
//     sentinel/chat-requirements first; request body fields as in the reference.
//   - SSE delta encoding v1 exactly as captured: event delta_encoding "v1",
//     resume_conversation_token, add frames with c, input_message,
//     message_marker, append with the inherit rule (frames without p/o),
//     patch frames batching append/replace/metadata, server_ste_metadata
//     (i-mini), message_stream_complete, title_generation, [DONE]; frames are
//     written Python-style (", " and ": " separators, raw non-ASCII)
//     (sim_stream.go deltaEncoder, provider/sim pyjson.go).
//   - channels: system, user, tool code (recipient python), execution_output,
//     thoughts (analysis), commentary text, reasoning_recap, final; citations
//     U+E200…U+E202 around cite markers (scenario thinking, no references).
//   - web search (system_hints ["search"], sim_search.go): citation spans
//     with metadata.content_references (grouped_webpages with alt and
//     items, a span citing two items, hidden, no items, sources_footnote)
//     patched onto the message during and after the text, whole in the
//     conversation, pills a[href][target=_blank] named by the first source
//     ("+N" for more) in the page; server_ste_metadata.is_search.
//     search_result_groups, supporting_websites' pages and real offsets in
//     start_idx/end_idx: GAP.
//   - completion: status finished_successfully, end_turn, finish_details stop;
//     stop_conversation endpoint: a stopped stream is stored as interrupted;
//     a stream whose reader went away without stopping it (a closed tab, a
//     killed browser) is finished server-side at its pace and stored whole,
//     and a page opening the conversation meanwhile shows the answer
//     in progress until it is.
//   - a long turn handed off to the user socket (scenario stream_handoff,
//     sim_celsius.go): resume_conversation_token kind topic, stream_handoff
//     with turn_exchange_id and resume_sse_endpoint/subscribe_ws_topic
//     options, [DONE]; GET /backend-api/celsius/ws/user → websocket_url
//     (…/p3/ws/user/<id>?verify=<ts>-<hmac>, refused when forged or stale);
//     connect/subscribe commands as a JSON array, replies with catchups from
//     the offset, messages {type:"message",topic_id,offset:"<ms>-<seq>",
//     payload:{type:"conversation-turn-stream",payload:{type:"stream-item",
//     encoded_item,stream_item_id,parent_stream_item_id,…}}}, queued ones in
//     one array; an inner [DONE]; the page keeps one socket from load on,
//     subscribed to the conversations topic (title news), and reconnects
//     from its last offset when dropped (param drop). The socket's host
//     ws.chatgpt.com (served on chatgpt.com here), the resume endpoint
//     (POST /backend-api/f/conversation/resume) and idle timeouts: GAP.
//   - stream errors: {"message":null,…,"error":…,"error_code":"conversation_too_large"}
//     (the {"type":"error",…} variant: GAP); "Something went wrong…" frame.
//   - conversation_detail_metadata.limits_progress in the conversation JSON.
//   - model proof: metadata.model_slug/resolved_model_slug = the requested
//     model (none or auto → gpt-5-2), resolved_model_slug another model's
//     under the rerouted scenario (gpt-5-5-thinking), DOM
//     data-message-model-slug on the older markup only; server_ste_metadata
//     carries i-mini.
//   - "Welcome back" (scenario welcome_back, param accounts): the session
//     names no user; the page lists each account as a button (an avatar
//     initial beside the e-mail) with "Log in to another account" and
//     "Sign up"; a trusted click signs it in (POST /api/auth/choose-account,
//     the simulator's own) and reloads into the app.
//   - /api/auth/session: user, expires, accessToken (HS256 JWT with exp),
//     authProvider; no cookie → {} (provider/sim token.go, sim.go chatgptSession).
//   - backend-api requires the bearer: cookie-only → 401 "Unauthorized -
//     Access token is missing"; expired → 401 token_expired (chatgptBearer).
//     oai-device-id is sent by the page but not checked; Chatgpt-Account-Id: GAP.
//   - 403 cf-mitigated: challenge on backend-api under the cloudflare scenario.
//   - GET /backend-api/conversation/<id>: mapping tree from client-created-root,
//     current_node, messages with author/content/status/end_turn/metadata/
//     recipient/channel, content types text, code, execution_output, thoughts,
//     reasoning_recap; aggregate_result with final_expression_output repr;
//     429 during the rate-limit lock. multimodal_text and "Code execution
//     state reset." cancelled outputs: GAP.
//   - sandbox paths in final text as [label](sandbox:/mnt/data/x.zip), wrapped
//     :chatgpt-content-reference{index="9"}[…](sandbox:…), plain paths, and the
//     repr in execution_output/final_expression_output; DOM button.behavior-btn
//     (no href, no download) whose click fetches the bytes in page. Links in
//     tables: GAP.
//   - interpreter/download (bearer; message must hold the path) → success with
//     an estuary download_url (id=file_<32hex>&ts&p=fs&cid=1&sig=<64hex>&v=0);
//     ace_pod_expired 404 (sandbox_expired). /backend-api/sandbox/download and
//     /backend-api/files/{id}/download: GAP.
//   - estuary: cookie-bound (403 without the session cookie), signed (403 on a
//     bad sig or after WithEstuaryTTL), filename in content-disposition, Range
//     support; zips are deterministic (provider/sim/simzip: up to 200 MiB
//     generated on demand, never held in memory).
//   - interstitials: Cloudflare page (title "Just a moment...", #challenge-form,
//     #challenge-running, cf-challenge class, iframe /cdn-cgi/challenge-platform/,
//     body text "needs to review the security of your connection", solvable by
//     its checkbox) and the weak-evidence challenge script on normal pages
//     (the Head of Site); "Too many requests" dialog with "Got it", reappearing during
//     the lock; "You've reached the maximum length…" in
//     .text-token-text-error with "Start new chat"; usage cap "You’ve hit the
//     Free plan limit… resets after <time datetime>" with New chat/Upgrade in
//     [role="alert"]; "Your session has expired. Please log in again…" dialog;
//     "Something went wrong…" and "A network error occurred…" with
//     regenerate-thread-error-button. "Suspicious activity detected",
//     "Message delivery timed out", "Connection interrupted", "Answer now": GAP.
func Site() sim.Site {
	return sim.Site{
		ID: ID, Host: "chatgpt.com", Title: "ChatGPT", Script: slices.Concat(pickerScript, toolsScript, researchScript, projectScript, simScript),
		// The real app loads Cloudflare's script on normal pages too: a
		// detector that trusts it alone reports false challenges.
		Head:         `<script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js" async></script>`,
		DefaultModel: "gpt-5-2", ThinkingModel: "gpt-5-6-thinking", CodeModel: "gpt-5-6-thinking",
		Citations: true, SessionCookie: SessionCookie, DeviceCookie: DeviceCookie,
		Scenarios: []string{sim.ScenarioUploadSlow, sim.ScenarioUploadLimit, sim.ScenarioUploadNoTile, sim.ScenarioUploadStall, sim.ScenarioThinking, sim.ScenarioRenamedSend, sim.ScenarioCodeZip, sim.ScenarioMultiZip, sim.ScenarioSandboxExpired, sim.ScenarioEstuary403,
			sim.ScenarioZipBadCRC, sim.ScenarioZipTruncated, sim.ScenarioZipSlip, sim.ScenarioZipBomb, sim.ScenarioZipSymlink,
			sim.ScenarioConversationTooLong, sim.ScenarioSessionExpired, sim.ScenarioOlderTurns, sim.ScenarioLocalChatURL, sim.ScenarioWorkMode, sim.ScenarioWorkStuck,
			sim.ScenarioPickerIntelligence, sim.ScenarioPickerPower, sim.ScenarioTierExhausted, sim.ScenarioNoProTier, sim.ScenarioRerouted, sim.ScenarioStreamHandoff,
			sim.ScenarioToolRowMissing, sim.ScenarioToolPillMissing, sim.ScenarioToolPillLate, sim.ScenarioToolPromptCleared, sim.ScenarioToolsMore, sim.ScenarioToolNotSent, sim.ScenarioImage},
		Own:        slices.Concat(imageScenarios, researchScenarios, sourcesScenarios),
		ExtraHosts: []string{ResearchHost},
		Drift: map[string]string{
			"composer": "#composer-editor[contenteditable=\"true\"]",
			"send":     "button[data-testid=\"composer-send\"]:not([disabled])",
			"stop":     "button[data-testid=\"composer-halt\"]",
			"turn":     "article[data-testid^=\"chat-turn-\"]",
			"answer":   "[data-message-author-role=\"assistant\"] .prose-answer",
			"copy":     "button[data-testid=\"turn-copy\"]",
		},
		Routes: func(s *sim.Server) http.Handler { return newSimServer(s).routes() },
	}
}

// simServer is the simulator as ChatGPT's handlers see it, with the state
// it keeps for one server: conversations and minted estuary files.
type simServer struct {
	*sim.Server
	mu       sync.Mutex
	convs    map[string]*simConversation // by id
	files    map[string]*simFileRef      // estuary file id -> file
	images   map[string]*simImage        // generated image file id -> image
	research map[string]*simResearch     // research message id -> research
	stopped  map[string]bool             // conversations whose turn stop_conversation stopped
	celsius  *celsius                    // the user WebSocket long turns move to
}

func newSimServer(s *sim.Server) *simServer {
	st := &simServer{Server: s, convs: map[string]*simConversation{}, files: map[string]*simFileRef{}, images: map[string]*simImage{}, research: map[string]*simResearch{}, stopped: map[string]bool{}, celsius: newCelsius()}
	s.OnReset(func() {
		st.mu.Lock()
		defer st.mu.Unlock()
		st.convs = map[string]*simConversation{}
		st.files = map[string]*simFileRef{}
		st.images = map[string]*simImage{}
		st.research = map[string]*simResearch{}
		st.stopped = map[string]bool{}
		st.celsius.reset()
	})
	s.OnClose(st.celsius.closeAll)
	return st
}

func (s *simServer) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { s.ServePage(w, r, ID, "") })
	mux.HandleFunc("GET /c/{id}", func(w http.ResponseWriter, r *http.Request) { s.ServePage(w, r, ID, r.PathValue("id")) })
	s.placeRoutes(mux)
	mux.HandleFunc("GET /api/auth/session", s.chatgptSession)
	mux.HandleFunc("POST /api/auth/choose-account", s.chatgptChooseAccount)
	mux.HandleFunc("POST /backend-api/f/conversation/prepare", s.chatgptBearer(s.chatgptPrepare))
	mux.HandleFunc("POST /backend-api/sentinel/chat-requirements", s.chatgptBearer(s.chatgptRequirements))
	mux.HandleFunc("POST /backend-api/f/conversation", s.chatgptBearer(func(w http.ResponseWriter, r *http.Request) { s.chatgptSend(w, r, false) }))
	mux.HandleFunc("POST /backend-anon/f/conversation/prepare", s.chatgptPrepare)
	mux.HandleFunc("POST /backend-anon/sentinel/chat-requirements", s.chatgptRequirements)
	mux.HandleFunc("POST /backend-anon/f/conversation", func(w http.ResponseWriter, r *http.Request) { s.chatgptSend(w, r, true) })
	mux.HandleFunc("GET /backend-api/conversation/{id}", s.chatgptBearer(func(w http.ResponseWriter, r *http.Request) {
		s.handleConversationGet(w, r, r.PathValue("id"))
	}))
	mux.HandleFunc("PATCH /backend-api/conversation/{id}", s.chatgptBearer(s.chatgptPatchConversation))
	mux.HandleFunc("GET /backend-api/conversation/{id}/interpreter/download", s.chatgptBearer(s.chatgptInterpreterDownload))
	mux.HandleFunc("GET /backend-api/files/{id}/download", s.chatgptBearer(s.chatgptFileDownload))
	mux.HandleFunc("GET /backend-api/estuary/content", s.chatgptEstuary)
	mux.HandleFunc("GET /backend-api/celsius/ws/user", s.chatgptBearer(s.celsius.address))
	mux.HandleFunc("GET /p3/ws/user/{user}", s.celsius.serve)
	mux.HandleFunc("POST /backend-api/stop_conversation", s.chatgptBearer(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ConversationID string `json:"conversation_id"`
		}
		if json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&req) == nil && req.ConversationID != "" {
			s.mu.Lock()
			s.stopped[req.ConversationID] = true
			s.mu.Unlock()
		}
		sim.WriteJSON(w, http.StatusOK, sim.O("success", true))
	}))
	mux.HandleFunc("POST /backend-api/deep_research/{message}/start", s.chatgptBearer(s.researchStart))
	mux.HandleFunc("GET /auth/login", s.LoginPage(ID))
	mux.HandleFunc("POST /auth/login", s.LoginPage(ID))
	s.MountUploads(mux, ID, "/backend-api", 512<<20, func(name string) string { return "Unable to upload " + name + ": file is too large" }, sim.RenameRepeats())
	frames, site := s.researchFrames(), s.Gate(ID, mux)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h, _, _ := strings.Cut(r.Host, ":"); h == ResearchHost {
			frames.ServeHTTP(w, r)
			return
		}
		site.ServeHTTP(w, r)
	})
}

// chatgptBearer guards a backend-api handler: the bearer token from
// /api/auth/session is required (cookies alone get 401, as on the site).
func (s *simServer) chatgptBearer(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		switch err := s.CheckBearer(r); {
		case errors.Is(err, sim.ErrTokenMissing):
			sim.WriteJSON(w, http.StatusUnauthorized, sim.O("detail", sim.O("message", "Unauthorized - Access token is missing")))
			return
		case errors.Is(err, sim.ErrTokenExpired):
			sim.WriteJSON(w, http.StatusUnauthorized, sim.O("detail", sim.O("message", "Your authentication token has expired. Please try signing in again.", "type", "invalid_request_error", "param", nil, "code", "token_expired")))
			return
		case err != nil:
			sim.WriteJSON(w, http.StatusUnauthorized, sim.O("detail", sim.O("message", "Could not parse your authentication token. Please try signing in again.", "code", "invalid_jwt")))
			return
		}
		next(w, r)
	}
}

func (s *simServer) chatgptSession(w http.ResponseWriter, r *http.Request) {
	ps := s.PageScenario(ID)
	if !s.HasSession(r, ID) || ps.Name == sim.ScenarioLoggedOut || (ps.Name == sim.ScenarioWelcomeBack && ps.Param("chosen", "") == "") {
		sim.WriteJSON(w, http.StatusOK, sim.Obj{})
		return
	}
	exp := time.Now().Add(time.Hour)
	if s.PageScenario(ID).Name == sim.ScenarioSessionExpired {
		exp = time.Now().Add(-time.Minute)
	}
	sim.WriteJSON(w, http.StatusOK, sim.O(
		"user", sim.O("id", "user-sim0000000000000000000001", "name", "Sim User", "email", "sim.user@example.com", "image", "", "picture", "", "idp", "auth0", "iat", time.Now().Unix(), "mfa", false),
		"expires", time.Now().Add(30*24*time.Hour).UTC().Format("2006-01-02T15:04:05.000Z"),
		"accessToken", s.AccessTokenUntil(exp),
		"authProvider", "openai"))
}

// chatgptChooseAccount signs in the account the "Welcome back" page's
// visitor chose (the welcome_back scenario): the page scenario remembers it
// as its param chosen, and the session names a user again.
func (s *simServer) chatgptChooseAccount(w http.ResponseWriter, r *http.Request) {
	ps := s.PageScenario(ID)
	var req struct {
		Email string `json:"email"`
	}
	_ = json.NewDecoder(http.MaxBytesReader(w, r.Body, 4<<10)).Decode(&req)
	if ps.Name != sim.ScenarioWelcomeBack || !slices.Contains(welcomeAccounts(ps), req.Email) {
		sim.WriteJSON(w, http.StatusBadRequest, sim.O("detail", "unknown account"))
		return
	}
	params := map[string]string{"chosen": req.Email}
	for k, v := range ps.Params {
		if k != "chosen" {
			params[k] = v
		}
	}
	s.SetScenario(ID, sim.Scenario{Name: ps.Name, Params: params})
	sim.WriteJSON(w, http.StatusOK, sim.O("status", "ok"))
}

// welcomeAccounts are the accounts the "Welcome back" page lists.
func welcomeAccounts(ps sim.Scenario) []string {
	return strings.Split(ps.Param("accounts", "sim.user@example.com"), ",")
}

func (s *simServer) chatgptPrepare(w http.ResponseWriter, r *http.Request) {
	sim.WriteJSON(w, http.StatusOK, sim.O("status", "success", "conduit_token", s.AccessTokenUntil(time.Now().Add(5*time.Minute))))
}

func (s *simServer) chatgptRequirements(w http.ResponseWriter, r *http.Request) {
	sim.WriteJSON(w, http.StatusOK, sim.O("persona", "chatgpt-paid", "token", "gAAAAAB"+s.MACHex("req")[:48], "expire_after", 540,
		"proofofwork", sim.O("required", false), "turnstile", sim.O("required", false)))
}

type chatgptRequest struct {
	Action   string `json:"action"`
	Messages []struct {
		ID      string                `json:"id"`
		Author  struct{ Role string } `json:"author"`
		Content struct {
			ContentType string   `json:"content_type"`
			Parts       []string `json:"parts"`
		} `json:"content"`
		Metadata struct {
			Attachments []struct {
				ID   string `json:"id"`
				Name string `json:"name"`
			} `json:"attachments"`
		} `json:"metadata"`
	} `json:"messages"`
	ConversationID   string `json:"conversation_id"`
	ParentMessageID  string `json:"parent_message_id"`
	Model            string `json:"model"`
	ThinkingEffort   string `json:"thinking_effort"`
	ConversationMode struct {
		Kind string `json:"kind"`
	} `json:"conversation_mode"`
	SystemHints []string `json:"system_hints"`
	// HistoryDisabled marks a temporary chat's send.
	HistoryDisabled bool `json:"history_and_training_disabled"`
	// GizmoID is the project's or custom GPT's the chat is in.
	GizmoID string `json:"gizmo_id"`
}

func (s *simServer) chatgptSend(w http.ResponseWriter, r *http.Request, anon bool) {
	var req chatgptRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 8<<20)).Decode(&req); err != nil {
		sim.WriteJSON(w, http.StatusBadRequest, sim.O("detail", "Invalid request body: "+err.Error()))
		return
	}
	prompt := ""
	msgID := sim.NewUUID()
	if len(req.Messages) > 0 {
		prompt = strings.Join(req.Messages[0].Content.Parts, "\n")
		if req.Messages[0].ID != "" {
			msgID = req.Messages[0].ID
		}
	}
	if req.Action == "variant" && prompt == "" {
		if c := s.conv(req.ConversationID); c != nil {
			s.mu.Lock()
			prompt = lastUserPrompt(c)
			s.mu.Unlock()
		}
	}
	s.mu.Lock()
	c := s.convs[req.ConversationID]
	isNew := c == nil
	if isNew {
		c = newConversation(sim.NewUUID())
		c.Anonymous = anon
		c.Temporary = req.HistoryDisabled
		c.Gizmo = req.GizmoID
		s.convs[c.ID] = c
	}
	s.mu.Unlock()
	sc := s.TurnScenario(ID, c.ID, prompt)

	sub := sim.Submission{Site: ID, ConversationID: c.ID, Prompt: prompt, Scenario: sc.Name, Mode: req.ConversationMode.Kind, Model: req.Model, Effort: req.ThinkingEffort, Tools: req.SystemHints, Temporary: c.Temporary, Gizmo: c.Gizmo}
	if len(req.Messages) > 0 && len(req.Messages[0].Metadata.Attachments) > 0 {
		var ids []string
		for _, a := range req.Messages[0].Metadata.Attachments {
			ids = append(ids, a.ID)
		}
		names, err := s.AttachmentNames(ID, ids)
		if err != nil {
			sim.WriteJSON(w, http.StatusBadRequest, sim.O("detail", "Invalid attachments: "+err.Error()))
			return
		}
		sub.Attachments = names
	}
	if until := s.SendLockedUntil(ID); !until.IsZero() || sc.Name == sim.ScenarioRateLimit {
		if until.IsZero() {
			until = time.Now().Add(sc.Duration("lock", s.RateLimitLock()))
			s.Lock(ID, time.Until(until))
		}
		sub.Refused = true
		s.Record(sub)
		w.Header().Set("Retry-After", sim.RetryAfter(until))
		sim.WriteJSON(w, http.StatusTooManyRequests, sim.O("detail", "Too many requests. You're making requests too quickly. We've temporarily limited access to your conversations to protect our systems. Please wait a few minutes before trying again."))
		return
	}
	if sc.Name == sim.ScenarioUsageCap || s.PageScenario(ID).Name == sim.ScenarioUsageCapOnLoad {
		sub.Refused = true
		s.Record(sub)
		reset := s.CapReset(ID, sc)
		sim.WriteJSON(w, http.StatusTooManyRequests, sim.O("detail", sim.O("code", "model_cap_exceeded",
			"message", "You’ve hit the Free plan limit for GPT-5. Responses will use another model until your limit resets after "+reset.Format("3:04 PM")+".",
			"clears_in", int(time.Until(reset).Seconds()), "reset_at", reset.UTC().Format(time.RFC3339))))
		return
	}
	s.Record(sub)
	user := chatgptMessage(msgID, "user", "", sim.O("content_type", "text", "parts", []string{prompt}), "finished_successfully", nil,
		sim.O("selected_github_repos", []any{}, "serialization_metadata", sim.O("custom_symbol_offsets", []any{}), "request_id", sim.NewUUID(), "message_source", nil), "all", nil)
	parent := req.ParentMessageID
	if parent == "" {
		parent = rootNode
	}
	if c.Temporary {
		// Only this cookie opens the temporary chat's record again.
		http.SetCookie(w, &http.Cookie{Name: "conv_key_" + c.ID, Value: s.MACHex("conv_key", c.ID)[:32], Path: "/", Secure: true, SameSite: http.SameSiteLaxMode})
	}
	t := chatgptTurn{conv: c, isNew: isNew, parent: parent, userMsg: user, prompt: prompt, model: req.Model, sc: sc, anon: anon, hints: req.SystemHints, search: searches(req.SystemHints)}
	if sc.Name != sim.ScenarioStreamHandoff {
		s.streamChatGPT(r.Context(), w, t, nil)
		return
	}
	// A handed-off turn outlives its response: the generation goes on to
	// the socket's topic after the response has ended (until the handoff,
	// a reader going away is what it is for any turn).
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	handedOff, done := make(chan struct{}), make(chan struct{})
	var once sync.Once
	go func() {
		select {
		case <-r.Context().Done():
			select {
			case <-handedOff:
			default:
				cancel()
			}
		case <-handedOff:
		}
	}()
	go func() {
		defer close(done)
		defer cancel()
		s.streamChatGPT(ctx, w, t, func() { once.Do(func() { close(handedOff) }) })
	}()
	select {
	case <-done:
	case <-handedOff:
	}
}

func lastUserPrompt(c *simConversation) string {
	for id := c.Current; id != ""; id = c.Nodes[id].Parent {
		m := c.Nodes[id].Message
		if m == nil {
			continue
		}
		if role := m[1].V.(sim.Obj)[0].V; role == "user" {
			parts := m[4].V.(sim.Obj)[1].V.([]string)
			return strings.Join(parts, "\n")
		}
	}
	return ""
}

func (s *simServer) chatgptInterpreterDownload(w http.ResponseWriter, r *http.Request) {
	cid := r.PathValue("id")
	q := r.URL.Query()
	path := q.Get("sandbox_path")
	msgID := q.Get("message_id")
	s.mu.Lock()
	c := s.convs[cid]
	var file *simSandboxFile
	var expired, forbid bool
	if c != nil {
		file = c.Sandbox[path]
		expired, forbid = c.Expired, c.Forbid
	}
	s.mu.Unlock()
	if c == nil {
		sim.WriteJSON(w, http.StatusNotFound, sim.O("detail", sim.O("code", "conversation_not_found", "message", "Conversation not found")))
		return
	}
	if expired {
		sim.WriteJSON(w, http.StatusNotFound, sim.O("status", "error", "error_code", "ace_pod_expired", "error_message", "The sandbox has expired. Please re-run the code to regenerate the file."))
		return
	}
	if file == nil || !slices.Contains(file.Messages, msgID) {
		sim.WriteJSON(w, http.StatusNotFound, sim.O("status", "error", "error_code", "file_not_found", "error_message", fmt.Sprintf("No file at %s for message %s", path, msgID)))
		return
	}
	fileID := "file_" + s.MACHex("file", cid, path, strconv.FormatInt(time.Now().UnixNano(), 10))[:32]
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	name := path[strings.LastIndexByte(path, '/')+1:]
	s.mu.Lock()
	s.files[fileID] = &simFileRef{Spec: file.Spec, Name: name, Conv: cid, TS: time.Now().Unix(), Forbid: forbid, Expires: time.Now().Add(s.DownloadTTL())}
	s.mu.Unlock()
	s.RecordMint(sim.Mint{ConversationID: cid, MessageID: msgID, SandboxPath: path})
	u := "https://chatgpt.com/backend-api/estuary/content?id=" + fileID + "&ts=" + ts + "&p=fs&cid=1&sig=" + s.MACHex("estuary", fileID, ts) + "&v=0"
	sim.WriteJSON(w, http.StatusOK, sim.O("status", "success", "download_url", u, "file_name", name, "mime_type", "application/zip",
		"metadata", sim.O("file_id", fileID), "file_size_bytes", nil))
}

// chatgptEstuary serves GET /backend-api/estuary/content: cookie-bound (no
// bearer needed, no cookie = 403), signed (bad or expired sig = 403), with
// Range support and the filename in content-disposition.
func (s *simServer) chatgptEstuary(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	id, ts, sig := q.Get("id"), q.Get("ts"), q.Get("sig")
	forbidden := func(why string) {
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprintf(w, "<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>AuthenticationFailed</Code><Message>%s</Message></Error>", why)
	}
	if !s.HasSession(r, ID) {
		forbidden("Server failed to authenticate the request.")
		return
	}
	if !strings.HasPrefix(id, "file_") || sig != s.MACHex("estuary", id, ts) {
		forbidden("Signature did not match.")
		return
	}
	s.mu.Lock()
	ref := s.files[id]
	s.mu.Unlock()
	if ref == nil {
		http.NotFound(w, r)
		return
	}
	if ref.Forbid {
		forbidden("This request is not authorized to perform this operation.")
		return
	}
	if signed, _ := strconv.ParseInt(ts, 10, 64); (ref.Body == nil && time.Now().After(ref.Expires)) || (ref.Body != nil && time.Since(time.Unix(signed, 0)) > s.DownloadTTL()) {
		forbidden("Signed expiry time has passed.")
		return
	}
	if ref.Body != nil {
		w.Header().Set("Content-Type", ref.Mime)
		w.Header().Set("Cache-Control", "private, max-age=0")
		http.ServeContent(w, r, "", simzip.ModTime, bytes.NewReader(ref.Body))
		return
	}
	body, _, err := simzip.Open(ref.Spec)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", "attachment; filename=\""+ref.Name+"\"; filename*=UTF-8''"+url.PathEscape(ref.Name))
	w.Header().Set("Cache-Control", "private, max-age=0")
	http.ServeContent(w, r, "", simzip.ModTime, body)
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// takeStop reports whether stop_conversation stopped the turn of
// conversation id since the last call, and forgets it.
func (s *simServer) takeStop(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	stopped := s.stopped[id]
	delete(s.stopped, id)
	return stopped
}
