// Package sitecheck is the live, read-only self-check of the chat sites
// (`ferry doctor --sites`, the desktop's "Check sites now"): in a tab of
// each site it reports whether a user is logged in, what interstitial
// stands in the way, which selector of each role's list matches, the
// elements that look like a role that resolves nowhere (ranked) with the
// settings override that would fix it, and whether the answer stream of
// the last turn was seen where the site's stream pattern looks for it.
// Live checks several sites at once, each in an open tab of the site or in
// a tab it opens in the background, leased (package tabs) while it is
// checked.
//
// The check only reads: it evaluates read-only JavaScript and the page's
// own resource timing, never types, clicks or navigates a tab it did not
// open. Expectations (which roles must resolve in which state of the
// page) and the overrides are pure functions of what the page showed,
// table-tested apart from the browser.
package sitecheck
