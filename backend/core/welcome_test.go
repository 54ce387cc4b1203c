package core

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/ownerbrowser"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/service"
)

// loginOf is site's entry of logins.
func loginOf(t *testing.T, logins []service.SiteLogin, site string) service.SiteLogin {
	t.Helper()
	for _, l := range logins {
		if l.Site == site {
			return l
		}
	}
	t.Fatalf("no %s among %+v", site, logins)
	return service.SiteLogin{}
}

func TestTheGetStartedViewShowsUntilASiteIsUsedOrItIsDismissed(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	desk := service.Owner(service.FaceDesktop)

	t.Run("a fresh data directory opens on it, with every site and no browser to read", func(t *testing.T) {
		s, c := openTestService(t, ctx)
		ob := ownerbrowser.New(func() config.BrowserSettings { return config.BrowserSettings{AttachURL: "http://127.0.0.1:1"} }, t.TempDir(), nil)
		defer ob.Close()
		s = newService(c, s.h, ob)
		w, err := s.Welcome(ctx, desk, service.WelcomeRequest{})
		if err != nil || !w.Show || w.Used || w.LoggedIn || w.Dismissed {
			t.Fatalf("welcome %+v %v, want shown on a fresh data directory", w, err)
		}
		logins, err := s.SiteLogins(ctx, desk, service.SiteLoginsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"chatgpt", "gemini", "claude", "grok", "kimi", "deepseek"} {
			if l := loginOf(t, logins, id); l.State != service.LoginNoBrowser || l.Name == "" || l.Name == id {
				t.Errorf("%s: %+v, want no_browser under its display name", id, l)
			}
		}
	})
	t.Run("a recorded run means a site was used", func(t *testing.T) {
		s, c := openTestService(t, ctx)
		repo, err := c.History(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := repo.Create(ctx, &job.Session{ID: "s_used", Site: "chatgpt", Prompt: "is this ferry used?"}); err != nil {
			t.Fatal(err)
		}
		w, err := s.Welcome(ctx, desk, service.WelcomeRequest{})
		if err != nil || w.Show || !w.Used {
			t.Fatalf("welcome %+v %v, want not shown once a run is recorded", w, err)
		}
	})
	t.Run("dismissing it is saved in the settings", func(t *testing.T) {
		s, c := openTestService(t, ctx)
		got, err := s.DismissWelcome(ctx, desk, service.DismissWelcomeRequest{})
		if err != nil || !got.WelcomeDismissed {
			t.Fatalf("dismiss: %+v %v", got.WelcomeDismissed, err)
		}
		w, err := s.Welcome(ctx, desk, service.WelcomeRequest{})
		if err != nil || w.Show || !w.Dismissed || w.Used {
			t.Fatalf("welcome %+v %v, want dismissed and not shown", w, err)
		}
		b, err := os.ReadFile(c.Paths().SettingsFile())
		if err != nil || !strings.Contains(string(b), `"welcomeDismissed": true`) {
			t.Fatalf("settings file %s (%v)", b, err)
		}
	})
	t.Run("Log in in a browser without a window says so, and starts none", func(t *testing.T) {
		s, c := openTestService(t, ctx)
		ob := ownerbrowser.New(func() config.BrowserSettings {
			return config.BrowserSettings{Binary: "/nonexistent/chromium", Headless: true}
		}, t.TempDir(), nil)
		defer ob.Close()
		s = newService(c, s.h, ob)
		_, err := s.OpenLogin(ctx, desk, service.OpenLoginRequest{Site: "claude"})
		if !errs.Has(err, errs.CapabilityMissing) || !strings.Contains(errs.From(err).Message, "Claude") {
			t.Fatalf("open login headless: %v, want capability_missing naming Claude", err)
		}
		if st := ob.State(); st.Status != service.BrowserNotStarted {
			t.Errorf("the browser's state is %+v, want not started", st)
		}
		if _, err := s.OpenLogin(ctx, desk, service.OpenLoginRequest{Site: "nosuch"}); !errs.Has(err, errs.UnknownSite) {
			t.Errorf("open login of an unknown site: %v", err)
		}
	})
	t.Run("an agent may not see or change it", func(t *testing.T) {
		s, c := openTestService(t, ctx)
		agent := pairTestClient(t, ctx, c, "c_welcome", true)
		if _, err := s.Welcome(ctx, agent, service.WelcomeRequest{}); !errs.Has(err, errs.HubForbidden) {
			t.Errorf("welcome by an agent: %v", err)
		}
		if _, err := s.OpenLogin(ctx, agent, service.OpenLoginRequest{Site: "claude"}); !errs.Has(err, errs.HubForbidden) {
			t.Errorf("open login by an agent: %v", err)
		}
		if _, err := s.DismissWelcome(ctx, agent, service.DismissWelcomeRequest{}); !errs.Has(err, errs.HubForbidden) {
			t.Errorf("dismiss by an agent: %v", err)
		}
		if _, err := s.OpenLogin(ctx, service.Owner(service.FaceDesktop), service.OpenLoginRequest{Site: " "}); !errs.Has(err, errs.BadInput) {
			t.Errorf("open login of no site: %v", err)
		}
	})
}

// TestLoggingInFromGetStarted opens Claude's login page through the
// service in a browser mapped to the simulator, where Claude is logged out,
// completes the login as a user would (Continue on the page) and sees the
// site turn logged in, and used for good.
func TestLoggingInFromGetStarted(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	desk := service.Owner(service.FaceDesktop)
	s, c := openTestService(t, ctx)
	ob := ownerbrowser.New(func() config.BrowserSettings { return config.BrowserSettings{AttachURL: h.Browser.Endpoint()} }, filepath.Join(t.TempDir(), "profile"), nil)
	defer ob.Close()
	s = newService(c, s.h, ob)
	h.Server.SetScenario(sim.Claude, sim.Scenario{Name: sim.ScenarioLoggedOut})
	defer h.Server.SetScenario(sim.Claude, sim.Scenario{Name: sim.ScenarioNormal})

	opened, err := s.OpenLogin(ctx, desk, service.OpenLoginRequest{Site: "claude"})
	if err != nil || opened.TargetID == "" || opened.Name != "Claude" {
		t.Fatalf("open login: %+v %v", opened, err)
	}
	b, err := ob.Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p, err := b.Page(ctx, opened.TargetID)
	if err != nil {
		t.Fatal(err)
	}
	info, err := p.Info(ctx)
	if err != nil || !strings.HasPrefix(info.URL, "https://claude.ai/login") {
		t.Fatalf("the login tab shows %q (%v)", info.URL, err)
	}
	var visible string
	if err := p.EvalInto(ctx, &visible, `() => document.visibilityState`); err != nil || visible != "visible" {
		t.Errorf("the login tab is %q (%v), want it in front", visible, err)
	}
	again, err := s.OpenLogin(ctx, desk, service.OpenLoginRequest{Site: "claude"})
	if err != nil || again.TargetID != opened.TargetID {
		t.Errorf("a second Log in opened %+v (%v), want the login tab %s again", again, err, opened.TargetID)
	}

	logins, err := s.SiteLogins(ctx, desk, service.SiteLoginsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if l := loginOf(t, logins, "claude"); l.State != service.LoginLoggedOut || l.TargetID != opened.TargetID {
		t.Fatalf("on its login page Claude reads %+v", l)
	}
	// No tab of Gemini is open and it was never seen: nothing was read.
	if l := loginOf(t, logins, "gemini"); l.State != service.LoginNotChecked || l.TargetID != "" {
		t.Errorf("with no tab and never seen, Gemini reads %+v, want not_checked", l)
	}
	if w, err := s.Welcome(ctx, desk, service.WelcomeRequest{}); err != nil || !w.Show || w.LoggedIn {
		t.Fatalf("before the login: %+v %v", w, err)
	}

	if _, err := p.Click(ctx, `form button[type=submit]`); err != nil {
		t.Fatal(err)
	}
	var state string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		logins, err := s.SiteLogins(ctx, desk, service.SiteLoginsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if state = loginOf(t, logins, "claude").State; state == service.LoginLoggedIn {
			break
		}
	}
	if state != service.LoginLoggedIn {
		t.Fatalf("after Continue Claude reads %s, want logged_in", state)
	}
	w, err := s.Welcome(ctx, desk, service.WelcomeRequest{})
	if err != nil || w.Show || !w.Used || !w.LoggedIn {
		t.Fatalf("after the login: %+v %v", w, err)
	}

	// Logged out later, the site stays used: the view does not come back.
	h.Server.SetScenario(sim.Claude, sim.Scenario{Name: sim.ScenarioLoggedOut})
	if err := p.Navigate(ctx, "https://claude.ai/login"); err != nil {
		t.Fatal(err)
	}
	w, err = s.Welcome(ctx, desk, service.WelcomeRequest{})
	if err != nil || w.Show || !w.Used || w.LoggedIn {
		t.Fatalf("logged out again: %+v %v, want used, not shown, no site logged in", w, err)
	}

	// A site page behind its login wall (ChatGPT answers logged-out users)
	// reads logged out, and logged in once the user is.
	h.Server.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioLoggedOut})
	defer h.Server.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioNormal})
	gpt, err := b.OpenTab(ctx, "about:blank")
	if err != nil {
		t.Fatal(err)
	}
	defer gpt.Close(context.WithoutCancel(ctx))
	if err := gpt.Navigate(ctx, sim.URL(sim.ChatGPT, "/")); err != nil {
		t.Fatal(err)
	}
	waitLogin := func(site, want string) {
		t.Helper()
		var got service.SiteLogin
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
			logins, err := s.SiteLogins(ctx, desk, service.SiteLoginsRequest{})
			if err != nil {
				t.Fatal(err)
			}
			if got = loginOf(t, logins, site); got.State == want {
				return
			}
		}
		t.Fatalf("%s reads %+v, want %s", site, got, want)
	}
	waitLogin("chatgpt", service.LoginLoggedOut)
	h.Server.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioNormal})
	if err := gpt.Navigate(ctx, sim.URL(sim.ChatGPT, "/")); err != nil {
		t.Fatal(err)
	}
	waitLogin("chatgpt", service.LoginLoggedIn)
}

// Ferry works in the background: a tab comes to the front only where the
// user asked to see it: a login (logins.Open), a tab's Show or Log in
// (TabAction), a run's conversation (ShowRunTab).
func TestOnlyWhatTheUserAskedForBringsATabToTheFront(t *testing.T) {
	root := filepath.Join("..", "..")
	var callers []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "frontend" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.Contains(string(b), ".ShowTab(") {
			callers = append(callers, filepath.ToSlash(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"../../backend/core/service_showtab.go", "../../backend/core/service_tabaction.go", "../../backend/logins/logins.go"}
	if !slices.Equal(callers, want) {
		t.Fatalf("ShowTab is called from %v, want %v alone", callers, want)
	}
}
