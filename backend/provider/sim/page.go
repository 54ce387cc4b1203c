package sim

import (
	"embed"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"strings"
	"time"
)

//go:embed web
var webFS embed.FS

// pageConfig is handed to the page's script as window.__SIM__.
type pageConfig struct {
	Site         string            `json:"site"`
	Scenario     string            `json:"scenario"`
	Params       map[string]string `json:"params,omitempty"`
	HydrateMs    int64             `json:"hydrateMs"`
	Drift        bool              `json:"drift"`
	LoggedIn     bool              `json:"loggedIn"`
	Conversation string            `json:"conversation,omitempty"`
	Model        string            `json:"model"`
	Path         string            `json:"path"`
	// CapResetAt is when the usage cap of the usage_cap_on_load scenario
	// resets (Unix ms).
	CapResetAt int64 `json:"capResetAt,omitempty"`
	// Turns are the conversation's turns as the site keeps them (see
	// the transcript), for a page opening a conversation's address.
	Turns []ShownTurn `json:"turns,omitempty"`
}

// title is the <title> of site's app page.
func title(site string) string {
	st, _ := lookup(site)
	return st.Title
}

// ServePage writes the app shell of site: the shared runtime and the site's
// script build the DOM at once, and attach behaviour after hydration.
func (s *Server) ServePage(w http.ResponseWriter, r *http.Request, site, conv string) {
	sc := s.PageScenario(site)
	loggedIn := s.ensureSession(w, r, site)
	cfg := pageConfig{Site: site, Scenario: sc.Name, Params: sc.Params, LoggedIn: loggedIn, Conversation: conv,
		Model: defaultModel(site), Path: r.URL.Path, Drift: sc.Name == ScenarioDriftedDOM}
	if conv != "" && loggedIn {
		cfg.Turns = s.Turns(site, conv)
	}
	if sc.Name == ScenarioUsageCapOnLoad {
		cfg.CapResetAt = s.CapReset(site, sc).UnixMilli()
	}
	if sc.Name == ScenarioSlowHydration {
		cfg.HydrateMs = sc.Duration("hydrate", 3*time.Second).Milliseconds()
	}
	raw, _ := json.Marshal(cfg)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	st, _ := lookup(site)
	extra := st.Head
	fmt.Fprintf(w, `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>%s</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/__sim/assets/sim.css">%s
<script>window.__SIM__=%s;</script>
<script src="/__sim/assets/sim.js"></script>
<script src="/__sim/assets/%s.js" defer></script>
</head><body class="site-%s"><div id="app"></div></body></html>`, html.EscapeString(st.Title), extra, raw, site, site)
}

// Gate applies page scenarios that precede any app: the Cloudflare
// challenge answers every request of the site until solved.
func (s *Server) Gate(site string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if strings.HasPrefix(p, "/cdn-cgi/") {
			s.cloudflareAssets(w, r, site)
			return
		}
		if s.PageScenario(site).Name == ScenarioCloudflare && !s.cfCleared(r, site) {
			w.Header().Set("cf-mitigated", "challenge")
			w.Header().Set("Cache-Control", "private, max-age=0, no-store, no-cache, must-revalidate")
			if r.Method == http.MethodGet && !strings.Contains(p, "/api") && !strings.Contains(p, "/rest/") && !strings.Contains(p, "/backend-") {
				w.Header().Set("Content-Type", "text/html; charset=UTF-8")
				w.WriteHeader(http.StatusForbidden)
				fmt.Fprint(w, cloudflarePage(Hosts[site]))
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=UTF-8")
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprint(w, "<!DOCTYPE html><html><head><title>Just a moment...</title></head><body></body></html>")
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) cfCleared(r *http.Request, site string) bool {
	c, err := r.Cookie("cf_clearance")
	return err == nil && c.Value == s.MACHex("cf", site)[:43]
}

func (s *Server) cloudflareAssets(w http.ResponseWriter, r *http.Request, site string) {
	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/solve"):
		http.SetCookie(w, &http.Cookie{Name: "cf_clearance", Value: s.MACHex("cf", site)[:43], Path: "/", Secure: true, HttpOnly: true, SameSite: http.SameSiteNoneMode})
		WriteJSON(w, http.StatusOK, O("success", true))
	case strings.HasSuffix(r.URL.Path, ".js"):
		w.Header().Set("Content-Type", "application/javascript")
		fmt.Fprint(w, "/* challenge platform (simulated) */")
	default:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><html><body style="font:14px sans-serif"><label><input type="checkbox" id="cf-verify" onclick="fetch('/cdn-cgi/challenge-platform/solve',{method:'POST',credentials:'include'}).then(()=>parent.location.reload())"> Verify you are human</label></body></html>`)
	}
}

func cloudflarePage(host string) string {
	return `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title><meta charset="UTF-8">
<style>body{font-family:system-ui,sans-serif;margin:4em}</style></head><body>
<div class="main-wrapper" role="main"><div class="main-content">
<h1 class="zone-name-title h1">` + host + `</h1>
<h2 id="challenge-running" class="h2">Verifying you are human. This may take a few seconds.</h2>
<div id="challenge-stage" class="cf-challenge-stage"><iframe src="/cdn-cgi/challenge-platform/h/b/turnstile/if/ov2/av0/rcv/0/0x4AAAAAAADnPIDROrmt1Wwj/light/fbE/new/normal/auto/" title="Widget containing a Cloudflare security challenge" style="border:0;width:300px;height:65px"></iframe></div>
<div id="challenge-body-text" class="core-msg spacer">` + host + ` needs to review the security of your connection before proceeding.</div>
<form id="challenge-form" action="/?__cf_chl_f_tk=sim" method="POST" enctype="application/x-www-form-urlencoded"><input type="hidden" name="md" value="sim"></form>
</div></div>
<script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1?ray=sim"></script>
</body></html>`
}

// LoginPage serves the site's login screen; "Continue" logs the user back in
// (clearing the logged_out and session_expired page scenarios of the site).
func (s *Server) LoginPage(site string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			if n := s.PageScenario(site).Name; n == ScenarioLoggedOut || n == ScenarioSessionExpired {
				s.mu.Lock()
				delete(s.sticky, "page:"+site)
				s.mu.Unlock()
			}
			s.ensureSession(w, r, site)
			http.Redirect(w, r, "/", http.StatusSeeOther)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!DOCTYPE html><html><head><title>Log in - %s</title></head><body><h1>Welcome back</h1>
<form method="POST"><input type="email" name="email" placeholder="Email address"><button type="submit">Continue</button></form></body></html>`, html.EscapeString(title(site)))
	}
}

func (s *Server) serveAsset(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/__sim/assets/")
	b, err := webFS.ReadFile("web/" + name)
	if st, ok := lookup(strings.TrimSuffix(name, ".js")); ok && err != nil && strings.HasSuffix(name, ".js") {
		// A site's page script comes from its vendor package.
		b, err = st.Script, nil
	}
	if err != nil || strings.Contains(name, "/") {
		http.NotFound(w, r)
		return
	}
	switch {
	case strings.HasSuffix(name, ".js"):
		w.Header().Set("Content-Type", "application/javascript; charset=utf-8")
	case strings.HasSuffix(name, ".css"):
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
	}
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(b)
}
