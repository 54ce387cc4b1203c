package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/service"
)

// TestDoctorSitesFindsADriftedRoleAndItsOverrideFixesIt drives the built
// ferry binary against the simulator's drifted Claude page (its send
// control renamed): doctor --sites names the role with a candidate and an
// override; that override in the settings makes the check pass and a real
// ask pass on the same page; the checks themselves send nothing.
func TestDoctorSitesFindsADriftedRoleAndItsOverrideFixesIt(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	h.Server.SetScenario(sim.Claude, sim.Scenario{Name: sim.ScenarioDriftedDOM})
	url := h.Browser.Endpoint()
	dataDir := t.TempDir()
	doctor := func(t *testing.T, extra ...string) (result, service.SitesReport) {
		t.Helper()
		r := ferry(t, nil, append([]string{"doctor", "--sites", "--site", sim.Claude, "--browser-url", url, "--data-dir", dataDir}, extra...)...)
		var rep service.SitesReport
		if len(extra) > 0 && extra[0] == "--json" {
			if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
				t.Fatalf("stdout is not a sites report: %v\n%s\n%s", err, r.stdout, r.stderr)
			}
		}
		return r, rep
	}
	var override string

	t.Run("the drifted send control is reported with a candidate and an override, exit 3", func(t *testing.T) {
		r, rep := doctor(t, "--json")
		if r.code != 3 || rep.OK || len(rep.Sites) != 1 {
			t.Fatalf("exit %d, report %+v\n%s", r.code, rep, r.stderr)
		}
		s := rep.Sites[0]
		if !s.LoggedIn || s.Interstitial != nil || !s.Opened || s.TargetID == "" {
			t.Fatalf("site %+v", s)
		}
		for _, role := range s.Roles {
			switch {
			case role.Role == "send":
				if role.Status != service.RoleMissing || len(role.Candidates) == 0 {
					t.Fatalf("send %+v", role)
				}
				c := role.Candidates[0]
				if c.Selector != sim.Drift[sim.Claude]["send"] && !strings.Contains(c.Selector, `data-testid="composer-send"`) {
					t.Errorf("the first candidate %q is not the renamed send control", c.Selector)
				}
				override = c.Override
			case role.Role == "composer":
				if role.Status != service.RoleOK || role.Matched != 2 {
					t.Errorf("composer %+v: the drifted page matches the third selector", role)
				}
			case role.Status == service.RoleMissing:
				t.Errorf("%s reported missing: %+v", role.Role, role)
			}
		}
		if override == "" {
			t.Fatal("no override")
		}
		if n := h.Server.SubmissionCount(sim.Claude); n != 0 {
			t.Fatalf("the check sent %d prompt(s)", n)
		}
	})

	t.Run("the text report names the missing role, its candidate and the override", func(t *testing.T) {
		r, _ := doctor(t)
		for _, want := range []string{"Claude (claude): NOT OK", "MISSING", "send", "candidate 1:", "override:", "composer-send", "1 site(s) not ok"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("text report lacks %q:\n%s", want, r.stdout)
			}
		}
		if r.code != 3 {
			t.Errorf("exit %d", r.code)
		}
	})

	t.Run("with the override in the settings the check passes, exit 0", func(t *testing.T) {
		if err := os.WriteFile(filepath.Join(dataDir, "settings.json"), []byte(`{"sites": [`+override+`]}`), 0o600); err != nil {
			t.Fatal(err)
		}
		if r := ferry(t, nil, "settings", "show", "--data-dir", dataDir); r.code != 0 || !strings.Contains(r.stdout, "composer-send") {
			t.Fatalf("the settings do not take the override: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		r, rep := doctor(t, "--json")
		if r.code != 0 || !rep.OK {
			t.Fatalf("exit %d, report %+v\n%s", r.code, rep, r.stderr)
		}
	})

	t.Run("ask passes against the same drifted page, sending once", func(t *testing.T) {
		r := ferry(t, nil, "ask", "--site", sim.Claude, "--browser-url", url, "--data-dir", dataDir, "--timeout", "45s", "--json",
			"--prompt", "Which ferry crosses the drift?")
		if r.code != 0 {
			t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		if n := h.Server.SubmissionCount(sim.Claude); n != 1 {
			t.Fatalf("%d submissions, want 1", n)
		}
	})

	t.Run("the tab with a finished turn checks its thread and its stream, sending nothing", func(t *testing.T) {
		r, rep := doctor(t, "--json")
		if r.code != 0 || !rep.OK {
			t.Fatalf("exit %d, report %+v\n%s", r.code, rep, r.stderr)
		}
		s := rep.Sites[0]
		for _, role := range s.Roles {
			if (role.Role == "assistant_turn" || role.Role == "answer_body" || role.Role == "finished" || role.Role == "user_turn") && role.Status != service.RoleOK {
				t.Errorf("%s on a tab with a finished turn: %+v", role.Role, role)
			}
		}
		if s.Stream == nil || s.Stream.Status != service.StreamOK {
			t.Errorf("stream %+v", s.Stream)
		}
		if n := h.Server.SubmissionCount(sim.Claude); n != 1 {
			t.Fatalf("%d submissions after the check, want the ask's 1", n)
		}
	})
}
