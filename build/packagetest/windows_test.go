//go:build package

package packagetest

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"debug/pe"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// distVersion finds build/dist/ferry-<version><suffix> and returns its path
// and the version in its name.
func distVersion(t *testing.T, suffix string) (string, string) {
	t.Helper()
	p := dist(t, "ferry-*"+suffix)
	return p, strings.TrimSuffix(strings.TrimPrefix(filepath.Base(p), "ferry-"), suffix)
}

// zipFiles reads every file of a zip into memory, by name.
func zipFiles(t *testing.T, name string) map[string][]byte {
	t.Helper()
	zr, err := zip.OpenReader(name)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	files := map[string][]byte{}
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatalf("read %s from the zip: %v", f.Name, err)
		}
		files[f.Name] = b
	}
	return files
}

func keys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// checkExe checks a Windows program: amd64, its subsystem, and resources
// with this version, the app icon in four sizes and a manifest holding each
// of manifestHas.
func checkExe(t *testing.T, name string, b []byte, version string, subsystem uint16, description string, manifestHas ...string) {
	t.Helper()
	f, err := pe.NewFile(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s is no PE file: %v", name, err)
	}
	defer f.Close()
	oh, ok := f.OptionalHeader.(*pe.OptionalHeader64)
	if f.Machine != pe.IMAGE_FILE_MACHINE_AMD64 || !ok {
		t.Fatalf("%s: machine %#x, want amd64", name, f.Machine)
	}
	if oh.Subsystem != subsystem {
		t.Errorf("%s: subsystem %d, want %d", name, oh.Subsystem, subsystem)
	}
	res, err := resources(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	vi, err := parseVersionInfo(res[[2]uint32{rtVersion, 1}])
	if err != nil {
		t.Fatalf("%s: version resource: %v", name, err)
	}
	for k, want := range map[string]string{"FileVersion": version, "ProductVersion": version, "ProductName": "Ferry",
		"FileDescription": description, "CompanyName": "The Ferry authors", "OriginalFilename": name} {
		if vi.strings[k] != want {
			t.Errorf("%s: %s is %q, want %q", name, k, vi.strings[k], want)
		}
	}
	if vi.fileVersion == [4]uint16{} {
		t.Errorf("%s: the fixed file version is 0.0.0.0", name)
	}
	t.Logf("%s: subsystem %d, file version %v, %v", name, oh.Subsystem, vi.fileVersion, vi.strings)
	sizes, err := iconSizes(res[[2]uint32{rtGroupIcon, 3}])
	if err != nil || fmt.Sprint(sizes) != "[16 32 48 256]" {
		t.Errorf("%s: icon group 3 (the one Wails loads) holds sizes %v (%v), want [16 32 48 256]", name, sizes, err)
	}
	manifest := string(res[[2]uint32{rtManifest, 1}])
	for _, want := range manifestHas {
		if !strings.Contains(manifest, want) {
			t.Errorf("%s: the manifest lacks %s:\n%s", name, want, manifest)
		}
	}
}

func TestWindowsPackages(t *testing.T) {
	zipPath, version := distVersion(t, "-windows-amd64.zip")
	setup, setupVersion := distVersion(t, "-windows-amd64-setup.exe")
	if setupVersion != version {
		t.Fatalf("the installer is version %q, the zip %q", setupVersion, version)
	}
	top := "ferry-" + version + "-windows-amd64/"
	files := zipFiles(t, zipPath)

	t.Run("the zip holds both programs and README.txt in one folder", func(t *testing.T) {
		want := []string{top + "README.txt", top + "ferry-desktop.exe", top + "ferry.exe"}
		if got := keys(files); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("the zip holds %v, want %v", got, want)
		}
		if readme := string(files[top+"README.txt"]); !strings.Contains(readme, "\r\n") || !strings.Contains(readme, "WebView2") || !strings.Contains(readme, `%LOCALAPPDATA%\Ferry`) {
			t.Errorf("README.txt has no CRLF lines, WebView2 or the data folder:\n%s", readme)
		}
	})

	t.Run("the desktop is a GUI program and the CLI a console one, each with its version, icon and manifest", func(t *testing.T) {
		checkExe(t, "ferry-desktop.exe", files[top+"ferry-desktop.exe"], version, pe.IMAGE_SUBSYSTEM_WINDOWS_GUI, "Ferry",
			`level="asInvoker"`, "Microsoft.Windows.Common-Controls", "permonitorv2", "true/pm")
		checkExe(t, "ferry.exe", files[top+"ferry.exe"], version, pe.IMAGE_SUBSYSTEM_WINDOWS_CUI, "Ferry command-line tool",
			`level="asInvoker"`)
	})

	t.Run("the installer carries its version and both programs", func(t *testing.T) {
		f, err := pe.Open(setup)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		res, err := resources(f)
		if err != nil {
			t.Fatal(err)
		}
		vi, err := parseVersionInfo(res[[2]uint32{rtVersion, 1}])
		if err != nil || vi.strings["ProductVersion"] != version || vi.strings["ProductName"] != "Ferry" {
			t.Errorf("the installer's version resource: %v %v", err, vi.strings)
		}
		out, err := run(t, "7z", "l", "-slt", setup)
		if err != nil {
			t.Fatalf("7z l: %v\n%s", err, out)
		}
		listed := map[string]bool{}
		for _, l := range strings.Split(out, "\n") {
			if p, ok := strings.CutPrefix(strings.TrimSpace(l), "Path = "); ok {
				listed[p] = true
			}
		}
		for _, want := range []string{"ferry-desktop.exe", "ferry.exe", "uninstall.exe"} {
			if !listed[want] {
				t.Errorf("7z l does not list %s in the installer: %v", want, keys(listed))
			}
		}
	})

	t.Run("under Wine the installer installs for the user, and its uninstaller removes it all but the user's data", func(t *testing.T) {
		w := newWine(t)
		seedPath := `C:\Tools;%USERPROFILE%\bin`
		w.mustRun(t, "reg", "add", `HKCU\Environment`, "/v", "Path", "/t", "REG_EXPAND_SZ", "/d", seedPath, "/f")

		if out, err := w.run(t, setup, "/S"); err != nil {
			t.Fatalf("setup /S: %v\n%s", err, out)
		}
		w.wait(t)
		local, roaming := w.env(t, "LOCALAPPDATA"), w.env(t, "APPDATA")
		instDir := local + `\Programs\Ferry`
		shortcut := roaming + `\Microsoft\Windows\Start Menu\Programs\Ferry.lnk`

		entries, err := os.ReadDir(w.unix(instDir))
		if err != nil {
			t.Fatalf("the install folder: %v", err)
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		if strings.Join(names, " ") != "ferry-desktop.exe ferry.exe uninstall.exe" {
			t.Errorf("%s holds %v", instDir, names)
		}
		for _, exe := range []string{"ferry-desktop.exe", "ferry.exe"} {
			b, err := os.ReadFile(w.unix(instDir + `\` + exe))
			if err != nil || sha256.Sum256(b) != sha256.Sum256(files[top+exe]) {
				t.Errorf("the installed %s is not the zip's (%v)", exe, err)
			}
		}
		if _, err := os.Stat(w.unix(shortcut)); err != nil {
			t.Errorf("no Start-menu shortcut: %v", err)
		}
		key := `HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\Ferry`
		reg := w.regValues(t, key)
		for name, want := range map[string]string{
			"DisplayName": "Ferry", "DisplayVersion": version, "Publisher": "The Ferry authors",
			"UninstallString": `"` + instDir + `\uninstall.exe"`, "QuietUninstallString": `"` + instDir + `\uninstall.exe" /S`,
			"DisplayIcon": instDir + `\ferry-desktop.exe,0`, "InstallLocation": instDir, "NoModify": "0x1", "NoRepair": "0x1",
		} {
			if reg[name] != want {
				t.Errorf("%s\\%s is %q, want %q", key, name, reg[name], want)
			}
		}
		if got := w.regValues(t, `HKCU\Environment`)["Path"]; got != seedPath+";"+instDir {
			t.Errorf("the user's PATH after the install is %q, want the folder added to %q", got, seedPath)
		}

		out, err := w.run(t, instDir+`\ferry.exe`, "version")
		if err != nil || !strings.HasPrefix(out, "ferry ") || !strings.Contains(out, "windows/amd64") {
			t.Errorf("the installed ferry.exe version: %v\n%s", err, out)
		}
		// The same version as the Linux programs packaged beside it.
		versionWord := func(s string) string {
			if f := strings.Fields(s); len(f) > 1 {
				return f[1]
			}
			return ""
		}
		linux, err := run(t, "../bin/ferry", "version")
		if err != nil || versionWord(linux) == "" || versionWord(linux) != versionWord(out) {
			t.Errorf("ferry.exe says %q, build/bin/ferry %q (%v)", out, linux, err)
		}
		out, err = w.run(t, instDir+`\ferry.exe`, "mcp", "config", "claude", "--json")
		var snippet struct{ Command string }
		if err != nil || json.Unmarshal([]byte(out), &snippet) != nil || snippet.Command != instDir+`\ferry.exe` {
			t.Errorf("ferry.exe mcp config claude --json names %q, want the installed program: %v\n%s", snippet.Command, err, out)
		}

		// What is the user's: data, settings, and a start at login of this copy (which goes).
		dataFile, settingsFile := local+`\Ferry\store\keep.txt`, roaming+`\Ferry\settings.json`
		for _, f := range []string{dataFile, settingsFile} {
			if err := os.MkdirAll(filepath.Dir(w.unix(f)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(w.unix(f), []byte("the user's"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		runKey := `HKCU\Software\Microsoft\Windows\CurrentVersion\Run`
		w.mustRun(t, "reg", "add", runKey, "/v", "Ferry", "/t", "REG_SZ", "/d", `"`+instDir+`\ferry-desktop.exe" --hidden`, "/f")

		// The registered command, as "Installed apps" runs it: the uninstaller
		// copies itself to a temporary folder and runs from there, so the
		// wait is for every process of the prefix.
		if out, err := w.run(t, instDir+`\uninstall.exe`, "/S"); err != nil {
			t.Fatalf("uninstall /S: %v\n%s", err, out)
		}
		w.wait(t)
		for _, p := range []string{instDir, shortcut} {
			if _, err := os.Lstat(w.unix(p)); err == nil {
				t.Errorf("%s is still there after the uninstall", p)
			}
		}
		if out, err := w.run(t, "reg", "query", key); err == nil {
			t.Errorf("the Uninstall key is still there:\n%s", out)
		}
		if _, ok := w.regValues(t, runKey)["Ferry"]; ok {
			t.Errorf("the start-at-login entry of the removed copy is still there")
		}
		if got := w.regValues(t, `HKCU\Environment`)["Path"]; got != seedPath {
			t.Errorf("the user's PATH after the uninstall is %q, want %q back", got, seedPath)
		}
		for _, f := range []string{dataFile, settingsFile} {
			if b, err := os.ReadFile(w.unix(f)); err != nil || string(b) != "the user's" {
				t.Errorf("the user's %s did not survive the uninstall: %v", f, err)
			}
		}
	})
}

// wine is a private Wine prefix for one test.
type wine struct {
	bin, server, prefix string
	environ             []string
}

// newWine makes a prefix in a temporary directory (about 20 s), with the
// bcryptprimitives.dll shim Go's Windows runtime needs under Wine 8, the one
// $FERRY_WINE_SHIM names (the Makefile builds it from build/windows/wine/).
func newWine(t *testing.T) *wine {
	t.Helper()
	w := &wine{prefix: filepath.Join(t.TempDir(), "prefix")}
	for _, c := range [][2]string{{"wine64", "wineserver"}, {"/usr/lib/wine/wine64", "/usr/lib/wine/wineserver"}} {
		if p, err := exec.LookPath(c[0]); err == nil {
			w.bin = p
			w.server, _ = exec.LookPath(c[1])
			break
		}
	}
	if w.bin == "" || w.server == "" {
		t.Fatal("no wine64 and wineserver: run scripts/setup-system.sh (Debian's wine64)")
	}
	w.environ = append(os.Environ(), "WINEPREFIX="+w.prefix, "WINEDEBUG=-all", "WINEDLLOVERRIDES=mscoree,mshtml=", "WINEARCH=win64")
	t.Cleanup(func() {
		c := exec.Command(w.server, "-k")
		c.Env = w.environ
		_ = c.Run()
	})
	if out, err := w.run(t, "wineboot", "--init"); err != nil {
		t.Fatalf("wineboot --init: %v\n%s", err, out)
	}
	w.wait(t)

	shim := os.Getenv("FERRY_WINE_SHIM")
	if shim == "" {
		t.Fatal("FERRY_WINE_SHIM names no bcryptprimitives.dll: run make test-package (it builds build/bin/wine/bcryptprimitives.dll)")
	}
	b, err := os.ReadFile(shim)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.prefix, "drive_c/windows/system32/bcryptprimitives.dll"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return w
}

// run runs a Windows program (a path, or a name Wine knows such as reg).
func (w *wine) run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, w.bin, args...)
	c.Env = w.environ
	out, err := c.CombinedOutput()
	return strings.ReplaceAll(string(out), "\r\n", "\n"), err
}

func (w *wine) mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, err := w.run(t, args...)
	if err != nil {
		t.Fatalf("wine %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// wait waits until every process in the prefix has ended.
func (w *wine) wait(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, w.server, "-w")
	c.Env = w.environ
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("wineserver -w: %v\n%s", err, out)
	}
}

// env is a Windows environment variable as the prefix's programs see it.
func (w *wine) env(t *testing.T, name string) string {
	t.Helper()
	v := strings.TrimSpace(w.mustRun(t, "cmd", "/c", "echo", "%"+name+"%"))
	if v == "" || strings.Contains(v, "%") {
		t.Fatalf("%%%s%% is unknown in the prefix: %q", name, v)
	}
	return v
}

// unix is the host path of a C:\ path in the prefix.
func (w *wine) unix(winPath string) string {
	rest, ok := strings.CutPrefix(winPath, `C:\`)
	if !ok {
		panic("not a C: path: " + winPath)
	}
	return filepath.Join(w.prefix, "drive_c", filepath.FromSlash(strings.ReplaceAll(rest, `\`, "/")))
}

// regValues lists a key's values by name (DWORDs as 0x…); a missing key is none.
func (w *wine) regValues(t *testing.T, key string) map[string]string {
	t.Helper()
	out, err := w.run(t, "reg", "query", key)
	vals := map[string]string{}
	if err != nil {
		return vals
	}
	for _, l := range strings.Split(out, "\n") {
		f := strings.SplitN(strings.TrimSpace(l), "    ", 3)
		if len(f) == 3 && strings.HasPrefix(f[1], "REG_") {
			vals[f[0]] = f[2]
		}
	}
	return vals
}
