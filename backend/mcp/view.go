package mcp

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/service"
)

// follow waits for job j up to wait and returns its result: an ended job
// that failed is an error carrying the job's id in its evidence.
func (s *Server) follow(ctx context.Context, c call, j service.Job, wait time.Duration) (JobResult, string, error) {
	j, err := s.await(ctx, c, j, wait)
	if err != nil {
		return JobResult{}, "", err
	}
	r := s.result(j)
	if r.Done {
		s.copyOut(&r)
	}
	if r.Done && r.Error != nil && j.State != string(record.StateCancelled) {
		return JobResult{}, "", withJob(r.Error, j.ID)
	}
	return r, describe(r), nil
}

// withJob is a copy of e naming job id in its evidence.
func withJob(e *errs.Envelope, id string) *errs.Envelope {
	cp := *e
	cp.Evidence = map[string]string{evidenceJob: id}
	for k, v := range e.Evidence {
		cp.Evidence[k] = v
	}
	return &cp
}

// result is j as the tools show it.
func (s *Server) result(j service.Job) JobResult {
	r := JobResult{JobID: j.ID, Kind: string(j.Kind), State: j.State, Done: j.Ended(), Error: j.Error}
	if j.State == service.StateAwaitingApproval {
		r.AwaitingApproval = true
	}
	if d := j.Detail; d != nil {
		r.Session, r.Waiting, r.Receipt = d.Session, d.Waiting, d.Receipt
		r.Site = d.Spec.Site
		if run := d.Run; run != nil {
			r.RunState, r.Site, r.Conversation = string(run.State), run.Site, run.ConversationURL
			r.Model = run.Model.Selected
			if r.Model == "" {
				r.Model = run.Model.Slug
			}
			r.Answer = run.Answer
			r.Zips = zipsOfRun(run)
			r.Images = imagesOfRun(run)
		}
		if d.Receipt != nil {
			r.Zips = zipsOf(d.Receipt.Zips)
		}
		if r.Error == nil && d.RunError != nil {
			r.Error = d.RunError
		}
	}
	r.Error = forAgent(r.Error)
	if !r.Done {
		switch r.State {
		case service.StateAwaitingApproval, service.StateQueued:
		default:
			r.State = StateRunning
		}
		s.mu.Lock()
		if p := s.partial[j.ID]; p != "" && r.Answer == "" {
			r.Answer, r.Partial = p, true
		}
		s.mu.Unlock()
	}
	return r
}

// zipsOf is a receipt's zips.
func zipsOf(zs []record.ZipReceipt) []Zip {
	out := make([]Zip, 0, len(zs))
	for _, z := range zs {
		v := Zip{Path: z.SavedPath, SHA256: z.SHA256, Verified: z.Verified, Files: z.Files, Size: z.Size}
		switch {
		case z.Verified:
			v.Verdict = "verified"
		case z.Quarantined:
			v.Verdict = "quarantined"
		default:
			v.Verdict = "failed"
		}
		if z.Error != nil {
			v.Error = z.Error.Message
		}
		if z.Verified && z.SHA256 != "" {
			v.Resource = artifactURI(z.SHA256)
		}
		out = append(out, v)
	}
	return out
}

// zipsOfRun is the zip artifacts a run recorded.
func zipsOfRun(run *service.Run) []Zip {
	var out []Zip
	for _, a := range run.Artifacts {
		if !strings.HasSuffix(strings.ToLower(a.Name), ".zip") {
			continue
		}
		v := Zip{Path: a.Path, SHA256: a.SHA256, Size: a.Bytes, Verdict: a.Verdict, Verified: a.Verdict == "verified", Error: a.Reason}
		if v.Verified && a.SHA256 != "" {
			v.Resource = artifactURI(a.SHA256)
		}
		out = append(out, v)
	}
	return out
}

// describe says a job result in words for the text content.
func describe(r JobResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Job %s (%s): %s", r.JobID, r.Kind, r.State)
	if r.Site != "" {
		fmt.Fprintf(&b, " on %s", r.Site)
	}
	if r.Model != "" {
		fmt.Fprintf(&b, ", model %s", r.Model)
	}
	b.WriteString(".")
	switch {
	case r.AwaitingApproval:
		b.WriteString("\nThe user must approve this job in Ferry before anything is sent; then call the job tool with this job_id.")
	case r.State == service.StateQueued:
		fmt.Fprintf(&b, "\nQueued: it waits for %s. Call the job tool with this job_id.", r.Waiting)
	case !r.Done:
		b.WriteString("\nStill running: call the job tool with this job_id to wait for the answer.")
	}
	if r.Error != nil {
		fmt.Fprintf(&b, "\n%s", envelopeText(r.Error))
	}
	for _, z := range r.Zips {
		fmt.Fprintf(&b, "\nZip %s: %s, sha256 %s", z.Path, z.Verdict, z.SHA256)
	}
	for _, img := range r.Images {
		fmt.Fprintf(&b, "\nImage %s: %s %s %dx%d, sha256 %s", img.Path, img.Verdict, img.MIME, img.Width, img.Height, img.SHA256)
		if img.Error != "" {
			fmt.Fprintf(&b, " (%s)", img.Error)
		}
	}
	if r.Answer != "" {
		if r.Partial {
			b.WriteString("\n\nAnswer so far:\n")
		} else {
			b.WriteString("\n\n")
		}
		b.WriteString(r.Answer)
	}
	return b.String()
}
