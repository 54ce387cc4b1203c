package chatgptsim

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/provider/sim/simreport"
)

// Deep Research, from providers.md ("Tools", Deep Research): a send with
// system_hints plugin:connector_openai_deep_research answers with an
// assistant message of empty text whose metadata.chatgpt_sdk names the
// resource "Deep Research App_start" and carries widget_state (a JSON
// string). A plan phase shows the research plan with a countdown, after
// which the research starts by itself (or at once on the plan's "Start");
// the research reports its stage and a growing count of sources; at the
// end widget_state says status "completed" with report_message, and the
// page shows the report in an iframe titled internal://deep-research from
// ResearchHost, which nests the report in a second iframe: the turn's own
// text stays empty. Time is compressed: the plan's countdown is param
// countdown (default 2s; the site's is ~60 s), the research param research
// (default 3s; the site's 5–30 min). The start endpoint
// (POST /backend-api/deep_research/{message}/start) and the widget_state's
// fields besides status and report_message are not public: GAP, assumed.
// Stopping a research and a socket dropped mid-research: GAP. The research
// goes on on the site whoever watches: a page opening the conversation
// later shows it where it stands. For tests that stop a run at a chosen
// point, param plan_hold=NAME keeps the plan being written (no steps, no
// Start, no countdown) and param research_hold=NAME keeps the research
// running, each until the test's Release(NAME) (param hold is the
// stream's own, sim.Server.Hold).
const (
	ScenarioResearch           = "research"
	ScenarioResearchNoPlan     = "research_no_plan"
	ScenarioResearchPlanWaits  = "research_plan_waits"
	ScenarioResearchReportLate = "research_report_late"
	ScenarioResearchStub       = "research_stub"
	ScenarioResearchDisconnect = "research_disconnect"
)

// ResearchHost is the host of the report's sandboxed frames.
const ResearchHost = "connector_openai_deep_research.web-sandbox.oaiusercontent.com"

// researchHint is the system hint of a Deep Research send.
const researchHint = "plugin:connector_openai_deep_research"

// ResearchResource is metadata.chatgpt_sdk.resource_name of a research.
const ResearchResource = "Deep Research App_start"

var researchScenarios = []sim.ScenarioInfo{
	{Name: ScenarioResearch, About: "a deep research (also any prompt sent with the deep-research tool): a plan with a countdown of param countdown (default 2s), then research of param research (default 3s) with its stage and sources, then the report in a doubly nested iframe of " + ResearchHost + " (ResearchReport)"},
	{Name: ScenarioResearchNoPlan, About: "a prompt sent with the deep-research tool that ChatGPT answers as plain text, without research"},
	{Name: ScenarioResearchPlanWaits, About: "a deep research whose plan waits for its \"Start\" and never starts by itself"},
	{Name: ScenarioResearchReportLate, About: "a deep research whose report frame shows only param late (default 2s) after the research completed"},
	{Name: ScenarioResearchDisconnect, About: "a deep research whose page loses its connection param drop (default 1s) into the research: its stage stops where it was and the report never shows in that page, while the site finishes the research (a page opened on the conversation again shows it)"},
	{Name: ScenarioResearchStub, About: "a deep research whose plan is a frame of " + ResearchHost + " beside a \"Called tool\" stub, and whose report frame first shows its header over a \"Used tool\" stub for param stub (default 1s)"},
}

// simResearch is one research: its plan's and research's times.
type simResearch struct {
	Conv, Msg, Prompt string
	Parent            string
	Model             string
	Scenario          string
	Planned           time.Time
	Countdown         time.Duration // < 0: the plan waits for its Start
	Started           time.Time     // zero while planning
	Research          time.Duration
	Late, Stub, Drop  time.Duration
	// PlanHold and Hold are the releases of params plan_hold and
	// research_hold (nil for none); PlanShown is when the plan was
	// written.
	PlanHold, Hold <-chan struct{}
	PlanShown      time.Time
	Ended          time.Time // when the research completed
}

// researchTurn reports whether turn t starts a research: the tool asked
// for or a research scenario, unless the scenario answers without one.
func researchTurn(t chatgptTurn) bool {
	switch t.sc.Name {
	case ScenarioResearchNoPlan:
		return false
	case ScenarioResearch, ScenarioResearchPlanWaits, ScenarioResearchReportLate, ScenarioResearchStub, ScenarioResearchDisconnect:
		return true
	}
	return slices.Contains(t.hints, researchHint)
}

