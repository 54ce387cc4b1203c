package core

import (
	"context"

	"github.com/ferrydesk/ferry/backend/job"
)

// Sessions returns the core's one session repository (see History), so
// that every write keeps the shared search index in step. Errors: as
// History.
func (c *Core) Sessions(ctx context.Context) (*job.Repo, error) {
	return c.History(ctx)
}
