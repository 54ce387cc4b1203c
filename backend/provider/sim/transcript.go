package sim

import (
	"net/http"
	"strings"
	"sync"
	"time"
)

// The transcript is what a site keeps of its conversations, for the sites
// whose send endpoint goes through BeginTurn: each turn's prompt and answer,
// so that a page opening a conversation's address shows its turns, as the
// real sites do. An answer whose reader went away (a closed tab, a killed
// browser) goes on being generated at its pace and is kept finished,
// unless the page stopped it first (its Stop control); a page opening the
// conversation meanwhile shows it in progress and follows it until it is
// (GET /__sim/turns/{conv} on the site's host). A site whose chats live in
// the page alone (Site.PageOnlyChats) keeps none.

// storedTurn is one turn of a conversation.
type storedTurn struct {
	prompt, answer, model string
	pace                  Pace
	sent                  string    // what streamed to the reader so far
	done                  bool      // streamed whole
	failed                bool      // the stream ended with the site's error
	stopped               bool      // the page stopped it
	left                  time.Time // when the reader went away
}

type transcript struct {
	mu    sync.Mutex
	convs map[string][]*storedTurn // by site + "\x00" + conversation id
}

func transcriptKey(site, conv string) string { return site + "\x00" + conv }

// begin stores the turn t starts and returns it ("" conversation or a
// page-only site: nil).
func (tr *transcript) begin(t Turn) *storedTurn {
	st, _ := lookup(t.Site)
	if t.Conv == "" || st.PageOnlyChats {
		return nil
	}
	rec := &storedTurn{prompt: t.Prompt, answer: t.Answer.Text, model: t.Answer.Model, pace: t.Pace}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if tr.convs == nil {
		tr.convs = map[string][]*storedTurn{}
	}
	k := transcriptKey(t.Site, t.Conv)
	tr.convs[k] = append(tr.convs[k], rec)
	return rec
}

// update records what streamed of rec, and how its stream ended (ended:
// all was sent; left: the reader went away; else the site's error).
func (tr *transcript) update(rec *storedTurn, sent string, ended, finished, left bool) {
	if rec == nil {
		return
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	rec.sent = sent
	if !ended {
		return
	}
	switch {
	case finished:
		rec.done = true
	case left:
		rec.left = time.Now()
	default:
		rec.failed = true
	}
}

// ShownTurn is a stored turn as a page opening its conversation shows it.
type ShownTurn struct {
	User     string `json:"user"`
	Text     string `json:"text"`
	Model    string `json:"model,omitempty"`
	Finished bool   `json:"finished"`
	Failed   bool   `json:"failed,omitempty"`
}

// shown is rec now: a turn whose reader left goes on at its pace from
// where it was.
func (rec *storedTurn) shown(now time.Time) ShownTurn {
	out := ShownTurn{User: rec.prompt, Text: rec.sent, Model: rec.model}
	switch {
	case rec.done:
		out.Text, out.Finished = rec.answer, true
	case rec.failed, rec.stopped:
		out.Finished, out.Failed = true, rec.failed
	case !rec.left.IsZero():
		rest := Chunks(strings.TrimPrefix(rec.answer, rec.sent), max(rec.pace.Chunk, 1))
		n := len(rest)
		if rec.pace.Interval > 0 {
			n = min(n, int(now.Sub(rec.left)/rec.pace.Interval))
		}
		out.Text = rec.sent + strings.Join(rest[:n], "")
		out.Finished = n == len(rest)
	}
	return out
}

// Turns returns the turns site keeps of conversation conv, oldest first,
// as a page opening it now shows them.
func (s *Server) Turns(site, conv string) []ShownTurn {
	s.script.mu.Lock()
	defer s.script.mu.Unlock()
	out := []ShownTurn{}
	now := time.Now()
	for _, rec := range s.script.convs[transcriptKey(site, conv)] {
		out = append(out, rec.shown(now))
	}
	return out
}

// stopTurn marks the turn of conv whose answer is still coming as stopped
// by its page: it is kept as far as it streamed.
func (s *Server) stopTurn(site, conv string) {
	s.script.mu.Lock()
	defer s.script.mu.Unlock()
	list := s.script.convs[transcriptKey(site, conv)]
	if n := len(list); n > 0 && !list[n-1].done && !list[n-1].failed {
		list[n-1].stopped = true
	}
}

// serveTurns answers a page following its conversation (GET
// /__sim/turns/{conv}) and a page's Stop (POST /__sim/turns/{conv}/stop),
// for the site of the request's host.
func (s *Server) serveTurns(w http.ResponseWriter, r *http.Request) {
	site := SiteForHost(r.Host)
	if site == "" || !s.HasSession(r, site) {
		http.Error(w, "Unauthorized", http.StatusUnauthorized)
		return
	}
	rest := strings.TrimPrefix(r.URL.Path, "/__sim/turns/")
	if conv, ok := strings.CutSuffix(rest, "/stop"); ok && r.Method == http.MethodPost {
		s.stopTurn(site, conv)
		WriteJSON(w, http.StatusOK, O("success", true))
		return
	}
	WriteJSON(w, http.StatusOK, map[string]any{"turns": s.Turns(site, rest)})
}
