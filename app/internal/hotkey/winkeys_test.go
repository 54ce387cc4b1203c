package hotkey

import (
	"errors"
	"testing"

	"github.com/ferrydesk/ferry/backend/config"
)

func TestWinHotkeyMapsSettingsToRegisterHotKeyCodes(t *testing.T) {
	cases := []struct {
		spec     string
		mods, vk uint32
	}{
		{"Ctrl+Shift+Space", winModControl | winModShift | winModNoRepeat, 0x20},
		{"Ctrl+Alt+P", winModControl | winModAlt | winModNoRepeat, 'P'},
		{"win+alt+k", winModWin | winModAlt | winModNoRepeat, 'K'},
		{"Super+1", winModWin | winModNoRepeat, '1'},
		{"Cmd+0", winModWin | winModNoRepeat, '0'},
		{"F1", winModNoRepeat, 0x70},
		{"Shift+F12", winModShift | winModNoRepeat, 0x7B},
		{"Ctrl+F20", winModControl | winModNoRepeat, 0x83},
		{"Ctrl+Return", winModControl | winModNoRepeat, 0x0D},
		{"Ctrl+Enter", winModControl | winModNoRepeat, 0x0D},
		{"Alt+Esc", winModAlt | winModNoRepeat, 0x1B},
		{"Ctrl+Tab", winModControl | winModNoRepeat, 0x09},
		{"Ctrl+Alt+Del", winModControl | winModAlt | winModNoRepeat, 0x2E},
		{"Ctrl+Left", winModControl | winModNoRepeat, 0x25},
		{"Ctrl+Up", winModControl | winModNoRepeat, 0x26},
		{"Ctrl+Right", winModControl | winModNoRepeat, 0x27},
		{"Ctrl+Down", winModControl | winModNoRepeat, 0x28},
		{"Control+Option+Z", winModControl | winModAlt | winModNoRepeat, 'Z'},
	}
	for _, c := range cases {
		t.Run(c.spec+" is registered with its modifiers and key", func(t *testing.T) {
			h, err := config.ParseHotkey(c.spec)
			if err != nil {
				t.Fatalf("ParseHotkey(%q): %v", c.spec, err)
			}
			mods, vk, err := winHotkey(h)
			if err != nil {
				t.Fatalf("winHotkey(%v): %v", h, err)
			}
			if mods != c.mods || vk != c.vk {
				t.Errorf("winHotkey(%q) = mods %#x vk %#x, want mods %#x vk %#x", c.spec, mods, vk, c.mods, c.vk)
			}
		})
	}
	t.Run("a key Windows has no code for is errNoKeycode", func(t *testing.T) {
		for _, h := range []config.Hotkey{{Mods: []string{"Ctrl"}, Key: "F21"}, {Mods: []string{"Ctrl"}, Key: "Menu"}, {Mods: []string{"Hyper"}, Key: "A"}} {
			if _, _, err := winHotkey(h); !errors.Is(err, errNoKeycode) {
				t.Errorf("winHotkey(%v) = %v, want errNoKeycode", h, err)
			}
		}
	})
}
