package hotkey

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
)

// startTestX runs a private Xvfb for the test and returns its DISPLAY. The
// hotkey tests grab keys on it, never on the developer's display.
func startTestX(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("Xvfb")
	if err != nil {
		t.Fatalf("Xvfb is not installed (apt-get install xvfb, as `make setup` does): %v", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	// -noreset: a server that resets when its last client leaves would drop
	// the next connection of a test that released and grabs again.
	cmd := exec.Command(bin, "-displayfd", "3", "-screen", "0", "320x240x24", "-nolisten", "tcp", "-noreset")
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start Xvfb: %v", err)
	}
	w.Close()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(r).ReadString('\n')
		line <- strings.TrimSpace(s)
	}()
	select {
	case n := <-line:
		if n == "" {
			t.Fatal("Xvfb printed no display number")
		}
		return ":" + n
	case <-time.After(15 * time.Second):
		t.Fatal("Xvfb did not start within 15 s")
	}
	return ""
}

// xdotoolKey presses a combination on display as a user would (XTEST).
func xdotoolKey(t *testing.T, display, combo string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "xdotool", "key", combo)
	cmd.Env = append(os.Environ(), "DISPLAY="+display)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("xdotool key %s: %v: %s", combo, err, out)
	}
}

func TestGlobalHotkeyOnARealXServer(t *testing.T) {
	display := startTestX(t)
	g := x11Grabber{Display: display, Xauthority: os.DevNull}
	h, err := config.ParseHotkey("Ctrl+Shift+Space")
	if err != nil {
		t.Fatal(err)
	}
	var presses atomic.Int32
	pressed := make(chan struct{}, 4)
	release, err := g.Grab(h, func() { presses.Add(1); pressed <- struct{}{} })
	if err != nil {
		t.Fatalf("grab Ctrl+Shift+Space: %v", err)
	}
	defer func() {
		if release != nil {
			release()
		}
	}()

	t.Run("pressing the combination calls back once", func(t *testing.T) {
		xdotoolKey(t, display, "ctrl+shift+space")
		select {
		case <-pressed:
		case <-time.After(5 * time.Second):
			t.Fatal("the press never arrived")
		}
	})
	t.Run("another combination does not call back", func(t *testing.T) {
		before := presses.Load()
		xdotoolKey(t, display, "ctrl+space")
		time.Sleep(300 * time.Millisecond)
		if presses.Load() != before {
			t.Error("Ctrl+Space triggered the Ctrl+Shift+Space hotkey")
		}
	})
	t.Run("the combination taken by another client is an error, not a crash", func(t *testing.T) {
		other := x11Grabber{Display: display, Xauthority: os.DevNull}
		rel2, err := other.Grab(h, func() {})
		if !errors.Is(err, errHotkeyTaken) {
			if rel2 != nil {
				rel2()
			}
			t.Fatalf("second grab: %v, want errHotkeyTaken", err)
		}
		// The failed grab left the first one working.
		time.Sleep(500 * time.Millisecond) // past the auto-repeat gap
		xdotoolKey(t, display, "ctrl+shift+space")
		select {
		case <-pressed:
		case <-time.After(5 * time.Second):
			t.Fatal("the first grab stopped working after the refused one")
		}
	})
	t.Run("after release the combination is free for another client", func(t *testing.T) {
		release()
		release = nil
		var rel2 func()
		var err error
		// The server drops the grab when it sees the connection close.
		for i := 0; i < 50; i++ {
			if rel2, err = g.Grab(h, func() {}); !errors.Is(err, errHotkeyTaken) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if err != nil {
			t.Fatalf("grab after release: %v", err)
		}
		rel2()
	})
	t.Run("with NumLock on the combination still works", func(t *testing.T) {
		rel, err := g.Grab(h, func() { pressed <- struct{}{} })
		if err != nil {
			t.Fatal(err)
		}
		defer rel()
		xdotoolKey(t, display, "Num_Lock")
		defer xdotoolKey(t, display, "Num_Lock")
		xdotoolKey(t, display, "ctrl+shift+space")
		select {
		case <-pressed:
		case <-time.After(5 * time.Second):
			t.Fatal("no press with NumLock on")
		}
	})
}

func TestX11ConnectionProblemsAreErrors(t *testing.T) {
	cases := []struct{ name, display string }{
		{"a display nobody serves", ":987"},
		{"a malformed DISPLAY", "nonsense"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := (x11Grabber{Display: c.display}).Grab(config.Hotkey{Mods: []string{"Ctrl"}, Key: "Space"}, func() {}); err == nil {
				t.Fatal("Grab succeeded")
			}
		})
	}
}

// fakeGrabber records grabs; taken combinations are refused as X does.
type fakeGrabber struct {
	taken    map[string]bool
	held     map[string]bool
	released int
	err      error
}

