// Package service is the one contract every face of Ferry uses: the
// desktop's bound structs, the CLI's commands, the hub's routes and MCP each
// turn their input into a request of this package, call a Service and render
// its typed result.
//
// Two implementations exist: package core runs the operations in-process
// (over the store and the browser), and package hub/client runs them on the
// owner process over the local API. The request and result types here are
// also the wire types of that API (like tailscale's apitype): they carry JSON
// tags and no json.RawMessage for a shape Ferry knows.
//
// The package is a leaf: it imports errs, config and version only, so that a
// face importing it pulls in no browser, store or site code. A record that
// needs nothing of the pipeline is declared here once and used as it is by
// the package that makes it (the setup report by doctor, the live check of
// the sites by sitecheck, the clients, the owner's events). The records
// that nest the pipeline's own types (a run, its journal, a code receipt)
// are still declared here as mirrors with the same JSON form; core converts
// between the two and tests that no field is lost.
package service
