package notify

import (
	"strings"
	"unicode/utf16"
)

// Windows shows a notification icon's balloon (on Windows 10 and 11 as a
// toast) from NOTIFYICONDATAW's fixed-size fields: szInfoTitle holds 63
// UTF-16 units and szInfo 255, each then a NUL. The text is plain (no
// markup to escape); these make any notice fit.
const (
	balloonTitleUnits = 63
	balloonBodyUnits  = 255
)

// balloonText is n as the balloon's title and body: control characters
// other than the body's line breaks become spaces (a NUL would end the
// field early), runs of blanks fold, and each part is cut to its field at
// a character boundary, "…" marking the cut. Windows shows no balloon
// with an empty body, so a notice without one has Ferry's name as its
// title and its summary as the body; an empty title is "Ferry".
func balloonText(n Notice) (title, body string) {
	title, body = plainLine(n.Summary, false), plainLine(n.Body, true)
	if body == "" {
		title, body = "", title
	}
	if title == "" {
		title = "Ferry"
	}
	if body == "" {
		body = "Ferry"
	}
	return fitUTF16(title, balloonTitleUnits), fitUTF16(body, balloonBodyUnits)
}

// plainLine replaces control characters with spaces (keeping '\n' when
// lines is set) and trims the ends of each line.
func plainLine(s string, lines bool) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' && lines:
			b.WriteRune('\n')
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			b.WriteRune(' ')
		default:
			b.WriteRune(r)
		}
	}
	parts := strings.Split(b.String(), "\n")
	for i, p := range parts {
		parts[i] = strings.Join(strings.Fields(p), " ")
	}
	return strings.TrimSpace(strings.Join(parts, "\n"))
}

// fitUTF16 cuts s to at most max UTF-16 code units, never inside a
// surrogate pair, ending a cut string with "…".
func fitUTF16(s string, max int) string {
	if len(utf16.Encode([]rune(s))) <= max {
		return s
	}
	var b strings.Builder
	units := 0
	for _, r := range s {
		n := utf16.RuneLen(r)
		if units+n > max-1 { // room for the ellipsis (one unit)
			break
		}
		b.WriteRune(r)
		units += n
	}
	return strings.TrimRight(b.String(), " \n") + "…"
}
