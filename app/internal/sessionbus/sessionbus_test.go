package sessionbus

import "testing"

func TestAddress(t *testing.T) {
	t.Run("the session bus address comes from the environment, never an autolaunch", func(t *testing.T) {
		env := map[string]string{}
		get := func(k string) string { return env[k] }
		if a := Address(get); a != "" {
			t.Errorf("empty environment gave %q", a)
		}
		env["XDG_RUNTIME_DIR"] = t.TempDir() // no bus socket inside
		if a := Address(get); a != "" {
			t.Errorf("a runtime dir without a bus gave %q", a)
		}
		env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/run/user/1/bus"
		if a := Address(get); a != "unix:path=/run/user/1/bus" {
			t.Errorf("got %q", a)
		}
	})
}
