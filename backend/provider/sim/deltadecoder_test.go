package sim_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// refDecoded is what the reference decoder of ChatGPT's delta-encoding v1
// makes of a captured stream. It is written from providers.md alone, not from
// the simulator's code, so the two can disagree.
type refDecoded struct {
	Answer         string // final assistant text, citations stripped
	Complete       bool   // message_stream_complete seen
	Done           bool   // [DONE] seen
	ModelSlug      string
	ConversationID string
	ErrorCode      string
	Channels       []map[string]any
}

var citeRE = regexp.MustCompile("\ue200[^\ue201]*\ue201")

func refDecode(stream []byte) (refDecoded, error) {
	var out refDecoded
	text := strings.ReplaceAll(string(bytes.TrimPrefix(stream, []byte("\xef\xbb\xbf"))), "\r\n", "\n")
	var lastP, lastO string
	cur := 0
	for _, block := range strings.Split(text, "\n\n") {
		event, data := "", ""
		for _, line := range strings.Split(block, "\n") {
			switch {
			case strings.HasPrefix(line, "event:"):
				event = strings.TrimSpace(line[6:])
			case strings.HasPrefix(line, "data:"):
				data += strings.TrimPrefix(line[5:], " ")
			}
		}
		if data == "" {
			continue
		}
		if data == "[DONE]" {
			out.Done = true
			continue
		}
		var f map[string]any
		if err := json.Unmarshal([]byte(data), &f); err != nil {
			if event == "delta_encoding" {
				continue
			}
			return out, fmt.Errorf("decode frame %q: %w", data, err)
		}
		if event == "delta_encoding" {
			continue
		}
		if event == "delta" {
			_, hasO := f["o"]
			_, hasP := f["p"]
			if hasO || hasP {
				lastP, _ = f["p"].(string)
				lastO, _ = f["o"].(string)
			}
			if c, ok := f["c"].(float64); ok {
				cur = int(c)
			}
			for len(out.Channels) <= cur {
				out.Channels = append(out.Channels, nil)
			}
			if lastO == "add" && lastP == "" {
				root, _ := f["v"].(map[string]any)
				out.Channels[cur] = root
				continue
			}
			if out.Channels[cur] == nil {
				return out, fmt.Errorf("op on empty channel %d", cur)
			}
			if err := refApply(out.Channels[cur], lastP, lastO, f["v"]); err != nil {
				return out, err
			}
			continue
		}
		if id, ok := f["conversation_id"].(string); ok {
			out.ConversationID = id
		}
		if f["type"] == "message_stream_complete" {
			out.Complete = true
		}
		if code, ok := f["error_code"].(string); ok {
			out.ErrorCode = code
		}
	}
	for _, ch := range out.Channels {
		m, _ := ch["message"].(map[string]any)
		if m == nil {
			continue
		}
		author, _ := m["author"].(map[string]any)
		content, _ := m["content"].(map[string]any)
		channel, _ := m["channel"].(string)
		if author["role"] != "assistant" || content["content_type"] != "text" || channel == "commentary" || channel == "analysis" {
			continue
		}
		parts, _ := content["parts"].([]any)
		s := ""
		for _, p := range parts {
			ps, _ := p.(string)
			s += ps
		}
		out.Answer = citeRE.ReplaceAllString(s, "")
		if meta, ok := m["metadata"].(map[string]any); ok {
			out.ModelSlug, _ = meta["model_slug"].(string)
		}
	}
	return out, nil
}

func refApply(root map[string]any, p, op string, v any) error {
	if op == "patch" {
		ops, ok := v.([]any)
		if !ok {
			return fmt.Errorf("patch value is %T", v)
		}
		for _, x := range ops {
			m := x.(map[string]any)
			if err := refApply(root, m["p"].(string), m["o"].(string), m["v"]); err != nil {
				return err
			}
		}
		return nil
	}
	keys := strings.Split(strings.TrimPrefix(p, "/"), "/")
	var parent any = root
	for _, k := range keys[:len(keys)-1] {
		next, err := refChild(parent, k)
		if err != nil {
			return fmt.Errorf("path %s: %w", p, err)
		}
		parent = next
	}
	last := keys[len(keys)-1]
	get := func() any { v, _ := refChild(parent, last); return v }
	set := func(val any) error {
		switch c := parent.(type) {
		case map[string]any:
			c[last] = val
		case []any:
			i, err := strconv.Atoi(last)
			if err != nil || i >= len(c) {
				return fmt.Errorf("bad index %s", last)
			}
			c[i] = val
		}
		return nil
	}
	switch op {
	case "replace", "add":
		return set(v)
	case "append":
		switch cur := get().(type) {
		case string:
			s, _ := v.(string)
			return set(cur + s)
		case map[string]any:
			for k, val := range v.(map[string]any) {
				cur[k] = val
			}
			return nil
		case []any:
			return set(append(cur, v))
		default:
			return set(v)
		}
	}
	return fmt.Errorf("unknown op %q", op)
}

func refChild(c any, k string) (any, error) {
	switch x := c.(type) {
	case map[string]any:
		return x[k], nil
	case []any:
		i, err := strconv.Atoi(k)
		if err != nil || i >= len(x) {
			return nil, fmt.Errorf("bad index %s", k)
		}
		return x[i], nil
	}
	return nil, fmt.Errorf("cannot index %T with %s", c, k)
}
