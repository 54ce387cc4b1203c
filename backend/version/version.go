// Package version reports which Ferry this is. Version and Commit are set at
// link time by the Makefile (-ldflags "-X ..."); a plain `go build` falls back
// to the module build information.
package version

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// Set by -ldflags "-X github.com/ferrydesk/ferry/backend/version.Version=...".
var (
	Version = "0.1.0-dev"
	Commit  = ""
)

// Info is the version as data, for `ferry version --json` and the desktop app.
type Info struct {
	Version string `json:"version"`
	Commit  string `json:"commit,omitempty"`
	Go      string `json:"go"`
	OS      string `json:"os"`
	Arch    string `json:"arch"`
}

// Get returns the version information of this binary.
func Get() Info {
	commit := Commit
	if commit == "" {
		if bi, ok := debug.ReadBuildInfo(); ok {
			for _, s := range bi.Settings {
				if s.Key == "vcs.revision" && len(s.Value) >= 12 {
					commit = s.Value[:12]
				}
			}
		}
	}
	return Info{Version: Version, Commit: commit, Go: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH}
}

// String is the one-line form: "ferry 0.1.0-dev (abc123def456, go1.26.8 linux/amd64)".
func String() string {
	i := Get()
	c := i.Commit
	if c == "" {
		c = "unknown commit"
	}
	return fmt.Sprintf("ferry %s (%s, %s %s/%s)", i.Version, c, i.Go, i.OS, i.Arch)
}
