package config

import (
	"fmt"
	"strconv"
	"strings"
)

// Hotkey is a parsed global shortcut.
type Hotkey struct {
	Mods []string // canonical modifiers in the order Ctrl, Shift, Alt, Super
	Key  string   // canonical key: "A".."Z", "0".."9", "F1".."F20", "Space", ...
}

// String is the canonical form, e.g. "Ctrl+Shift+Space".
func (h Hotkey) String() string {
	return strings.Join(append(append([]string{}, h.Mods...), h.Key), "+")
}

var modOrder = []string{"Ctrl", "Shift", "Alt", "Super"}

var modAliases = map[string]string{
	"ctrl": "Ctrl", "control": "Ctrl",
	"shift": "Shift",
	"alt":   "Alt", "option": "Alt", "opt": "Alt",
	"super": "Super", "win": "Super", "windows": "Super", "meta": "Super", "cmd": "Super", "command": "Super",
}

var namedKeys = map[string]string{
	"space": "Space", "return": "Return", "enter": "Return", "escape": "Escape", "esc": "Escape",
	"tab": "Tab", "delete": "Delete", "del": "Delete",
	"left": "Left", "right": "Right", "up": "Up", "down": "Down",
}

const keyList = "A-Z, 0-9, F1-F20, Space, Return, Escape, Tab, Delete, Left, Right, Up, Down"

// ParseHotkey parses "Ctrl+Shift+Space"-style shortcuts: modifiers Ctrl,
// Shift, Alt, Super (aliases: Control, Option, Cmd, Win, Meta; any case)
// joined by '+' with exactly one key. A shortcut needs Ctrl, Alt or Super
// unless its key is a function key, so that it cannot take over typing. The
// error says what is wrong and what is allowed.
func ParseHotkey(s string) (Hotkey, error) {
	var h Hotkey
	if strings.TrimSpace(s) == "" {
		return h, fmt.Errorf("is empty: use modifiers Ctrl/Shift/Alt/Super and one key, e.g. \"Ctrl+Shift+Space\"")
	}
	seen := map[string]bool{}
	for _, part := range strings.Split(s, "+") {
		tok := strings.TrimSpace(part)
		if tok == "" {
			return h, fmt.Errorf("%q has an empty part: join modifiers and one key with '+', e.g. \"Ctrl+Shift+Space\"", s)
		}
		if m, ok := modAliases[strings.ToLower(tok)]; ok {
			if h.Key != "" {
				return h, fmt.Errorf("%q has modifier %s after the key: put the key last", s, m)
			}
			if seen[m] {
				return h, fmt.Errorf("%q names %s twice", s, m)
			}
			seen[m] = true
			continue
		}
		key, ok := canonicalKey(tok)
		if !ok {
			return h, fmt.Errorf("%q has unknown key or modifier %q: modifiers are Ctrl, Shift, Alt, Super; keys are %s", s, tok, keyList)
		}
		if h.Key != "" {
			return h, fmt.Errorf("%q has two keys (%s and %s): a shortcut has exactly one", s, h.Key, key)
		}
		h.Key = key
	}
	if h.Key == "" {
		return h, fmt.Errorf("%q has no key: add one of %s after the modifiers", s, keyList)
	}
	for _, m := range modOrder {
		if seen[m] {
			h.Mods = append(h.Mods, m)
		}
	}
	if !strings.HasPrefix(h.Key, "F") || len(h.Key) == 1 {
		if !seen["Ctrl"] && !seen["Alt"] && !seen["Super"] {
			return h, fmt.Errorf("%q needs Ctrl, Alt or Super: without one it would take over normal typing", s)
		}
	}
	return h, nil
}

func canonicalKey(tok string) (string, bool) {
	lower := strings.ToLower(tok)
	if k, ok := namedKeys[lower]; ok {
		return k, true
	}
	if len(tok) == 1 {
		c := tok[0]
		switch {
		case c >= 'a' && c <= 'z':
			return string(c - 'a' + 'A'), true
		case c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
			return tok, true
		}
		return "", false
	}
	if lower[0] == 'f' {
		if n, err := strconv.Atoi(lower[1:]); err == nil && n >= 1 && n <= 20 && lower[1] != '0' {
			return "F" + strconv.Itoa(n), true
		}
	}
	return "", false
}
