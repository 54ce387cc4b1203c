package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"unicode/utf8"
)

// position is a place in the settings file, 1-based.
type position struct{ Line, Column int }

// positionAt converts a byte offset into a line and a column counted in
// characters, as editors show them.
func positionAt(data []byte, off int) position {
	off = max(0, min(off, len(data)))
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return position{Line: line, Column: utf8.RuneCount(before[lineStart:]) + 1}
}

// fieldProblem is a problem the structural walk finds at a place in the
// file: an unknown or repeated field.
type fieldProblem struct {
	Offset int
	Field  string
	Kind   string // "unknown field" or "duplicate field"
	Detail string
}

func (p *fieldProblem) Error() string { return p.Detail }

var rawMessageType = reflect.TypeOf(json.RawMessage{})

// fieldWalker walks syntactically valid JSON along a Go type, recording where
// each field's value starts and rejecting keys the type does not have.
// encoding/json reports neither the place of an unknown field nor repeated
// keys, and matches keys case-insensitively; settings are stricter.
type fieldWalker struct {
	data []byte
	dec  *json.Decoder
	pos  map[string]int // JSON path -> byte offset of its key (or value for array items)
}

func walkFields(data []byte, t reflect.Type) (map[string]int, error) {
	w := &fieldWalker{data: data, dec: json.NewDecoder(bytes.NewReader(data)), pos: map[string]int{}}
	w.dec.UseNumber()
	if err := w.value("", t); err != nil {
		return w.pos, err
	}
	return w.pos, nil
}

// next is the offset where the next token starts.
func (w *fieldWalker) next() int {
	off := int(w.dec.InputOffset())
	for off < len(w.data) {
		switch w.data[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
			continue
		}
		break
	}
	return off
}

func (w *fieldWalker) value(path string, t reflect.Type) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	tok, err := w.dec.Token()
	if err != nil {
		return err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return nil
	}
	switch {
	case t == rawMessageType:
		return w.skip(d)
	case d == '{' && t.Kind() == reflect.Struct:
		return w.object(path, t)
	case d == '{' && t.Kind() == reflect.Map:
		for w.dec.More() {
			off := w.next()
			k, err := w.dec.Token()
			if err != nil {
				return err
			}
			child := join(path, k.(string))
			w.pos[child] = off
			if err := w.value(child, t.Elem()); err != nil {
				return err
			}
		}
		_, err := w.dec.Token()
		return err
	case d == '[' && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array):
		for i := 0; w.dec.More(); i++ {
			child := fmt.Sprintf("%s[%d]", path, i)
			w.pos[child] = w.next()
			if err := w.value(child, t.Elem()); err != nil {
				return err
			}
		}
		_, err := w.dec.Token()
		return err
	}
	// A container where the type wants something else: the type check in
	// Load reports it.
	return w.skip(d)
}

func (w *fieldWalker) object(path string, t reflect.Type) error {
	fields := jsonFields(t)
	seen := map[string]bool{}
	for w.dec.More() {
		off := w.next()
		k, err := w.dec.Token()
		if err != nil {
			return err
		}
		key := k.(string)
		child := join(path, key)
		ft, known := fields[key]
		if !known {
			return &fieldProblem{Offset: off, Field: child, Kind: "unknown field", Detail: unknownFieldDetail(path, key, fields)}
		}
		if seen[key] {
			return &fieldProblem{Offset: off, Field: child, Kind: "duplicate field",
				Detail: fmt.Sprintf("setting %s appears twice in the same object (first on line %d): keep one", child, positionAt(w.data, w.pos[child]).Line)}
		}
		seen[key] = true
		w.pos[child] = off
		if err := w.value(child, ft); err != nil {
			return err
		}
	}
	_, err := w.dec.Token()
	return err
}

// skip consumes the rest of a container whose opening delimiter was read.
func (w *fieldWalker) skip(open json.Delim) error {
	if open != '{' && open != '[' {
		return nil
	}
	depth := 1
	for depth > 0 {
		tok, err := w.dec.Token()
		if err != nil {
			return err
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				depth++
			default:
				depth--
			}
		}
	}
	return nil
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// jsonFields maps the JSON names of t's exported fields to their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

func unknownFieldDetail(path, key string, fields map[string]reflect.Type) string {
	names := make([]string, 0, len(fields))
	for n := range fields {
		names = append(names, n)
	}
	sort.Strings(names)
	where := "at the top level"
	if path != "" {
		where = "in " + path
	}
	msg := fmt.Sprintf("unknown setting %q %s", key, where)
	if best := closest(key, names); best != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", best)
	}
	return msg + "; known settings there: " + strings.Join(names, ", ")
}

// closest returns the name nearest to key when it is plausibly a typo: the
// same word in another case, or at most two edits away.
func closest(key string, names []string) string {
	best, bestDist := "", 3
	for _, n := range names {
		if strings.EqualFold(n, key) {
			return n
		}
		if d := editDistance(strings.ToLower(key), strings.ToLower(n)); d < bestDist {
			best, bestDist = n, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
