package runs

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/version"
)

// AskHome is the Deliverable of an ask: a deep research's report
// (ReportHome) for a run that asked for the deep-research tool, the
// turn's generated images (ImagesHome) otherwise.
func AskHome(dir string, limit int64) job.Deliverable {
	images, report := ImagesHome(dir, limit), ReportHome(dir)
	return func(ctx context.Context, s *job.Session, a provider.Adapter) (job.Delivery, error) {
		if s.ToolRequested == service.ResearchTool {
			return report(ctx, s, a)
		}
		return images(ctx, s, a)
	}
}

// ReportHome is the Deliverable of a deep research: the report the
// adapter (an artifact.ReportSource) read, which is also the run's answer,
// saved into dir as Markdown with its provenance and recorded as the
// run's artifact of kind report. A run the site answered without doing
// the research is ResearchNotStarted, its answer kept in the record; an
// adapter that reads no reports is DeliverableMissing.
func ReportHome(dir string) job.Deliverable {
	return func(ctx context.Context, s *job.Session, a provider.Adapter) (job.Delivery, error) {
		var d job.Delivery
		src, ok := a.(artifact.ReportSource)
		if !ok {
			return d, errs.New(errs.DeliverableMissing, "%s cannot read a deep research's report", a.Site().Name).WithEvidence("session", s.ID)
		}
		// A reattached run may have saved its report before it was
		// interrupted: that file is the one recorded.
		if p, path, ok := artifact.FindSavedReport(dir, s.ID); ok {
			d.Artifacts = append(d.Artifacts, reportArtifact(p, path))
			return d, nil
		}
		r, err := src.TurnReport()
		switch {
		case err == nil:
		case s.AnswerSource == artifact.ReportAnswerSource && s.Answer != "":
			// Reattached after the report was read and journaled as the
			// run's answer: that is the report (its header line is not).
			r = &artifact.Report{Markdown: s.Answer, Title: reportTitle(s.Answer)}
		default:
			return d, errs.From(err).WithEvidence("session", s.ID)
		}
		if r.Title == "" {
			r.Title = firstWords(s.Prompt, 8)
		}
		digest := sha256.Sum256([]byte(s.Prompt))
		prov := artifact.ReportProvenance{Site: s.Site, Session: s.ID, ConversationID: s.ConversationID, ConversationURL: s.ConversationURL,
			MessageID: s.MessageID, PromptSHA256: hex.EncodeToString(digest[:])}
		if s.Fingerprint != nil {
			prov.SentAt = s.Fingerprint.At
		}
		prov.CompletedAt = s.Updated.UTC()
		p, path, err := artifact.SaveReport(ctx, dir, r, prov, artifact.WithFerryVersion(version.Version))
		if err != nil {
			d.Artifacts = append(d.Artifacts, job.Artifact{Name: artifact.SafeReportName(r.Title), Kind: record.ArtifactReport, Verdict: "rejected",
				Reason: string(errs.CodeOf(err)) + ": " + errs.From(err).Message})
			return d, err
		}
		d.Artifacts = append(d.Artifacts, reportArtifact(p, path))
		return d, nil
	}
}

// reportArtifact records the report saved at path with provenance p.
func reportArtifact(p *artifact.ReportProvenance, path string) job.Artifact {
	return job.Artifact{Name: filepath.Base(path), Path: path, SHA256: p.SHA256, Bytes: p.Size, Verdict: "verified",
		Kind: record.ArtifactReport, MIME: "text/markdown"}
}

// reportTitle is a report's first heading, "" without one.
func reportTitle(md string) string {
	first, _, _ := strings.Cut(md, "\n")
	if h, ok := strings.CutPrefix(first, "# "); ok {
		return strings.TrimSpace(h)
	}
	return ""
}

// firstWords is at most n words of s, for a name.
func firstWords(s string, n int) string {
	w := strings.Fields(s)
	return strings.Join(w[:min(n, len(w))], " ")
}
