package hub

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// endpoint is one method of one route. Who may call it is the service's
// decision, not the route's: an agent asking for what only the user may do
// (deciding approvals, pairing, managing clients, the owner's browser and
// tabs) is refused by the service with errs.HubForbidden.
type endpoint struct {
	fn func(http.ResponseWriter, *http.Request, Caller)
}

func (s *Server) routes() *http.ServeMux {
	mux := http.NewServeMux()
	add := func(pattern string, methods map[string]endpoint) {
		allow := make([]string, 0, len(methods))
		for m := range methods {
			allow = append(allow, m)
		}
		sort.Strings(allow)
		allowed := strings.Join(allow, ", ")
		mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
			ep, ok := methods[r.Method]
			if !ok {
				methodNotAllowed(w, r.Method, r.URL.Path, allowed)
				return
			}
			c, _ := callerFrom(r.Context())
			if r.Method == http.MethodPost || r.Method == http.MethodDelete {
				s.withDedup(w, r, c, ep.fn)
				return
			}
			ep.fn(w, r, c)
		})
	}
	get := func(fn func(http.ResponseWriter, *http.Request, Caller)) map[string]endpoint {
		return map[string]endpoint{http.MethodGet: {fn: fn}}
	}
	add("/v1/whoami", get(s.handleWhoAmI))
	add("/v1/jobs", map[string]endpoint{http.MethodPost: {fn: s.handleCreateJob}})
	add("/v1/jobs/{id}", get(s.handleGetJob))
	add("/v1/jobs/{id}/cancel", map[string]endpoint{http.MethodPost: {fn: s.handleCancelJob}})
	add("/v1/jobs/{id}/artifacts/{name}", get(s.handleArtifact))
	add("/v1/sessions", get(s.handleListSessions))
	add("/v1/sessions/search", get(s.handleSearchSessions))
	add("/v1/sessions/{id}", get(s.handleShowSession))
	add("/v1/sessions/{id}/export", get(s.handleExportSession))
	add("/v1/sessions/{id}/report", get(s.handleReportSession))
	add("/v1/sessions/poll", map[string]endpoint{http.MethodPost: {fn: s.handlePollSession}})
	add("/v1/sessions/reattach", map[string]endpoint{http.MethodPost: {fn: s.handleReattachSession}})
	add("/v1/sessions/doctor", map[string]endpoint{http.MethodPost: {fn: s.handleDoctorSessions}})
	add("/v1/templates", map[string]endpoint{
		http.MethodGet:  {fn: s.handleListTemplates},
		http.MethodPost: {fn: s.handleSaveTemplate},
	})
	add("/v1/templates/{name}", map[string]endpoint{
		http.MethodGet:    {fn: s.handleGetTemplate},
		http.MethodDelete: {fn: s.handleDeleteTemplate},
	})
	add("/v1/templates/{name}/render", map[string]endpoint{http.MethodPost: {fn: s.handleRenderTemplate}})
	add("/v1/browser", map[string]endpoint{http.MethodGet: {fn: s.handleBrowser}})
	add("/v1/retrieve", map[string]endpoint{http.MethodPost: {fn: s.handleRetrieve}})
	add("/v1/tabs", map[string]endpoint{
		http.MethodGet:  {fn: s.handleListTabs},
		http.MethodPost: {fn: s.handleOpenTab},
	})
	add("/v1/sites", get(s.handleListSites))
	add("/v1/projects", get(s.handleListProjects))
	add("/v1/projects/sources", map[string]endpoint{http.MethodPost: {fn: s.handleAddProjectSources}})
	add("/v1/sites/doctor", map[string]endpoint{http.MethodPost: {fn: s.handleDoctorSites}})
	add("/v1/tabs/states", get(s.handleTabStates))
	add("/v1/tabs/action", map[string]endpoint{http.MethodPost: {fn: s.handleTabAction}})
	add("/v1/events", get(s.handleEvents))
	add("/v1/approvals", map[string]endpoint{http.MethodGet: {fn: s.handleListApprovals}})
	add("/v1/approvals/{id}", map[string]endpoint{http.MethodGet: {fn: s.handleGetApproval}})
	add("/v1/approvals/{id}/approve", map[string]endpoint{http.MethodPost: {fn: s.handleApprove}})
	add("/v1/approvals/{id}/reject", map[string]endpoint{http.MethodPost: {fn: s.handleReject}})
	add("/v1/pairing", map[string]endpoint{http.MethodPost: {fn: s.handleNewPairingCode}})
	add("/v1/clients", map[string]endpoint{http.MethodGet: {fn: s.handleListClients}})
	add("/v1/clients/agents", map[string]endpoint{http.MethodPost: {fn: s.handleEnsureAgent}})
	add("/v1/clients/{id}", map[string]endpoint{http.MethodDelete: {fn: s.handleRevoke}})
	add("/v1/clients/{id}/settings", map[string]endpoint{http.MethodPost: {fn: s.handleClientSettings}})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		notFound(w, "no API route %s", clip(r.URL.Path, 120))
	})
	return mux
}

