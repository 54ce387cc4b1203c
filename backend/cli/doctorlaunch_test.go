package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/service"
)

// TestDoctorSitesWithNothingRunningLaunchesFerrysBrowserAndQuitsIt: with
// no owner and no browser of Ferry's running, `ferry doctor --sites` opens
// Ferry's own browser on the data directory's profile, as `ferry ask`
// does (here headless on the simulator, from the browser flags ask takes,
// after the command name or before it), reports the sites, and leaves no
// browser behind.
func TestDoctorSitesWithNothingRunningLaunchesFerrysBrowserAndQuitsIt(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	srv := sim.New(providertest.DefaultSimOptions...)
	if err := srv.Start(ctx, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	launch := []string{"--headless", "--chromium", providertest.ChromiumBin}
	for _, f := range srv.ChromiumFlags() {
		launch = append(launch, "--browser-arg="+f)
	}
	check := func(t *testing.T, args []string, site string) {
		t.Helper()
		dataDir := t.TempDir()
		r := ferry(t, nil, append(args, "--data-dir", dataDir, "--json")...)
		var rep service.SitesReport
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
			t.Fatalf("exit %d: stdout is not a sites report (%v)\n%s\n%s", r.code, err, r.stdout, r.stderr)
		}
		if r.code != 0 || !rep.OK || len(rep.Sites) != 1 {
			t.Fatalf("exit %d, report %+v\n%s", r.code, rep, r.stderr)
		}
		s := rep.Sites[0]
		if s.Site != site || !s.OK || !s.LoggedIn || !s.Opened || s.Error != nil {
			t.Fatalf("the check of %s in the browser it launched: %+v", site, s)
		}
		profile := filepath.Join(dataDir, "browser-profile")
		for _, p := range processesNaming(t, "--user-data-dir="+profile) {
			t.Errorf("a browser on the data directory's profile outlived ferry doctor: %s", p)
		}
		if n := srv.SubmissionCount(site); n != 0 {
			t.Errorf("the check sent %d prompt(s) to %s", n, site)
		}
		t.Logf("ferry doctor --sites --site %s launched, checked and quit Ferry's browser in %s", site, r.took)
	}

	t.Run("the browser flags after the command name launch the browser the check quits", func(t *testing.T) {
		check(t, append([]string{"doctor", "--sites", "--site", sim.DeepSeek}, launch...), sim.DeepSeek)
	})
	t.Run("the browser flags before the command name do the same", func(t *testing.T) {
		check(t, append(append([]string{}, launch...), "doctor", "--sites", "--site", sim.Claude, "--browser", "launch"), sim.Claude)
	})
	t.Run("doctor takes every browser flag ask takes, alike", func(t *testing.T) {
		ask, doctor := flagSetOf("ask"), flagSetOf("doctor")
		for _, name := range []string{"browser", "browser-url", "chromium", "headless", "browser-arg"} {
			a, d := ask.Lookup(name), doctor.Lookup(name)
			if a == nil {
				t.Fatalf("ask does not take --%s", name)
			}
			if d == nil {
				t.Errorf("doctor does not take --%s, which ask takes", name)
				continue
			}
			if reflect.TypeOf(a.Value) != reflect.TypeOf(d.Value) || isBoolFlag(a) != isBoolFlag(d) {
				t.Errorf("doctor's --%s is a %T, ask's a %T", name, d.Value, a.Value)
			}
		}
	})
}
