package store_test

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/store"
)

// A test binary re-executed with childEnv set plays a second process: a
// holder that keeps a store open, or a writer that is killed mid-stream.
const (
	childEnv      = "FERRY_STORE_TEST_CHILD"
	childDirEnv   = "FERRY_STORE_TEST_DIR"
	childRunEnv   = "FERRY_STORE_TEST_RUN"
	childSyncEnv  = "FERRY_STORE_TEST_SYNC"
	childCountEnv = "FERRY_STORE_TEST_COUNT"
)

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "":
		code := m.Run()
		cleanupFixtures()
		os.Exit(code)
	case "holder":
		os.Exit(runHolder(os.Getenv(childDirEnv)))
	case "writer":
		os.Exit(runWriter(os.Getenv(childDirEnv), os.Getenv(childRunEnv), os.Getenv(childSyncEnv) == "1"))
	case "bulk":
		os.Exit(runBulk(os.Getenv(childDirEnv), os.Getenv(childCountEnv)))
	default:
		fmt.Fprintln(os.Stderr, "unknown child role")
		os.Exit(2)
	}
}

// runHolder opens dir as "ferry serve", says "ready", and keeps the store
// open until its stdin closes.
func runHolder(dir string) int {
	s, err := store.Open(context.Background(), dir, store.WithRole("serve"), store.WithProgram("ferry"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "holder open:", err)
		return 1
	}
	fmt.Println("ready")
	_, _ = io.Copy(io.Discard, os.Stdin)
	if err := s.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "holder close:", err)
		return 1
	}
	return 0
}

// runWriter writes crash/<run>/<n> records forever and prints each key only
// after Put returned nil: a printed key is an acknowledged write.
func runWriter(dir, run string, sync bool) int {
	s, err := store.Open(context.Background(), dir, store.WithRole("test"), store.WithSyncWrites(sync))
	if err != nil {
		fmt.Fprintln(os.Stderr, "writer open:", err)
		return 1
	}
	w := bufio.NewWriter(os.Stdout)
	fmt.Fprintln(w, "ready")
	w.Flush()
	for n := 0; ; n++ {
		key := crashKey(run, n)
		if err := s.Put([]byte(key), crashValue(key)); err != nil {
			fmt.Fprintln(os.Stderr, "writer put:", err)
			return 1
		}
		fmt.Fprintln(w, key)
		w.Flush()
	}
}

func crashKey(run string, n int) string { return fmt.Sprintf("crash/%s/%08d", run, n) }

// crashValue is a ~500-byte value derived from the key, so a reader can tell
// a right value from a torn or stale one.
func crashValue(key string) []byte {
	sum := sha256.Sum256([]byte(key))
	h := hex.EncodeToString(sum[:])
	return []byte(strings.Repeat(h, 8)[:500])
}

// child is a re-executed test binary.
type child struct {
	cmd   *exec.Cmd
	lines *bufio.Scanner
	stdin io.WriteCloser
}

func startChild(t testing.TB, role, dir string, env ...string) *child {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+role, childDirEnv+"="+dir)
	cmd.Env = append(cmd.Env, env...)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, lines: bufio.NewScanner(stdout), stdin: stdin}
	t.Cleanup(func() {
		_ = c.cmd.Process.Kill()
		_ = c.cmd.Wait()
	})
	ready := make(chan bool, 1)
	go func() { ready <- c.lines.Scan() && c.lines.Text() == "ready" }()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatalf("child %s did not get ready", role)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("child %s did not get ready in 20 s", role)
	}
	return c
}

func (c *child) pid() string { return strconv.Itoa(c.cmd.Process.Pid) }

// fixtures are directories shared by the tests of one binary, removed after
// they all ran.
var fixtures struct {
	sync.Mutex
	dirs []string
	s100 string
}

func cleanupFixtures() {
	fixtures.Lock()
	defer fixtures.Unlock()
	for _, d := range fixtures.dirs {
		os.RemoveAll(d)
	}
}

// runBulk writes n sessions, says "done" and waits to be killed without
// closing the store.
func runBulk(dir, count string) int {
	n, err := strconv.Atoi(count)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bulk count:", err)
		return 2
	}
	s, err := store.Open(context.Background(), dir, store.WithRole("test"), store.WithSyncWrites(false))
	if err != nil {
		fmt.Fprintln(os.Stderr, "bulk open:", err)
		return 1
	}
	fmt.Println("ready")
	if err := writeSessions(s, n); err != nil {
		fmt.Fprintln(os.Stderr, "bulk write:", err)
		return 1
	}
	fmt.Println("done")
	_, _ = io.Copy(io.Discard, os.Stdin)
	return 0
}

// writeSessions stores n session records of about 500 bytes and their index
// keys, 1000 per transaction.
func writeSessions(s *store.Store, n int) error {
	const batch = 1000
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < n; i += batch {
		err := s.Update(func(tx *store.Tx) error {
			for j := i; j < min(n, i+batch); j++ {
				id := fmt.Sprintf("s%07d", j)
				rec := fmt.Appendf(nil, `{"id":%q,"site":"chatgpt","model":"gpt-5","state":"done","prompt":"refactor the parser of module %d so that it streams its input and reports line numbers in errors; keep the public API","answer":"Here is the plan for module %d: split the tokenizer, add a position type, thread it through the parser, and return errors that carry it. Tests cover the error positions.","created":"2025-01-01T00:00:00Z","artifacts":[{"name":"patch-%d.zip","sha256":"%064d"}]}`, id, j, j, j, j)
				if err := tx.Put(store.SessionKey(id), rec); err != nil {
					return err
				}
				if err := tx.Put(store.SessionIndexKey(base.Add(time.Duration(j)*time.Second), id), nil); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}
