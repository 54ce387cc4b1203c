package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/service"
)

// TestClosingTheWindowEndsAnUploadOfSourcesItWaitsFor: a project's sources
// upload waits on the site (here a file the site processes for ten
// minutes); the window closing ends the call at once, so the close is not
// held back, and nothing is added.
func TestClosingTheWindowEndsAnUploadOfSourcesItWaitsFor(t *testing.T) {
	srv := sim.New(providertest.DefaultSimOptions...)
	if err := srv.Start(context.Background(), "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	srv.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioUploadSlow, Params: map[string]string{"processing": "10m"}})
	sh, _, _ := openShell(t, func(dataDir string) {
		b, _ := json.Marshal(map[string]any{"browser": map[string]any{"binary": "/usr/bin/chromium", "headless": true, "extraArgs": srv.ChromiumFlags()}})
		if err := os.WriteFile(filepath.Join(dataDir, "settings.json"), b, 0o600); err != nil {
			t.Fatal(err)
		}
	})
	notes := filepath.Join(t.TempDir(), "notes.md")
	if err := os.WriteFile(notes, []byte("# Notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runs := &Runs{sh: sh}

	ended := make(chan error, 1)
	go func() {
		_, err := runs.AddProjectSources(service.AddSourcesRequest{Project: "Harbour notes", Files: []string{notes}, Confirmed: true})
		ended <- err
	}()
	// The site has the file and processes it: the call waits on the site.
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for len(srv.Uploads(sim.ChatGPT)) == 0 {
		select {
		case err := <-ended:
			t.Fatalf("the upload ended before the site had the file: %v", err)
		case <-tick.C:
		}
	}
	closed := make(chan struct{})
	go func() {
		sh.shutdown(context.Background())
		close(closed)
	}()
	select {
	case err := <-ended:
		if err == nil || errs.CodeOf(err) == errs.Internal {
			t.Errorf("the upload cut by the close ended with %v (%s), want the cancellation", err, errs.CodeOf(err))
		}
	case <-time.After(time.Minute):
		t.Fatal("the upload still waits a minute after the window closed")
	}
	select {
	case <-closed:
	case <-time.After(time.Minute):
		t.Fatal("the close is still held a minute after the upload ended")
	}
	if n := len(srv.Sources(sim.ChatGPT, "")); n != 0 {
		t.Errorf("%d sources added, want none", n)
	}
}
