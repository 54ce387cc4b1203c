//go:build gui

package guitest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// dropFiles drops paths on the element sel the way a drop on the window
// reaches the frontend: the message WebKitGTK's drag-drop handler hands the
// Wails dispatcher ("DD:x:y:paths"), sent over the dev IPC, from which the
// runtime emits wails:file-drop to the page's OnFileDrop.
func dropFiles(t *testing.T, page *rod.Page, sel string, paths ...string) {
	t.Helper()
	page.MustEval(`(sel, paths) => {
		const r = document.querySelector(sel).getBoundingClientRect();
		const x = Math.round(r.left + r.width / 2), y = Math.round(r.top + r.height / 2);
		window.WailsInvoke('DD:' + x + ':' + y + ':' + paths.join('\n'));
	}`, sel, paths)
}

// chipStates reads the composer's chips as "name|state|size".
func chipStates(page *rod.Page) string {
	return page.MustEval(`() => [...document.querySelectorAll('[data-testid=attachment-chip]')]
		.map(c => c.dataset.name + '|' + c.dataset.state + '|' + (c.querySelector('[data-testid=chip-size]')?.textContent ?? '')).join(' ')`).Str()
}

func sizeOf(t *testing.T, path string) int64 {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Size()
}

func sha256Of(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// TestComposeAttachments drops two files sharing a base name on Compose,
// sends them to ChatGPT on the simulator and finds them in History with
// their sizes and sha256; then a file the site refuses shows the site's
// words on its chip and nothing is sent, and a file over a site's known
// limit holds the send before anything starts.
func TestComposeAttachments(t *testing.T) {
	t.Parallel()
	requireDisplay(t)
	requireFrontendBuilt(t)
	shots := t.TempDir()
	files := t.TempDir()
	write := func(rel, body string) string {
		p := filepath.Join(files, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	utilA := write("a/util.go", "package a\n\nfunc Util() int { return 1 }\n")
	utilB := write("b/util.go", "package b\n\nfunc Util() string { return \"two\" }\n")
	big := write("logs/big.log", strings.Repeat("a line of the build log\n", 200)) // 4.7 KiB
	huge := filepath.Join(files, "dump.bin")
	if f, err := os.Create(huge); err != nil {
		t.Fatal(err)
	} else if err := f.Truncate(31 << 20); err != nil { // over Claude's 30 MiB; sparse
		t.Fatal(err)
	} else {
		f.Close()
	}
	// The dev binary answers the open dialog with this file (app/internal/desktop/picker_dev.go).
	srv, _, app, page := composeOnSimEnv(t, 5*time.Minute, []string{"FERRY_DEV_OPEN_DIALOG_FILES=" + big})
	prompt := "Compare the two util files"
	var sessionID string

	t.Run("two files dropped on Compose show as chips named as they will be sent, with their sizes", func(t *testing.T) {
		dropFiles(t, page, `[data-testid=prompt]`, utilA, utilB)
		if err := page.Timeout(eventWithin).Wait(rod.Eval(`() => {
			const chips = [...document.querySelectorAll('[data-testid=attachment-chip]')];
			return chips.length === 2 && chips.every(c => c.dataset.state === 'ok');
		}`)); err != nil {
			t.Fatalf("no two checked chips after the drop: %v (chips: %s)", err, chipStates(page))
		}
		if got, want := chipStates(page), fmt.Sprintf("a__util.go|ok|%d B b__util.go|ok|%d B", sizeOf(t, utilA), sizeOf(t, utilB)); got != want {
			t.Errorf("chips %q, want %q", got, want)
		}
		if txt := page.MustElement(`[data-testid=attachment-chips]`).MustText(); !strings.Contains(txt, "was a/util.go") || !strings.Contains(txt, "was b/util.go") {
			t.Errorf("the chips do not say the renames: %q", txt)
		}
		page.MustElement(`[data-testid=prompt]`).MustInput(prompt)
		page.MustElement(`[data-testid=attachments]`).MustScrollIntoView()
		savePageShot(t, page, shots, "compose-attachments.png")
	})

	t.Run("the send carries both files once, proven ready, and the prompt goes once", func(t *testing.T) {
		page.MustElement(`[data-testid=send]`).MustClick()
		page.MustElement(`[data-testid=live-run]`)
		if states := waitRunEnded(t, page, 1, 90*time.Second); states[0] != "done" {
			t.Fatalf("the run ended %s: %s", states[0], page.MustElement(`[data-testid=live-run]`).MustText())
		}
		subs := srv.Submissions(sim.ChatGPT)
		if len(subs) != 1 {
			t.Fatalf("%d submissions, want 1", len(subs))
		}
		if want := []string{"a__util.go", "b__util.go"}; !reflect.DeepEqual(subs[0].Attachments, want) || !strings.HasPrefix(subs[0].Prompt, prompt) {
			t.Fatalf("the site got %q with %v, want %q with %v", subs[0].Prompt, subs[0].Attachments, prompt, want)
		}
		got := map[string]sim.Upload{}
		for _, u := range srv.Uploads(sim.ChatGPT) {
			got[u.Name] = u
		}
		for name, path := range map[string]string{"a__util.go": utilA, "b__util.go": utilB} {
			if u := got[name]; !u.Completed || u.SHA256 != sha256Of(t, path) {
				t.Errorf("upload %s: %+v, want completed with the file's sha256", name, u)
			}
		}
		run := evalJSON(t, page, `() => window.go.app.Runs.Get(document.querySelector('[data-testid=live-run]').dataset.run)`)
		sess, _ := run["session"].(map[string]any)
		if sess == nil {
			t.Fatalf("the run has no session: %v", run)
		}
		sessionID = str(sess["id"])
	})

	t.Run("History shows the run's attachments with sizes and sha256, wrapped inside the pane", func(t *testing.T) {
		page.MustElement(`[role=tab][data-view=history]`).MustClick()
		waitTitle(t, page, "History")
		page.MustElement(`[data-testid=history-list] [role=option][data-id="` + sessionID + `"]`).MustClick()
		if err := page.Timeout(eventWithin).Wait(rod.Eval(`() => document.querySelectorAll('[data-testid=run-attachment]').length === 2`)); err != nil {
			t.Fatalf("History lists no two attachments: %v\n%s", err, page.MustElement(`[data-testid=history-detail]`).MustText())
		}
		for name, path := range map[string]string{"a__util.go": utilA, "b__util.go": utilB} {
			item := page.MustElement(`[data-testid=run-attachment][data-name="` + name + `"]`)
			if size := item.MustElement(`[data-testid=attachment-size]`).MustText(); size != fmt.Sprintf("%d B", sizeOf(t, path)) {
				t.Errorf("%s shows size %q, want %d B", name, size, sizeOf(t, path))
			}
			if sum := item.MustElement(`[data-testid=attachment-sha256]`).MustText(); !strings.Contains(sum, sha256Of(t, path)) {
				t.Errorf("%s shows %q, want its sha256", name, sum)
			}
		}
		// The pane scrolls nothing sideways, and every element of the
		// list lies inside it.
		over := page.MustEval(`() => {
			const pane = document.querySelector('[data-testid=history-detail]');
			const d = pane.getBoundingClientRect();
			const out = [...pane.querySelectorAll('*')].filter(e => e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1)
				.map(e => e.tagName + ' ' + e.scrollWidth + '/' + e.clientWidth + ' ' + (e.textContent || '').slice(0, 40));
			if (pane.scrollWidth > pane.clientWidth + 1) out.push('the pane ' + pane.scrollWidth + '/' + pane.clientWidth);
			for (const e of document.querySelectorAll('[data-testid=run-attachments] *'))
				if (e.getBoundingClientRect().right > d.right + 1) out.push(e.tagName + ' ends at ' + Math.round(e.getBoundingClientRect().right) + ' of ' + Math.round(d.right));
			return out.join('; ');
		}`).Str()
		if over != "" {
			t.Errorf("the attachments overflow the detail pane horizontally: %s", over)
		}
		page.MustElement(`[data-testid=run-attachments]`).MustScrollIntoView()
		savePageShot(t, page, shots, "history-attachments.png")
	})

	t.Run("a file the site refuses shows the site's words on its chip and nothing is sent", func(t *testing.T) {
		srv.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioUploadLimit, Params: map[string]string{"max": "1KiB"}})
		defer srv.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioNormal})
		page.MustElement(`[role=tab][data-view=compose]`).MustClick()
		waitTitle(t, page, "Compose")
		for page.MustEval(`() => document.querySelectorAll('[data-testid=remove-attachment]').length`).Int() > 0 {
			page.MustElement(`[data-testid=remove-attachment]`).MustClick()
		}
		page.MustElement(`[data-testid=attach-files]`).MustClick()
		if err := page.Timeout(eventWithin).Wait(rod.Eval(`() => {
			const chips = [...document.querySelectorAll('[data-testid=attachment-chip]')];
			return chips.length === 1 && chips[0].dataset.name === 'big.log' && chips[0].dataset.state === 'ok';
		}`)); err != nil {
			t.Fatalf("the picked file is not one checked chip: %v (chips: %s)", err, chipStates(page))
		}
		before := srv.SubmissionCount(sim.ChatGPT)
		page.MustElement(`[data-testid=prompt]`).MustSelectAllText().MustInput("Summarise the build log")
		page.MustElement(`[data-testid=send]`).MustClick()
		page.MustWait(`() => document.querySelector('[data-testid=live-run]')?.dataset.state !== 'done'`)
		if states := waitRunEnded(t, page, 1, 90*time.Second); states[0] != "failed" {
			t.Fatalf("the run ended %s, want failed: %s", states[0], page.MustElement(`[data-testid=live-run]`).MustText())
		}
		words := "Unable to upload big.log: file is too large"
		if err := page.Timeout(eventWithin).Wait(rod.Eval(`(w) => {
			const c = document.querySelector('[data-testid=attachment-chip][data-name="big.log"]');
			return c && c.dataset.state === 'refused' && c.querySelector('[data-testid=chip-refusal]')?.textContent.includes(w);
		}`, words)); err != nil {
			t.Fatalf("the chip does not show the site's words %q: %v (chips: %s)", words, err, page.MustElement(`[data-testid=attachments]`).MustText())
		}
		if n := srv.SubmissionCount(sim.ChatGPT); n != before {
			t.Fatalf("%d submissions after the refusal, want %d: the prompt went out", n, before)
		}
		if !page.MustElement(`[data-testid=send]`).MustProperty("disabled").Bool() {
			t.Errorf("Send is enabled with a refused file on the composer")
		}
		if b := page.MustElement(`[data-testid=attachments-block]`).MustText(); !strings.Contains(b, "big.log cannot be sent") || !strings.Contains(b, words) {
			t.Errorf("the composer says %q", b)
		}
		page.MustElement(`[data-testid=attachments]`).MustScrollIntoView()
		savePageShot(t, page, shots, "compose-attachment-refused.png")
	})

	t.Run("a file over a site's known limit holds the send before anything starts", func(t *testing.T) {
		page.MustElement(`[data-testid=remove-attachment]`).MustClick()
		page.MustWait(`() => document.querySelectorAll('[data-testid=attachment-chip]').length === 0`)
		page.MustElement(`[data-testid=mode-site]`).MustClick()
		page.MustElement(`[data-testid=compose-site]`).MustSelect("Claude")
		dropFiles(t, page, `[data-testid=prompt]`, huge)
		if err := page.Timeout(eventWithin).Wait(rod.Eval(`() => {
			const c = document.querySelector('[data-testid=attachment-chip][data-name="dump.bin"]');
			return c && c.dataset.state === 'refused';
		}`)); err != nil {
			t.Fatalf("the large file is not refused on its chip: %v (chips: %s)", err, chipStates(page))
		}
		if w := page.MustElement(`[data-testid=chip-refusal]`).MustText(); !strings.Contains(w, "over the Claude limit of 30.0 MiB") {
			t.Errorf("the chip says %q", w)
		}
		if !page.MustElement(`[data-testid=send]`).MustProperty("disabled").Bool() {
			t.Errorf("Send is enabled with a file over Claude's limit")
		}
		if n := srv.SubmissionCount(sim.Claude); n != 0 {
			t.Errorf("%d submissions to Claude, want none", n)
		}
	})

	t.Run("a file dropped on the quick prompt goes with its prompt", func(t *testing.T) {
		before := srv.SubmissionCount(sim.ChatGPT)
		page.MustEval(`() => window.go.app.Quick.Open()`)
		page.MustElement(`[data-testid=quick-prompt]`)
		_ = page.SetViewport(&proto.EmulationSetDeviceMetricsOverride{Width: 620, Height: 248, DeviceScaleFactor: 1})
		defer func() {
			_ = page.SetViewport(&proto.EmulationSetDeviceMetricsOverride{Width: 1100, Height: 720, DeviceScaleFactor: 1})
		}()
		page.MustWait(`() => document.querySelector('[data-testid=quick-site]')?.value === 'chatgpt'`)
		dropFiles(t, page, `[data-testid=quick-box]`, utilA)
		if err := page.Timeout(eventWithin).Wait(rod.Eval(`() => {
			const chips = [...document.querySelectorAll('[data-testid=quick-prompt] [data-testid=attachment-chip]')];
			return chips.length === 1 && chips[0].dataset.name === 'util.go' && chips[0].dataset.state === 'ok';
		}`)); err != nil {
			t.Fatalf("the quick prompt shows no checked chip: %v (%s)", err, page.MustElement(`[data-testid=quick-prompt]`).MustText())
		}
		if n := page.MustEval(`() => document.querySelectorAll('[data-testid=compose-view] [data-testid=attachment-chip][data-name="util.go"]').length`).Int(); n != 0 {
			t.Errorf("the drop on the quick prompt reached Compose too")
		}
		page.MustElement(`[data-testid=quick-box]`).MustInput("What does this util do?")
		savePageShot(t, page, shots, "quick-prompt-attachment.png")
		page.KeyActions().Type(input.Enter).MustDo()
		// The box stays and shows the run's answer (issue 19, point 2).
		page.MustElement(`[data-testid=quick-answer]`)
		defer func() {
			page.MustEval(`() => window.go.app.Quick.Close()`)
			page.MustWait(`() => !document.querySelector('[data-testid=quick-prompt]')`)
		}()
		deadline := time.Now().Add(60 * time.Second)
		for srv.SubmissionCount(sim.ChatGPT) == before && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
		}
		subs := srv.Submissions(sim.ChatGPT)
		if len(subs) != before+1 {
			t.Fatalf("%d submissions, want %d", len(subs), before+1)
		}
		if last := subs[len(subs)-1]; !reflect.DeepEqual(last.Attachments, []string{"util.go"}) || !strings.HasPrefix(last.Prompt, "What does this util do?") {
			t.Errorf("the site got %q with %v", last.Prompt, last.Attachments)
		}
	})

	app.stop(t)
	t.Logf("screenshots in %s", shots)
}
