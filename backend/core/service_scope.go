package core

import (
	"context"
	"sort"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// What a caller may see and name. The owner's faces see and name
// everything. An agent owns what its jobs made: the runs its jobs recorded
// (a job record keeps its requester and its run), the tabs those runs
// opened and the conversations they had. It sees only those, and it names
// another tab, conversation or run in a job only when the user granted
// the client that right (clients.Record.ExistingConversations). The
// scope is read from the store on every request, so it holds after a
// restart of the owner and follows a grant or a revocation at once.

// scope is what a caller owns.
type scope struct {
	owner   bool
	granted bool            // the user granted the client the use of its tabs, conversations and runs
	runs    map[string]bool // run ids
	tabs    map[string]bool // TargetIDs of tabs the runs opened
	convs   map[string]bool // conversation ids of the runs
}

// scopeOf reads what c owns. Errors: errs.HubUnauthorized for an unknown
// or revoked client; errs.StoreCorrupt; store failures.
func (s *Service) scopeOf(ctx context.Context, c service.Caller) (scope, error) {
	if c.IsOwner() {
		return scope{owner: true}, nil
	}
	sc := scope{tabs: map[string]bool{}}
	rec, err := s.c.clients.Active(ctx, c.Client)
	if err != nil {
		return scope{}, err
	}
	sc.granted = rec.ExistingConversations
	hd, err := s.h.Holdings(ctx, c.Client)
	if err != nil {
		return scope{}, err
	}
	sc.runs, sc.convs = hd.Runs, hd.Convs
	for _, id := range hd.Tabs {
		sc.tabs[id] = true
	}
	return sc, nil
}

// keep is the filter of the runs the scope holds: nil (all) for the
// owner.
func (sc scope) keep() func(id string) bool {
	if sc.owner {
		return nil
	}
	return func(id string) bool { return sc.runs[id] }
}

// run reports whether the scope holds run id.
func (sc scope) run(id string) bool { return sc.owner || sc.runs[id] }

// tab reports whether the scope holds the tab targetID.
func (sc scope) tab(targetID string) bool { return sc.owner || sc.tabs[targetID] }

// conversation reports whether the scope holds conversation id.
func (sc scope) conversation(id string) bool { return sc.owner || sc.convs[id] }

// resolveRun is the run ref names among the scope's (an unambiguous prefix
// of at least 4 characters is enough, as for the owner). A run outside the
// scope is reported exactly as one that does not exist, so that an agent
// cannot probe for ids. Errors: errs.SessionNotFound;
// errs.SessionAmbiguous listing the agent's matching runs.
func (sc scope) resolveRun(ref string) (string, error) {
	if sc.runs[ref] {
		return ref, nil
	}
	var ids []string
	if len(ref) >= 4 {
		for id := range sc.runs {
			if strings.HasPrefix(id, ref) {
				ids = append(ids, id)
			}
		}
	}
	sort.Strings(ids)
	switch len(ids) {
	case 0:
		// The words of job.Repo's own not-found error.
		return "", errs.New(errs.SessionNotFound, "no session %q", ref).WithEvidence("session", ref)
	case 1:
		return ids[0], nil
	}
	return "", errs.New(errs.SessionAmbiguous, "%q names several sessions: %s", ref, strings.Join(ids, ", ")).
		WithEvidence("sessions", strings.Join(ids, ","))
}

// grantHint tells the user how to let client id use their tabs and
// conversations.
func grantHint(e *errs.Envelope, id string) *errs.Envelope {
	return e.WithHint("leave it out to ask in a new chat; or ask the user to tick “May use my existing tabs and conversations” for this client (%s) in Ferry's Settings → Agents", id)
}

// checkNames refuses a job request of an agent that names a tab, a
// conversation or a run outside its scope, unless the client was granted
// them; a request of an agent without the grant that names only a site is
// made a new chat, so that it never runs in a tab of the user's. It
// returns the request to submit. Errors: errs.HubForbidden with a hint
// saying how the user grants the right.
func (sc scope) checkNames(c service.Caller, req service.JobRequest) (service.JobRequest, error) {
	if sc.owner || sc.granted {
		return req, nil
	}
	switch {
	case req.TabID != "" && !sc.tab(req.TabID):
		return req, grantHint(errs.New(errs.HubForbidden, "tab %q was not opened by a job of this client", service.Summarize(req.TabID, 80)), c.Client)
	case req.Conversation != "" && !sc.conversation(req.Conversation):
		return req, grantHint(errs.New(errs.HubForbidden, "conversation %q is not one of this client's runs", service.Summarize(req.Conversation, 80)), c.Client)
	case req.SessionID != "":
		id, err := sc.resolveRun(req.SessionID)
		if errs.Has(err, errs.SessionAmbiguous) {
			return req, err
		}
		if err != nil {
			return req, grantHint(errs.New(errs.HubForbidden, "run %q is not one of this client's runs", service.Summarize(req.SessionID, 80)), c.Client)
		}
		// The full id: a prefix must not reach a run outside the scope.
		req.SessionID = id
	}
	if req.TabID == "" && req.Conversation == "" && req.SessionID == "" && req.Site != "" {
		req.NewChat = true
	}
	return req, nil
}