func (f *fakeGrabber) Grab(h config.Hotkey, _ func()) (func(), error) {
	if f.err != nil {
		return nil, f.err
	}
	if f.taken[h.String()] {
		return nil, errHotkeyTaken
	}
	if f.held == nil {
		f.held = map[string]bool{}
	}
	f.held[h.String()] = true
	return func() { delete(f.held, h.String()); f.released++ }, nil
}

func TestHotkeySettingsAndPitfalls(t *testing.T) {
	x11 := Env{Display: ":0"}
	cases := []struct {
		name   string
		env    Env
		spec   string
		taken  string
		active bool
		code   errs.Code
		says   string
	}{
		{name: "the default combination is grabbed", env: x11, spec: "Ctrl+Shift+Space", active: true},
		{name: "aliases and case are accepted", env: x11, spec: "control+alt+k", active: true},
		{name: "a bad combination is a clear error naming the setting", env: x11, spec: "Ctrl+Shift", code: errs.BadInput, says: "no key"},
		{name: "a combination without Ctrl, Alt or Super is refused", env: x11, spec: "Shift+A", code: errs.BadInput, says: "needs Ctrl, Alt or Super"},
		{name: "a combination another program holds says so", env: x11, spec: "Ctrl+Shift+Space", taken: "Ctrl+Shift+Space", code: errs.HotkeyTaken, says: "already used by another program"},
		{name: "no display at all is a clear message", env: Env{}, spec: "Ctrl+Shift+Space", code: errs.NoDisplay, says: "DISPLAY is not set"},
		{name: "Wayland without X says what to do instead", env: Env{WaylandDisplay: "wayland-0"}, spec: "Ctrl+Shift+Space", code: errs.NoDisplay, says: "Wayland"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := &fakeGrabber{taken: map[string]bool{c.taken: c.taken != ""}}
			k := &Keeper{env: c.env, grabber: g, onPress: func() {}}
			st := k.Apply(c.spec)
			if st.Active != c.active {
				t.Fatalf("active=%v, want %v (problem %v)", st.Active, c.active, st.Problem)
			}
			if c.code == "" {
				if st.Problem != nil || len(g.held) != 1 {
					t.Fatalf("problem %v, held %v", st.Problem, g.held)
				}
				return
			}
			if st.Problem == nil || st.Problem.Code != c.code || !strings.Contains(st.Problem.Message, c.says) || st.Problem.RetryHint == "" {
				t.Fatalf("problem %+v, want %s saying %q with a hint", st.Problem, c.code, c.says)
			}
		})
	}
	t.Run("a new combination releases the old one", func(t *testing.T) {
		g := &fakeGrabber{}
		k := &Keeper{env: x11, grabber: g, onPress: func() {}}
		k.Apply("Ctrl+Shift+Space")
		k.Apply("Ctrl+Alt+P")
		if len(g.held) != 1 || !g.held["Ctrl+Alt+P"] || g.released != 1 {
			t.Fatalf("held %v after %d releases", g.held, g.released)
		}
		k.Apply("ctrl+alt+p") // the same combination: nothing to redo
		if g.released != 1 {
			t.Errorf("re-applying the same combination released it")
		}
		k.Stop()
		if len(g.held) != 0 || k.Status().Active {
			t.Errorf("stop left %v held", g.held)
		}
	})
	t.Run("under XWayland an active hotkey says where it works", func(t *testing.T) {
		k := &Keeper{env: Env{Display: ":0", WaylandDisplay: "wayland-0"}, grabber: &fakeGrabber{}, onPress: func() {}}
		st := k.Apply("Ctrl+Shift+Space")
		if !st.Active || !strings.Contains(st.Note, "XWayland") {
			t.Fatalf("status %+v", st)
		}
	})
	t.Run("a setup failure is an error status, not a panic", func(t *testing.T) {
		k := &Keeper{env: x11, grabber: &fakeGrabber{err: errors.New("connection refused")}, onPress: func() {}}
		st := k.Apply("Ctrl+Shift+Space")
		if st.Active || st.Problem == nil || st.Problem.Code != errs.EnvironmentNotReady {
			t.Fatalf("status %+v", st)
		}
	})
}

func TestKeysymsCoverEveryKeyTheSettingAllows(t *testing.T) {
	keys := []string{"Space", "Return", "Escape", "Tab", "Delete", "Left", "Right", "Up", "Down", "A", "Z", "0", "9", "F1", "F12", "F20"}
	want := map[string]uint32{"Space": 0x20, "Tab": 0xff09, "A": 'a', "9": '9', "F1": 0xffbe, "F12": 0xffc9, "F20": 0xffd1}
	for _, k := range keys {
		sym, ok := x11Keysym(k)
		if !ok {
			t.Errorf("no keysym for %s", k)
		}
		if w, has := want[k]; has && sym != w {
			t.Errorf("%s maps to %#x, want %#x", k, sym, w)
		}
	}
	if got := x11Mods([]string{"Ctrl", "Shift", "Alt", "Super"}); got != x11ModControl|x11ModShift|x11ModMod1|x11ModMod4 {
		t.Errorf("mods %#x", got)
	}
}
