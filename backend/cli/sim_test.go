package cli

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestSimServesTheSitesAndPrintsTheChromiumFlags(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(binary, "sim", "--json")
	cmd.Env = hermeticEnv(t)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var info struct {
		Addr          string
		ChromiumFlags []string
		Index         string
	}
	if err := json.NewDecoder(out).Decode(&info); err != nil {
		t.Fatalf("ferry sim --json: %v", err)
	}
	if !strings.HasPrefix(info.Addr, "127.0.0.1:") || len(info.ChromiumFlags) != 3 ||
		!strings.Contains(info.ChromiumFlags[0], "MAP chatgpt.com "+info.Addr) || info.ChromiumFlags[1] != "--ignore-certificate-errors" ||
		info.ChromiumFlags[2] != "--test-type" {
		t.Fatalf("unexpected sim info: %+v", info)
	}
	// Reach the index page the way Chromium would with the flags: the real
	// hostname, resolved to the simulator.
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true, ServerName: "chatgpt.com"},
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, info.Addr)
		},
	}}
	resp, err := client.Get(info.Index)
	if err != nil {
		t.Fatalf("GET %s: %v", info.Index, err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "code_zip") {
		t.Fatalf("index page: %d %.300s", resp.StatusCode, body)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("ferry sim did not stop cleanly on SIGTERM: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ferry sim did not stop within 10 s of SIGTERM")
	}
}

func TestSimScenarioFlag(t *testing.T) {
	t.Parallel()
	t.Run("--scenario sets the turn scenario of every site", func(t *testing.T) {
		cmd := exec.Command(binary, "sim", "--json", "--scenario", "by_contract")
		cmd.Env = hermeticEnv(t)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
		var info struct{ Addr string }
		if err := json.NewDecoder(out).Decode(&info); err != nil {
			t.Fatalf("ferry sim --json: %v", err)
		}
		client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
			TLSClientConfig: &tls.Config{InsecureSkipVerify: true, ServerName: "claude.ai"},
			DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
				return (&net.Dialer{}).DialContext(ctx, network, info.Addr)
			},
		}}
		resp, err := client.Get("https://claude.ai/__sim/scenario?site=claude")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var got struct {
			Turn struct{ Scenario string } `json:"turn"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&got); err != nil || got.Turn.Scenario != "by_contract" {
			t.Fatalf("turn scenario %+v (%v), want by_contract", got, err)
		}
	})
	t.Run("an unknown scenario is bad input naming the known ones", func(t *testing.T) {
		cmd := exec.Command(binary, "sim", "--json", "--scenario", "no_such_thing")
		cmd.Env = hermeticEnv(t)
		out, err := cmd.Output()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(out), `"code":"bad_input"`) || !strings.Contains(string(out), "by_contract") {
			t.Fatalf("exit %v, output %s", err, out)
		}
	})
}
