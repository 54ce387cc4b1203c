package notify

import (
	"strings"
	"testing"
	"unicode/utf16"
)

func TestBalloonTextFitsTheNotifyIconFields(t *testing.T) {
	units := func(s string) int { return len(utf16.Encode([]rune(s))) }
	cases := []struct {
		name                string
		n                   Notice
		wantTitle, wantBody string
	}{
		{"a short notice is unchanged", Notice{Summary: "ChatGPT answered", Body: "Write a haiku\nabout ferries"}, "ChatGPT answered", "Write a haiku\nabout ferries"},
		{"markup characters are plain text", Notice{Summary: "<b>Claude</b> & co", Body: "a < b && c > d"}, "<b>Claude</b> & co", "a < b && c > d"},
		{"control characters become spaces", Notice{Summary: "x\x00y\tz", Body: "a\x07b\r\nc"}, "x y z", "a b\nc"},
		{"a title has no line breaks", Notice{Summary: "one\ntwo", Body: "b"}, "one two", "b"},
		{"a notice without a body shows its summary as the body (Windows shows no empty balloon)", Notice{Summary: "Run failed · ChatGPT"}, "Ferry", "Run failed · ChatGPT"},
		{"an empty notice still shows", Notice{}, "Ferry", "Ferry"},
		{"blank runs fold", Notice{Summary: "  a    b  ", Body: " x   y \n  z "}, "a b", "x y\nz"},
		{"an empty title is Ferry's name", Notice{Summary: " ", Body: "b"}, "Ferry", "b"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			title, body := balloonText(c.n)
			if title != c.wantTitle || body != c.wantBody {
				t.Errorf("balloonText = %q, %q; want %q, %q", title, body, c.wantTitle, c.wantBody)
			}
		})
	}
	t.Run("a long title and body are cut to their fields with an ellipsis", func(t *testing.T) {
		title, body := balloonText(Notice{Summary: strings.Repeat("t", 200), Body: strings.Repeat("b", 1000)})
		if units(title) != balloonTitleUnits || !strings.HasSuffix(title, "…") {
			t.Errorf("title is %d units (%q), want %d ending in …", units(title), title, balloonTitleUnits)
		}
		if units(body) != balloonBodyUnits || !strings.HasSuffix(body, "…") {
			t.Errorf("body is %d units, want %d ending in …", units(body), balloonBodyUnits)
		}
	})
	t.Run("a cut never splits a surrogate pair", func(t *testing.T) {
		title, _ := balloonText(Notice{Summary: strings.Repeat("😀", 40), Body: "b"})
		if units(title) > balloonTitleUnits || strings.ContainsRune(title, '\uFFFD') {
			t.Errorf("title %q is %d units", title, units(title))
		}
		for _, r := range strings.TrimSuffix(title, "…") {
			if r != '😀' {
				t.Fatalf("title holds %q, a broken character", r)
			}
		}
	})
}
