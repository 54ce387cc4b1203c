package sitecheck

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/ferrydesk/ferry/backend/interstitial"
	"github.com/ferrydesk/ferry/backend/site"
)

// Page is what the probe read from a page.
type Page struct {
	URL   string               `json:"url"`
	Roles map[site.Role]probed `json:"roles"`
	// Candidates are the elements that look like each role asked for.
	Candidates map[site.Role][]Candidate `json:"candidates"`
	// Requests are the page's own fetch and XHR requests since it loaded.
	Requests     []Request `json:"requests"`
	ComposerText bool      `json:"composerText"`
}

type probed struct {
	Matched int   `json:"matched"`
	Count   int   `json:"count"`
	Invalid []int `json:"invalid"`
	// Relaxed says the match needed the selector without its :not(...)
	// state filters (a control disabled for now).
	Relaxed bool `json:"relaxed"`
}

// Request is one request of the page, from its resource timing.
type Request struct {
	Path        string `json:"path"`
	Initiator   string `json:"initiator"`
	ContentType string `json:"contentType"`
	MS          int    `json:"ms"`
	Start       int    `json:"start"`
	Status      int    `json:"status"`
}

// minCandidateScore is the score from which an element is evidence that a
// role the page need not show now is on it under another name.
const minCandidateScore = 6

// Judge turns what the page showed into the site's report: login,
// interstitial, every role and the stream. r is the interstitial
// detector's verdict on the same page.
func Judge(s site.Site, pg Page, r interstitial.Result) SiteReport {
	rep := SiteReport{Site: s.ID, Name: s.Name, URL: site.Redact(pg.URL), LoggedIn: true}
	if r.Found() {
		rep.Interstitial = &Interstitial{Kind: string(r.Kind), Code: r.Code, Message: r.Message, Blocking: r.Blocking}
	}
	if s.IsLoginURL(pg.URL) || r.Kind == interstitial.LoginWall || r.Kind == interstitial.SessionExpired {
		rep.LoggedIn = false
		rep.Login = fmt.Sprintf("log in to %s at %s in this browser (its tab stays open for that; `ferry open %s` opens another), then check again", s.Name, s.Address, s.ID)
		rep.Problems = append(rep.Problems, s.Name+" shows no logged-in user")
		return rep
	}
	if rep.Interstitial != nil && (r.Blocking || r.Terminal) {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%s shows %s: %s", s.Name, r.Kind, r.Message))
		return rep
	}
	hasTurn := pg.Roles[site.RoleUserTurn].Matched >= 0 || pg.Roles[site.RoleAssistantTurn].Matched >= 0
	generating := pg.Roles[site.RoleStop].Matched >= 0 || pg.Roles[site.RoleBusy].Matched >= 0
	for _, role := range site.Roles() {
		rc := judgeRole(s, role, pg, hasTurn, generating)
		if rc.Status == RoleMissing {
			if rc.Blocks = string(s.Blocks(role)); rc.Blocks == "" {
				rep.Problems = append(rep.Problems, missingLine(s, rc))
			}
		}
		if len(rc.Invalid) > 0 {
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s: the browser cannot parse %s", role, strings.Join(rc.Invalid, " | ")))
		}
		rep.Roles = append(rep.Roles, rc)
	}
	st := judgeStream(s, pg, hasTurn && !generating)
	rep.Stream = &st
	if st.Status == StreamMissed {
		rep.Problems = append(rep.Problems, st.Detail)
	}
	rep.OK = len(rep.Problems) == 0
	return rep
}

func missingLine(s site.Site, rc RoleCheck) string {
	if len(rc.Candidates) == 0 {
		return fmt.Sprintf("%s resolves nowhere (tried %s) and nothing on the page looks like it", rc.Role, strings.Join(rc.Selectors, " | "))
	}
	return fmt.Sprintf("%s resolves nowhere (tried %s); %s looks like it", rc.Role, strings.Join(rc.Selectors, " | "), rc.Candidates[0].Selector)
}

func judgeRole(s site.Site, role site.Role, pg Page, hasTurn, generating bool) RoleCheck {
	sels := s.Selector(role)
	rc := RoleCheck{Role: string(role), Selectors: sels, Matched: -1}
	if rc.Selectors == nil {
		rc.Selectors = []string{}
	}
	if len(sels) == 0 {
		rc.Status = RoleUndefined
		return rc
	}
	p, ok := pg.Roles[role]
	if !ok {
		p = probed{Matched: -1}
	}
	for _, i := range p.Invalid {
		if i >= 0 && i < len(sels) {
			rc.Invalid = append(rc.Invalid, sels[i])
		}
	}
	if p.Matched >= 0 && p.Matched < len(sels) {
		rc.Status, rc.Matched, rc.MatchedSelector, rc.Count = RoleOK, p.Matched, sels[p.Matched], p.Count
		if p.Relaxed {
			rc.Note = "there, but not in the state its selector asks for (disabled while the composer is empty)"
		}
		return rc
	}
	var cands []Candidate
	suffix := stateFilters.FindString(firstOf(sels))
	for _, c := range pg.Candidates[role] {
		if suffix != "" && relaxedRoles[role] {
			c.Selector += suffix
		}
		c.Override = Override(s, role, c.Selector)
		cands = append(cands, c)
	}
	want := false
	switch expected[role] {
	case always:
		want = !(role == site.RoleSend && !pg.ComposerText && len(cands) == 0)
	case withTurn:
		want = hasTurn
	case finished:
		want = hasTurn && !generating
	}
	if !want && len(cands) > 0 && cands[0].Score >= minCandidateScore {
		want = true
	}
	if !want {
		rc.Status, rc.Note = RoleNotShown, notShownNote[role]
		return rc
	}
	rc.Status, rc.Candidates = RoleMissing, cands
	return rc
}

