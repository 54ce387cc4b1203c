package sitecheck

import (
	"fmt"

	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/site"
)

// The check's records are the service's (package service is their one
// definition, as the window, the CLI and the wire show them); these names
// keep the check's own vocabulary.
type (
	// RoleStatus is the verdict on one selector role.
	RoleStatus = service.RoleStatus
	// Candidate is an element of the page that looks like a role that
	// resolves nowhere, with the "sites" entry that makes the role use it.
	Candidate = service.SiteCandidate
	// RoleCheck is one selector role of the site on the page.
	RoleCheck = service.SiteRoleCheck
	// StreamStatus is the verdict on the stream capture.
	StreamStatus = service.StreamStatus
	// StreamCheck is the passive check of the stream capture on the last
	// turn.
	StreamCheck = service.SiteStreamCheck
	// Interstitial is what stands in the way on the page.
	Interstitial = service.SiteInterstitial
	// SiteLayout is the layout of one aspect of the page.
	SiteLayout = service.SiteLayout
	// SiteReport is the check of one site.
	SiteReport = service.SiteReport
	// Report is the check of every site asked for.
	Report = service.SitesReport
)

// The verdicts on a role and on the stream capture.
const (
	RoleOK        = service.RoleOK
	RoleMissing   = service.RoleMissing
	RoleNotShown  = service.RoleNotShown
	RoleUndefined = service.RoleUndefined

	StreamOK     = service.StreamOK
	StreamMissed = service.StreamMissed
	StreamUnseen = service.StreamUnseen
	StreamNone   = service.StreamNone
)

// newReport computes OK from the sites.
func newReport(sites []SiteReport) Report {
	r := Report{OK: true, Sites: sites}
	if r.Sites == nil {
		r.Sites = []SiteReport{}
	}
	for _, s := range sites {
		r.OK = r.OK && s.OK
	}
	return r
}

// BrowserClosed rewords r, the check of site s in a browser launched for
// the check alone and quit after it: a tab left open for logging in is
// gone with it.
func BrowserClosed(r *SiteReport, s site.Site) {
	if !r.LoggedIn && r.Error == nil && r.Login != "" {
		r.Login = fmt.Sprintf("log in to %s at %s in Ferry's browser (the check quit the browser it launched for itself; the Ferry app keeps one open), then check again", s.Name, s.Address)
	}
}
