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
	"unicode"
	"unicode/utf8"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// endpoint is one method of one route. Owner-only endpoints are the ones an
// agent must never reach: deciding approvals, pairing and managing clients.
type endpoint struct {
	owner bool
	fn    func(http.ResponseWriter, *http.Request, Caller)
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
			if ep.owner && !c.Owner {
				writeEnvelope(w, http.StatusForbidden, errs.New(errs.HubForbidden, "only the owner (the Ferry app or the CLI) may %s %s", r.Method, r.URL.Path).
					WithHint("ask the user to do this in Ferry"))
				return
			}
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
	add("/v1/sessions/poll", map[string]endpoint{http.MethodPost: {owner: true, fn: s.handlePollSession}})
	add("/v1/sessions/reattach", map[string]endpoint{http.MethodPost: {owner: true, fn: s.handleReattachSession}})
	add("/v1/sessions/doctor", map[string]endpoint{http.MethodPost: {owner: true, fn: s.handleDoctorSessions}})
	add("/v1/templates", map[string]endpoint{
		http.MethodGet:  {fn: s.handleListTemplates},
		http.MethodPost: {owner: true, fn: s.handleSaveTemplate},
	})
	add("/v1/templates/{name}", map[string]endpoint{
		http.MethodGet:    {fn: s.handleGetTemplate},
		http.MethodDelete: {owner: true, fn: s.handleDeleteTemplate},
	})
	add("/v1/templates/{name}/render", map[string]endpoint{http.MethodPost: {fn: s.handleRenderTemplate}})
	add("/v1/browser", map[string]endpoint{http.MethodGet: {owner: true, fn: s.handleBrowser}})
	add("/v1/retrieve", map[string]endpoint{http.MethodPost: {owner: true, fn: s.handleRetrieve}})
	add("/v1/tabs", map[string]endpoint{
		http.MethodGet:  {fn: s.handleListTabs},
		http.MethodPost: {owner: true, fn: s.handleOpenTab},
	})
	add("/v1/sites", map[string]endpoint{http.MethodGet: {owner: true, fn: s.handleListSites}})
	add("/v1/sites/doctor", map[string]endpoint{http.MethodPost: {owner: true, fn: s.handleDoctorSites}})
	add("/v1/tabs/states", map[string]endpoint{http.MethodGet: {owner: true, fn: s.handleTabStates}})
	add("/v1/tabs/action", map[string]endpoint{http.MethodPost: {owner: true, fn: s.handleTabAction}})
	add("/v1/events", get(s.handleEvents))
	add("/v1/approvals", map[string]endpoint{http.MethodGet: {owner: true, fn: s.handleListApprovals}})
	add("/v1/approvals/{id}/approve", map[string]endpoint{http.MethodPost: {owner: true, fn: s.handleApprove}})
	add("/v1/approvals/{id}/reject", map[string]endpoint{http.MethodPost: {owner: true, fn: s.handleReject}})
	add("/v1/pairing", map[string]endpoint{http.MethodPost: {owner: true, fn: s.handleNewPairingCode}})
	add("/v1/clients", map[string]endpoint{http.MethodGet: {owner: true, fn: s.handleListClients}})
	add("/v1/clients/agents", map[string]endpoint{http.MethodPost: {owner: true, fn: s.handleEnsureAgent}})
	add("/v1/clients/{id}", map[string]endpoint{http.MethodDelete: {owner: true, fn: s.handleRevoke}})
	add("/v1/clients/{id}/settings", map[string]endpoint{http.MethodPost: {owner: true, fn: s.handleClientSettings}})
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
	job, err := s.CreateJob(r.Context(), c, spec)
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, job)
}

// jobFor fetches a job the caller may see: its own, or any for the owner. A
// job of another client is reported as not found, so ids cannot be probed.
func (s *Server) jobFor(r *http.Request, c Caller, id string) (Job, error) {
	job, err := s.svc.GetJob(r.Context(), c.service(), service.JobRef{ID: id})
	if err != nil {
		return Job{}, err
	}
	if !c.Owner && job.RequestedBy != c.ClientID {
		return Job{}, errs.New(errs.HubNotFound, "no job %q for this client", clip(id, 80))
	}
	return job, nil
}

