package doctor

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/hub/client"
	"github.com/ferrydesk/ferry/backend/hub/hubfile"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/store"
	"github.com/ferrydesk/ferry/backend/version"
)

func paths(t *testing.T) config.Paths {
	dir := t.TempDir()
	return config.Paths{DataDir: dir, ConfigDir: dir}
}

func TestStoreCheck(t *testing.T) {
	ctx := context.Background()
	t.Run("a free store opens and is closed again", func(t *testing.T) {
		p := paths(t)
		if c := Store(ctx, p, client.FindOwner); c.Status != OK {
			t.Fatalf("store check: %+v", c)
		}
		s, err := store.Open(ctx, p.StoreDir())
		if err != nil {
			t.Fatalf("the check left the store held: %v", err)
		}
		s.Close()
	})
	t.Run("a store held without a hub fails naming the holder", func(t *testing.T) {
		p := paths(t)
		s, err := store.Open(ctx, p.StoreDir(), store.WithRole("desktop"), store.WithProgram("ferry-desktop"))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		c := Store(ctx, p, client.FindOwner)
		if c.Status != Fail || !strings.Contains(c.Detail, "ferry-desktop") || c.Fix == "" {
			t.Fatalf("busy store: %+v", c)
		}
	})
	t.Run("a store owned by a running Ferry with a live hub is fine", func(t *testing.T) {
		p := paths(t)
		s, err := store.Open(ctx, p.StoreDir(), store.WithRole("serve"))
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		h, err := hub.New(idleBackend{}, hub.WithHubFile(p.HubFile()))
		if err != nil {
			t.Fatal(err)
		}
		if err := h.Start(ctx); err != nil {
			t.Fatal(err)
		}
		defer h.Close(ctx)
		c := Store(ctx, p, client.FindOwner)
		if c.Status != OK || !strings.Contains(c.Detail, "running Ferry") {
			t.Fatalf("owned store: %+v", c)
		}
	})
}

func TestStoreCheckShowsAnOwnerOfAnotherWireRevision(t *testing.T) {
	ctx := context.Background()
	p := paths(t)
	s, err := store.Open(ctx, p.StoreDir(), store.WithRole("serve"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// An owner built before the handshake: its whoami states no version.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]any{"clientId": "owner", "owner": true, "pid": os.Getpid()})
	})}
	go srv.Serve(ln)
	defer srv.Close()
	f := hubfile.File{Port: ln.Addr().(*net.TCPAddr).Port, Token: "owner.any", PID: os.Getpid(), StartedAt: time.Now().UTC()}
	if err := hubfile.Write(p.HubFile(), f); err != nil {
		t.Fatal(err)
	}
	c := Store(ctx, p, client.FindOwner)
	if c.Status != Fail || !strings.Contains(c.Detail, "cannot serve this CLI") || !strings.Contains(c.Detail, version.Version) ||
		!strings.Contains(c.Fix, "the running owner is the older") {
		t.Fatalf("store owned by an older owner: %+v", c)
	}
}

// idleBackend is a service that serves nothing: the doctor only asks the
// hub whether it is alive.
type idleBackend struct{ service.Gateway }

// Events is a stream on which nothing happens, closed when ctx ends.
func (idleBackend) Events(ctx context.Context) (<-chan service.Event, error) {
	ch := make(chan service.Event)
	go func() { <-ctx.Done(); close(ch) }()
	return ch, nil
}

func TestSettingsCheckNamesTheLineOfAMalformedFile(t *testing.T) {
	p := paths(t)
	os.WriteFile(p.SettingsFile(), []byte("{\n\"theme\": 3\n}\n"), 0o600)
	c := Settings(p)
	if c.Status != Fail || !strings.Contains(c.Detail, "line 2") {
		t.Fatalf("settings check: %+v", c)
	}
}

func TestBrowserCheck(t *testing.T) {
	ctx := context.Background()
	missing := Probe{FindBrowser: func() (string, error) { return "", errs.New(errs.BrowserNotFound, "searched chromium, google-chrome") },
		BrowserVer: func(context.Context, string) (string, error) { return "", errors.New("unreachable") }}
	if c := Browser(ctx, missing); c.Status != Fail || !c.Required || !strings.Contains(c.Detail, "searched") {
		t.Fatalf("missing browser: %+v", c)
	}
	broken := Probe{BrowserBinary: "/opt/x/chrome", BrowserVer: func(context.Context, string) (string, error) { return "", errors.New("exit status 127") }}
	if c := Browser(ctx, broken); c.Status != Fail || !strings.Contains(c.Detail, "/opt/x/chrome") {
		t.Fatalf("broken browser: %+v", c)
	}
	fine := Probe{FindBrowser: func() (string, error) { return "/usr/bin/chromium", nil },
		BrowserVer: func(context.Context, string) (string, error) { return "Chromium 156", nil }}
	if c := Browser(ctx, fine); c.Status != OK || !strings.Contains(c.Detail, "Chromium 156 at /usr/bin/chromium") {
		t.Fatalf("browser: %+v", c)
	}
}

func TestDisplayAndWebKitAreWarningsNotFailures(t *testing.T) {
	env := map[string]string{}
	p := Probe{GOOS: "linux", Getenv: func(k string) string { return env[k] }, WebKitLibs: []string{filepath.Join(t.TempDir(), "none*")}}
	if c := Display(p); c.Status != Warn || c.Required || !strings.Contains(c.Fix, "xvfb-run -a make run") {
		t.Fatalf("no display: %+v", c)
	}
	env["DISPLAY"] = ":99"
	if c := Display(p); c.Status != OK {
		t.Fatalf("display :99: %+v", c)
	}
	if c := WebKit(p); c.Status != Warn || c.Required {
		t.Fatalf("no webkit: %+v", c)
	}
	lib := filepath.Join(t.TempDir(), "libwebkit2gtk-4.1.so.0")
	os.WriteFile(lib, nil, 0o644)
	p.WebKitLibs = []string{filepath.Join(filepath.Dir(lib), "libwebkit2gtk-4.1.so*")}
	if c := WebKit(p); c.Status != OK {
		t.Fatalf("webkit present: %+v", c)
	}
	r := NewReport("v", []Check{Display(Probe{GOOS: "linux", Getenv: func(string) string { return "" }})})
	if !r.OK {
		t.Fatal("a warning must not fail the report")
	}
}

func TestDataDirCheckWarnsWhenOthersCanAccessIt(t *testing.T) {
	p := paths(t)
	if err := os.Chmod(p.DataDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if c := DataDir(p); c.Status != OK {
		t.Fatalf("a private data dir: %+v", c)
	}
	if err := os.Chmod(p.DataDir, 0o777); err != nil {
		t.Fatal(err)
	}
	c := DataDir(p)
	if c.Status != Warn || !strings.Contains(c.Detail, "0777") || c.Fix != "chmod 700 "+p.DataDir {
		t.Fatalf("a data dir anyone can open: %+v, want a warning with the fix", c)
	}
}
