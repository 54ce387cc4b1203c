//go:build linux || windows

package proctree

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"testing"
)

// The test binary plays the browser and its helper: with roleEnv=root it
// starts itself again as a helper, prints the helper's pid and stays; with
// roleEnv=helper it stays. Both stay up until they are killed.
const roleEnv = "PROCTREE_TEST_ROLE"

func TestMain(m *testing.M) {
	switch os.Getenv(roleEnv) {
	case "root":
		helper := exec.Command(os.Args[0])
		helper.Env = append(os.Environ(), roleEnv+"=helper")
		if err := helper.Start(); err != nil {
			fmt.Println("error", err)
			os.Exit(2)
		}
		fmt.Println("helper", helper.Process.Pid)
		untilEnded() // a browser
		os.Exit(0)
	case "helper":
		untilEnded() // a renderer
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// untilEnded blocks until the process is ended: the tests kill it, and
// nothing sends it the interrupt it waits for.
func untilEnded() {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt)
	<-c
}

// startTree starts the root role through Start and returns the tree and
// the helper's pid, read from the root's first line.
func startTree(t *testing.T) (*Tree, *exec.Cmd, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), roleEnv+"=root")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	tree, err := Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tree.Kill(); tree.Release() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("read the helper's pid: %v", err)
	}
	f := strings.Fields(line)
	if len(f) != 2 || f[0] != "helper" {
		t.Fatalf("root said %q", line)
	}
	pid, err := strconv.Atoi(f[1])
	if err != nil {
		t.Fatal(err)
	}
	return tree, cmd, pid
}

func TestKillEndsTheRootAndItsHelpers(t *testing.T) {
	tree, cmd, helper := startTree(t)
	if tree.PID() != cmd.Process.Pid || !Alive(tree.PID()) || !Alive(helper) {
		t.Fatalf("root %d alive %t, helper %d alive %t", tree.PID(), Alive(tree.PID()), helper, Alive(helper))
	}
	gone := watchExit(t, helper)
	tree.Kill()
	if err := cmd.Wait(); err == nil {
		t.Fatal("the root exited successfully after Kill")
	}
	gone(t)
}

func TestKillEndsHelpersThatOutlivedTheRoot(t *testing.T) {
	tree, cmd, helper := startTree(t)
	gone := watchExit(t, helper)
	// The root dies alone, as a browser that crashes: its helper stays.
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if !Alive(helper) {
		t.Fatal("the helper died with the root alone: this test proves nothing")
	}
	tree.Kill()
	gone(t)
}

func TestAlive(t *testing.T) {
	if !Alive(os.Getpid()) {
		t.Fatal("this process is not alive")
	}
	for _, pid := range []int{0, -1} {
		if Alive(pid) {
			t.Fatalf("pid %d is alive", pid)
		}
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	// The exited process is reaped and its pid not yet reused (the
	// systems here hand out pids in turn; Windows reuses a pid only after
	// every handle on the process is closed).
	if Alive(cmd.Process.Pid) {
		t.Fatalf("the exited process %d is alive", cmd.Process.Pid)
	}
}
