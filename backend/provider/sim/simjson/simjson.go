// Package simjson writes the simulator's JSON the way the real servers do:
// objects that keep their key order (Obj), Python's separators for
// ChatGPT's frames (PyJSON), compact otherwise (CompactJSON).
package simjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
)

// Obj is a JSON object that keeps its key order, so frames come out in the
// order the real servers write them.
type Obj []KV

// KV is one key and value of an Obj.
type KV struct {
	K string
	V any
}

// O builds an Obj from key, value pairs: O("type", "error", "code", 8).
func O(pairs ...any) Obj {
	out := make(Obj, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, KV{pairs[i].(string), pairs[i+1]})
	}
	return out
}

// PyJSON writes v the way Python's json.dumps(ensure_ascii=False) does, which
// is how ChatGPT's frames look: ", " and ": " separators and raw non-ASCII.
// Decoders that match frames by compact substrings fail here as on the site.
func PyJSON(v any) string {
	var b bytes.Buffer
	writeJSON(&b, v, ", ", ": ")
	return b.String()
}

// CompactJSON writes v with ordered keys and no spaces.
func CompactJSON(v any) string {
	var b bytes.Buffer
	writeJSON(&b, v, ",", ":")
	return b.String()
}

func writeJSON(b *bytes.Buffer, v any, comma, colon string) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case Obj:
		b.WriteByte('{')
		for i, p := range x {
			if i > 0 {
				b.WriteString(comma)
			}
			writeString(b, p.K)
			b.WriteString(colon)
			writeJSON(b, p.V, comma, colon)
		}
		b.WriteByte('}')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		ordered := make(Obj, 0, len(keys))
		for _, k := range keys {
			ordered = append(ordered, KV{k, x[k]})
		}
		writeJSON(b, ordered, comma, colon)
	case []any:
		writeArray(b, len(x), comma, func(i int) { writeJSON(b, x[i], comma, colon) })
	case []Obj:
		writeArray(b, len(x), comma, func(i int) { writeJSON(b, x[i], comma, colon) })
	case []string:
		writeArray(b, len(x), comma, func(i int) { writeString(b, x[i]) })
	case string:
		writeString(b, x)
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		b.WriteString(strconv.FormatFloat(x, 'f', -1, 64))
	default:
		raw, err := json.Marshal(x)
		if err != nil {
			panic(fmt.Sprintf("simjson: marshal %T: %v", v, err))
		}
		b.Write(raw)
	}
}

// writeArray writes an array of n elements, each by elem(i).
func writeArray(b *bytes.Buffer, n int, comma string, elem func(i int)) {
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteString(comma)
		}
		elem(i)
	}
	b.WriteByte(']')
}

func writeString(b *bytes.Buffer, s string) {
	var tmp bytes.Buffer
	enc := json.NewEncoder(&tmp)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	b.Write(bytes.TrimRight(tmp.Bytes(), "\n"))
}
