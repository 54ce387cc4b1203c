package hub

import (
	"net/url"

	"github.com/ferrydesk/ferry/backend/service"
)

// The browser of GET /v1/tabs: without a "browser" parameter the owner's
// long-lived browser; with one, the service.BrowserSpec its parameters
// spell (browser=own|attach|launch, url, chromium, headless=true, arg
// repeated).

// TabsBrowserQuery is the query of GET /v1/tabs for the tabs of spec.
func TabsBrowserQuery(spec service.BrowserSpec) url.Values {
	q := url.Values{"browser": {string(spec.Mode)}}
	if spec.URL != "" {
		q.Set("url", spec.URL)
	}
	if spec.Chromium != "" {
		q.Set("chromium", spec.Chromium)
	}
	if spec.Headless {
		q.Set("headless", "true")
	}
	for _, a := range spec.Args {
		q.Add("arg", a)
	}
	return q
}

// TabsBrowserOf reads the browser of GET /v1/tabs from its query (nil: the
// owner's long-lived browser). The Service validates it.
func TabsBrowserOf(q url.Values) *service.BrowserSpec {
	if !q.Has("browser") {
		return nil
	}
	return &service.BrowserSpec{Mode: service.BrowserMode(q.Get("browser")), URL: q.Get("url"), Chromium: q.Get("chromium"),
		Headless: q.Get("headless") == "true", Args: q["arg"]}
}
