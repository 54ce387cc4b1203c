package config_test

import (
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
)

func TestTheRateLimitCooldownIsValidatedAndParsed(t *testing.T) {
	cases := []struct {
		name, value string
		want        time.Duration
		field       string // "" = valid
	}{
		{"an absent cooldown is the default of 300 s", "", 300 * time.Second, ""},
		{"a cooldown of 90s is valid", "90s", 90 * time.Second, ""},
		{"a cooldown of 1h is valid", "1h", time.Hour, ""},
		{"a cooldown that is no duration is invalid", "five minutes", 0, "run.rateLimitCooldown"},
		{"a cooldown under a second is invalid", "500ms", 0, "run.rateLimitCooldown"},
		{"a cooldown over an hour is invalid", "61m", 0, "run.rateLimitCooldown"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := config.Defaults()
			s.Run.RateLimitCooldown = c.value
			err := s.Validate()
			if c.field == "" {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				if got := s.RateLimitCooldownDuration(); got != c.want {
					t.Fatalf("cooldown %s, want %s", got, c.want)
				}
				return
			}
			if !errs.Has(err, errs.ConfigInvalid) || errs.From(err).Evidence["field"] != c.field || !strings.Contains(err.Error(), c.value) {
				t.Fatalf("Validate = %v, want ConfigInvalid naming %s and the value", err, c.field)
			}
		})
	}
}
