package app

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// deadBrowserShell opens a shell whose runs fail at once on a browser
// nobody serves, instead of launching one against the real sites.
func deadBrowserShell(t *testing.T) *shell {
	t.Helper()
	sh, _, _ := openShell(t, func(dataDir string) {
		if err := os.WriteFile(filepath.Join(dataDir, "settings.json"), []byte(`{"browser": {"attachURL": "http://127.0.0.1:1"}}`), 0o600); err != nil {
			t.Fatal(err)
		}
	})
	return sh
}

func TestRunsRefuseAndRetryThroughTheService(t *testing.T) {
	sh := deadBrowserShell(t)
	runs := &Runs{sh: sh}
	ended := func(t *testing.T, id string) RunInfo {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) {
			info, err := runs.Get(id)
			if err != nil {
				t.Fatal(err)
			}
			if info.Ended {
				return info
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("run %s did not end", id)
		return RunInfo{}
	}

	t.Run("a broadcast of an empty prompt sends nothing", func(t *testing.T) {
		if _, err := runs.Broadcast(BroadcastSpec{Prompt: "  ", Sites: []string{"chatgpt", "claude"}}); !errs.Has(err, errs.BadInput) {
			t.Fatalf("empty broadcast: %v", err)
		}
		if _, err := runs.Broadcast(BroadcastSpec{Prompt: "hi", Sites: []string{"chatgpt", "chatgpt"}}); !errs.Has(err, errs.BadInput) {
			t.Fatalf("a site twice: %v", err)
		}
		if active, err := runs.Active(); err != nil || len(active) != 0 {
			t.Fatalf("after refused broadcasts %d runs are going (%v)", len(active), err)
		}
	})
	t.Run("a retry is a new desktop run of the same request", func(t *testing.T) {
		first, err := runs.Start(RunSpec{Site: "chatgpt", Prompt: "try me", Model: "default"})
		if err != nil {
			t.Fatal(err)
		}
		if info := ended(t, first.ID); info.State != "failed" || info.Error == nil {
			t.Fatalf("the first run ended %s (%v), want failed on the dead browser", info.State, info.Error)
		}
		again, err := runs.Retry(first.ID)
		if err != nil {
			t.Fatal(err)
		}
		if again.ID == first.ID || again.RequestedBy != "desktop" || again.Site != "chatgpt" || again.Prompt != "try me" || again.Model != "" {
			t.Fatalf("retry %+v, want a new desktop run of the same prompt and site", again)
		}
		ended(t, again.ID)
		if _, err := runs.Retry("job-nosuch"); !errs.Has(err, errs.HubNotFound) {
			t.Fatalf("retry of an unknown run: %v", err)
		}
	})
	t.Run("a retry on a picked tab is a new run of the same request pinned to that tab", func(t *testing.T) {
		first, err := runs.Start(RunSpec{Site: "chatgpt", Prompt: "which tab?", NewChat: true})
		if err != nil {
			t.Fatal(err)
		}
		ended(t, first.ID)
		again, err := runs.RetryOnTab(first.ID, "TAB-2")
		if err != nil {
			t.Fatal(err)
		}
		if again.ID == first.ID || again.TabID != "TAB-2" || again.NewChat || again.Site != "chatgpt" || again.Prompt != "which tab?" {
			t.Fatalf("retry on a tab %+v, want a new run of the prompt on tab TAB-2 without a new chat", again)
		}
		ended(t, again.ID)
		if _, err := runs.RetryOnTab(first.ID, ""); !errs.Has(err, errs.BadInput) {
			t.Fatalf("no tab picked: %v", err)
		}
	})
}
