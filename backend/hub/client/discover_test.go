package client_test

import (
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub/client"
	"github.com/ferrydesk/ferry/backend/hub/hubfile"
)

// deadPID returns the pid of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// closedPort returns a loopback port on which nothing listens.
func closedPort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	return port
}

func TestDiscoverTellsARunningOwnerFromAStaleFile(t *testing.T) {
	live := hubPath(t)
	srv, _ := startHub(t, live)
	liveFile, _ := hubfile.Read(live)
	token := liveFile.Token
	write := func(t *testing.T, f hubfile.File) string {
		p := hubPath(t)
		if err := hubfile.Write(p, f); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		name   string
		path   func(t *testing.T) string
		reason client.NoOwnerReason
	}{
		{"a missing file means no owner", func(t *testing.T) string { return hubPath(t) }, client.ReasonNoFile},
		{"a dead pid means no owner", func(t *testing.T) string {
			return write(t, hubfile.File{Port: srv.Port(), Token: token, PID: deadPID(t), StartedAt: time.Now()})
		}, client.ReasonDeadProcess},
		{"a refused connection means no owner", func(t *testing.T) string {
			return write(t, hubfile.File{Port: closedPort(t), Token: token, PID: os.Getpid(), StartedAt: time.Now()})
		}, client.ReasonRefused},
		{"a port whose hub rejects the token means no owner", func(t *testing.T) string {
			return write(t, hubfile.File{Port: srv.Port(), Token: "owner." + "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", PID: os.Getpid(), StartedAt: time.Now()})
		}, client.ReasonTokenRejected},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := client.Discover(context.Background(), c.path(t))
			var no *client.NoOwnerError
			if !errors.As(err, &no) || no.Reason != c.reason {
				t.Fatalf("Discover: %v, want no owner because %q", err, c.reason)
			}
			if !errs.Has(err, errs.HubNotRunning) || !client.IsNoOwner(err) {
				t.Fatalf("%v does not carry hub_not_running", err)
			}
		})
	}
	t.Run("a live owner is found with its pid and port", func(t *testing.T) {
		ep := discover(t, live)
		if ep.Port != srv.Port() || ep.PID != os.Getpid() {
			t.Fatalf("endpoint %v", ep)
		}
		if s := ep.String() + ep.GoString(); strings.Contains(s, token) {
			t.Fatal("the endpoint prints its token")
		}
	})
	t.Run("a hub file others can read is refused, not trusted", func(t *testing.T) {
		p := write(t, liveFile)
		os.Chmod(p, 0o644)
		_, err := client.Discover(context.Background(), p)
		if err == nil || client.IsNoOwner(err) || !errs.Has(err, errs.BadInput) || strings.Contains(err.Error(), token) {
			t.Fatalf("Discover of a 0644 file: %v", err)
		}
	})
	t.Run("after the owner closes, its file is gone", func(t *testing.T) {
		closeHub(srv)
		if _, err := client.Discover(context.Background(), live); !client.IsNoOwner(err) {
			t.Fatalf("Discover after Close: %v", err)
		}
	})
}
