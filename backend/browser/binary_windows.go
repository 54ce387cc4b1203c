//go:build windows

package browser

import (
	"errors"
	"strings"

	"golang.org/x/sys/windows/registry"
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
