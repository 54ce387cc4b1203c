package sitecheck

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/interstitial"
	"github.com/ferrydesk/ferry/backend/site"
)

func testSite() site.Site {
	return site.Site{
		ID: "kimi", Name: "Kimi", Address: "https://www.kimi.com/",
		Selectors: map[site.Role][]string{
			site.RoleComposer: {`.editor`}, site.RoleSend: {`.send:not(.disabled)`}, site.RoleStop: {`.stop`},
			site.RoleAssistantTurn: {`.assistant`}, site.RoleAnswerBody: {`.markdown`}, site.RoleFinished: {`.actions`},
		},
		Stream: &site.StreamCapture{Method: "POST", PathPattern: `^/apiv2/kimi\.gateway\.chat\.v1\.ChatService/Chat$`, Decoder: "kimi"},
	}
}

func page(matched map[site.Role]int, reqs ...Request) Page {
	pg := Page{URL: "https://www.kimi.com/chat/abc", Roles: map[site.Role]probed{}}
	for _, r := range site.Roles() {
		pg.Roles[r] = probed{Matched: -1}
	}
	for r, i := range matched {
		pg.Roles[r] = probed{Matched: i, Count: 1}
	}
	pg.Requests = reqs
	return pg
}

func TestJudgeStream(t *testing.T) {
	turn := map[site.Role]int{site.RoleComposer: 0, site.RoleSend: 0, site.RoleAssistantTurn: 0, site.RoleAnswerBody: 0, site.RoleFinished: 0}
	newPath := Request{Path: "/apiv2/kimi.chat.v1.ChatService/Chat", Initiator: "fetch", ContentType: "application/connect+json", MS: 900, Start: 5000}
	cases := []struct {
		name   string
		pg     Page
		status StreamStatus
		ok     bool
	}{
		{"a stream at the pattern's path is ok", page(turn, Request{Path: "/apiv2/kimi.gateway.chat.v1.ChatService/Chat", Initiator: "fetch", ContentType: "application/connect+json"}), StreamOK, true},
		{"a finished turn streamed elsewhere is a missed stream", page(turn, newPath), StreamMissed, false},
		{"a page with no turn has nothing to check", page(map[site.Role]int{site.RoleComposer: 0, site.RoleSend: 0}, newPath), StreamUnseen, true},
		{"a turn loaded with the page was not streamed in it", page(turn, Request{Path: "/api/user", Initiator: "fetch", ContentType: "application/json"}), StreamUnseen, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep := Judge(testSite(), c.pg, interstitial.Result{Kind: interstitial.None})
			if rep.Stream.Status != c.status || rep.OK != c.ok {
				t.Fatalf("stream %s (ok %v), want %s (ok %v): %s %v", rep.Stream.Status, rep.OK, c.status, c.ok, rep.Stream.Detail, rep.Problems)
			}
			if c.status != StreamMissed {
				return
			}
			if !strings.Contains(rep.Stream.Detail, "stream not captured on the last turn") {
				t.Errorf("detail %q", rep.Stream.Detail)
			}
			o, err := site.ParseOverrides([]byte("[" + rep.Stream.Override + "]"))
			if err != nil || len(o) != 1 || o[0].Stream == nil {
				t.Fatalf("override %s: %v", rep.Stream.Override, err)
			}
			re := regexp.MustCompile(o[0].Stream.PathPattern)
			for _, p := range []string{newPath.Path, "/apiv2/kimi.gateway.chat.v1.ChatService/Chat"} {
				if !re.MatchString(p) {
					t.Errorf("the override's pattern %s misses %s", re, p)
				}
			}
			if re.MatchString("/apiv2/kimi.chat.v1.ChatService/ListChats") {
				t.Errorf("the override's pattern %s matches another call", re)
			}
		})
	}
}

