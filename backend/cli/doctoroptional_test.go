package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/service"
)

// TestAPageWithoutItsModelPickerStaysOkForPlainAsks drives the built ferry
// binary against the simulator's DeepSeek page without its model radios
// (as the site serves it to some accounts): doctor --sites keeps the site
// ok, naming the missing role and what it blocks; a plain ask passes; an
// ask for a model fails with model_unavailable naming the role, before
// anything is sent.
func TestAPageWithoutItsModelPickerStaysOkForPlainAsks(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	h.Server.SetScenario(sim.DeepSeek, sim.Scenario{Name: sim.ScenarioNoModelPicker})
	url := h.Browser.Endpoint()
	dataDir := t.TempDir()
	base := []string{"--site", sim.DeepSeek, "--browser-url", url, "--data-dir", dataDir}

	t.Run("the check keeps the site ok and names the missing role with what it blocks, exit 0", func(t *testing.T) {
		r := ferry(t, nil, append([]string{"doctor", "--sites", "--json"}, base...)...)
		var rep service.SitesReport
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
			t.Fatalf("exit %d: stdout is not a sites report (%v)\n%s\n%s", r.code, err, r.stdout, r.stderr)
		}
		if r.code != 0 || !rep.OK || len(rep.Sites) != 1 || !rep.Sites[0].OK || len(rep.Sites[0].Problems) != 0 {
			t.Fatalf("exit %d, report %+v\n%s", r.code, rep, r.stderr)
		}
		found := false
		for _, role := range rep.Sites[0].Roles {
			if role.Role == "model_picker" {
				found = true
				if role.Status != service.RoleMissing || role.Blocks != "model_selection" {
					t.Errorf("model_picker %+v, want missing, blocking model_selection", role)
				}
			}
		}
		if !found {
			t.Fatal("the report has no model_picker")
		}
	})

	t.Run("the text report says the site is ok for plain asks and what the missing role blocks", func(t *testing.T) {
		r := ferry(t, nil, append([]string{"doctor", "--sites"}, base...)...)
		for _, want := range []string{"DeepSeek (deepseek): ok for plain asks; not for choosing a model with --model", "MISSING", "model_picker", "blocks choosing a model with --model", "all 1 site(s) ok"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("text report lacks %q:\n%s", want, r.stdout)
			}
		}
		if r.code != 0 {
			t.Errorf("exit %d", r.code)
		}
	})

	t.Run("an ask for a model fails with model_unavailable naming the role, sending nothing", func(t *testing.T) {
		r := ferry(t, nil, append([]string{"ask", "--model", "expert", "--timeout", "45s", "--json", "Which model answers?"}, base...)...)
		var out struct {
			Error *errs.Envelope `json:"error"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || out.Error == nil {
			t.Fatalf("exit %d: no error in %s (%v)\n%s", r.code, r.stdout, err, r.stderr)
		}
		e := out.Error
		if r.code != exitOf(errs.ModelUnavailable) || e.Code != errs.ModelUnavailable || e.Evidence["role"] != "model_picker" ||
			e.Evidence["feature"] != "model_selection" || !strings.Contains(e.Message, "nothing was sent") || strings.Contains(e.RetryHint, "--") {
			t.Fatalf("exit %d, error %+v", r.code, e)
		}
		if n := h.Server.SubmissionCount(sim.DeepSeek); n != 0 {
			t.Fatalf("%d submissions, want none", n)
		}
	})

	t.Run("a plain ask on the same page is answered", func(t *testing.T) {
		prompt := "Which ferry needs no model?"
		r := ferry(t, nil, append([]string{"ask", "--timeout", "45s", prompt}, base...)...)
		if r.code != 0 || r.stdout != providertest.NormalAnswer(prompt)+"\n" {
			t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		if n := h.Server.SubmissionCount(sim.DeepSeek); n != 1 {
			t.Fatalf("%d submissions, want 1", n)
		}
	})
}
