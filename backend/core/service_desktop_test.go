package core

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/ownerbrowser"
	"github.com/ferrydesk/ferry/backend/service"
)

func TestTheDesktopOperationsAreTheOwners(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, c := openTestService(t, ctx)
	agent := pairTestClient(t, ctx, c, "c_agent", true)
	desk := service.Owner(service.FaceDesktop)

	t.Run("an agent may do none of them", func(t *testing.T) {
		for name, call := range map[string]func() error{
			"settings": func() error { _, err := s.Settings(ctx, agent, service.SettingsRequest{}); return err },
			"save settings": func() error {
				_, err := s.SaveSettings(ctx, agent, service.SaveSettingsRequest{Settings: c.Settings()})
				return err
			},
			"active jobs":  func() error { _, err := s.ListActiveJobs(ctx, agent, service.ListActiveJobsRequest{}); return err },
			"history":      func() error { _, err := s.SearchHistory(ctx, agent, service.HistoryQuery{}); return err },
			"retry a run":  func() error { _, err := s.RetryRun(ctx, agent, service.RetryRunRequest{Session: "x"}); return err },
			"artifacts":    func() error { _, err := s.ListArtifacts(ctx, agent, service.ListArtifactsRequest{}); return err },
			"setup checks": func() error { _, err := s.CheckSetup(ctx, agent, service.CheckSetupRequest{}); return err },
		} {
			if err := call(); !errs.Has(err, errs.HubForbidden) {
				t.Errorf("%s by an agent: %v, want hub_forbidden", name, err)
			}
		}
	})
	t.Run("an agent lists the sites, as the MCP sites tool shows them", func(t *testing.T) {
		sites, err := s.ListSites(ctx, agent, service.ListSitesRequest{})
		if err != nil || len(sites) == 0 {
			t.Fatalf("sites by an agent: %d %v", len(sites), err)
		}
	})
	t.Run("saved settings are in force and an invalid value changes nothing", func(t *testing.T) {
		next := c.Settings()
		next.Notifications = !next.Notifications
		got, err := s.SaveSettings(ctx, desk, service.SaveSettingsRequest{Settings: next})
		if err != nil || got.Notifications != next.Notifications {
			t.Fatalf("save: %+v %v", got.Notifications, err)
		}
		bad := next
		bad.Theme = "purple"
		if _, err := s.SaveSettings(ctx, desk, service.SaveSettingsRequest{Settings: bad}); !errs.Has(err, errs.ConfigInvalid) {
			t.Fatalf("bad theme: %v", err)
		}
		if now, _ := s.Settings(ctx, desk, service.SettingsRequest{}); now.Theme == "purple" {
			t.Fatal("a rejected value is in force")
		}
	})
	t.Run("a sites list is checked where it is wrong", func(t *testing.T) {
		if _, err := s.CheckSites(ctx, desk, service.CheckSitesRequest{Text: "[{\"id\": \"chatgpt\", \"nmae\": 1}]"}); !errs.Has(err, errs.ConfigInvalid) {
			t.Fatalf("bad list: %v", err)
		}
		got, err := s.CheckSites(ctx, desk, service.CheckSitesRequest{Text: "[{\"id\": \"chatgpt\", \"name\": \"Work\"}]"})
		if err != nil || len(got.Sites) != 1 {
			t.Fatalf("good list: %+v %v", got, err)
		}
	})
	t.Run("the sites and a site's models are listed, default first", func(t *testing.T) {
		sites, err := s.ListSites(ctx, desk, service.ListSitesRequest{})
		if err != nil || len(sites) == 0 {
			t.Fatalf("sites %+v %v", sites, err)
		}
		for _, st := range sites {
			// Where a chat goes is ChatGPT's: its temporary chat, projects, GPTs, archive.
			if want := st.ID == "chatgpt"; st.Temporary != want || st.Places != want {
				t.Errorf("%s offers temporary %v and places %v, want %v", st.ID, st.Temporary, st.Places, want)
			}
		}
		models, err := s.ListModels(ctx, desk, service.ListModelsRequest{Site: "chatgpt"})
		if err != nil || len(models) == 0 || models[0].Alias != "default" {
			t.Fatalf("models %+v %v", models, err)
		}
		if _, err := s.ListModels(ctx, desk, service.ListModelsRequest{Site: "nosuch"}); !errs.Has(err, errs.UnknownSite) {
			t.Fatalf("unknown site: %v", err)
		}
	})
	t.Run("an empty date range is refused before anything is read", func(t *testing.T) {
		now := time.Now()
		if _, err := s.SearchHistory(ctx, desk, service.HistoryQuery{From: now, To: now}); !errs.Has(err, errs.BadInput) {
			t.Fatalf("empty range: %v", err)
		}
	})
	t.Run("a core without an owner's browser says so", func(t *testing.T) {
		if _, err := s.BrowserState(ctx, desk, service.BrowserStateRequest{}); !errs.Has(err, errs.HubNotRunning) {
			t.Fatalf("browser state: %v", err)
		}
	})
	t.Run("the setup checks report this process's store", func(t *testing.T) {
		r, err := s.CheckSetup(ctx, desk, service.CheckSetupRequest{})
		if err != nil || len(r.Checks) == 0 {
			t.Fatalf("%+v %v", r, err)
		}
	})
	t.Run("with a gateway that did not start, approvals are listed from the store and pairing says the gateway is not running", func(t *testing.T) {
		gs := newService(s.c, s.h, nil)
		gs.gateway.set(gatewayDown) // OwnerOptions.Gateway
		if _, err := gs.ListApprovals(ctx, desk, service.ListApprovalsRequest{}); err != nil {
			t.Fatalf("approvals: %v", err)
		}
		_, err := gs.NewPairingCode(ctx, desk, service.PairingRequest{})
		if !errs.Has(err, errs.HubNotRunning) || !strings.Contains(errs.From(err).Message, "not running in this window") {
			t.Fatalf("pairing: %v", err)
		}
		gs.gateway.set(gatewayUp) // Owner.Serve
		if code, err := gs.NewPairingCode(ctx, desk, service.PairingRequest{}); err != nil || code.Code == "" {
			t.Fatalf("pairing once the gateway is up: %+v %v", code, err)
		}
	})
	t.Run("with the owner's browser, its state is not_started until asked for", func(t *testing.T) {
		ob := ownerbrowser.New(func() config.BrowserSettings { return config.BrowserSettings{AttachURL: "http://127.0.0.1:1"} }, t.TempDir(), nil)
		defer ob.Close()
		bs := newService(s.c, s.h, ob)
		st, err := bs.BrowserState(ctx, desk, service.BrowserStateRequest{})
		if err != nil || st.Status != service.BrowserNotStarted || st.Mode != "attach" {
			t.Fatalf("%+v %v", st, err)
		}
		tabs, err := bs.TabStates(ctx, desk, service.TabStatesRequest{})
		if err != nil || len(tabs) != 0 {
			t.Fatalf("tabs of an unstarted browser: %+v %v", tabs, err)
		}
		if st, err := bs.ConnectBrowser(ctx, desk, service.ConnectBrowserRequest{}); err == nil || st.Status != service.BrowserDisconnected || st.Problem == nil {
			t.Fatalf("connect to nothing: %+v %v", st, err)
		}
	})
}
