package cli

import (
	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/service"
)

// The pipeline's JSON forms of the service's records, as `--json` prints
// them: a run redacted (job.Redacted) and a reattach's finding. They are
// the CLI's last readers of package job's records; the service's mirrors
// have the same fields but not yet their redaction or field order.

// redactedRun is r as `ferry poll --json` and `ferry reattach --json`
// print it: the record with its secrets redacted.
func redactedRun(r *service.Run) any { return job.Redacted(core.SessionOf(r)) }

// findingRecord is f as `ferry reattach --json` prints it (null for nil).
func findingRecord(f *service.Finding) any { return core.FindingOf(f) }
