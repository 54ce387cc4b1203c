package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// verifyOut is `ferry verify --json` as printed.
type verifyOut struct {
	Path string `json:"path"`
	artifact.Verdict
	Error *errs.Envelope `json:"error"`
}

// TestVerify runs the built binary's `verify` on the simulator's good and
// hostile zips, with the limits of a settings file.
func TestVerify(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dataDir := t.TempDir()
	write := func(t *testing.T, name string, b []byte) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	scenarioZip := func(t *testing.T, scenario string) string {
		t.Helper()
		b, err := sim.ZipBytes(scenario, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		return write(t, scenario+".zip", b)
	}
	verifyJSON := func(t *testing.T, args ...string) (result, verifyOut) {
		t.Helper()
		r := ferry(t, nil, append([]string{"verify", "--json", "--data-dir", dataDir}, args...)...)
		var v verifyOut
		if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
			t.Fatalf("stdout is not a verdict (exit %d): %v\n%s\nstderr %s", r.code, err, r.stdout, r.stderr)
		}
		return r, v
	}

	t.Run("a FIFO is refused at once, without waiting for a writer", func(t *testing.T) {
		fifo := filepath.Join(dir, "pipe.zip")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
		r := ferry(t, nil, "verify", "--json", "--data-dir", dataDir, fifo)
		var e errorJSON
		if err := json.Unmarshal([]byte(r.stdout), &e); err != nil || r.code != 2 || e.Error.Code != errs.BadInput ||
			!strings.Contains(e.Error.Message, "not a regular file") {
			t.Fatalf("exit %d %s (%v)", r.code, r.stdout, err)
		}
		// A verify that opened the FIFO would wait for a writer that never
		// comes, until ferry's hang bound killed it: the exit code above
		// is the proof that it did not wait.
	})

	t.Run("a good zip exits 0 with its entries and sha256", func(t *testing.T) {
		p := scenarioZip(t, sim.ScenarioCodeZip)
		b, _ := os.ReadFile(p)
		sum := sha256.Sum256(b)
		r, v := verifyJSON(t, p)
		if r.code != 0 || !v.OK || v.Error != nil || len(v.Problems) != 0 {
			t.Fatalf("exit %d verdict %+v error %+v", r.code, v.Verdict, v.Error)
		}
		if v.SHA256 != hex.EncodeToString(sum[:]) || v.Size != int64(len(b)) || v.Path != p {
			t.Fatalf("verdict names %s, %d bytes, sha %s; want %s, %d bytes, %x", v.Path, v.Size, v.SHA256, p, len(b), sum)
		}
		names := map[string]bool{}
		for _, e := range v.Entries {
			names[e.Name] = true
		}
		if !names["main.py"] || !names["src/app.py"] || v.Files < 4 {
			t.Fatalf("entries %+v, want the project's files", v.Entries)
		}
		// In words: the outcome, the hash and every file.
		h := ferry(t, nil, "verify", "--data-dir", dataDir, p)
		if h.code != 0 || !strings.Contains(h.stdout, ": good") || !strings.Contains(h.stdout, v.SHA256) || !strings.Contains(h.stdout, "src/app.py") {
			t.Fatalf("exit %d stdout %q", h.code, h.stdout)
		}
	})

	hostile := []struct {
		name, scenario string
		code           errs.Code
	}{
		{"a zip with a bad CRC is artifact_corrupt", sim.ScenarioZipBadCRC, errs.ArtifactCorrupt},
		{"a truncated zip is artifact_corrupt", sim.ScenarioZipTruncated, errs.ArtifactCorrupt},
		{"a zip-slip entry is artifact_unsafe", sim.ScenarioZipSlip, errs.ArtifactUnsafe},
		{"a zip bomb is artifact_unsafe", sim.ScenarioZipBomb, errs.ArtifactUnsafe},
		{"a symlink entry is artifact_unsafe", sim.ScenarioZipSymlink, errs.ArtifactUnsafe},
	}
	for _, tc := range hostile {
		t.Run(tc.name+" and exits 7", func(t *testing.T) {
			p := scenarioZip(t, tc.scenario)
			r, v := verifyJSON(t, p)
			if r.code != 7 || v.OK || v.Error == nil || v.Error.Code != tc.code {
				t.Fatalf("exit %d ok %v error %+v, want 7 %s", r.code, v.OK, v.Error, tc.code)
			}
			blocking := 0
			for _, pr := range v.Problems {
				if pr.Blocking {
					blocking++
					if pr.Reason.Code() != tc.code && blocking == 1 {
						t.Fatalf("first blocking problem %+v is not %s", pr, tc.code)
					}
				}
			}
			if blocking == 0 {
				t.Fatalf("no blocking problem in %+v", v.Problems)
			}
			h := ferry(t, nil, "verify", "--data-dir", dataDir, p)
			if h.code != 7 || !strings.Contains(h.stdout, "REFUSED") || !strings.Contains(h.stdout, "problem: ") || !strings.Contains(h.stderr, string(tc.code)) {
				t.Fatalf("in words: exit %d stdout %q stderr %q", h.code, h.stdout, h.stderr)
			}
		})
	}

	t.Run("a file that is no zip is artifact_corrupt", func(t *testing.T) {
		p := write(t, "notes.zip", []byte("just some text, not an archive\n"))
		r, v := verifyJSON(t, p)
		if r.code != 7 || v.Error == nil || v.Error.Code != errs.ArtifactCorrupt || v.Error.Evidence["reason"] != string(artifact.ReasonNotZip) {
			t.Fatalf("exit %d error %+v, want 7 artifact_corrupt not_zip", r.code, v.Error)
		}
	})

	t.Run("the settings' limits apply", func(t *testing.T) {
		p := scenarioZip(t, sim.ScenarioCodeZip)
		limited := t.TempDir()
		settings := func(body string) {
			if err := os.WriteFile(filepath.Join(limited, "settings.json"), []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		run := func() (result, verifyOut) {
			r := ferry(t, nil, "verify", "--json", "--data-dir", limited, p)
			var v verifyOut
			if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
				t.Fatalf("stdout %q: %v", r.stdout, err)
			}
			return r, v
		}
		settings(`{"artifacts": {"maxEntries": 2}}`)
		r, v := run()
		if r.code != 7 || v.Error == nil || v.Error.Code != errs.ArtifactTooLarge || v.Error.Evidence["reason"] != string(artifact.ReasonTooManyEntries) {
			t.Fatalf("maxEntries 2: exit %d error %+v, want 7 artifact_too_large too_many_entries", r.code, v.Error)
		}
		settings(`{"artifacts": {"maxZipBytes": 100}}`)
		r, v = run()
		if r.code != 7 || v.Error == nil || v.Error.Code != errs.ArtifactTooLarge || v.SHA256 != "" {
			t.Fatalf("maxZipBytes 100: exit %d error %+v sha %q, want 7 artifact_too_large before reading", r.code, v.Error, v.SHA256)
		}
		settings(`{"artifacts": {"maxEntries": 5000}}`)
		if r, v = run(); r.code != 0 || !v.OK {
			t.Fatalf("generous limits: exit %d error %+v", r.code, v.Error)
		}
		// No store, no browser profile: only the settings file is there.
		entries, _ := os.ReadDir(limited)
		if len(entries) != 1 {
			t.Fatalf("verify created %d entries in the data directory, want only settings.json", len(entries))
		}
	})

	t.Run("bad input exits 2", func(t *testing.T) {
		for _, args := range [][]string{
			{"verify"},
			{"verify", filepath.Join(dir, "missing.zip")},
			{"verify", dir},
			{"verify", "a.zip", "b.zip"},
		} {
			r := ferry(t, nil, append(args, "--data-dir", dataDir)...)
			if r.code != 2 || r.stderr == "" {
				t.Fatalf("ferry %v: exit %d stderr %q, want 2 with a message", args, r.code, r.stderr)
			}
		}
	})
}
