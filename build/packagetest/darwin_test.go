//go:build package

package packagetest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"debug/buildinfo"
	"debug/macho"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
)

// lcCodeSignature is the load command of a Mach-O code signature.
const lcCodeSignature = 0x1d

func TestMacPackages(t *testing.T) {
	_, version := distVersion(t, "-windows-amd64.zip")
	for _, c := range []struct {
		arch string
		cpu  macho.Cpu
	}{{"arm64", macho.CpuArm64}, {"amd64", macho.CpuAmd64}} {
		t.Run("the "+c.arch+" tarball holds the "+c.arch+" ferry and README.txt", func(t *testing.T) {
			name := "ferry-" + version + "-darwin-" + c.arch
			f, err := os.Open(dist(t, name+".tar.gz"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			zr, err := gzip.NewReader(f)
			if err != nil {
				t.Fatal(err)
			}
			tr := tar.NewReader(zr)
			files := map[string][]byte{}
			modes := map[string]int64{}
			for {
				h, err := tr.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if h.Typeflag == tar.TypeDir {
					continue
				}
				b, err := io.ReadAll(tr)
				if err != nil {
					t.Fatal(err)
				}
				files[h.Name], modes[h.Name] = b, h.Mode
			}
			want := []string{name + "/README.txt", name + "/ferry"}
			if got := keys(files); strings.Join(got, " ") != strings.Join(want, " ") {
				t.Fatalf("the tarball holds %v, want %v", got, want)
			}
			if modes[name+"/ferry"]&0o111 == 0 {
				t.Errorf("ferry is not executable: mode %o", modes[name+"/ferry"])
			}
			readme := string(files[name+"/README.txt"])
			for _, s := range []string{"xattr -d com.apple.quarantine", "ferry mcp config claude", "not notarized"} {
				if !strings.Contains(readme, s) {
					t.Errorf("README.txt does not say %q", s)
				}
			}

			bin := files[name+"/ferry"]
			m, err := macho.NewFile(bytes.NewReader(bin))
			if err != nil {
				t.Fatalf("ferry is no Mach-O file: %v", err)
			}
			defer m.Close()
			if m.Cpu != c.cpu || m.Type != macho.TypeExec {
				t.Errorf("ferry is %v %v, want %v executable", m.Cpu, m.Type, c.cpu)
			}
			// Apple silicon runs no unsigned binary: Go's linker signs it ad hoc.
			signed := false
			for _, l := range m.Loads {
				if raw := l.Raw(); len(raw) >= 4 && binary.LittleEndian.Uint32(raw) == lcCodeSignature {
					signed = true
				}
			}
			if c.arch == "arm64" && !signed {
				t.Error("the arm64 ferry has no code signature: macOS would kill it at start")
			}
			bi, err := buildinfo.Read(bytes.NewReader(bin))
			if err != nil {
				t.Fatal(err)
			}
			settings := map[string]string{}
			for _, s := range bi.Settings {
				settings[s.Key] = s.Value
			}
			if settings["GOOS"] != "darwin" || settings["GOARCH"] != c.arch || settings["CGO_ENABLED"] != "0" {
				t.Errorf("build settings: %v", settings)
			}
			// The version stamp (-X …/version.Version=, what build/bin/ferry
			// prints). A -trimpath build leaves -ldflags out of its build
			// info: the stamp is then looked for in the binary itself, apart
			// from the build info's own text (which may hold the commit).
			if settings["-trimpath"] != "true" {
				if !strings.Contains(settings["-ldflags"], "backend/version.Version=") {
					t.Errorf("no version stamp in the build settings: %v", settings)
				}
			} else if stamp := stampedVersion(t); bytes.Count(bin, []byte(stamp)) <= strings.Count(bi.String(), stamp) {
				t.Errorf("the %s ferry does not carry the version %q build/bin/ferry was stamped with", c.arch, stamp)
			}
		})
	}
}

// stampedVersion is the version build/bin/ferry was stamped with, the one
// the packaging scripts stamp every binary with (scripts/package-version.sh).
func stampedVersion(t *testing.T) string {
	t.Helper()
	out, err := run(t, "../bin/ferry", "version", "--json")
	var v struct{ Version string }
	if err != nil || json.Unmarshal([]byte(out), &v) != nil || v.Version == "" {
		t.Fatalf("build/bin/ferry version --json: %v\n%s", err, out)
	}
	return v.Version
}
