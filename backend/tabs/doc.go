// Package tabs chooses the browser tab each run of an owner drives and
// holds it leased while the run drives it: the tab a run names (waited for
// while another run drives it), else the one free tab of the run's site,
// the one the user would pick of several (pref.go), an agent's own tab
// (own.go), or a new background tab on the site's new-chat page
// (open.go); a tab whose site went on writing after a cancel stays leased
// until it stops (busy.go).
//
// The table of leases (Leases) is a value its owner makes and hands to
// every run that may share a browser connection; it holds no state of the
// process. What the choice needs to know of one run (whom it is for, the
// run on screen, whom to tell that it waits, how long its leases last) is
// a Run, passed with each call.
package tabs
