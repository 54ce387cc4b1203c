package termtext

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ferrydesk/ferry/backend/service"
)

// SitesReport renders a live check of the sites for a terminal: per
// site its verdict, login and interstitial, one line per role (with the
// candidates and the override for a missing one), and the stream.
func SitesReport(w io.Writer, rep service.SitesReport) error {
	var b strings.Builder
	for _, s := range rep.Sites {
		verdict := "ok"
		if !s.OK {
			verdict = "NOT OK"
		}
		var blocked []string
		for _, r := range s.Roles {
			if r.Status == service.RoleMissing && r.Blocks != "" && !slices.Contains(blocked, featureWords(r.Blocks)) {
				blocked = append(blocked, featureWords(r.Blocks))
			}
		}
		if len(blocked) > 0 {
			verdict += " for plain asks; not for " + strings.Join(blocked, ", ")
		}
		fmt.Fprintf(&b, "%s (%s): %s\n", s.Name, s.Site, verdict)
		if s.TargetID != "" {
			opened := ""
			if s.Opened {
				opened = ", opened in the background"
			}
			fmt.Fprintf(&b, "  tab %s%s: %s\n", s.TargetID, opened, Printable(s.URL, 200))
		}
		if s.Error != nil {
			fmt.Fprintf(&b, "  could not look at the page: %s [%s]\n", Printable(s.Error.Message, 300), s.Error.Code)
			continue
		}
		if !s.LoggedIn {
			fmt.Fprintf(&b, "  not logged in: %s\n", s.Login)
		} else {
			fmt.Fprintf(&b, "  logged in\n")
		}
		if i := s.Interstitial; i != nil {
			fmt.Fprintf(&b, "  interstitial %s: %s\n", i.Kind, Printable(i.Message, 300))
		}
		for _, r := range s.Roles {
			writeRole(&b, r)
		}
		for _, l := range s.Layouts {
			name := l.Layout
			if l.Unknown {
				name = "a layout Ferry does not know (the page works as far as the roles above show; a report of it helps)"
			}
			fmt.Fprintf(&b, "  %-9s %-15s %s\n", "layout", l.Aspect, Printable(name, 200))
		}
		if st := s.Stream; st != nil {
			fmt.Fprintf(&b, "  %-9s %-15s %s\n", streamMark(st.Status), "stream", Printable(st.Detail, 400))
			if st.Override != "" {
				fmt.Fprintf(&b, "            override: %s\n", st.Override)
			}
		}
	}
	if rep.OK {
		fmt.Fprintf(&b, "all %d site(s) ok\n", len(rep.Sites))
	} else {
		n := 0
		for _, s := range rep.Sites {
			if !s.OK {
				n++
			}
		}
		fmt.Fprintf(&b, "%d site(s) not ok: add an override to the \"sites\" setting (Settings → Sites), or log in, then check again\n", n)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeRole(b *strings.Builder, r service.SiteRoleCheck) {
	switch r.Status {
	case service.RoleOK:
		fmt.Fprintf(b, "  %-9s %-15s %s (selector %d of %d, %d match(es))\n", "ok", r.Role, Printable(r.MatchedSelector, 200), r.Matched+1, len(r.Selectors), r.Count)
	case service.RoleNotShown:
		fmt.Fprintf(b, "  %-9s %-15s not on the page: %s\n", "-", r.Role, r.Note)
	case service.RoleMissing:
		fmt.Fprintf(b, "  %-9s %-15s resolves nowhere; tried %s\n", "MISSING", r.Role, Printable(strings.Join(r.Selectors, " | "), 400))
		if len(r.Candidates) == 0 {
			fmt.Fprintf(b, "            nothing on the page looks like it\n")
		}
		if r.Blocks != "" {
			fmt.Fprintf(b, "            blocks %s (the page lacks it; plain asks work)\n", featureWords(r.Blocks))
		}
		for i, c := range r.Candidates {
			fmt.Fprintf(b, "            candidate %d: %s (%d match(es)%s)\n", i+1, Printable(c.Selector, 200), c.Matches, describe(c))
			fmt.Fprintf(b, "            override:    %s\n", c.Override)
		}
	}
	for _, sel := range r.Invalid {
		fmt.Fprintf(b, "            the browser cannot parse %s\n", Printable(sel, 200))
	}
}

// featureWords names what a missing optional role blocks, in the CLI's
// words (with its flag).
func featureWords(feature string) string {
	switch feature {
	case "model_selection":
		return "choosing a model with --model"
	case "file_upload":
		return "attaching files with --file"
	}
	return feature
}

func describe(c service.SiteCandidate) string {
	var parts []string
	if c.Label != "" {
		parts = append(parts, "aria-label "+Printable(c.Label, 60))
	}
	if c.Text != "" {
		parts = append(parts, "text "+Printable(c.Text, 40))
	}
	if len(parts) == 0 {
		return ""
	}
	return ", " + strings.Join(parts, ", ")
}

func streamMark(status service.StreamStatus) string {
	switch status {
	case service.StreamOK:
		return "ok"
	case service.StreamMissed:
		return "MISSED"
	}
	return "-"
}
