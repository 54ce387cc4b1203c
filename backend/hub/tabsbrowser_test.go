package hub

import (
	"net/url"
	"reflect"
	"testing"

	"github.com/ferrydesk/ferry/backend/service"
)

func TestTabsBrowserQueryRoundTrips(t *testing.T) {
	t.Run("no browser parameter is the owner's long-lived browser", func(t *testing.T) {
		if b := TabsBrowserOf(url.Values{}); b != nil {
			t.Fatalf("got %+v", b)
		}
	})
	for _, spec := range []service.BrowserSpec{
		{Mode: service.BrowserOwn},
		{Mode: service.BrowserAttach, URL: "ws://127.0.0.1:9222/devtools/browser/x"},
		{Mode: service.BrowserLaunch, Chromium: "/usr/bin/chromium", Headless: true, Args: []string{"--a", "--b=c d"}},
	} {
		t.Run("a "+string(spec.Mode)+" browser reads back as sent", func(t *testing.T) {
			q, err := url.ParseQuery(TabsBrowserQuery(spec).Encode())
			if err != nil {
				t.Fatal(err)
			}
			got := TabsBrowserOf(q)
			if got == nil || !reflect.DeepEqual(*got, spec) {
				t.Fatalf("got %+v, want %+v", got, spec)
			}
		})
	}
}
