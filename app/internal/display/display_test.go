package display

import (
	"errors"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

// fakeDisplays answers dials for the listed addresses only.
func fakeDisplays(up ...string) Dialer {
	return func(network, address string) error {
		for _, u := range up {
			if u == network+" "+address {
				return nil
			}
		}
		return errors.New("connection refused")
	}
}

func TestCheckDisplay(t *testing.T) {
	cases := []struct {
		name    string
		env     map[string]string
		up      []string
		wantErr bool
		mention string
	}{
		{name: "no DISPLAY and no WAYLAND_DISPLAY is refused", env: map[string]string{}, wantErr: true, mention: "neither DISPLAY nor WAYLAND_DISPLAY"},
		{name: "a local X display with a listening socket is accepted", env: map[string]string{"DISPLAY": ":99"}, up: []string{"unix /tmp/.X11-unix/X99"}},
		{name: "a local X display with a screen number is accepted", env: map[string]string{"DISPLAY": ":1.0"}, up: []string{"unix /tmp/.X11-unix/X1"}},
		{name: "an X server on the abstract socket only is accepted", env: map[string]string{"DISPLAY": "unix:3"}, up: []string{"unix @/tmp/.X11-unix/X3"}},
		{name: "a remote X display is dialled over TCP", env: map[string]string{"DISPLAY": "otherhost:2"}, up: []string{"tcp otherhost:6002"}},
		{name: "a DISPLAY nobody serves is refused and named", env: map[string]string{"DISPLAY": ":42"}, wantErr: true, mention: "DISPLAY=:42"},
		{name: "a malformed DISPLAY is refused", env: map[string]string{"DISPLAY": "garbage"}, wantErr: true, mention: "host:number"},
		{name: "a Wayland socket in XDG_RUNTIME_DIR is accepted", env: map[string]string{"WAYLAND_DISPLAY": "wayland-0", "XDG_RUNTIME_DIR": "/run/user/1000"}, up: []string{"unix /run/user/1000/wayland-0"}},
		{name: "a dead Wayland socket falls back to a live X display", env: map[string]string{"WAYLAND_DISPLAY": "wayland-0", "XDG_RUNTIME_DIR": "/run/user/1000", "DISPLAY": ":0"}, up: []string{"unix /tmp/.X11-unix/X0"}},
		{name: "Wayland without XDG_RUNTIME_DIR is refused when no X display answers", env: map[string]string{"WAYLAND_DISPLAY": "wayland-0"}, wantErr: true, mention: "XDG_RUNTIME_DIR"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := Check(func(k string) string { return c.env[k] }, fakeDisplays(c.up...))
			if !c.wantErr {
				if err != nil {
					t.Fatalf("Check: %v", err)
				}
				return
			}
			if !errs.Has(err, errs.NoDisplay) {
				t.Fatalf("want a no_display envelope, got %v", err)
			}
			if !strings.Contains(err.Error(), c.mention) {
				t.Errorf("message %q does not mention %q", err.Error(), c.mention)
			}
			hint := errs.From(err).RetryHint
			for _, want := range []string{"xvfb-run -a make run", "`ferry`"} {
				if !strings.Contains(hint, want) {
					t.Errorf("hint %q does not name %s", hint, want)
				}
			}
		})
	}
}
