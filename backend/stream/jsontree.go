package stream

import (
	"strconv"
	"strings"
)

// The JSON tree helpers serve decoders of delta formats. The delta formats (ChatGPT v1, DeepSeek) patch a JSON document held as a
// generic tree: map[string]any, []any, string, float64, bool, nil, plus
// *textBuf for strings that are being appended to. Appending to a Go string
// copies it every time, which is quadratic over a long answer; a textBuf
// grows in place.
type textBuf struct{ b []byte }

// Op is what a patch operation does at its path.
type Op int

const (
	OpSet    Op = iota // add or replace: put the value at the path
	OpAppend           // concatenate strings, extend arrays, merge objects
)

// SplitPath turns "/message/content/parts/0" (JSON pointer) or
// "response/fragments/-1/content" (DeepSeek) into segments.
func SplitPath(p string) []string {
	p = strings.TrimPrefix(p, "/")
	if p == "" {
		return nil
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if strings.Contains(s, "~") {
			segs[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
		}
	}
	return segs
}

// ApplyOp performs op with v at path inside root and returns the new root.
// ok is false when the path cannot be followed (wrong container type, index
// out of range); the tree is then left as it was.
func ApplyOp(root any, path []string, op Op, v any) (any, bool) {
	if len(path) == 0 {
		return combine(root, true, op, v), true
	}
	switch n := root.(type) {
	case map[string]any:
		child, exists := n[path[0]]
		if !exists && len(path) > 1 {
			child, exists = map[string]any{}, true
		}
		if len(path) == 1 {
			n[path[0]] = combine(child, exists, op, v)
			return n, true
		}
		nc, ok := ApplyOp(child, path[1:], op, v)
		if ok {
			n[path[0]] = nc
		}
		return n, ok
	case []any:
		i, ok := arrayIndex(path[0], len(n))
		if !ok {
			return n, false
		}
		if i == len(n) {
			if len(path) > 1 {
				return n, false
			}
			return append(n, combine(nil, false, op, v)), true
		}
		if len(path) == 1 {
			n[i] = combine(n[i], true, op, v)
			return n, true
		}
		nc, ok := ApplyOp(n[i], path[1:], op, v)
		if ok {
			n[i] = nc
		}
		return n, ok
	case nil:
		// A missing document (before the first full frame) becomes an object.
		return ApplyOp(map[string]any{}, path, op, v)
	}
	return root, false
}

// arrayIndex resolves an array segment: a number, "-" (one past the end) or a
// negative number counted from the end. Indexes past the end are refused so
// that a hostile stream cannot make us allocate a huge array.
func arrayIndex(seg string, n int) (int, bool) {
	if seg == "-" {
		return n, true
	}
	i, err := strconv.Atoi(seg)
	if err != nil {
		return 0, false
	}
	if i < 0 {
		i += n
	}
	if i < 0 || i > n {
		return 0, false
	}
	return i, true
}

// combine computes the new value at a path from the old one.
func combine(old any, exists bool, op Op, v any) any {
	if op == OpSet || !exists || old == nil {
		return v
	}
	switch o := old.(type) {
	case string:
		if s, ok := v.(string); ok {
			tb := &textBuf{b: make([]byte, 0, 2*(len(o)+len(s)))}
			tb.b = append(append(tb.b, o...), s...)
			return tb
		}
	case *textBuf:
		if s, ok := v.(string); ok {
			o.b = append(o.b, s...)
			return o
		}
	case []any:
		if items, ok := v.([]any); ok {
			return append(o, items...)
		}
		return append(o, v)
	case map[string]any:
		if m, ok := v.(map[string]any); ok {
			for k, x := range m {
				o[k] = x
			}
			return o
		}
	}
	return v
}

// Get follows keys (object keys or array indexes) from n; missing steps give nil.
func Get(n any, keys ...string) any {
	for _, k := range keys {
		switch c := n.(type) {
		case map[string]any:
			n = c[k]
		case []any:
			i, ok := arrayIndex(k, len(c))
			if !ok || i >= len(c) {
				return nil
			}
			n = c[i]
		default:
			return nil
		}
	}
	return n
}

// Str returns n as a string when it is one ("" otherwise).
func Str(n any) string {
	switch s := n.(type) {
	case string:
		return s
	case *textBuf:
		return string(s.b)
	}
	return ""
}

// Scalar renders a string or number leaf as text (ids are sometimes numbers).
func Scalar(n any) string {
	switch s := n.(type) {
	case string:
		return s
	case *textBuf:
		return string(s.b)
	case float64:
		return strconv.FormatFloat(s, 'f', -1, 64)
	}
	return ""
}

// IsText reports whether n is a string leaf (one being appended to or not).
func IsText(n any) bool {
	switch n.(type) {
	case string, *textBuf:
		return true
	}
	return false
}

// Truthy reports whether n is the JSON value true.
func Truthy(n any) bool {
	b, ok := n.(bool)
	return ok && b
}

// Plain converts a subtree to plain JSON-compatible values (textBuf becomes
// string), for handing out copies that later patches cannot change.
func Plain(n any) any {
	switch c := n.(type) {
	case *textBuf:
		return string(c.b)
	case map[string]any:
		out := make(map[string]any, len(c))
		for k, v := range c {
			out[k] = Plain(v)
		}
		return out
	case []any:
		out := make([]any, len(c))
		for i, v := range c {
			out[i] = Plain(v)
		}
		return out
	}
	return n
}

// Lists reports whether the decoded JSON n holds an array, at any depth,
// with the string want among its items.
func Lists(n any, want string) bool {
	switch x := n.(type) {
	case map[string]any:
		for _, e := range x {
			if Lists(e, want) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if s, ok := e.(string); (ok && s == want) || Lists(e, want) {
				return true
			}
		}
	}
	return false
}
