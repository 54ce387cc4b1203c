package service

import (
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
)

// RetryRunRequest asks to send a stored run's request again as a new job.
type RetryRunRequest struct {
	// Session is the run's id (or an unambiguous prefix).
	Session string `json:"session"`
	// SendAgain confirms sending the prompt again although the site may
	// already hold it (what RetryRunResult.Held said).
	SendAgain bool `json:"sendAgain,omitempty"`
}

// Validate checks the request. Errors: errs.BadInput for no run.
func (r RetryRunRequest) Validate() error {
	if strings.TrimSpace(r.Session) == "" {
		return errs.New(errs.BadInput, "no run named to retry").WithHint("give the run's id")
	}
	return nil
}

// RetryRunResult is what a retry did: the new job, or, when nothing was
// sent because the site may already hold the prompt, why.
type RetryRunResult struct {
	Job  *Job       `json:"job,omitempty"`
	Held *RetryHold `json:"held,omitempty"`
}

// RetryHold says why a retry sent nothing: the run's prompt may already be
// in its site's conversation, and only the user can choose to send it
// again (RetryRunRequest.SendAgain) or to collect the answer instead.
type RetryHold struct {
	// Sent is "yes" (the site took the prompt) or "maybe" (the run
	// stopped while it was being sent).
	Sent string `json:"sent"`
	// Collectable says the run can be resumed without sending again
	// (ReattachSession): it looks for the prompt and collects the answer.
	Collectable bool `json:"collectable"`
	// Message says so in the user's words, naming the site.
	Message string `json:"message"`
}
