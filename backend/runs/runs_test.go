package runs

import (
	"testing"

	"github.com/ferrydesk/ferry/backend/runs/runstest"
	"github.com/ferrydesk/ferry/backend/tabs"
)

// openTestPipeline is the pipeline over the data directory dir, opened as
// an owner opens it.
func openTestPipeline(t testing.TB, dir string) *Pipeline {
	t.Helper()
	d := runstest.Open(t, dir)
	return New(Deps{Paths: d.Paths, Store: d.Store, Settings: d.Settings, History: d.History, Leases: tabs.NewLeases(), Ledger: &tabs.Ledger{}})
}
