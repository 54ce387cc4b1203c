package interstitial

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

var (
	// "resets after 8:53 PM", "return at 20:53", "try again tomorrow at 9 AM"
	clockPattern = regexp.MustCompile(`(?i)\b(?:resets?|return|returns|available again|try again|back|until)\b[^.\d]{0,20}?\b(tomorrow\s+(?:at\s+)?)?(\d{1,2})(?::(\d{2}))?\s*([ap]\.?\s?m\.?)?(?:[^a-z0-9]|$)`)
	// "in 3 hours", "in 45 minutes"
	relPattern = regexp.MustCompile(`(?i)\bin\s+(\d{1,3})\s*(hours?|hrs?|h|minutes?|mins?|m)\b`)
)

// resetTime finds when a limit resets: a time[datetime] value first, then a
// clock time or a relative time in the notice text, read in the page's
// local time. ok is false when the page does not say.
func resetTime(s Snapshot, text string) (time.Time, bool) {
	for _, v := range s.Times {
		for _, layout := range []string{time.RFC3339Nano, time.RFC3339, "2006-01-02T15:04:05", "2006-01-02T15:04"} {
			if t, err := time.ParseInLocation(layout, strings.TrimSpace(v), pageZone(s)); err == nil {
				return t.UTC(), true
			}
		}
	}
	if s.Now.IsZero() {
		return time.Time{}, false
	}
	now := s.Now.In(pageZone(s))
	if m := clockPattern.FindStringSubmatch(text); m != nil {
		h, _ := strconv.Atoi(m[2])
		min := 0
		if m[3] != "" {
			min, _ = strconv.Atoi(m[3])
		}
		ampm := strings.ToLower(strings.NewReplacer(".", "", " ", "").Replace(m[4]))
		switch {
		case ampm == "pm" && h < 12:
			h += 12
		case ampm == "am" && h == 12:
			h = 0
		}
		if h < 24 && min < 60 && (m[3] != "" || ampm != "") {
			t := time.Date(now.Year(), now.Month(), now.Day(), h, min, 0, 0, now.Location())
			if m[1] != "" {
				t = t.AddDate(0, 0, 1)
			} else if !t.After(now) {
				t = t.AddDate(0, 0, 1)
			}
			return t.UTC(), true
		}
	}
	if m := relPattern.FindStringSubmatch(text); m != nil {
		n, _ := strconv.Atoi(m[1])
		unit := time.Minute
		if strings.HasPrefix(strings.ToLower(m[2]), "h") {
			unit = time.Hour
		}
		return s.Now.Add(time.Duration(n) * unit).UTC(), true
	}
	return time.Time{}, false
}

// pageZone is the page's time zone as a fixed offset: getTimezoneOffset is
// UTC minus local time, in minutes.
func pageZone(s Snapshot) *time.Location {
	return time.FixedZone("page", -s.TZOffsetMinutes*60)
}
