// Package safetext makes text that came from an agent or a site (a prompt,
// a client's name, a tab's title or URL, a file name in a zip) safe to show
// in a terminal or a log line. A terminal interprets control characters
// (ESC[8m hides what follows, ESC[2K ESC[1A erases a line so that a fake one
// can be drawn, CR and BS overwrite) and reorders text around bidi
// controls, so such text could forge what the user reads, an approval most
// of all. Every character that could do so is written as a visible escape
// (\x1b, \u202e, \xff for a byte that is not UTF-8): never interpreted,
// never dropped, so what is shown is all of the text, in order.
//
// Line is for one-line places (tables, lists, log lines) and escapes
// newlines and tabs as well; Block keeps newlines and tabs for showing a
// whole text. Backslashes are left as they are: a literal "\x1b" in the
// text reads the same as an escaped ESC, which forges nothing.
package safetext

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Line is s made safe for one line of a terminal or a log: every control
// and format character, newlines and tabs included, and every byte that is
// not UTF-8 escaped visibly.
func Line(s string) string { return escape(s, false) }

// Block is s made safe for a terminal as several lines: as Line, but a
// newline and a tab stay as they are. A carriage return is escaped (it
// would move back over the line shown).
func Block(s string) string { return escape(s, true) }

// Head is the first n characters of s made safe by Line, and how many
// characters of s it leaves out (0 when s fits). A byte that is not UTF-8
// counts as one character, as Count counts.
func Head(s string, n int) (head string, rest int) {
	if n < 0 {
		n = 0
	}
	i, kept := 0, 0
	for i < len(s) && kept < n {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		kept++
	}
	return Line(s[:i]), utf8.RuneCountInString(s[i:])
}

// Count is the length of s in characters (a byte that is not UTF-8 counts
// as one) and in lines (a final newline ends the last line rather than
// starting another; the empty text has none).
func Count(s string) (chars, lines int) {
	if s == "" {
		return 0, 0
	}
	lines = strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		lines++
	}
	return utf8.RuneCountInString(s), lines
}

// escape writes s with every unsafe character escaped; keepLines keeps
// newlines and tabs.
func escape(s string, keepLines bool) string {
	if safe(s, keepLines) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case keepLines && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r) && r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\U%08x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// safe reports whether s needs no escape, so that the common case costs
// no copy.
func safe(s string, keepLines bool) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return false
		case keepLines && (r == '\n' || r == '\t'):
		case r < 0x20 || r == 0x7f || unsafeRune(r):
			return false
		}
		i += size
	}
	return true
}

// unsafeRune reports whether r (not ASCII) can change how a terminal shows
// the text around it or hide text: the C1 controls U+0080–U+009F, the
// format characters (bidi marks, overrides and isolates, zero-width
// spaces, the byte-order mark, tag characters), and the line and paragraph
// separators. The zero-width joiner and non-joiner stay: scripts such as
// Persian and emoji sequences need them, and they hide nothing.
func unsafeRune(r rune) bool {
	if r < 0x80 || r == 0x200c || r == 0x200d {
		return false
	}
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.In(r, unicode.Zl, unicode.Zp)
}
