package prompt

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/record"
)

// WarningKind says how an answer did not follow the delivery instructions.
type WarningKind = record.ComplianceKind

// The compliance warnings.
const (
	WarnBracketLink = record.WarnBracketLink // only as [label](sandbox:…), never as a plain line
	WarnNotOwnLine  = record.WarnNotOwnLine  // only inside a sentence, backticks or a table
	WarnExtraZip    = record.WarnExtraZip    // several zips where one was asked for
	WarnNamedWrong  = record.WarnNamedWrong  // a zip other than the one asked for
)

// Warning is a compliance finding: the answer is usable, but did not follow
// the delivery instructions.
type Warning = record.ComplianceWarning

// Compliance checks how the answer writes its zip paths against the
// DELIVERY instructions: each path on a line of its own as a plain
// /mnt/data/… path, not only as a bracket-wrapped link; with a single-zip
// request, exactly the expected zip (expected may be "" to skip that). It
// returns warnings in line order; none means compliant.
func Compliance(answer string, multi bool, expected string) []Warning {
	lines := strings.Split(strings.ReplaceAll(answer, "\r\n", "\n"), "\n")
	own := map[string]bool{}
	for _, l := range lines {
		own[strings.TrimSpace(l)] = true
	}
	var out []Warning
	zips := artifact.ScanText(answer, "").Zips
	for _, z := range zips {
		if own[z.Path] {
			continue
		}
		line := firstLine(lines, z.Path)
		kind, msg := WarnNotOwnLine, "is not written alone on its own line as a plain path"
		if isOnlyLink(z) {
			kind, msg = WarnBracketLink, "appears only as a bracket-wrapped sandbox link, not as a plain path line"
		}
		out = append(out, Warning{Kind: kind, Path: z.Path, Line: line, Message: fmt.Sprintf("%s %s", z.Path, msg)})
	}
	if !multi {
		if len(zips) > 1 {
			var names []string
			for _, z := range zips {
				names = append(names, z.Path)
			}
			out = append(out, Warning{Kind: WarnExtraZip, Path: zips[1].Path, Line: firstLine(lines, zips[1].Path),
				Message: fmt.Sprintf("one zip was asked for, the answer names %d: %s", len(zips), strings.Join(names, ", "))})
		}
		if expected != "" && len(zips) > 0 && zips[0].Path != expected {
			out = append(out, Warning{Kind: WarnNamedWrong, Path: zips[0].Path, Line: firstLine(lines, zips[0].Path),
				Message: fmt.Sprintf("%s was asked for, the answer names %s", expected, zips[0].Path)})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

func isOnlyLink(f artifact.Found) bool {
	return len(f.Sources) == 1 && f.Sources[0] == artifact.SourceLink
}

func firstLine(lines []string, p string) int {
	for i, l := range lines {
		if strings.Contains(l, p) {
			return i + 1
		}
	}
	return 0
}