// stateFilters are the :not(...) filters that end a selector, such as
// ":not([disabled])": a candidate for a relaxed role gets the same.
var stateFilters = regexp.MustCompile(`(?::not\([^()]*\))+$`)

func firstOf(list []string) string {
	if len(list) == 0 {
		return ""
	}
	return list[0]
}

// Override is the "sites" settings entry that puts sel first in role's
// list of site s, keeping the site's own selectors after it.
func Override(s site.Site, role site.Role, sel string) string {
	list := []string{sel}
	for _, x := range s.Selector(role) {
		if x != sel {
			list = append(list, x)
		}
	}
	return entry(site.Override{ID: s.ID, Selectors: map[site.Role][]string{role: list}})
}

func entry(o site.Override) string {
	b, err := json.Marshal(o)
	if err != nil {
		panic(err) // an Override always encodes
	}
	return string(b)
}

// streamTypes are the content types of an answer stream.
var streamTypes = []string{"text/event-stream", "application/connect", "application/x-ndjson", "application/grpc", "stream", "text/plain"}

// streamWords are words of an answer stream's path.
var streamWords = regexp.MustCompile(`(?i)chat|completion|conversation|stream|generate|message|ask|prompt`)

func judgeStream(s site.Site, pg Page, turnDone bool) StreamCheck {
	if s.Stream == nil || s.Stream.PathPattern == "" {
		return StreamCheck{Status: StreamNone, Detail: "the site captures no stream: the answer is read from the page"}
	}
	st := StreamCheck{Pattern: s.Stream.PathPattern}
	re, err := regexp.Compile(s.Stream.PathPattern)
	if err != nil {
		st.Status, st.Detail = StreamMissed, "the stream pattern does not compile: "+err.Error()
		return st
	}
	var likely []Request
	for _, rq := range pg.Requests {
		if re.MatchString(rq.Path) {
			st.Status, st.Matched = StreamOK, rq.Path
			st.Detail = "the last turn's stream was seen at " + rq.Path
		}
		if streamLike(rq) {
			likely = append(likely, rq)
		}
	}
	sort.SliceStable(likely, func(i, j int) bool { return streamRank(likely[i]) > streamRank(likely[j]) })
	for _, rq := range likely {
		if len(st.Seen) < 5 && !contains(st.Seen, rq.Path) {
			st.Seen = append(st.Seen, rq.Path)
		}
	}
	if st.Status == StreamOK {
		return st
	}
	if !turnDone || len(likely) == 0 {
		st.Status = StreamUnseen
		st.Detail = "no turn was answered in this tab since it loaded: send a prompt in it and check again to check the stream"
		return st
	}
	best := likely[0]
	st.Status = StreamMissed
	st.Detail = fmt.Sprintf("stream not captured on the last turn: the page streamed it from %s, which the pattern %s does not match (a run falls back to the page, slower)", best.Path, s.Stream.PathPattern)
	pattern := PathPattern(best.Path)
	if alt := s.Stream.PathPattern; alt != "" && !strings.Contains(alt, "|") {
		pattern = "(?:" + strings.TrimSuffix(strings.TrimPrefix(alt, "^"), "$") + ")|(?:" + strings.TrimSuffix(strings.TrimPrefix(pattern, "^"), "$") + ")"
		pattern = "^(?:" + pattern + ")$"
	}
	st.Override = entry(site.Override{ID: s.ID, Stream: &site.StreamOverride{PathPattern: pattern}})
	return st
}

// PathPattern is a pattern that matches path and the paths that differ
// from it only in their ids (segments with digits, or long hex).
func PathPattern(path string) string {
	segs := strings.Split(path, "/")
	for i, seg := range segs {
		if idLike.MatchString(seg) {
			segs[i] = "[^/]+"
			continue
		}
		segs[i] = regexp.QuoteMeta(seg)
	}
	return "^" + strings.Join(segs, "/") + "$"
}

var idLike = regexp.MustCompile(`^(?:[0-9a-fA-F-]{16,}|.*\d.*\d.*\d.*)$`)

func streamLike(rq Request) bool {
	if rq.Initiator != "fetch" && rq.Initiator != "xmlhttprequest" {
		return false
	}
	for _, t := range streamTypes {
		if strings.Contains(strings.ToLower(rq.ContentType), t) {
			return true
		}
	}
	return rq.ContentType == "" && streamWords.MatchString(rq.Path)
}

func streamRank(rq Request) int {
	n := 0
	ct := strings.ToLower(rq.ContentType)
	if strings.Contains(ct, "event-stream") || strings.Contains(ct, "connect") || strings.Contains(ct, "ndjson") {
		n += 1000000
	}
	if streamWords.MatchString(rq.Path) {
		n += 100000
	}
	return n + rq.Start/100
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
