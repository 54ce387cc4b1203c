// Package doctor checks that this machine can run Ferry: a browser to drive,
// a display for the desktop app, a writable data directory, a store that can
// be opened (or is owned by a running Ferry), WebKitGTK for the window, and a
// valid settings file. Each check says what it found and, when it is not ok,
// what the user can do. Checks never change anything.
package doctor

import (
	"fmt"
	"github.com/ferrydesk/ferry/backend/service"
	"io"
	"strings"
)

// The report's records are the service's (package service is their one
// definition, as the window and the CLI show them); these names keep the
// doctor's own vocabulary.
type (
	// Status is the outcome of one check.
	Status = service.SetupStatus
	// Check is one line of the report.
	Check = service.SetupCheck
	// Report is the whole doctor run. OK is false when a required check
	// failed.
	Report = service.SetupReport
)

// The outcomes. A warning does not fail the report; a failure of a
// required check does.
const (
	OK   = service.SetupOK
	Warn = service.SetupWarn
	Fail = service.SetupFail
)

// NewReport computes OK from the checks.
func NewReport(version string, checks []Check) Report {
	r := Report{OK: true, Version: version, Checks: checks}
	for _, c := range checks {
		if c.Required && c.Status == Fail {
			r.OK = false
		}
	}
	return r
}

// Failed returns the required checks of r that failed.
func Failed(r Report) []Check {
	var out []Check
	for _, c := range r.Checks {
		if c.Required && c.Status == Fail {
			out = append(out, c)
		}
	}
	return out
}

// WriteText renders r for a terminal, one check per line with its fix
// indented below it.
func WriteText(w io.Writer, r Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", r.Version)
	for _, c := range r.Checks {
		mark := map[Status]string{OK: "ok  ", Warn: "warn", Fail: "FAIL"}[c.Status]
		fmt.Fprintf(&b, "[%s] %-10s %s\n", mark, c.ID, c.Detail)
		if c.Status != OK && c.Fix != "" {
			fmt.Fprintf(&b, "       fix: %s\n", c.Fix)
		}
	}
	if r.OK {
		b.WriteString("all required checks passed\n")
	} else {
		fmt.Fprintf(&b, "%d required check(s) failed\n", len(Failed(r)))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
