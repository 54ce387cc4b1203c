package proctree

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

// TestZombieTellsAnEndedUnreapedProcess: a child that exited is a zombie
// (still Alive) until it is reaped; a running process is none.
func TestZombieTellsAnEndedUnreapedProcess(t *testing.T) {
	if Zombie(os.Getpid()) {
		t.Fatal("this running process reads as a zombie")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	hang := time.After(time.Minute) // catches a hang only
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for !Zombie(pid) {
		select {
		case <-hang:
			t.Fatalf("the exited child %d never read as a zombie", pid)
		case <-tick.C:
		}
	}
	if !Alive(pid) {
		t.Fatal("an unreaped child is not Alive: Zombie would never be asked")
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if Zombie(pid) {
		t.Fatalf("the reaped child %d still reads as a zombie", pid)
	}
}