// startResearch records the research of turn t answered by message aid.
func (s *simServer) startResearch(t chatgptTurn, aid, parent, model string) {
	r := &simResearch{Conv: t.conv.ID, Msg: aid, Prompt: t.prompt, Parent: parent, Model: model, Scenario: t.sc.Name, Planned: time.Now(),
		Countdown: t.sc.Duration("countdown", 2*time.Second), Research: t.sc.Duration("research", 3*time.Second),
		Late: t.sc.Duration("late", 2*time.Second), Stub: t.sc.Duration("stub", time.Second), Drop: t.sc.Duration("drop", time.Second)}
	held := func(param string) <-chan struct{} {
		if name := t.sc.Param(param, ""); name != "" {
			return s.Hold(sim.Scenario{Params: map[string]string{"hold": name}})
		}
		return nil
	}
	r.PlanHold, r.Hold = held("plan_hold"), held("research_hold")
	if t.sc.Name == ScenarioResearchPlanWaits {
		r.Countdown = -1
	}
	s.mu.Lock()
	s.research[aid] = r
	s.mu.Unlock()
}

// researchPhase is where r stands at now: "planning", "running",
// "completed"; with the research's elapsed share (0–1).
func (r *simResearch) phase(now time.Time) (string, float64) {
	if r.PlanShown.IsZero() {
		if !released(r.PlanHold) {
			return "planning", 0
		}
		// The countdown runs from the plan's writing.
		r.PlanShown = now
		if r.PlanHold == nil {
			r.PlanShown = r.Planned
		}
	}
	if r.Started.IsZero() && r.Countdown >= 0 && !now.Before(r.PlanShown.Add(r.Countdown)) {
		r.Started = r.PlanShown.Add(r.Countdown)
	}
	switch {
	case r.Started.IsZero():
		return "planning", 0
	case now.Before(r.Started.Add(r.Research)):
		return "running", float64(now.Sub(r.Started)) / float64(max(r.Research, time.Millisecond))
	case !released(r.Hold):
		return "running", 0.99
	}
	if r.Ended.IsZero() {
		r.Ended = r.Started.Add(r.Research)
		if r.Hold != nil {
			r.Ended = now // as the hold was seen released
		}
	}
	return "completed", 1
}

// released reports whether hold is released (or none).
func released(hold <-chan struct{}) bool {
	if hold == nil {
		return true
	}
	select {
	case <-hold:
		return true
	default:
		return false
	}
}

// reportShown reports whether the report's frame shows at now, and
// whether it is still the stub over it.
func (r *simResearch) reportShown(now time.Time) (shown, stub bool) {
	if ph, _ := r.phase(now); ph != "completed" {
		return false, false
	}
	end := r.Ended
	if r.Scenario == ScenarioResearchReportLate && now.Before(end.Add(r.Late)) {
		return false, false
	}
	return true, r.Scenario == ScenarioResearchStub && now.Before(end.Add(r.Stub))
}

// message is the research's assistant message as it stands at now.
func (r *simResearch) message(now time.Time) sim.Obj {
	ph, share := r.phase(now)
	state := map[string]any{"status": ph, "plan": researchPlan(r.Prompt), "plan_frame": r.Scenario == ScenarioResearchStub}
	switch ph {
	case "planning":
		if r.PlanShown.IsZero() {
			delete(state, "plan") // still being written
			break
		}
		if r.Countdown >= 0 {
			state["countdown_seconds"] = int(time.Until(r.Planned.Add(r.Countdown)).Seconds() + 0.999)
		}
	case "running":
		if r.Scenario == ScenarioResearchDisconnect {
			// GAP: how the page loses the socket that pushes its
			// widget-state updates is not public; the simulated page is
			// told when to stop following (sim_research.js).
			state["sim_drop_ms"] = r.Drop.Milliseconds()
		}
		state["stage"] = []string{"Searching the web", "Reading sources", "Considering findings"}[min(int(share*3), 2)]
		state["sources"] = int(share * 120)
	case "completed":
		state["sources"] = 120
		if shown, _ := r.reportShown(now); shown {
			header, body := ResearchReport(r.Prompt)
			state["report_message"] = map[string]any{"id": "report-" + r.Msg, "author": map[string]any{"role": "assistant"},
				"content": map[string]any{"content_type": "text", "parts": []string{header + "\n\n" + body}}}
		}
	}
	ws, _ := json.Marshal(state)
	meta := sim.O("model_slug", r.Model, "resolved_model_slug", r.Model, "default_model_slug", "auto", "parent_id", r.Parent,
		"chatgpt_sdk", sim.O("resource_name", ResearchResource, "widget_state", string(ws)),
		"finish_details", sim.O("type", "stop", "stop_tokens", []any{200002}), "is_complete", true)
	return chatgptMessage(r.Msg, "assistant", "", sim.O("content_type", "text", "parts", []string{""}), "finished_successfully", true, meta, "all", nil)
}

// refreshResearch brings conversation c's research messages up to now;
// s.mu is held.
func (s *simServer) refreshResearch(c *simConversation) {
	now := time.Now()
	for _, r := range s.research {
		if r.Conv == c.ID && c.Nodes[r.Msg] != nil {
			c.Nodes[r.Msg].Message = r.message(now)
		}
	}
}

