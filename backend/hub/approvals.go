package hub

import (
	"sort"
	"sync"
)

// approvals holds the jobs that wait for the user's decision. The jobs
// themselves live in the Backend (in StateAwaitingApproval); this is the
// hub's index of who asked and what for.
type approvals struct {
	mu      sync.Mutex
	pending map[string]Approval
}

func newApprovals() *approvals { return &approvals{pending: map[string]Approval{}} }

func (a *approvals) add(ap Approval) {
	a.mu.Lock()
	a.pending[ap.JobID] = ap
	a.mu.Unlock()
}

// take removes and returns the approval of jobID, so that two decisions on
// the same job cannot both go through.
func (a *approvals) take(jobID string) (Approval, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	ap, ok := a.pending[jobID]
	delete(a.pending, jobID)
	return ap, ok
}

func (a *approvals) list() []Approval {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]Approval, 0, len(a.pending))
	for _, ap := range a.pending {
		out = append(out, ap)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].RequestedAt.Equal(out[j].RequestedAt) {
			return out[i].RequestedAt.Before(out[j].RequestedAt)
		}
		return out[i].JobID < out[j].JobID
	})
	return out
}
