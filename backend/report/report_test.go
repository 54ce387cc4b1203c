package report

import (
	"archive/zip"
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/site"
)

func unzip(t *testing.T, b []byte) map[string]string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range zr.File {
		rc, _ := f.Open()
		body, _ := io.ReadAll(rc)
		rc.Close()
		out[f.Name] = string(body)
	}
	return out
}

func TestBuild(t *testing.T) {
	at := time.Date(2026, 12, 1, 21, 0, 0, 0, time.UTC)
	st := site.Site{ID: "deepseek", Name: "DeepSeek", Address: "https://chat.deepseek.com/",
		Selectors: map[site.Role][]string{site.RoleSend: {"div.send", "[aria-label=Send]"}, site.RoleComposer: {"textarea"}}}
	failed := &job.Session{ID: "r1", Site: "deepseek", Prompt: "Tell nobody about Operation Wren\nsecond line of the plan", State: job.StateFailed,
		StateBefore: job.StateComposed, Created: at, Error: errs.New(errs.SendUnconfirmed, "something covers the DeepSeek send control").
				WithStage(errs.StageSend).WithEvidence("covered_by", `div#banner "Get the app"`).WithEvidence("session_token", "abc")}
	journal := []job.Entry{{Seq: 1, State: job.StateResolved, At: at}, {Seq: 2, State: job.StatePreflighted, At: at}, {Seq: 3, State: job.StateComposed, At: at},
		{Seq: 4, State: job.StateFailed, At: at, Note: "send_unconfirmed: about Operation Wren"}}
	snap := &provider.Snapshot{At: at, URL: "https://chat.deepseek.com/a/chat/s/1", Title: "DeepSeek", Viewport: "780x437",
		DOM: `<div class="user">Tell nobody about Operation Wren</div>`, Browser: "Chrome/156", Screenshot: []byte{0xFF, 0xD8, 0xFF},
		Roles: []provider.RoleProbe{{Role: site.RoleSend, Selectors: []provider.SelectorProbe{{Selector: "div.send", Matches: 1, Visible: 1, First: "div.send"}, {Selector: "[aria-label=Send]"}}},
			{Role: site.RoleComposer, Selectors: []provider.SelectorProbe{{Selector: "textarea"}}}}}

	t.Run("a failed run's report holds every part, reads as an issue and not the prompt", func(t *testing.T) {
		b, names, err := Build(Input{Session: failed, Journal: journal, Snapshot: snap, Site: &st, Now: at,
			Env: Environment{Ferry: "1.0", OS: "linux/amd64", Chrome: "Chrome/156"}})
		if err != nil {
			t.Fatal(err)
		}
		files := unzip(t, b)
		if len(files) != len(names) {
			t.Fatalf("names %v, files %d", names, len(files))
		}
		for _, n := range []string{"REPORT.md", "session.json", "journal.json", "envelope.json", "environment.json", "site.json",
			"snapshot/page.html", "snapshot/selectors.json", "snapshot/console.txt", "snapshot/page.json", "snapshot/screenshot.jpg"} {
			if _, ok := files[n]; !ok {
				t.Errorf("no %s", n)
			}
		}
		md := files["REPORT.md"]
		for _, want := range []string{"# DeepSeek: `send_unconfirmed` while trying to click send", "The run reached **composed**",
			"covered_by: div#banner", "session_token: [redacted]", "| send | `div.send` | 1 | 1 | div.send |",
			"- composer: one of `textarea` (on the page: **none matched a rendered element**)", "A prompt of 56 characters"} {
			if !strings.Contains(md, want) {
				t.Errorf("REPORT.md lacks %q:\n%s", want, md)
			}
		}
		for name, body := range files {
			if strings.Contains(body, "Operation Wren") || strings.Contains(body, "second line of the plan") {
				t.Errorf("%s holds the prompt", name)
			}
		}
	})
	t.Run("a run without a snapshot says so", func(t *testing.T) {
		b, _, err := Build(Input{Session: failed, Journal: journal, Site: &st, Now: at})
		if err != nil {
			t.Fatal(err)
		}
		files := unzip(t, b)
		if _, ok := files["snapshot/page.html"]; ok {
			t.Errorf("a snapshot part without a snapshot")
		}
		if !strings.Contains(files["REPORT.md"], "No snapshot of the tab was kept") {
			t.Errorf("REPORT.md does not say the snapshot is missing")
		}
	})
	t.Run("a run that ended done has nothing to report", func(t *testing.T) {
		_, _, err := Build(Input{Session: &job.Session{ID: "r2", State: job.StateDone}, Now: at})
		if errs.CodeOf(err) != errs.BadInput {
			t.Fatalf("Build of a done run: %v, want bad_input", err)
		}
	})
}
