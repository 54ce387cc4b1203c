package site

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ferrydesk/ferry/backend/errs"
)

// CheckOverridesText reads text as the "sites" setting (the Settings view's
// sites editor): a JSON array of objects, each an Override, merged in
// order over r's sites, and returns the entries. Every problem is
// placed at a line and column of text, so the editor can show it where it
// is: the error is a config_invalid (or site_incomplete) envelope with
// evidence "line" and "column" (1-based), "entry" (1-based) when one is to
// blame, and field "sites".
func (r *Registry) CheckOverridesText(text string) ([]json.RawMessage, error) {
	data := []byte(text)
	if len(bytes.TrimSpace(data)) == 0 {
		return []json.RawMessage{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, sitesSyntax(data, dec, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, sitesProblem(data, skipSpace(data, 0), 0, "the sites must be a JSON list: [ {\"id\": \"mysite\", …}, … ]", nil)
	}
	var raws []json.RawMessage
	var starts []int
	for dec.More() {
		start := skipSpace(data, int(dec.InputOffset()))
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, sitesSyntax(data, dec, err)
		}
		if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
			return nil, sitesProblem(data, start, len(raws)+1, fmt.Sprintf("entry %d must be an object {…}, not %.30s", len(raws)+1, t), nil)
		}
		raws, starts = append(raws, raw), append(starts, start)
	}
	if _, err := dec.Token(); err != nil {
		return nil, sitesSyntax(data, dec, err)
	}
	if rest := skipSpace(data, int(dec.InputOffset())); rest < len(data) {
		return nil, sitesProblem(data, rest, 0, "syntax error: more text after the closing ] of the list", nil)
	}

	reg := r
	for i, raw := range raws {
		overrides, err := ParseOverrides(append(append([]byte("["), raw...), ']'))
		if err != nil {
			msg := fmt.Sprintf("entry %d: %s", i+1, errs.From(err).Message)
			if m := unknownField.FindStringSubmatch(err.Error()); m != nil {
				msg = fmt.Sprintf("entry %d has an unknown field %q; a site entry has %s", i+1, m[1], strings.Join(overrideFields(), ", "))
			}
			return nil, sitesProblem(data, starts[i]+fieldOffset(raw, err), i+1, msg, err)
		}
		next, err := reg.Merge(overrides...)
		if err != nil {
			return nil, sitesProblem(data, starts[i], i+1, fmt.Sprintf("entry %d: %s", i+1, errs.From(err).Message), err)
		}
		reg = next
	}
	return raws, nil
}

// overrideFields are the JSON names of a site entry's fields.
func overrideFields() []string {
	t := reflect.TypeOf(Override{})
	out := make([]string, 0, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

// unknownField finds the name in encoding/json's unknown-field error (the
// only place it is given); the error has no type to match.
var unknownField = regexp.MustCompile(`unknown field "([^"]+)"`)

// fieldOffset points into raw at the field an override error names, or at
// the entry's start.
func fieldOffset(raw []byte, err error) int {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Offset > 0 {
		return int(te.Offset) - 1 - 1 // minus the "[" we wrapped it in, back onto the value
	}
	if m := unknownField.FindStringSubmatch(err.Error()); m != nil {
		if i := bytes.Index(raw, []byte(strconv.Quote(m[1]))); i >= 0 {
			return i
		}
	}
	return 0
}

// sitesSyntax is the envelope for the decoder's error err, placed where
// the text went wrong.
func sitesSyntax(data []byte, dec *json.Decoder, err error) error {
	off := int(dec.InputOffset())
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		// A Decoder may count the blanks before the offending character
		// (a missing comma): point at the character itself.
		off = int(se.Offset) - 1
		for off < len(data) && off >= 0 && (data[off] == ' ' || data[off] == '\t' || data[off] == '\r' || data[off] == '\n') {
			off++
		}
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return sitesProblem(data, len(bytes.TrimRight(data, " \t\r\n")), 0,
			"syntax error: the text ends in the middle of the list (an unclosed [, { or string?)", err)
	}
	return sitesProblem(data, off, 0, "syntax error: "+err.Error(), err)
}

// sitesProblem is the envelope for a problem at byte offset off of data.
func sitesProblem(data []byte, off, entry int, detail string, cause error) error {
	line, col := lineColumn(data, off)
	e := errs.Wrap(cause, errs.ConfigInvalid, "sites, line %d, column %d: %s", line, col, detail).
		WithEvidence("field", "sites").
		WithEvidence("line", strconv.Itoa(line)).
		WithEvidence("column", strconv.Itoa(col)).
		WithHint("fix the sites list where it is marked; nothing was saved")
	if entry > 0 {
		e = e.WithEvidence("entry", strconv.Itoa(entry))
	}
	if c := errs.CodeOf(cause); c == errs.SiteIncomplete {
		e.Code = c
	}
	return e
}

// lineColumn converts a byte offset into a 1-based line and a column
// counted in characters, as editors show them.
func lineColumn(data []byte, off int) (int, int) {
	off = max(0, min(off, len(data)))
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	start := bytes.LastIndexByte(before, '\n') + 1
	return line, utf8.RuneCount(before[start:]) + 1
}

// skipSpace is the offset of the first byte at or after off that is not a
// blank or a comma.
func skipSpace(data []byte, off int) int {
	for off < len(data) {
		switch data[off] {
		case ' ', '\t', '\r', '\n', ',':
			off++
			continue
		}
		break
	}
	return off
}
