package service

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
)

func TestDesktopRequestsValidate(t *testing.T) {
	now := time.Now()
	bad := config.Defaults()
	bad.Theme = "purple"
	cases := []struct {
		name string
		req  interface{ Validate() error }
		code errs.Code
	}{
		{"the default settings may be saved", SaveSettingsRequest{Settings: config.Defaults()}, ""},
		{"settings with an unknown theme may not", SaveSettingsRequest{Settings: bad}, errs.ConfigInvalid},
		{"models need a site", ListModelsRequest{Site: " "}, errs.BadInput},
		{"a site's models", ListModelsRequest{Site: "chatgpt"}, ""},
		{"an open date range", HistoryQuery{From: now}, ""},
		{"a range that ends where it starts is empty", HistoryQuery{From: now, To: now}, errs.BadInput},
		{"a range that ends before it starts is empty", HistoryQuery{From: now, To: now.Add(-time.Hour)}, errs.BadInput},
		{"a history page has a bounded size", HistoryQuery{Limit: MaxListLimit + 1}, errs.BadInput},
		{"a history query may name a tool (the store knows which there are)", HistoryQuery{Tool: "web-search"}, ""},
		{"a listing may ask for the runs without a tool", SessionQuery{Tool: "none"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := errs.CodeOf(tc.req.Validate()); got != tc.code {
				t.Fatalf("code %q, want %q", got, tc.code)
			}
		})
	}
}

func TestTheListingQueriesCarryTheToolOnTheWire(t *testing.T) {
	h, err := json.Marshal(HistoryQuery{Tool: "deep-research"})
	if err != nil || string(h) != `{"tool":"deep-research"}` {
		t.Fatalf("history query %s %v", h, err)
	}
	var q SessionQuery
	if err := json.Unmarshal([]byte(`{"site":"chatgpt","tool":"none"}`), &q); err != nil || q.Tool != "none" || q.Site != "chatgpt" {
		t.Fatalf("session query %+v %v", q, err)
	}
}

func TestLocalOnlySaysWhereTheOperationRuns(t *testing.T) {
	_, err := LocalOnly{}.Settings(context.Background(), Owner(FaceCLI), SettingsRequest{})
	e := errs.From(err)
	if e.Code != errs.CapabilityMissing || !strings.Contains(e.Message, "reading the settings") || !strings.Contains(e.Message, "owns the data directory") {
		t.Fatalf("%+v", e)
	}
}