func TestJudgeRoles(t *testing.T) {
	cand := Candidate{Selector: `div.submit`, Matches: 1, Score: 4}
	t.Run("a role the page must show that resolves nowhere is missing, with an override keeping the site's selectors", func(t *testing.T) {
		pg := page(map[site.Role]int{site.RoleComposer: 0})
		pg.Candidates = map[site.Role][]Candidate{site.RoleSend: {cand}}
		rep := Judge(testSite(), pg, interstitial.Result{Kind: interstitial.None})
		rc := roleOf(rep, site.RoleSend)
		if rep.OK || rc.Status != RoleMissing || len(rc.Candidates) != 1 {
			t.Fatalf("send %+v, ok %v", rc, rep.OK)
		}
		var o site.Override
		if err := json.Unmarshal([]byte(rc.Candidates[0].Override), &o); err != nil {
			t.Fatal(err)
		}
		want := []string{`div.submit:not(.disabled)`, `.send:not(.disabled)`}
		if o.ID != "kimi" || strings.Join(o.Selectors[site.RoleSend], " ") != strings.Join(want, " ") {
			t.Fatalf("override %+v, want send %v", o, want)
		}
	})
	t.Run("a stop control is not expected on an idle page", func(t *testing.T) {
		rep := Judge(testSite(), page(map[site.Role]int{site.RoleComposer: 0, site.RoleSend: 0}), interstitial.Result{Kind: interstitial.None})
		if rc := roleOf(rep, site.RoleStop); !rep.OK || rc.Status != RoleNotShown || rc.Note == "" {
			t.Fatalf("stop %+v, ok %v %v", rc, rep.OK, rep.Problems)
		}
	})
	t.Run("an answer body is expected once the thread has a turn", func(t *testing.T) {
		rep := Judge(testSite(), page(map[site.Role]int{site.RoleComposer: 0, site.RoleSend: 0, site.RoleAssistantTurn: 0, site.RoleFinished: 0}), interstitial.Result{Kind: interstitial.None})
		if rc := roleOf(rep, site.RoleAnswerBody); rep.OK || rc.Status != RoleMissing {
			t.Fatalf("answer body %+v, ok %v", rc, rep.OK)
		}
	})
	t.Run("a login wall is reported as logged out, not as selectors", func(t *testing.T) {
		rep := Judge(testSite(), page(nil), interstitial.Result{Kind: interstitial.LoginWall, Code: "login_required", Blocking: true})
		if rep.OK || rep.LoggedIn || rep.Login == "" || len(rep.Roles) != 0 {
			t.Fatalf("%+v", rep)
		}
	})
}

func roleOf(rep SiteReport, role site.Role) RoleCheck {
	for _, r := range rep.Roles {
		if r.Role == string(role) {
			return r
		}
	}
	return RoleCheck{}
}

func TestApply(t *testing.T) {
	over := `{"id":"kimi","selectors":{"send":["div.submit"]}}`
	cases := []struct {
		name  string
		sites []string
		want  []string
	}{
		{"with no entry the override is appended", nil, []string{over}},
		{"an entry of the same site keeps its other roles and fields", []string{`{"id":"Kimi","name":"Kimi (work)","selectors":{"composer":[".ed"],"send":[".old"]}}`},
			[]string{`{"id":"Kimi","name":"Kimi (work)","selectors":{"composer":[".ed"],"send":["div.submit"]}}`}},
		{"another site's entry stays as it is", []string{`{"id":"claude","name":"C"}`}, []string{`{"id":"claude","name":"C"}`, over}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var in []json.RawMessage
			for _, s := range c.sites {
				in = append(in, json.RawMessage(s))
			}
			out, err := Apply(in, over)
			if err != nil {
				t.Fatal(err)
			}
			if len(out) != len(c.want) {
				t.Fatalf("got %d entries, want %d", len(out), len(c.want))
			}
			for i := range out {
				var got, want any
				_ = json.Unmarshal(out[i], &got)
				_ = json.Unmarshal([]byte(c.want[i]), &want)
				g, _ := json.Marshal(got)
				w, _ := json.Marshal(want)
				if string(g) != string(w) {
					t.Errorf("entry %d: %s, want %s", i, g, w)
				}
			}
		})
	}
	if _, err := Apply(nil, `{"selectors":{"send":["x"]}}`); err == nil {
		t.Error("an override without an id was applied")
	}
	if _, err := Apply(nil, `{"id":"kimi","nmae":"x"}`); err == nil {
		t.Error("an override with an unknown field was applied")
	}
}

// TestAMissingOptionalRoleBlocksItsFeatureNotTheSite: a page without the
// model picker fails the site when a plain ask would need the role, and
// keeps it ok, naming what the role blocks, when the site lists it as
// optional.
func TestAMissingOptionalRoleBlocksItsFeatureNotTheSite(t *testing.T) {
	s := testSite()
	s.Selectors[site.RoleModelPicker] = []string{`div[data-model-type][aria-checked]`}
	ready := map[site.Role]int{site.RoleComposer: 0, site.RoleSend: 0}
	roleOf := func(rep SiteReport) RoleCheck {
		for _, r := range rep.Roles {
			if r.Role == string(site.RoleModelPicker) {
				return r
			}
		}
		t.Fatal("no model_picker in the report")
		return RoleCheck{}
	}

	t.Run("a site that needs the role for plain asks is not ok", func(t *testing.T) {
		rep := Judge(s, page(ready), interstitial.Result{})
		if rep.OK || roleOf(rep).Status != RoleMissing || roleOf(rep).Blocks != "" {
			t.Fatalf("report %+v", rep)
		}
	})
	t.Run("a site that lists it as optional is ok, the role missing with what it blocks", func(t *testing.T) {
		s.Optional = map[site.Role]site.Feature{site.RoleModelPicker: site.FeatureModelSelection}
		rep := Judge(s, page(ready), interstitial.Result{})
		r := roleOf(rep)
		if !rep.OK || len(rep.Problems) != 0 || r.Status != RoleMissing || r.Blocks != string(site.FeatureModelSelection) {
			t.Fatalf("report %+v, model_picker %+v", rep, r)
		}
	})
}
