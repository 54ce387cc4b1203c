package core

import (
	"context"

	"github.com/ferrydesk/ferry/backend/job"
)

// Sessions returns the session repository over the open store, its search
// index rebuilt from the stored records. Errors: as job.OpenRepo (a record
// that does not decode is StoreCorrupt).
func (c *Core) Sessions(ctx context.Context) (*job.Repo, error) {
	return job.OpenRepo(ctx, c.Store())
}
