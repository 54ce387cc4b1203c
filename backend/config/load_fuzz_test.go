package config

import (
	"strconv"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

// FuzzParseSettings: any input either parses to valid settings or is a
// config_invalid envelope that names a line inside the file.
func FuzzParseSettings(f *testing.F) {
	f.Add([]byte(`{"theme":"dark","browser":{"extraArgs":["--x"]},"sites":[{"id":"a"}]}`))
	f.Add([]byte("{\n \"run\": {\"answerTimeout\": \"5m\"},\n \"quickPrompt\": {\"hotkey\": \"Alt+F2\"}\n}"))
	f.Add([]byte(`{"artifacts":{"maxRatio":"x"}}`))
	f.Add([]byte(`{"a":1,"a":2}`))
	f.Add([]byte("\xef\xbb\xbf{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := parseSettings("settings.json", data)
		if err == nil {
			if verr := s.Validate(); verr != nil {
				t.Fatalf("parsed settings do not validate: %v", verr)
			}
			return
		}
		e := errs.From(err)
		if e.Code != errs.ConfigInvalid {
			t.Fatalf("error code %s: %v", e.Code, err)
		}
		line, lerr := strconv.Atoi(e.Evidence["line"])
		if lerr != nil || line < 1 || line > 1+countLines(data) {
			t.Fatalf("line evidence %q outside the file: %v", e.Evidence["line"], err)
		}
	})
}

func countLines(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	return n
}
