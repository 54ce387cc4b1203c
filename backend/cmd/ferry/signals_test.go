//go:build linux || windows

package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"testing"
	"time"
)

// With roleEnv set, the test binary is a run waiting for main's stop
// signals: it says "ready", and "stopped" once its context ends.
const roleEnv = "FERRY_SIGNALS_TEST_ROLE"

func TestMain(m *testing.M) {
	if os.Getenv(roleEnv) == "run" {
		ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
		defer stop()
		fmt.Println("ready")
		select {
		case <-ctx.Done():
			fmt.Println("stopped")
			os.Exit(0)
		case <-time.After(time.Minute): // only a hang ends here
			fmt.Println("not stopped")
			os.Exit(1)
		}
	}
	os.Exit(m.Run())
}

// The key a user presses (Ctrl+C on Linux, Ctrl+Break at a Windows
// console) ends a run through main's context, so it shuts down cleanly.
func TestTheStopKeyEndsARunCleanly(t *testing.T) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), roleEnv+"=run")
	ownGroup(t, cmd)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(out)
	if !lines.Scan() || lines.Text() != "ready" {
		t.Fatalf("the run said %q", lines.Text())
	}
	pressStopKey(t, cmd.Process.Pid)
	if !lines.Scan() || strings.TrimSpace(lines.Text()) != "stopped" {
		t.Fatalf("after the stop key the run said %q", lines.Text())
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the run did not exit cleanly: %v", err)
	}
}
