package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"reflect"
	"strconv"

	"github.com/ferrydesk/ferry/backend/errs"
)

// maxSettingsSize bounds what Load reads: a settings file is a few KB.
const maxSettingsSize = 1 << 20

// Problem kinds in the "problem" evidence of a ConfigInvalid envelope.
const (
	ProblemUnreadable   = "unreadable"
	ProblemSyntax       = "syntax error"
	ProblemUnknownField = "unknown field"
	ProblemDuplicate    = "duplicate field"
	ProblemWrongType    = "wrong type"
	ProblemInvalidValue = "invalid value"
)

// Load reads the settings file at path. A missing file gives Defaults() and
// nil; fields missing from the file keep their defaults. Load never writes,
// moves or rewrites the file.
//
// A file that cannot be used is an errs.ConfigInvalid envelope whose
// message names the file, the line and column, and the problem (syntax
// error, unknown or repeated field, wrong type, invalid value with the
// allowed values), with evidence "file", "line", "column", "problem" and,
// when one is concerned, "field".
func Load(path string) (Settings, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Defaults(), nil
	}
	if err != nil {
		return Settings{}, errs.Wrap(err, errs.ConfigInvalid, "settings file %s cannot be read: %v", path, rootCause(err)).
			WithEvidence("file", path).
			WithEvidence("problem", ProblemUnreadable).
			WithHint("check the file's permissions, or set %s to another directory", EnvConfigDir)
	}
	return parseSettings(path, data)
}

// parseSettings is Load after the read, kept apart so that it can be tested
// and fuzzed without files.
func parseSettings(path string, data []byte) (Settings, error) {
	if len(data) > maxSettingsSize {
		return Settings{}, invalidAt(path, data, 0, ProblemUnreadable, "",
			fmt.Sprintf("the file is %d bytes; settings files are limited to %d", len(data), maxSettingsSize), nil)
	}
	// Editors on Windows may start the file with a byte-order mark, which
	// encoding/json rejects; it carries no meaning in UTF-8.
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(data)) == 0 {
		return Settings{}, invalidAt(path, data, 0, ProblemSyntax, "", "the file is empty: write {} for all defaults", nil)
	}

	// A Decoder, unlike Unmarshal, tells a truncated file (io.ErrUnexpectedEOF)
	// from a wrong character, and stops after the first value.
	dec := json.NewDecoder(bytes.NewReader(data))
	var top any
	if err := dec.Decode(&top); err != nil {
		var se *json.SyntaxError
		switch {
		case errors.Is(err, io.ErrUnexpectedEOF):
			end := len(bytes.TrimRight(data, " \t\r\n"))
			return Settings{}, invalidAt(path, data, end, ProblemSyntax, "",
				"syntax error: the file ends in the middle of a value (an unclosed {, [ or string?)", err)
		case errors.As(err, &se):
			return Settings{}, syntaxError(path, data, se)
		}
		return Settings{}, invalidAt(path, data, 0, ProblemSyntax, "", err.Error(), err)
	}
	if rest := int(dec.InputOffset()); len(bytes.TrimSpace(data[rest:])) > 0 {
		off := rest + firstNonSpace(data[rest:])
		return Settings{}, invalidAt(path, data, off, ProblemSyntax, "",
			"syntax error: more content after the closing } of the settings (a stray character or a second object?)", nil)
	}
	if _, ok := top.(map[string]any); !ok {
		return Settings{}, invalidAt(path, data, firstNonSpace(data), ProblemWrongType, "",
			"the file must hold one JSON object, {...}, with the settings as its fields", nil)
	}

	positions, err := walkFields(data, reflect.TypeOf(Settings{}))
	if err != nil {
		var fp *fieldProblem
		if errors.As(err, &fp) {
			return Settings{}, invalidAt(path, data, fp.Offset, fp.Kind, fp.Field, fp.Detail, nil)
		}
		return Settings{}, invalidAt(path, data, 0, ProblemSyntax, "", err.Error(), err)
	}

	s := Defaults()
	if err := json.Unmarshal(data, &s); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			off, ok := positions[te.Field]
			if !ok {
				off = int(te.Offset)
			}
			return Settings{}, invalidAt(path, data, off, ProblemWrongType, te.Field,
				fmt.Sprintf("setting %s must be %s, not %s", te.Field, describeType(te.Type), te.Value), err)
		}
		return Settings{}, invalidAt(path, data, 0, ProblemSyntax, "", err.Error(), err)
	}
	if err := s.Validate(); err != nil {
		var fe *FieldError
		if errors.As(err, &fe) {
			off, ok := positions[fe.Field]
			if !ok {
				off = firstNonSpace(data)
			}
			return Settings{}, invalidAt(path, data, off, ProblemInvalidValue, fe.Field, fe.Error(), err)
		}
		return Settings{}, err
	}
	return s, nil
}

func syntaxError(path string, data []byte, se *json.SyntaxError) error {
	// Offset counts the bytes read including the offending one.
	off := int(se.Offset) - 1
	detail := "syntax error: " + se.Error()
	// A missing comma or a stray one shows up at the start of the next
	// line; say so, since the fix is usually at the end of the previous.
	p := positionAt(data, off)
	if p.Line > 1 && firstNonSpaceOnLine(data, off) {
		detail += fmt.Sprintf(" (check the end of line %d too: a missing or extra comma shows up here)", p.Line-1)
	}
	return invalidAt(path, data, off, ProblemSyntax, "", detail, se)
}

// invalidAt builds the ConfigInvalid envelope for a problem at byte offset
// off of the file.
func invalidAt(path string, data []byte, off int, kind, field, detail string, cause error) error {
	p := positionAt(data, off)
	e := errs.Wrap(cause, errs.ConfigInvalid, "settings file %s, line %d, column %d: %s", path, p.Line, p.Column, detail).
		WithEvidence("file", path).
		WithEvidence("line", strconv.Itoa(p.Line)).
		WithEvidence("column", strconv.Itoa(p.Column)).
		WithEvidence("problem", kind)
	if field != "" {
		e = e.WithEvidence("field", field)
	}
	return e
}

func describeType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string in double quotes"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list [...]"
	case reflect.Struct, reflect.Map:
		return "an object {...}"
	}
	return t.String()
}

func firstNonSpace(data []byte) int {
	return len(data) - len(bytes.TrimLeft(data, " \t\r\n"))
}

func firstNonSpaceOnLine(data []byte, off int) bool {
	for i := off - 1; i >= 0 && data[i] != '\n'; i-- {
		if data[i] != ' ' && data[i] != '\t' && data[i] != '\r' {
			return false
		}
	}
	return true
}
