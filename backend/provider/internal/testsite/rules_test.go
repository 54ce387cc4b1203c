package testsite

import (
	"regexp"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/interstitial"
)

// Rules are the test site's own interstitial signs: its "The test site is
// resting" notice is a failed turn.
func Rules() []interstitial.Rule {
	return []interstitial.Rule{{
		ID:     ID + "/resting",
		Notice: regexp.MustCompile(`(?i)the test site is resting`),
		Verdict: interstitial.Result{Kind: interstitial.GenericError, Code: errs.GenerationError, Terminal: true,
			Message: "the test site is resting"},
	}}
}

func TestTheSiteRuleIsDetected(t *testing.T) {
	r := interstitial.Detect(interstitial.Snapshot{URL: "https://chat.testsite.example/c/1", ComposerPresent: true,
		ErrorTexts: []string{"The test site is resting. Come back soon."}})
	if r.Kind != interstitial.GenericError || r.Code != errs.GenerationError || r.Evidence["signal"] != "notice" {
		t.Fatalf("Detect = %+v, want the test site's resting rule", r)
	}
}
