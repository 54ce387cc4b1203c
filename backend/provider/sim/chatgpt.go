package sim

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// ChatGPT's simulator is the one site still built into this package: its
// conversation store, sandbox zips, estuary downloads and access tokens are
// Server state and API that tests across Ferry use (Mints, AccessToken,
// WithEstuaryTTL). It registers through the same Register as the vendor
// packages' sites.
func init() {
	script, err := webFS.ReadFile("web/chatgpt.js")
	if err != nil {
		panic("sim: the ChatGPT page script is not embedded: " + err.Error())
	}
	Register(Site{
		ID: ChatGPT, Host: "chatgpt.com", Title: "ChatGPT", Script: script,
		// The real app loads Cloudflare's script on normal pages too: a
		// detector that trusts it alone reports false challenges.
		Head:         `<script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js" async></script>`,
		DefaultModel: "gpt-5-2", ThinkingModel: "gpt-5-6-thinking", CodeModel: "gpt-5-6-thinking",
		Citations: true, SessionCookie: ChatGPTSessionCookie, DeviceCookie: ChatGPTDeviceCookie,
		Scenarios: []string{ScenarioThinking, ScenarioCodeZip, ScenarioMultiZip, ScenarioSandboxExpired, ScenarioEstuary403,
			ScenarioZipBadCRC, ScenarioZipTruncated, ScenarioZipSlip, ScenarioZipBomb, ScenarioZipSymlink,
			ScenarioConversationTooLong, ScenarioSessionExpired},
		Drift: map[string]string{
			"composer": "#composer-editor[contenteditable=\"true\"]",
			"send":     "button[data-testid=\"composer-send\"]:not([disabled])",
			"stop":     "button[data-testid=\"composer-halt\"]",
			"turn":     "article[data-testid^=\"chat-turn-\"]",
			"answer":   "[data-message-author-role=\"assistant\"] .prose-answer",
			"copy":     "button[data-testid=\"turn-copy\"]",
		},
		Routes: (*Server).chatgptRoutes,
	})
}

func (s *Server) chatgptRoutes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { s.chatgptPage(w, r, "") })
	mux.HandleFunc("GET /c/{id}", func(w http.ResponseWriter, r *http.Request) { s.chatgptPage(w, r, r.PathValue("id")) })
	mux.HandleFunc("GET /api/auth/session", s.chatgptSession)
	mux.HandleFunc("POST /backend-api/f/conversation/prepare", s.chatgptBearer(s.chatgptPrepare))
	mux.HandleFunc("POST /backend-api/sentinel/chat-requirements", s.chatgptBearer(s.chatgptRequirements))
	mux.HandleFunc("POST /backend-api/f/conversation", s.chatgptBearer(func(w http.ResponseWriter, r *http.Request) { s.chatgptSend(w, r, false) }))
	mux.HandleFunc("POST /backend-anon/f/conversation/prepare", s.chatgptPrepare)
	mux.HandleFunc("POST /backend-anon/sentinel/chat-requirements", s.chatgptRequirements)
	mux.HandleFunc("POST /backend-anon/f/conversation", func(w http.ResponseWriter, r *http.Request) { s.chatgptSend(w, r, true) })
	mux.HandleFunc("GET /backend-api/conversation/{id}", s.chatgptBearer(func(w http.ResponseWriter, r *http.Request) {
		s.handleConversationGet(w, r, r.PathValue("id"))
	}))
	mux.HandleFunc("GET /backend-api/conversation/{id}/interpreter/download", s.chatgptBearer(s.chatgptInterpreterDownload))
	mux.HandleFunc("GET /backend-api/estuary/content", s.chatgptEstuary)
	mux.HandleFunc("POST /backend-api/stop_conversation", s.chatgptBearer(func(w http.ResponseWriter, r *http.Request) {
		WriteJSON(w, http.StatusOK, O("success", true))
	}))
	mux.HandleFunc("GET /auth/login", s.LoginPage(ChatGPT))
	return s.Gate(ChatGPT, mux)
}

