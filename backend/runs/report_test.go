package runs

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/record"
)

// reporter is an adapter that read report r (or failed with err).
type reporter struct {
	provider.Adapter
	r   *artifact.Report
	err error
}

func (a reporter) TurnReport() (*artifact.Report, error) { return a.r, a.err }

// TestAReattachedResearchRecordsItsReportOnce: a deep research reattached
// after its report was read keeps one report file: the one its killed run
// saved, else the report it journaled as its answer; a run whose report
// was never read stays an error.
func TestAReattachedResearchRecordsItsReportOnce(t *testing.T) {
	ctx := context.Background()
	const body = "# Harbour trade: a research report\n\nNineteen sources agree on the main trend [Harbour Authority](https://example.org/harbour)."
	notRead := errs.New(errs.DeliverableMissing, "the deep research's report was not read")
	session := func(id string) *job.Session {
		return &job.Session{ID: id, Site: "chatgpt", Prompt: "Research the harbour trade", ToolRequested: "deep-research",
			Answer: body, AnswerSource: artifact.ReportAnswerSource, State: job.StateExtracted}
	}
	files := func(t *testing.T, dir string) []string {
		t.Helper()
		m, _ := filepath.Glob(filepath.Join(dir, "*.md"))
		return m
	}

	t.Run("the report its killed run saved is recorded, not saved again", func(t *testing.T) {
		dir := t.TempDir()
		s := session("run-saved")
		_, path, err := artifact.SaveReport(ctx, dir, &artifact.Report{Markdown: body, Title: "Harbour trade", Header: "Research completed in 12m"},
			artifact.ReportProvenance{Site: "chatgpt", Session: s.ID})
		if err != nil {
			t.Fatal(err)
		}
		d, err := ReportHome(dir)(ctx, s, reporter{err: notRead})
		if err != nil || len(d.Artifacts) != 1 || d.Artifacts[0].Path != path || d.Artifacts[0].Kind != record.ArtifactReport {
			t.Fatalf("delivery %+v, %v; want the saved %s", d, err, path)
		}
		if got := files(t, dir); len(got) != 1 {
			t.Fatalf("reports in the folder: %v, want the one saved", got)
		}
	})

	t.Run("a report journaled as the answer is saved from it", func(t *testing.T) {
		dir := t.TempDir()
		d, err := ReportHome(dir)(ctx, session("run-journaled"), reporter{err: notRead})
		if err != nil || len(d.Artifacts) != 1 {
			t.Fatalf("delivery %+v, %v; want the report saved", d, err)
		}
		b, err := os.ReadFile(d.Artifacts[0].Path)
		if err != nil || string(b) != body || filepath.Base(d.Artifacts[0].Path) != artifact.SafeReportName("Harbour trade: a research report") {
			t.Fatalf("saved %s: %q (%v)", d.Artifacts[0].Path, b, err)
		}
	})

	t.Run("another run's saved report is not taken", func(t *testing.T) {
		dir := t.TempDir()
		if _, _, err := artifact.SaveReport(ctx, dir, &artifact.Report{Markdown: "# Other\n\nanother run's report, long enough to be one."},
			artifact.ReportProvenance{Site: "chatgpt", Session: "run-other"}); err != nil {
			t.Fatal(err)
		}
		d, err := ReportHome(dir)(ctx, session("run-mine"), reporter{err: notRead})
		if err != nil || len(d.Artifacts) != 1 || len(files(t, dir)) != 2 {
			t.Fatalf("delivery %+v, %v, files %v; want its own report saved beside the other", d, err, files(t, dir))
		}
	})

	t.Run("a run whose report was never read stays an error", func(t *testing.T) {
		s := session("run-unread")
		s.Answer, s.AnswerSource = "", ""
		dir := t.TempDir()
		if _, err := ReportHome(dir)(ctx, s, reporter{err: notRead}); errs.CodeOf(err) != errs.DeliverableMissing {
			t.Fatalf("err %v, want deliverable_missing", err)
		}
		if got := files(t, dir); len(got) != 0 {
			t.Fatalf("saved %v", got)
		}
	})
}