func (s *Server) handleGetJob(w http.ResponseWriter, r *http.Request, c Caller) {
	job, err := s.jobFor(r, c, r.PathValue("id"))
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, job)
}

func (s *Server) handleCancelJob(w http.ResponseWriter, r *http.Request, c Caller) {
	id := r.PathValue("id")
	if _, err := s.jobFor(r, c, id); err != nil {
		writeErr(w, err)
		return
	}
	job, err := s.svc.CancelJob(r.Context(), c.service(), service.JobRef{ID: id})
	if err != nil {
		writeErr(w, err)
		return
	}
	if ap, ok := s.approvals.take(id); ok {
		s.publishDecision(ap, Decision{JobID: id, Approved: false, Reason: "cancelled by the client"})
	}
	writeJSON(w, http.StatusOK, job)
}

func (s *Server) handleArtifact(w http.ResponseWriter, r *http.Request, c Caller) {
	id, name := r.PathValue("id"), r.PathValue("name")
	if _, err := s.jobFor(r, c, id); err != nil {
		writeErr(w, err)
		return
	}
	ao, ok := s.svc.(ArtifactOpener)
	if !ok {
		writeErr(w, errs.New(errs.ArtifactNotFound, "this Ferry owner keeps no artifacts"))
		return
	}
	info, rc, err := ao.OpenArtifact(r.Context(), id, name)
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
		Query: q.Get("q"), Limit: limit})
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

func (s *Server) handleListApprovals(w http.ResponseWriter, r *http.Request, c Caller) {
	writeJSON(w, http.StatusOK, s.Approvals())
}

func (s *Server) handleApprove(w http.ResponseWriter, r *http.Request, c Caller) {
	job, err := s.Approve(r.Context(), r.PathValue("id"))
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
	job, err := s.Reject(r.Context(), r.PathValue("id"), req.Reason)
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, job)
}

func (s *Server) handleNewPairingCode(w http.ResponseWriter, r *http.Request, c Caller) {
	code, err := s.NewPairingCode()
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, code)
}

func (s *Server) handleListClients(w http.ResponseWriter, r *http.Request, c Caller) {
	out, err := s.Clients(r.Context())
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) handleRevoke(w http.ResponseWriter, r *http.Request, c Caller) {
	info, err := s.Revoke(r.Context(), r.PathValue("id"))
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
	)
	if req.AutoApprove != nil {
		info, err = s.SetAutoApprove(r.Context(), r.PathValue("id"), *req.AutoApprove)
	}
	if err == nil && req.ExistingConversations != nil {
		info, err = s.GrantExisting(r.Context(), r.PathValue("id"), *req.ExistingConversations)
	}
	if err == nil && req.FileRoots != nil {
		info, err = s.SetFileRoots(r.Context(), r.PathValue("id"), *req.FileRoots)
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
	name, e := cleanClientName(req.Name)
	if e != nil {
		writeEnvelope(w, http.StatusBadRequest, e)
		return
	}
	ip := remoteIP(r)
	if retry, err := s.pairing.redeem(ip, req.Code); err != nil {
		s.log.Warn("pairing refused", "remote", ip, "code", errs.CodeOf(err))
		if errs.Has(err, errs.HubRateLimited) {
			writeRateLimited(w, retry, errs.From(err))
			return
		}
		writeErr(w, err)
		return
	}
	info, token, err := s.RegisterClient(r.Context(), name)
	if err != nil {
		writeErr(w, err)
		return
	}
	s.log.Info("client paired", "client", info.ID, "name", info.Name)
	writeJSON(w, http.StatusCreated, PairResponse{ClientID: info.ID, Token: token})
}

func cleanClientName(name string) (string, *errs.Envelope) {
	name = strings.TrimSpace(name)
	if name == "" || utf8.RuneCountInString(name) > 64 || !utf8.ValidString(name) ||
		strings.IndexFunc(name, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		return "", errs.New(errs.BadInput, "the client name must be 1 to 64 printable characters").
			WithHint("name the client after the tool, e.g. \"claude-code on laptop\"")
	}
	return name, nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