// decodeJSON reads one JSON object of at most max bytes into v, refusing
// unknown fields so that a misspelt field is an error, not a silent default.
func decodeJSON(w http.ResponseWriter, r *http.Request, max int64, v any) *errs.Envelope {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, max))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		switch {
		case errors.Is(err, io.EOF):
			return errs.New(errs.BadInput, "the request body is empty; send a JSON object")
		case errors.As(err, &tooBig):
			return errs.New(errs.BadInput, "the request body is larger than %d bytes", max)
		}
		return errs.New(errs.BadInput, "the request body is not valid JSON for %s: %v", r.URL.Path, err)
	}
	if dec.More() {
		return errs.New(errs.BadInput, "the request body holds more than one JSON value")
	}
	return nil
}

func queryLimit(r *http.Request, def, max int) (int, *errs.Envelope) {
	v := r.URL.Query().Get("limit")
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > max {
		return 0, errs.New(errs.BadInput, "limit %q must be a whole number from 1 to %d", clip(v, 20), max)
	}
	return n, nil
}

func (s *Server) handleWhoAmI(w http.ResponseWriter, r *http.Request, c Caller) {
	this := service.This()
	writeJSON(w, http.StatusOK, WhoAmI{ClientID: c.ClientID, Owner: c.Owner, PID: s.pid, StartedAt: s.startedAt, Version: this.Version, Wire: this.Wire})
}

func (s *Server) handleCreateJob(w http.ResponseWriter, r *http.Request, c Caller) {
	var spec JobSpec
	if e := decodeJSON(w, r, defaultMaxBody, &spec); e != nil {
		writeEnvelope(w, http.StatusBadRequest, e)
		return
	}
	if spec.Browser != nil {
		writeEnvelope(w, http.StatusBadRequest, errs.New(errs.BadInput, "a job through the owner runs in the owner's browser; it takes no \"browser\"").
			WithHint("drop \"browser\" from the job"))
		return
	}
	job, err := s.svc.SubmitJob(r.Context(), c.service(), spec)
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, job)
}

func (s *Server) handleGetJob(w http.ResponseWriter, r *http.Request, c Caller) {
	job, err := s.svc.GetJob(r.Context(), c.service(), service.JobRef{ID: r.PathValue("id")})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, job)
}

func (s *Server) handleCancelJob(w http.ResponseWriter, r *http.Request, c Caller) {
	job, err := s.svc.CancelJob(r.Context(), c.service(), service.JobRef{ID: r.PathValue("id")})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, job)
}

