package cli

import (
	"context"
	"flag"
	"strings"

	"github.com/ferrydesk/ferry/backend/cli/internal/browserflag"
	"github.com/ferrydesk/ferry/backend/cli/internal/termtext"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// siteList is a repeatable --site flag.
type siteList []string

func (l *siteList) String() string { return strings.Join(*l, ",") }

// Set adds one site id, or several separated by commas.
func (l *siteList) Set(s string) error {
	for _, id := range strings.Split(s, ",") {
		if id = strings.TrimSpace(id); id != "" {
			*l = append(*l, id)
		}
	}
	return nil
}

// Get returns the ids given.
func (l *siteList) Get() any { return []string(*l) }

// SitesDoctorFlags defines the flags of `ferry doctor --sites`: --sites,
// --site ID (repeatable) and the browser flags `ferry ask` takes.
func SitesDoctorFlags(fs *flag.FlagSet) {
	fs.Bool("sites", false, "check the sites live in the browser, read-only: login, interstitial, every selector role, the stream")
	fs.Var(&siteList{}, "site", "with --sites: check this site (repeatable; default: every site you use)")
	registerBrowserFlags(fs, "the owner's browser, else Ferry's running one, else launch")
}

// SitesFlagsGiven reports whether inv holds a flag that only goes with
// --sites: --site or a browser flag.
func SitesFlagsGiven(inv *Invocation) bool {
	return len(inv.flag("site").([]string)) > 0 || browserflag.Given(inv.fs)
}

// DoctorSites is `ferry doctor --sites`: the live check of the sites
// through the owner when one runs (in its browser), else in-process in the
// browser the flags name: by default Ferry's own running browser, else
// Ferry's own launched on its profile for the check and quit after it. It
// prints the report (JSON with --json) and returns a Reported
// errs.EnvironmentNotReady when a site is not ok. Errors: the browser
// flags' BadInput; the check's (see service.Service.DoctorSites).
func DoctorSites(ctx context.Context, inv *Invocation) error {
	req := service.SitesDoctorRequest{Sites: inv.flag("site").([]string)}
	if browserflag.Given(inv.fs) {
		spec, err := browserflag.Spec(inv.fs, browserflag.Launch)
		if err != nil {
			return err
		}
		req.Browser = &spec
	}
	svc, done, err := openService(ctx, inv)
	if err != nil {
		return err
	}
	defer done()
	rep, err := svc.DoctorSites(ctx, cliCaller, req)
	if err != nil {
		return err
	}
	if inv.json {
		err = inv.printJSON(rep)
	} else {
		err = termtext.SitesReport(inv.stdout, rep)
	}
	if err != nil {
		return err
	}
	if !rep.OK {
		var bad []string
		for _, s := range rep.Sites {
			if !s.OK {
				bad = append(bad, s.Site)
			}
		}
		return Reported(errs.New(errs.EnvironmentNotReady, "%d site(s) not ready: %s", len(bad), strings.Join(bad, ", ")).
			WithHint("apply the overrides `ferry doctor --sites` prints to the \"sites\" setting, or log in, then check again"))
	}
	return nil
}