// chatgptBearer guards a backend-api handler: the bearer token from
// /api/auth/session is required (cookies alone get 401, as on the site).
func (s *Server) chatgptBearer(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		switch err := s.checkBearer(r); {
		case errors.Is(err, errTokenMissing):
			WriteJSON(w, http.StatusUnauthorized, O("detail", O("message", "Unauthorized - Access token is missing")))
			return
		case errors.Is(err, errTokenExpired):
			WriteJSON(w, http.StatusUnauthorized, O("detail", O("message", "Your authentication token has expired. Please try signing in again.", "type", "invalid_request_error", "param", nil, "code", "token_expired")))
			return
		case err != nil:
			WriteJSON(w, http.StatusUnauthorized, O("detail", O("message", "Could not parse your authentication token. Please try signing in again.", "code", "invalid_jwt")))
			return
		}
		next(w, r)
	}
}

func (s *Server) chatgptSession(w http.ResponseWriter, r *http.Request) {
	if !s.HasSession(r, ChatGPT) || s.PageScenario(ChatGPT).Name == ScenarioLoggedOut {
		WriteJSON(w, http.StatusOK, Obj{})
		return
	}
	exp := time.Now().Add(time.Hour)
	if s.PageScenario(ChatGPT).Name == ScenarioSessionExpired {
		exp = time.Now().Add(-time.Minute)
	}
	WriteJSON(w, http.StatusOK, O(
		"user", O("id", "user-sim0000000000000000000001", "name", "Sim User", "email", "sim.user@example.com", "image", "", "picture", "", "idp", "auth0", "iat", time.Now().Unix(), "mfa", false),
		"expires", time.Now().Add(30*24*time.Hour).UTC().Format("2006-01-02T15:04:05.000Z"),
		"accessToken", s.accessToken(exp),
		"authProvider", "openai"))
}

func (s *Server) chatgptPrepare(w http.ResponseWriter, r *http.Request) {
	WriteJSON(w, http.StatusOK, O("status", "success", "conduit_token", s.accessToken(time.Now().Add(5*time.Minute))))
}

func (s *Server) chatgptRequirements(w http.ResponseWriter, r *http.Request) {
	WriteJSON(w, http.StatusOK, O("persona", "chatgpt-paid", "token", "gAAAAAB"+s.MACHex("req")[:48], "expire_after", 540,
		"proofofwork", O("required", false), "turnstile", O("required", false)))
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
	} `json:"messages"`
	ConversationID  string `json:"conversation_id"`
	ParentMessageID string `json:"parent_message_id"`
	Model           string `json:"model"`
}

func (s *Server) chatgptSend(w http.ResponseWriter, r *http.Request, anon bool) {
	var req chatgptRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 8<<20)).Decode(&req); err != nil {
		WriteJSON(w, http.StatusBadRequest, O("detail", "Invalid request body: "+err.Error()))
		return
	}
	prompt := ""
	msgID := NewUUID()
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
		c = newConversation(NewUUID())
		c.Anonymous = anon
		s.convs[c.ID] = c
	}
	s.mu.Unlock()
	sc := s.turnScenario(ChatGPT, c.ID, prompt)

	sub := Submission{Site: ChatGPT, ConversationID: c.ID, Prompt: prompt, Scenario: sc.Name}
	if until := s.lockedUntil(ChatGPT); !until.IsZero() || sc.Name == ScenarioRateLimit {
		if until.IsZero() {
			until = time.Now().Add(sc.duration("lock", s.lockFor))
			s.lock(ChatGPT, time.Until(until))
		}
		sub.Refused = true
		s.record(sub)
		w.Header().Set("Retry-After", retryAfter(until))
		WriteJSON(w, http.StatusTooManyRequests, O("detail", "Too many requests. You're making requests too quickly. We've temporarily limited access to your conversations to protect our systems. Please wait a few minutes before trying again."))
		return
	}
	if sc.Name == ScenarioUsageCap {
		sub.Refused = true
		s.record(sub)
		reset := time.Now().Add(sc.duration("reset", 3*time.Hour))
		WriteJSON(w, http.StatusTooManyRequests, O("detail", O("code", "model_cap_exceeded",
			"message", "You’ve hit the Free plan limit for GPT-5. Responses will use another model until your limit resets after "+reset.Format("3:04 PM")+".",
			"clears_in", int(time.Until(reset).Seconds()), "reset_at", reset.UTC().Format(time.RFC3339))))
		return
	}
	s.record(sub)
	user := chatgptMessage(msgID, "user", "", O("content_type", "text", "parts", []string{prompt}), "finished_successfully", nil,
		O("selected_github_repos", []any{}, "serialization_metadata", O("custom_symbol_offsets", []any{}), "request_id", NewUUID(), "message_source", nil), "all", nil)
	parent := req.ParentMessageID
	if parent == "" {
		parent = rootNode
	}
	s.streamChatGPT(r.Context(), w, chatgptTurn{conv: c, isNew: isNew, parent: parent, userMsg: user, prompt: prompt, model: req.Model, sc: sc, anon: anon})
}

