package hub

import (
	"net/http"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// The session commands that drive the owner's browser and store together
// (ferry poll, watch, reattach, sessions doctor, open) reach the owner
// through these routes. They are the owner's only: they may attach to a
// browser the caller names, rebind runs to new tabs, open tabs, and resume
// a run that had not been sent yet (which sends it), none of which an agent
// may do without the user.

// KindReattach is a job that resumes an interrupted run from its journal
// (ferry reattach and ferry watch through the hub). It never sends a
// prompt that was already sent.
const KindReattach = service.KindReattach

// SessionCheck is the body of POST /v1/sessions/poll, /v1/sessions/reattach
// and /v1/sessions/doctor.
type SessionCheck struct {
	// Session is the run (an unambiguous id prefix is enough); "" means the
	// only active run (poll, reattach).
	Session string `json:"session,omitempty"`
	// Browser asks poll and doctor to check the run's tab in a browser:
	// BrowserURL, else the owner's browser, else Ferry's own running
	// browser. Reattach always needs one: for an active run without
	// Browser or BrowserURL it is the owner's long-lived browser.
	Browser bool `json:"browser,omitempty"`
	// BrowserURL is a browser the owner attaches to for this request (a
	// ws://127.0.0.1 DevTools address or a DevToolsActivePort path).
	BrowserURL string `json:"browserUrl,omitempty"`
	// Recover asks doctor to reopen stale runs' conversations in new tabs.
	Recover bool `json:"recover,omitempty"`
	// TimeoutMs bounds a reattach (0: the owner's default).
	TimeoutMs int64 `json:"timeoutMs,omitempty"`
	// Launch is how an in-process reattach starts Ferry's browser for a run
	// that lost its own (service.ReattachRequest.Launch); the hub's route
	// never fills it.
	Launch *service.BrowserSpec `json:"launch,omitempty"`
}

// PollResult answers POST /v1/sessions/poll: the run's record and whether
// its tab passed the freshness gate.
type PollResult = service.PollResult

// ReattachResult answers POST /v1/sessions/reattach: the job to follow,
// and whether this request started it (only then is it the caller's to
// cancel).
type ReattachResult = service.ReattachResult

// DoctorResult answers POST /v1/sessions/doctor: the Service's verdicts.
type DoctorResult struct {
	Sessions []service.DoctorReport `json:"sessions"`
}

// OpenTabRequest is the body of POST /v1/tabs.
type OpenTabRequest = service.OpenTabRequest

func (s *Server) decodeCheck(w http.ResponseWriter, r *http.Request) (SessionCheck, bool) {
	var chk SessionCheck
	if e := decodeJSON(w, r, 16<<10, &chk); e != nil {
		writeEnvelope(w, http.StatusBadRequest, e)
		return chk, false
	}
	if e := checkBrowserURL(chk.BrowserURL); e != nil {
		writeEnvelope(w, http.StatusBadRequest, e)
		return chk, false
	}
	return chk, true
}

// checkBrowserURL refuses browser addresses that are not on loopback
// (service.CheckBrowserURL): the owner must never connect out on a
// caller's behalf.
func checkBrowserURL(raw string) *errs.Envelope {
	if err := service.CheckBrowserURL(raw); err != nil {
		return errs.From(err)
	}
	return nil
}

// decodeBrowsing decodes a request body of at most limit bytes into dst
// and checks that the browser it names (browser's, nil for none) is on
// loopback; otherwise it answers the error and returns false.
func decodeBrowsing(w http.ResponseWriter, r *http.Request, limit int64, dst any, browser func() *service.BrowserSpec) bool {
	if e := decodeJSON(w, r, limit, dst); e != nil {
		writeEnvelope(w, http.StatusBadRequest, e)
		return false
	}
	if b := browser(); b != nil {
		if e := checkBrowserURL(b.URL); e != nil {
			writeEnvelope(w, http.StatusBadRequest, e)
			return false
		}
	}
	return true
}

func (s *Server) handlePollSession(w http.ResponseWriter, r *http.Request, c Caller) {
	chk, ok := s.decodeCheck(w, r)
	if !ok {
		return
	}
	out, err := s.svc.PollSession(r.Context(), c.service(), service.PollRequest{Session: chk.Session, Browser: chk.Browser, BrowserURL: chk.BrowserURL, TimeoutMs: chk.TimeoutMs})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) handleReattachSession(w http.ResponseWriter, r *http.Request, c Caller) {
	chk, ok := s.decodeCheck(w, r)
	if !ok {
		return
	}
	res, err := s.svc.ReattachSession(r.Context(), c.service(), service.ReattachRequest{Session: chk.Session, Browser: chk.Browser, BrowserURL: chk.BrowserURL, TimeoutMs: chk.TimeoutMs})
	if err != nil {
		writeErr(w, err)
		return
	}
	status := http.StatusOK
	if res.Started {
		status = http.StatusCreated
	}
	writeJSON(w, status, res)
}

func (s *Server) handleDoctorSessions(w http.ResponseWriter, r *http.Request, c Caller) {
	chk, ok := s.decodeCheck(w, r)
	if !ok {
		return
	}
	out, err := s.svc.DoctorSessions(r.Context(), c.service(), service.DoctorRequest{Browser: chk.Browser, BrowserURL: chk.BrowserURL, Recover: chk.Recover})
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, DoctorResult{Sessions: nonNil(out)})
}

func (s *Server) handleOpenTab(w http.ResponseWriter, r *http.Request, c Caller) {
	var req OpenTabRequest
	if e := decodeJSON(w, r, 4<<10, &req); e != nil {
		writeEnvelope(w, http.StatusBadRequest, e)
		return
	}
	if e := checkBrowserURL(req.BrowserURL); e != nil {
		writeEnvelope(w, http.StatusBadRequest, e)
		return
	}
	tab, err := s.svc.OpenTab(r.Context(), c.service(), req)
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, tab)
}

// BrowserInfo answers GET /v1/browser: the DevTools address of the owner's
// browser, for an owner's command that drives it itself (ferry retrieve
// reads a conversation there instead of launching a second browser on the
// profile the owner's browser holds). Owner only: the address gives full
// control of the user's logged-in browser.
type BrowserInfo = service.BrowserInfo

func (s *Server) handleBrowser(w http.ResponseWriter, r *http.Request, c Caller) {
	info, err := s.svc.BrowserEndpoint(r.Context(), c.service())
	if err != nil {
		writeErr(w, err)
		return
	}
	writeJSON(w, http.StatusOK, info)
}
