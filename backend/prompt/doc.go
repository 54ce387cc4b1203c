// Package prompt composes the prompts Ferry sends in code mode and judges
// the answers: the delivery instructions (one zip, or one named zip per
// part), the output contracts (assess, plan, code, all, none) with their
// deliverable checkers, the optional GOAL LOCK and research directive, the
// source provenance of a git checkout, the compliance check of how zip paths
// are written, and user templates with {{variables}}. Everything here is
// pure except the git checks of provenance.go.
//
// Layout: contract.go (contracts and their authorization), compose.go and
// templates/*.tmpl (the built-in prompts, golden-tested in testdata/),
// check.go (deliverable checkers), sequence.go (assess → plan → code),
// compliance.go (how zip paths are written), provenance.go (git checks),
// usertemplate.go and store.go (user templates).
package prompt
