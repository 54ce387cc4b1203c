package service

import (
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

func TestSitesDoctorRequestsAreChecked(t *testing.T) {
	cases := []struct {
		name string
		req  interface{ Validate() error }
		ok   bool
	}{
		{"no site means every site in use", SitesDoctorRequest{}, true},
		{"named sites with a DevToolsActivePort path", SitesDoctorRequest{Sites: []string{"claude", "kimi"}, BrowserURL: "/home/u/profile"}, true},
		{"a blank site id is refused", SitesDoctorRequest{Sites: []string{"claude", " "}}, false},
		{"a browser address beyond loopback is refused", SitesDoctorRequest{BrowserURL: "ws://203.0.113.9:9222/devtools/browser/x"}, false},
		{"Ferry's own browser launched for the check", SitesDoctorRequest{Browser: &BrowserSpec{Mode: BrowserLaunch, Headless: true}}, true},
		{"Ferry's own running browser", SitesDoctorRequest{Browser: &BrowserSpec{Mode: BrowserOwn}}, true},
		{"a launched browser with an address is refused", SitesDoctorRequest{Browser: &BrowserSpec{Mode: BrowserLaunch, URL: "/home/u/profile"}}, false},
		{"a browser named twice is refused", SitesDoctorRequest{BrowserURL: "/home/u/profile", Browser: &BrowserSpec{Mode: BrowserOwn}}, false},
		{"an attached browser beyond loopback is refused", SitesDoctorRequest{Browser: &BrowserSpec{Mode: BrowserAttach, URL: "ws://203.0.113.9:9222/devtools/browser/x"}}, false},
		{"an override to apply", ApplySiteOverrideRequest{Override: `{"id":"claude"}`}, true},
		{"no override to apply is refused", ApplySiteOverrideRequest{Override: "  "}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.req.Validate()
			if c.ok && err != nil {
				t.Fatalf("refused: %v", err)
			}
			if !c.ok && !errs.Has(err, errs.BadInput) {
				t.Fatalf("got %v, want bad_input", err)
			}
		})
	}
}
