package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// TestAskEndsAtItsDeadlineWhenThePageStopsAnswering: a site whose page
// stops answering once a file is put in (its upload handler opens a modal
// dialog nobody dismisses) cannot hold `ferry ask --timeout` past its
// deadline: the run ends with the timeout error, journaled as failed with
// it, and nothing is sent. The sites take files through a file input
// (ChatGPT) and by a drop (Gemini).
func TestAskEndsAtItsDeadlineWhenThePageStopsAnswering(t *testing.T) {
	t.Parallel()
	// A browser of its own: a page held by a dialog holds the other pages
	// its renderer shows.
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	notes := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(notes, []byte("remember the milk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, siteID := range []string{sim.ChatGPT, sim.Gemini} {
		t.Run(siteID, func(t *testing.T) {
			t.Parallel()
			h.Server.SetScenario(siteID, sim.Scenario{Name: sim.ScenarioUploadStall})
			dataDir := t.TempDir()
			r := ferry(t, nil, "ask", "--json", "--browser-url", h.Browser.Endpoint(), "--data-dir", dataDir, "--timeout", "5s",
				"--site", siteID, "--new-chat", "--file", notes, "This must not be sent")
			var out struct {
				Error *errs.Envelope `json:"error"`
			}
			if r.code != 6 || json.Unmarshal([]byte(r.stdout), &out) != nil || out.Error == nil || out.Error.Code != errs.Timeout {
				t.Fatalf("exit %d, want 6 with the timeout error\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
			}
			// The run itself ended at its deadline and journaled it; the
			// command did not merely give up on a run still going.
			l := ferry(t, nil, "sessions", "list", "--json", "--data-dir", dataDir)
			var list struct {
				Sessions []job.Session `json:"sessions"`
			}
			if l.code != 0 || json.Unmarshal([]byte(l.stdout), &list) != nil || len(list.Sessions) != 1 {
				t.Fatalf("sessions list: exit %d\n%s%s", l.code, l.stdout, l.stderr)
			}
			s := list.Sessions[0]
			if s.State != job.StateFailed || s.Error == nil || s.Error.Code != errs.Timeout {
				t.Fatalf("the run is %s with %+v, want failed with the timeout error", s.State, s.Error)
			}
			if n := h.Server.SubmissionCount(siteID); n != 0 {
				t.Fatalf("%d submissions: something was sent", n)
			}
		})
	}
}
