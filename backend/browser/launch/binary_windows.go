//go:build windows

package launch

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unsafe"

	"golang.org/x/sys/windows"
	"golang.org/x/sys/windows/registry"

	"github.com/ferrydesk/ferry/backend/errs"
)

const appPathsKey = `SOFTWARE\Microsoft\Windows\CurrentVersion\App Paths\`

// appPathFromRegistry returns where the App Paths registrations of exe
// (chrome.exe, msedge.exe, brave.exe) point, the user's own (HKCU) before
// the machine's (HKLM, 64-bit view then 32-bit view), without duplicates.
// An installer that put the browser in a folder of its own choosing still
// registers it here, which is how the Run dialog finds it.
func appPathFromRegistry(exe string) []string {
	var out []string
	seen := map[string]bool{}
	for _, k := range []struct {
		root   registry.Key
		access uint32
	}{
		{registry.CURRENT_USER, 0},
		{registry.LOCAL_MACHINE, registry.WOW64_64KEY},
		{registry.LOCAL_MACHINE, registry.WOW64_32KEY},
	} {
		p, err := readAppPath(k.root, k.access, exe)
		if err != nil || p == "" || seen[strings.ToLower(p)] {
			continue
		}
		seen[strings.ToLower(p)] = true
		out = append(out, p)
	}
	return out
}

// readAppPath reads the default value of App Paths\exe under root,
// unquoted and with %variables% expanded.
func readAppPath(root registry.Key, access uint32, exe string) (string, error) {
	key, err := registry.OpenKey(root, appPathsKey+exe, registry.QUERY_VALUE|access)
	if err != nil {
		return "", err
	}
	defer key.Close()
	v, typ, err := key.GetStringValue("")
	if err != nil {
		return "", err
	}
	v = strings.Trim(strings.TrimSpace(v), `"`)
	if typ == registry.EXPAND_SZ || strings.Contains(v, "%") {
		if x, err := registry.ExpandString(v); err == nil {
			v = x
		}
	}
	if v == "" {
		return "", errors.New("empty App Paths value")
	}
	return v, nil
}

// resourceVersion reads the version of the executable at path from its
// version resource, as Explorer's Details tab shows it: "<ProductName>
// <FileVersion>", e.g. "Google Chrome 131.0.6778.86" (Chrome and Edge
// print nothing for --version on Windows). ok is always true: Windows has
// no other way. Errors: BrowserNotFound when path has no readable version
// resource (not a browser's executable).
func resourceVersion(path string) (v string, ok bool, err error) {
	fail := func(err error) (string, bool, error) {
		return "", true, errs.Wrap(err, errs.BrowserNotFound, "read the version of %s: %v", path, err).
			WithEvidence("path", path).
			WithHint("point --chromium (or browser.binary in settings) at chrome.exe, msedge.exe or brave.exe")
	}
	size, err := windows.GetFileVersionInfoSize(path, nil)
	if err != nil {
		return fail(err)
	}
	buf := make([]byte, size)
	if err := windows.GetFileVersionInfo(path, 0, size, unsafe.Pointer(&buf[0])); err != nil {
		return fail(err)
	}
	var fixed *windows.VS_FIXEDFILEINFO
	var n uint32
	if err := windows.VerQueryValue(unsafe.Pointer(&buf[0]), `\`, unsafe.Pointer(&fixed), &n); err != nil || n == 0 {
		return fail(fmt.Errorf("no fixed file information: %v", err))
	}
	version := fmt.Sprintf("%d.%d.%d.%d", fixed.FileVersionMS>>16, fixed.FileVersionMS&0xffff,
		fixed.FileVersionLS>>16, fixed.FileVersionLS&0xffff)
	name := productName(buf)
	if name == "" {
		name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	return name + " " + version, true, nil
}

// productName is the ProductName string of a version resource, in the
// resource's first language ("" when it has none).
func productName(buf []byte) string {
	var langs *[2]uint16
	var n uint32
	if err := windows.VerQueryValue(unsafe.Pointer(&buf[0]), `\VarFileInfo\Translation`, unsafe.Pointer(&langs), &n); err != nil || n < 4 {
		return ""
	}
	key := fmt.Sprintf(`\StringFileInfo\%04x%04x\ProductName`, langs[0], langs[1])
	var text *uint16
	if err := windows.VerQueryValue(unsafe.Pointer(&buf[0]), key, unsafe.Pointer(&text), &n); err != nil || n == 0 {
		return ""
	}
	return strings.TrimSpace(windows.UTF16PtrToString(text))
}
