package jobs

import (
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/service"
)

// RequestOf is the request that started run: its job's, or, for a run no
// stored job started (a run of an older Ferry), the one its record keeps
// (the prompt as sent, its site, model, code mode and files). Errors:
// errs.StoreCorrupt for a job record that does not decode; store failures.
func (h *Runner) RequestOf(run *job.Session) (service.JobRequest, error) {
	recs, err := h.jobs.matching(func(rec jobRecord) bool {
		return rec.Session == run.ID && (rec.Kind == service.KindAsk || rec.Kind == service.KindCode)
	})
	if err != nil {
		return service.JobRequest{}, err
	}
	if len(recs) > 0 {
		return recs[0].Spec, nil
	}
	req := service.JobRequest{Kind: service.KindAsk, Prompt: run.Prompt, Site: run.Site, Model: run.ModelRequested, Effort: run.EffortRequested, Tool: run.ToolRequested, Temporary: run.Temporary}
	if run.CodeMode {
		req.Kind, req.Contract = service.KindCode, run.Contract
		if run.Task != "" {
			req.Prompt = run.Task
		}
	} else if run.Parent != "" {
		req.SessionID = run.Parent
	}
	for _, f := range run.Attachments {
		if f.Path != "" {
			req.Files = append(req.Files, f.Path)
		}
	}
	return req, nil
}
