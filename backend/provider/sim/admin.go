package sim

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"strings"
	"time"
)

// Admin endpoints, answered on every simulated host under /__sim/:
//
//	GET  /__sim/                 index: sites, scenarios, directive syntax, Chromium flags
//	POST /__sim/scenario         {"site":"chatgpt","scenario":"rate_limit","params":{"lock":"3s"}}
//	                             (site "" = every site; scenario "normal" clears;
//	                             "conversation":"ID" limits a turn scenario to one conversation)
//	GET  /__sim/submissions      ?site=chatgpt&conversation=ID -> {"count":N,"submissions":[...]}
//	POST /__sim/pace             {"chunk":6,"interval":"30ms"}
//	POST /__sim/stop             {"site":"chatgpt","refuse":true}: the site's stop control does nothing
//	POST /__sim/stop/press       ?site=chatgpt: a page's stop control was pressed -> {"refuse":bool}
//	POST /__sim/reset            clears scenarios, locks, submissions, conversations and stop refusals
//	GET  /__sim/assets/NAME      the pages' scripts and styles
func (s *Server) adminRoutes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /__sim/{$}", s.serveIndex)
	mux.HandleFunc("GET /__sim", s.serveIndex)
	mux.HandleFunc("GET /__sim/assets/", s.serveAsset)
	mux.HandleFunc("POST /__sim/scenario", s.adminScenario)
	mux.HandleFunc("GET /__sim/scenario", func(w http.ResponseWriter, r *http.Request) {
		site := r.URL.Query().Get("site")
		WriteJSON(w, http.StatusOK, map[string]any{"page": s.PageScenario(site), "turn": s.TurnScenario(site, r.URL.Query().Get("conversation"), "")})
	})
	mux.HandleFunc("GET /__sim/submissions", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		subs := s.Submissions(q.Get("site"))
		if conv := q.Get("conversation"); conv != "" {
			var keep []Submission
			for _, sub := range subs {
				if sub.ConversationID == conv {
					keep = append(keep, sub)
				}
			}
			subs = keep
		}
		if subs == nil {
			subs = []Submission{}
		}
		WriteJSON(w, http.StatusOK, map[string]any{"count": len(subs), "submissions": subs})
	})
	mux.HandleFunc("POST /__sim/pace", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Chunk    int    `json:"chunk"`
			Interval string `json:"interval"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, "decode pace: "+err.Error()+` (want {"chunk":6,"interval":"30ms"})`, http.StatusBadRequest)
			return
		}
		d, err := time.ParseDuration(req.Interval)
		if err != nil {
			d = -1
		}
		s.SetPace(Pace{Chunk: req.Chunk, Interval: d})
		WriteJSON(w, http.StatusOK, map[string]any{"ok": true})
	})
	mux.HandleFunc("POST /__sim/stop", s.adminStop)
	mux.HandleFunc("POST /__sim/stop/press", s.adminStop)
	mux.HandleFunc("POST /__sim/reset", func(w http.ResponseWriter, r *http.Request) {
		s.Reset()
		WriteJSON(w, http.StatusOK, map[string]any{"ok": true})
	})
	return mux
}

func (s *Server) adminScenario(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Site         string            `json:"site"`
		Conversation string            `json:"conversation"`
		Scenario     string            `json:"scenario"`
		Params       map[string]string `json:"params"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, "decode scenario: "+err.Error()+` (want {"site":"chatgpt","scenario":"rate_limit","params":{}})`, http.StatusBadRequest)
		return
	}
	if _, ok := Hosts[req.Site]; !ok && req.Site != "" {
		http.Error(w, fmt.Sprintf("unknown site %q (known: %s)", req.Site, strings.Join(Sites(), ", ")), http.StatusBadRequest)
		return
	}
	if _, ok := scenarioInfo(req.Scenario); !ok {
		http.Error(w, fmt.Sprintf("unknown scenario %q (known: %s)", req.Scenario, strings.Join(scenarioNames(), ", ")), http.StatusBadRequest)
		return
	}
	sc := Scenario{Name: req.Scenario, Params: req.Params}
	if req.Conversation != "" {
		if req.Site == "" || IsPage(req.Scenario) {
			http.Error(w, "a conversation scenario needs a site and a turn scenario (not "+req.Scenario+")", http.StatusBadRequest)
			return
		}
		s.SetConversationScenario(req.Site, req.Conversation, sc)
		WriteJSON(w, http.StatusOK, map[string]any{"ok": true, "site": req.Site, "conversation": req.Conversation, "scenario": req.Scenario})
		return
	}
	s.SetScenario(req.Site, sc)
	WriteJSON(w, http.StatusOK, map[string]any{"ok": true, "site": req.Site, "scenario": req.Scenario})
}

func (s *Server) serveIndex(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>Ferry provider simulator</title>
<style>body{font:14px system-ui,sans-serif;margin:2em;max-width:70em}td,th{border-bottom:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}code{background:#f4f4f4;padding:1px 4px}</style></head><body>
<h1>Ferry provider simulator</h1><h2>Sites</h2><ul>`)
	for _, id := range Sites() {
		fmt.Fprintf(&b, `<li><a href="https://%s/">%s</a> (<code>%s</code>)</li>`, Hosts[id], Hosts[id], id)
	}
	b.WriteString(`</ul><h2>Chromium flags</h2><pre>`)
	for _, f := range s.ChromiumFlags() {
		b.WriteString(html.EscapeString(f) + "\n")
	}
	b.WriteString(`</pre><h2>Choosing a scenario</h2>
<p>Per prompt: put a directive line in the prompt, e.g. <code>[[sim:scenario=code_zip zip_size=5MiB]]</code>.
Speed per prompt: <code>chunk=200 interval=1ms</code>.</p>
<p>Per site (page scenarios, and turn scenarios for prompts without a directive):
<code>curl -k -X POST https://chatgpt.com/__sim/scenario -d '{"site":"chatgpt","scenario":"rate_limit","params":{"lock":"30s"}}'</code>
(any simulated host; site "" = all sites; scenario "normal" clears; add "conversation":"ID" for one conversation).</p>
<p>Submissions: <code>GET /__sim/submissions?site=chatgpt</code>. Reset: <code>POST /__sim/reset</code>. Pace: <code>POST /__sim/pace {"chunk":6,"interval":"30ms"}</code>.</p>
<h2>Scenarios</h2><table><tr><th>name</th><th>kind</th><th>sites</th><th>what it does</th></tr>`)
	for _, c := range Catalog {
		kind := "turn"
		if c.Page {
			kind = "page"
		}
		sites := "all"
		if c.Sites != nil {
			sites = strings.Join(c.Sites, ", ")
		}
		fmt.Fprintf(&b, "<tr><td><code>%s</code></td><td>%s</td><td>%s</td><td>%s</td></tr>", c.Name, kind, sites, html.EscapeString(c.About))
	}
	b.WriteString(`</table></body></html>`)
	fmt.Fprint(w, b.String())
}