// researchStart serves POST /backend-api/deep_research/{message}/start:
// the plan's "Start".
func (s *simServer) researchStart(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	res := s.research[r.PathValue("message")]
	if res != nil && res.Started.IsZero() && !res.PlanShown.IsZero() {
		res.Started = time.Now()
	}
	s.mu.Unlock()
	if res == nil {
		sim.WriteJSON(w, http.StatusNotFound, sim.O("detail", "no research"))
		return
	}
	sim.WriteJSON(w, http.StatusOK, sim.O("status", "started"))
}

// researchPlan is the plan's steps for prompt.
func researchPlan(prompt string) []string {
	topic := sim.PromptTopic(prompt)
	return []string{"Survey recent sources on " + topic, "Compare the main findings and their evidence", "Write a cited report"}
}

// ResearchReport is the report of a research on prompt (simreport.Report).
func ResearchReport(prompt string) (header, body string) { return simreport.Report(prompt) }

var linkRe = regexp.MustCompile(`\[([^\]]+)\]\(([^)\s]+)\)`)

// reportHTML renders the Markdown of ResearchReport as the report frame
// shows it: one element a block, links as anchors.
func reportHTML(md string) string {
	inline := func(s string) string {
		var b strings.Builder
		last := 0
		for _, m := range linkRe.FindAllStringSubmatchIndex(s, -1) {
			b.WriteString(html.EscapeString(s[last:m[0]]))
			fmt.Fprintf(&b, `<a href="%s" target="_blank" rel="noopener">%s</a>`, html.EscapeString(s[m[4]:m[5]]), html.EscapeString(s[m[2]:m[3]]))
			last = m[1]
		}
		b.WriteString(html.EscapeString(s[last:]))
		return b.String()
	}
	var b strings.Builder
	for _, block := range strings.Split(md, "\n\n") {
		lines := strings.Split(block, "\n")
		switch {
		case strings.HasPrefix(block, "## "):
			b.WriteString("<h2>" + inline(block[3:]) + "</h2>")
		case strings.HasPrefix(block, "# "):
			b.WriteString("<h1>" + inline(block[2:]) + "</h1>")
		case strings.HasPrefix(block, "- "):
			b.WriteString("<ul>")
			for _, l := range lines {
				b.WriteString("<li>" + inline(strings.TrimPrefix(l, "- ")) + "</li>")
			}
			b.WriteString("</ul>")
		case strings.HasPrefix(block, "1. "):
			b.WriteString("<ol>")
			for _, l := range lines {
				_, item, _ := strings.Cut(l, ". ")
				b.WriteString("<li>" + inline(item) + "</li>")
			}
			b.WriteString("</ol>")
		default:
			b.WriteString("<p>" + inline(block) + "</p>")
		}
	}
	return b.String()
}

// researchFrames serves ResearchHost: the outer frame (/) nests the inner
// one; /report is the report (a stub, or a page that looks again, until
// it shows), /plan the plan of research_stub.
func (s *simServer) researchFrames() http.Handler {
	page := func(w http.ResponseWriter, body string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Deep research</title></head><body>%s</body></html>", body)
	}
	again := `<script>setTimeout(() => location.reload(), 250)</script>`
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		inner := "/report?message=" + url.QueryEscape(q.Get("message"))
		if q.Get("view") == "plan" {
			inner = "/plan?message=" + url.QueryEscape(q.Get("message"))
		}
		page(w, `<iframe title="report" src="`+html.EscapeString(inner)+`" style="border:0;width:100%;height:900px" sandbox="allow-scripts allow-same-origin"></iframe>`)
	})
	mux.HandleFunc("GET /plan", func(w http.ResponseWriter, r *http.Request) {
		res := s.researchOf(r.URL.Query().Get("message"))
		if res == nil {
			http.NotFound(w, r)
			return
		}
		var b strings.Builder
		b.WriteString("<h2>Research plan</h2><ol>")
		for _, step := range researchPlan(res.Prompt) {
			b.WriteString("<li>" + html.EscapeString(step) + "</li>")
		}
		page(w, b.String()+"</ol><p>Called tool: deep research</p>")
	})
	mux.HandleFunc("GET /report", func(w http.ResponseWriter, r *http.Request) {
		res := s.researchOf(r.URL.Query().Get("message"))
		if res == nil {
			http.NotFound(w, r)
			return
		}
		s.mu.Lock()
		shown, stub := res.reportShown(time.Now())
		s.mu.Unlock()
		header, body := ResearchReport(res.Prompt)
		switch {
		case !shown:
			page(w, "<p>Loading report…</p>"+again)
		case stub:
			page(w, "<div class=\"report-header\">"+html.EscapeString(header)+"</div><p>Used tool</p>"+again)
		default:
			page(w, "<div class=\"report-header\">"+html.EscapeString(header)+"</div><article class=\"report\">"+reportHTML(body)+"</article>")
		}
	})
	return mux
}

func (s *simServer) researchOf(msg string) *simResearch {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.research[msg]
}
