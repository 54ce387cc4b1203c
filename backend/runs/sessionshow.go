package runs

import (
	"context"

	"github.com/ferrydesk/ferry/backend/job"
)

// ShowSession resolves ref (a run's id or an unambiguous prefix of it) and
// reads the run's journal: "show a session" for every face. Errors:
// errs.SessionNotFound, errs.SessionAmbiguous (listing the candidates);
// store failures.
func ShowSession(ctx context.Context, repo *job.Repo, ref string) (*job.Session, []job.Entry, error) {
	s, err := repo.Resolve(ctx, ref)
	if err != nil {
		return nil, nil, err
	}
	j, err := repo.Journal(ctx, s.ID)
	if err != nil {
		return nil, nil, err
	}
	return s, j, nil
}
