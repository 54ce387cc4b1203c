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
// The package is a leaf: it imports errs, config, version and record only,
// so that a face importing it pulls in no browser, store or site code. A
// result that needs nothing of the pipeline is declared here once and used
// as it is by the package that makes it (the setup report by doctor, the
// live check of the sites by sitecheck, the clients, the owner's events).
// The records of the runs (a run, its journal, its events, the code and
// retrieval receipts, search hits, tab states, the artifacts library) are
// package record's, the same types the pipeline writes and the store keeps;
// records.go names the ones the faces use most.
package service
