// Package codemode runs Ferry's code mode: a prompt that asks a site with a
// sandbox (ChatGPT's code interpreter) to build a project and deliver it as
// zips, sent step by step through the journaled pipeline (package job),
// each answer checked against its output contract (package prompt), the
// zips of the answer's turn brought home through the adapter's
// provider.ArtifactSource, verified and saved with their provenance
// (package artifact), and a receipt of the four proofs (routing,
// transport, content, download) written beside the outputs. It also
// finishes a code step on reattach, from what its session recorded, and
// runs `ferry retrieve`: the zips of an existing conversation brought home
// without sending anything.
//
// The package knows no vendor: it asks the adapter for the
// provider.ArtifactSource capability by type assertion. It does not
// import core either: core wires it, through Host and Tabs.
package codemode
