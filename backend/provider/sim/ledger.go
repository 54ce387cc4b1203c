package sim

import (
	"fmt"
	"time"
)

// Submission is one prompt that reached a site's send endpoint, whether the
// site then answered it or refused it (rate limit, usage cap).
type Submission struct {
	Site           string    `json:"site"`
	ConversationID string    `json:"conversation_id"`
	Prompt         string    `json:"prompt"`
	Scenario       string    `json:"scenario"`
	Refused        bool      `json:"refused"`
	At             time.Time `json:"at"`
	// Attachments are the names of the files the send carried.
	Attachments []string `json:"attachments,omitempty"`
	// Mode is the kind of chat the send went to, where the site has more
	// than one (ChatGPT: "primary_assistant" for Chat, "work" for Work).
	Mode string `json:"mode,omitempty"`
	// Model and Effort are what the send asked for, where the request
	// names them (ChatGPT: model and thinking_effort).
	Model  string `json:"model,omitempty"`
	Effort string `json:"effort,omitempty"`
	// Tools are the tools the send asked for (ChatGPT: system_hints, such
	// as "search", "picture_v2", "plugin:connector_openai_deep_research").
	Tools []string `json:"tools,omitempty"`
	// Temporary says the send went to a temporary chat (ChatGPT's); Gizmo
	// names the project or custom GPT it went to (ChatGPT's gizmo_id).
	Temporary bool   `json:"temporary,omitempty"`
	Gizmo     string `json:"gizmo,omitempty"`
}

// ledger records every submission so tests can prove a prompt was sent once.
type ledger struct {
	subs    []Submission
	mints   []Mint
	uploads []Upload
	sources []Source
	staged  map[string][]string // site -> attachments of its next submission
}

// Mint is one download URL ChatGPT's interpreter/download minted for a
// sandbox file: tests count them to prove a zip was not fetched twice.
type Mint struct {
	ConversationID string    `json:"conversation_id"`
	MessageID      string    `json:"message_id"`
	SandboxPath    string    `json:"sandbox_path"`
	At             time.Time `json:"at"`
}

// RecordMint notes one download URL a site minted.
func (s *Server) RecordMint(m Mint) {
	m.At = time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ledger.mints = append(s.ledger.mints, m)
}

// Mints returns the download URLs minted for conversation ("" = every
// conversation), oldest first.
func (s *Server) Mints(conversation string) []Mint {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Mint
	for _, m := range s.ledger.mints {
		if conversation == "" || m.ConversationID == conversation {
			out = append(out, m)
		}
	}
	return out
}

// Record notes one prompt that reached a site's send endpoint, answered
// or refused.
// Annotate changes the latest submission to site with fn (a site's
// handler noting what the send asked for after BeginTurn recorded it).
func (s *Server) Annotate(site string, fn func(*Submission)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.ledger.subs) - 1; i >= 0; i-- {
		if s.ledger.subs[i].Site == site {
			fn(&s.ledger.subs[i])
			return
		}
	}
}

func (s *Server) Record(sub Submission) {
	sub.At = time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if names, ok := s.ledger.staged[sub.Site]; ok && sub.Attachments == nil {
		sub.Attachments = names
		delete(s.ledger.staged, sub.Site)
	}
	s.ledger.subs = append(s.ledger.subs, sub)
}

// Submissions returns every submission to site ("" = all sites), oldest first.
func (s *Server) Submissions(site string) []Submission {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Submission
	for _, sub := range s.ledger.subs {
		if site == "" || sub.Site == site {
			out = append(out, sub)
		}
	}
	return out
}

// SubmissionCount is len(Submissions(site)).
func (s *Server) SubmissionCount(site string) int { return len(s.Submissions(site)) }

// ConversationSubmissions counts the submissions to one conversation of site.
func (s *Server) ConversationSubmissions(site, conversationID string) int {
	n := 0
	for _, sub := range s.Submissions(site) {
		if sub.ConversationID == conversationID {
			n++
		}
	}
	return n
}

// Source is one file a project of a site holds among its sources
// (ChatGPT's project sources), added through the project page's dialog
// from a completed upload, whose name, size, hash and bytes it keeps.
type Source struct {
	Project string `json:"project"` // the project's id (ChatGPT's gizmo id)
	Upload
}

// AddSource makes upload id of site a source of project. Errors: an id
// that is no completed upload of site (a real site refuses it).
func (s *Server) AddSource(site, project, id string) (Source, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, u := range s.ledger.uploads {
		if u.ID == id && u.Site == site && u.Completed {
			src := Source{Project: project, Upload: u}
			s.ledger.sources = append(s.ledger.sources, src)
			return src, nil
		}
	}
	return Source{}, fmt.Errorf("file %s is not a completed upload of %s", id, site)
}

// Sources returns the sources of project on site ("" = every project),
// oldest first.
func (s *Server) Sources(site, project string) []Source {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Source
	for _, src := range s.ledger.sources {
		if src.Site == site && (project == "" || src.Project == project) {
			out = append(out, src)
		}
	}
	return out
}