func (s *Server) handleArtifact(w http.ResponseWriter, r *http.Request, c Caller) {
	id, name := r.PathValue("id"), r.PathValue("name")
	info, rc, err := s.svc.OpenArtifact(r.Context(), c.service(), id, name)
	if err != nil {
		writeErr(w, err)
		return
	}
	defer rc.Close()
	if !info.Verified {
		writeErr(w, errs.New(errs.ArtifactUnsafe, "artifact %q of job %s is not verified; the hub serves only verified artifacts", clip(name, 80), clip(id, 80)))
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/octet-stream")
	if strings.HasSuffix(strings.ToLower(info.Name), ".zip") {
		h.Set("Content-Type", "application/zip")
	}
	h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", safeFileName(info.Name)))
	if info.SHA256 != "" {
		h.Set("X-Ferry-Sha256", info.SHA256)
	}
	if info.Size > 0 {
		h.Set("Content-Length", strconv.FormatInt(info.Size, 10))
	}
	w.WriteHeader(http.StatusOK)
	if _, err := io.Copy(w, rc); err != nil {
		s.log.Warn("send artifact", "job", id, "err", err)
	}
}

// safeFileName keeps a name fit for a Content-Disposition header.
func safeFileName(name string) string {
	name = name[strings.LastIndexAny(name, `/\`)+1:]
	out := strings.Map(func(r rune) rune {
		if r < 0x20 || r == '"' || r == '\\' || r > 0x7e {
			return '_'
		}
		return r
	}, name)
	if out == "" {
		return "artifact"
	}
	return out
}

func (s *Server) handleListSessions(w http.ResponseWriter, r *http.Request, c Caller) {
	limit, e := queryLimit(r, 50, 1000)
	if e != nil {
		writeEnvelope(w, http.StatusBadRequest, e)
		return
	}
	q := r.URL.Query()
	out, err := s.svc.ListSessions(r.Context(), c.service(), SessionQuery{Site: q.Get("site"), State: q.Get("state"),
		Tool: q.Get("tool"), Query: q.Get("q"), Limit: limit})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, nonNil(out))
}

func (s *Server) handleSearchSessions(w http.ResponseWriter, r *http.Request, c Caller) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	if q == "" {
		writeEnvelope(w, http.StatusBadRequest, errs.New(errs.BadInput, "search needs a query: add ?q=words"))
		return
	}
	limit, e := queryLimit(r, 20, 1000)
	if e != nil {
		writeEnvelope(w, http.StatusBadRequest, e)
		return
	}
	out, err := s.svc.SearchSessions(r.Context(), c.service(), service.SearchRequest{Query: q, Limit: limit})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, nonNil(out))
}

func (s *Server) handleShowSession(w http.ResponseWriter, r *http.Request, c Caller) {
	sess, err := s.svc.ShowSession(r.Context(), c.service(), service.SessionRef{ID: r.PathValue("id")})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, sess)
}

func (s *Server) handleListTabs(w http.ResponseWriter, r *http.Request, c Caller) {
	tabs, err := s.svc.ListTabs(r.Context(), c.service(), service.ListTabsRequest{Browser: TabsBrowserOf(r.URL.Query())})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, nonNil(tabs))
}

func (s *Server) handleListProjects(w http.ResponseWriter, r *http.Request, c Caller) {
	out, err := s.svc.ListProjects(r.Context(), c.service(), service.ListProjectsRequest{Site: r.URL.Query().Get("site"), Browser: TabsBrowserOf(r.URL.Query())})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, nonNil(out))
}

// handleAddProjectSources answers POST /v1/projects/sources: the files
// are added in the owner (the service decides who may), in its browser
// unless the request names a loopback one.
func (s *Server) handleAddProjectSources(w http.ResponseWriter, r *http.Request, c Caller) {
	var req service.AddSourcesRequest
	if !decodeBrowsing(w, r, 64<<10, &req, func() *service.BrowserSpec { return req.Browser }) {
		return
	}
	out, err := s.svc.AddProjectSources(r.Context(), c.service(), req)
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) handleListApprovals(w http.ResponseWriter, r *http.Request, c Caller) {
	out, err := s.svc.ListApprovals(r.Context(), c.service(), service.ListApprovalsRequest{})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, nonNil(out))
}

func (s *Server) handleGetApproval(w http.ResponseWriter, r *http.Request, c Caller) {
	ap, err := s.svc.GetApproval(r.Context(), c.service(), service.ApprovalRef{JobID: r.PathValue("id")})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, ap)
}

func (s *Server) handleApprove(w http.ResponseWriter, r *http.Request, c Caller) {
	job, err := s.svc.Approve(r.Context(), c.service(), service.ApprovalRef{JobID: r.PathValue("id")})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, job)
}

// RejectRequest is the optional body of POST /v1/approvals/{id}/reject.
type RejectRequest struct {
	Reason string `json:"reason"`
}

func (s *Server) handleReject(w http.ResponseWriter, r *http.Request, c Caller) {
	var req RejectRequest
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 4<<10))
	if err != nil {
		writeEnvelope(w, http.StatusBadRequest, errs.New(errs.BadInput, "read the reject body: %v", err))
		return
	}
	if len(strings.TrimSpace(string(body))) > 0 {
		dec := json.NewDecoder(strings.NewReader(string(body)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil {
			writeEnvelope(w, http.StatusBadRequest, errs.New(errs.BadInput, "the reject body must be {\"reason\": \"...\"}: %v", err))
			return
		}
	}
	job, err := s.svc.Reject(r.Context(), c.service(), service.RejectRequest{JobID: r.PathValue("id"), Reason: req.Reason})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, job)
}

func (s *Server) handleNewPairingCode(w http.ResponseWriter, r *http.Request, c Caller) {
	code, err := s.svc.NewPairingCode(r.Context(), c.service(), service.PairingRequest{})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, code)
}

func (s *Server) handleListClients(w http.ResponseWriter, r *http.Request, c Caller) {
	out, err := s.svc.ListClients(r.Context(), c.service(), service.ListClientsRequest{})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) handleRevoke(w http.ResponseWriter, r *http.Request, c Caller) {
	info, err := s.svc.RevokeClient(r.Context(), c.service(), service.ClientRef{ID: r.PathValue("id")})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, info)
}

// ClientSettings is the body of POST /v1/clients/{id}/settings.
// Each setting left out stays as it is.
type ClientSettings struct {
	AutoApprove           *bool `json:"autoApprove,omitempty"`
	ExistingConversations *bool `json:"existingConversations,omitempty"`
	// FileRoots replaces the directories under which the client's jobs
	// may name files to attach ([] for none).
	FileRoots *[]string `json:"fileRoots,omitempty"`
}

func (s *Server) handleClientSettings(w http.ResponseWriter, r *http.Request, c Caller) {
	var req ClientSettings
	if e := decodeJSON(w, r, 4<<10, &req); e != nil {
		writeEnvelope(w, http.StatusBadRequest, e)
		return
	}
	if req.AutoApprove == nil && req.ExistingConversations == nil && req.FileRoots == nil {
		writeEnvelope(w, http.StatusBadRequest, errs.New(errs.BadInput, "the settings body names no setting; send {\"autoApprove\": true|false} or {\"existingConversations\": true|false}"))
		return
	}
	var (
		info ClientInfo
		err  error
		id   = r.PathValue("id")
		sc   = c.service()
	)
	if req.AutoApprove != nil {
		info, err = s.svc.SetAutoApprove(r.Context(), sc, service.AutoApproveRequest{ID: id, AutoApprove: *req.AutoApprove})
	}
	if err == nil && req.ExistingConversations != nil {
		info, err = s.svc.GrantClient(r.Context(), sc, service.GrantRequest{ID: id, ExistingConversations: *req.ExistingConversations})
	}
	if err == nil && req.FileRoots != nil {
		info, err = s.svc.SetFileRoots(r.Context(), sc, service.FileRootsRequest{ID: id, Roots: *req.FileRoots})
	}
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, info)
}

// handlePair exchanges a pairing code for a client token. It needs no token
// (the client has none yet); the Host and Origin checks still apply, and the
// pairing limits stand in for authentication.
func (s *Server) handlePair(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		methodNotAllowed(w, r.Method, r.URL.Path, http.MethodPost)
		return
	}
	var req PairRequest
	if e := decodeJSON(w, r, 4<<10, &req); e != nil {
		writeEnvelope(w, http.StatusBadRequest, e)
		return
	}
	req.From = remoteIP(r)
	paired, err := s.svc.Pair(r.Context(), req)
	if err != nil {
		s.log.Warn("pairing refused", "remote", req.From, "code", errs.CodeOf(err))
		if e := errs.From(err); e.Code == errs.HubRateLimited {
			retry, _ := time.ParseDuration(e.Evidence["retryAfter"])
			writeRateLimited(w, retry, e)
			return
		}
		writeErr(w, err)
		return
	}
	s.log.Info("client paired", "client", paired.ClientID)
	writeJSON(w, http.StatusCreated, paired)
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
