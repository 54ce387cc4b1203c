package job

import (
	"flag"
	"os"
	"testing"
)

// A test binary re-executed with childEnv set plays the CLI process that
// runs a session and is killed (SIGKILL) in a chosen state.
const (
	childEnv     = "FERRY_JOB_TEST_CHILD"
	childDirEnv  = "FERRY_JOB_TEST_DIR"
	childWSEnv   = "FERRY_JOB_TEST_WS"
	childIDEnv   = "FERRY_JOB_TEST_SESSION"
	childKillEnv = "FERRY_JOB_TEST_KILL"
)

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "run" {
		os.Exit(runChild())
	}
	// The per-state kill cases mostly wait on pages: run them all at once
	// unless the caller chose a parallelism.
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", "12")
	}
	os.Exit(m.Run())
}