func lastUserPrompt(c *conversation) string {
	for id := c.Current; id != ""; id = c.Nodes[id].Parent {
		m := c.Nodes[id].Message
		if m == nil {
			continue
		}
		if role := m[1].V.(Obj)[0].V; role == "user" {
			parts := m[4].V.(Obj)[1].V.([]string)
			return strings.Join(parts, "\n")
		}
	}
	return ""
}

func (s *Server) chatgptInterpreterDownload(w http.ResponseWriter, r *http.Request) {
	cid := r.PathValue("id")
	q := r.URL.Query()
	path := q.Get("sandbox_path")
	msgID := q.Get("message_id")
	s.mu.Lock()
	c := s.convs[cid]
	var file *sandboxFile
	var expired, forbid bool
	if c != nil {
		file = c.Sandbox[path]
		expired, forbid = c.Expired, c.Forbid
	}
	s.mu.Unlock()
	if c == nil {
		WriteJSON(w, http.StatusNotFound, O("detail", O("code", "conversation_not_found", "message", "Conversation not found")))
		return
	}
	if expired {
		WriteJSON(w, http.StatusNotFound, O("status", "error", "error_code", "ace_pod_expired", "error_message", "The sandbox has expired. Please re-run the code to regenerate the file."))
		return
	}
	if file == nil || !contains(file.Messages, msgID) {
		WriteJSON(w, http.StatusNotFound, O("status", "error", "error_code", "file_not_found", "error_message", fmt.Sprintf("No file at %s for message %s", path, msgID)))
		return
	}
	fileID := "file_" + s.MACHex("file", cid, path, strconv.FormatInt(time.Now().UnixNano(), 10))[:32]
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	name := path[strings.LastIndexByte(path, '/')+1:]
	s.mu.Lock()
	s.files[fileID] = &fileRef{Spec: file.Spec, Name: name, Conv: cid, TS: time.Now().Unix(), Forbid: forbid, Expires: time.Now().Add(s.estuaryTTL())}
	s.mu.Unlock()
	s.recordMint(Mint{ConversationID: cid, MessageID: msgID, SandboxPath: path})
	u := "https://chatgpt.com/backend-api/estuary/content?id=" + fileID + "&ts=" + ts + "&p=fs&cid=1&sig=" + s.MACHex("estuary", fileID, ts) + "&v=0"
	WriteJSON(w, http.StatusOK, O("status", "success", "download_url", u, "file_name", name, "mime_type", "application/zip",
		"metadata", O("file_id", fileID), "file_size_bytes", nil))
}

func (s *Server) estuaryTTL() time.Duration {
	if s.estuaryFor > 0 {
		return s.estuaryFor
	}
	return 10 * time.Minute
}

// WithEstuaryTTL sets how long a minted estuary URL stays valid (default 10 min).
func WithEstuaryTTL(d time.Duration) Option { return func(s *Server) { s.estuaryFor = d } }

// chatgptEstuary serves GET /backend-api/estuary/content: cookie-bound (no
// bearer needed, no cookie = 403), signed (bad or expired sig = 403), with
// Range support and the filename in content-disposition.
func (s *Server) chatgptEstuary(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	id, ts, sig := q.Get("id"), q.Get("ts"), q.Get("sig")
	forbidden := func(why string) {
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprintf(w, "<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>AuthenticationFailed</Code><Message>%s</Message></Error>", why)
	}
	if !s.HasSession(r, ChatGPT) {
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
	if time.Now().After(ref.Expires) {
		forbidden("Signed expiry time has passed.")
		return
	}
	body, _, err := openZip(ref.Spec)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Disposition", "attachment; filename=\""+ref.Name+"\"; filename*=UTF-8''"+url.PathEscape(ref.Name))
	w.Header().Set("Cache-Control", "private, max-age=0")
	http.ServeContent(w, r, "", zipModTime, body)
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
