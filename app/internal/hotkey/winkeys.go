package hotkey

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ferrydesk/ferry/backend/config"
)

// Windows' RegisterHotKey modifier flags and virtual-key codes (winuser.h),
// kept free of any build tag so that the mapping is tested on every
// platform.
const (
	winModAlt      = 0x0001 // MOD_ALT
	winModControl  = 0x0002 // MOD_CONTROL
	winModShift    = 0x0004 // MOD_SHIFT
	winModWin      = 0x0008 // MOD_WIN
	winModNoRepeat = 0x4000 // MOD_NOREPEAT: holding the keys is one press
)

// winNamedKeys are the virtual-key codes of config.Hotkey's named keys.
var winNamedKeys = map[string]uint32{
	"Space": 0x20, "Return": 0x0D, "Escape": 0x1B, "Tab": 0x09, "Delete": 0x2E,
	"Left": 0x25, "Up": 0x26, "Right": 0x27, "Down": 0x28,
}

// winHotkey maps a parsed hotkey (config.ParseHotkey's canonical form) to
// RegisterHotKey's fsModifiers (MOD_NOREPEAT included) and virtual-key
// code. Letters and digits are their ASCII upper-case codes, F1–F20 are
// VK_F1 (0x70) onwards. A key Windows has no code for is errNoKeycode.
func winHotkey(h config.Hotkey) (mods, vk uint32, err error) {
	mods = winModNoRepeat
	for _, m := range h.Mods {
		switch m {
		case "Ctrl":
			mods |= winModControl
		case "Shift":
			mods |= winModShift
		case "Alt":
			mods |= winModAlt
		case "Super":
			mods |= winModWin
		default:
			return 0, 0, fmt.Errorf("no Windows modifier for %q: %w", m, errNoKeycode)
		}
	}
	if code, ok := winNamedKeys[h.Key]; ok {
		return mods, code, nil
	}
	if len(h.Key) == 1 {
		c := h.Key[0]
		if (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') {
			return mods, uint32(c), nil
		}
	}
	if n, ok := strings.CutPrefix(h.Key, "F"); ok {
		if f, err := strconv.Atoi(n); err == nil && f >= 1 && f <= 20 {
			return mods, 0x70 + uint32(f-1), nil
		}
	}
	return 0, 0, fmt.Errorf("no Windows virtual-key code for key %q: %w", h.Key, errNoKeycode)
}
