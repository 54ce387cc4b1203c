package mcp

import (
	"context"
	"fmt"
	"strings"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferrydesk/ferry/backend/service"
)

// SessionsInput is the sessions tool's input.
type SessionsInput struct {
	Query string `json:"query,omitempty" jsonschema:"fuzzy text over the runs' prompts, answers, files and models; best match first"`
	Site  string `json:"site,omitempty" jsonschema:"only runs of this site"`
	State string `json:"state,omitempty" jsonschema:"only runs in this state (done, failed, cancelled, stale, streaming…)"`
	Tool  string `json:"tool,omitempty" jsonschema:"only runs that asked for this tool (web-search, deep-research, image), or none for those that asked for no tool"`
	Limit int    `json:"limit,omitempty" jsonschema:"at most this many runs, 1 to 1000 (default 20)"`
}

// SessionsResult lists runs.
type SessionsResult struct {
	Sessions []SessionItem `json:"sessions"`
}

// SessionItem is one run of a listing.
type SessionItem struct {
	ID        string    `json:"id" jsonschema:"the run's id (for session and for ask's session)"`
	Site      string    `json:"site"`
	Title     string    `json:"title"`
	State     string    `json:"state,omitempty"`
	Model     string    `json:"model,omitempty"`
	Tool      string    `json:"tool,omitempty" jsonschema:"the tool the run asked for, absent for none"`
	UpdatedAt time.Time `json:"updated_at"`
	Snippet   string    `json:"snippet,omitempty"`
}

// SessionInput is the session tool's input.
type SessionInput struct {
	ID string `json:"id" jsonschema:"the run's id or an unambiguous prefix"`
}

// SessionResult is a run's full record.
type SessionResult struct {
	ID       string                 `json:"id"`
	Resource string                 `json:"resource" jsonschema:"the ferry://session/{id} resource with the transcript"`
	Markdown string                 `json:"markdown" jsonschema:"the run as Markdown, secrets redacted"`
	Session  *service.SessionDetail `json:"session,omitempty" jsonschema:"the run's record and journal"`
}

// RetrieveInput is the retrieve tool's input.
type RetrieveInput struct {
	Conversation string `json:"conversation" jsonschema:"the ChatGPT conversation id (the <id> of https://chatgpt.com/c/<id>)"`
	OutDir       string `json:"out_dir,omitempty"`
}

// RetrieveResult is a retrieval's zips and receipt.
type RetrieveResult struct {
	OK      bool                     `json:"ok"`
	Zips    []Zip                    `json:"zips"`
	Receipt *service.RetrieveReceipt `json:"receipt,omitempty"`
}

// defaultSessions is the sessions tool's default limit; retrieveTimeout
// bounds a retrieval.
const (
	defaultSessions = 20
	retrieveTimeout = 5 * time.Minute
)

func (s *Server) addSessionTools() {
	addTool(s, &mcpsdk.Tool{Name: "sessions", Title: "Find runs",
		Description: "Search the runs this agent may see (its own, unless the user granted it theirs): fuzzy query, site, state and tool filters, newest first without a query.",
		Annotations: &mcpsdk.ToolAnnotations{ReadOnlyHint: true}},
		s.sessions)
	addTool(s, &mcpsdk.Tool{Name: "session", Title: "Read a run",
		Description: "A run's full record as Markdown (secrets redacted) and as structured data: prompt, answer, model proof, journal, zips.",
		Annotations: &mcpsdk.ToolAnnotations{ReadOnlyHint: true}},
		s.session)
	addTool(s, &mcpsdk.Tool{Name: "retrieve", Title: "Retrieve a conversation's zips",
		Description: "Bring home the verified zips of an existing ChatGPT conversation, sending nothing. The conversation must be one of this agent's runs unless the user granted it theirs. " +
			s.outDirRule()},
		s.retrieve)
}

func (s *Server) sessions(ctx context.Context, c call, in SessionsInput) (SessionsResult, string, error) {
	if in.Limit == 0 {
		in.Limit = defaultSessions
	}
	list, err := s.svc.ListSessions(ctx, c.caller, service.SessionQuery{Query: in.Query, Site: in.Site, State: in.State, Tool: in.Tool, Limit: in.Limit})
	if err != nil {
		return SessionsResult{}, "", err
	}
	out := SessionsResult{Sessions: make([]SessionItem, 0, len(list))}
	var b strings.Builder
	fmt.Fprintf(&b, "%d runs", len(list))
	for _, ss := range list {
		it := SessionItem{ID: ss.ID, Site: ss.Site, Title: ss.Title, UpdatedAt: ss.UpdatedAt}
		if ss.Extra != nil {
			if run := ss.Extra.Listed.Session; run != nil {
				it.State, it.Model, it.Tool = string(run.State), run.Model.Selected, run.ToolAsked()
			}
			it.Snippet = ss.Extra.Listed.Hit.Snippet
		}
		out.Sessions = append(out.Sessions, it)
		fmt.Fprintf(&b, "\n%s  %s  %s  %s", it.ID, it.Site, it.State, it.Title)
	}
	return out, b.String(), nil
}

func (s *Server) session(ctx context.Context, c call, in SessionInput) (SessionResult, string, error) {
	run, err := s.svc.ShowSession(ctx, c.caller, service.SessionRef{ID: in.ID})
	if err != nil {
		return SessionResult{}, "", err
	}
	md, err := s.svc.ExportSession(ctx, c.caller, service.ExportRequest{ID: run.ID, Format: service.FormatMarkdown})
	if err != nil {
		return SessionResult{}, "", err
	}
	return SessionResult{ID: run.ID, Resource: sessionURI(run.ID), Markdown: md.Body, Session: run.Detail}, md.Body, nil
}

// retrieve runs a retrieval as the agent: the service decides which
// conversations it may retrieve, and its zips go to Ferry's artifacts
// directory; with out_dir (checked against the roots) the verified ones
// are copied there too.
func (s *Server) retrieve(ctx context.Context, c call, in RetrieveInput) (RetrieveResult, string, error) {
	out, err := s.checkOutDir(in.OutDir)
	if err != nil {
		return RetrieveResult{}, "", err
	}
	conv := strings.TrimSpace(in.Conversation)
	rc, err := s.svc.Retrieve(ctx, c.caller, service.RetrieveRequest{Conversation: conv, TimeoutMs: retrieveTimeout.Milliseconds()})
	if err != nil {
		return RetrieveResult{}, "", err
	}
	res := RetrieveResult{OK: rc.OK, Zips: zipsOf(rc.Zips), Receipt: rc}
	if out != "" {
		copyZips(res.Zips, out)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Retrieved %d zips of conversation %s.", len(res.Zips), conv)
	for _, z := range res.Zips {
		fmt.Fprintf(&b, "\nZip %s: %s, sha256 %s", z.Path, z.Verdict, z.SHA256)
	}
	return res, b.String(), nil
}
