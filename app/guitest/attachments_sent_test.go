//go:build gui

package guitest

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// TestSentFilesLeaveWithThePrompt: a sent prompt takes its attachments
// with it (issue 26, point 1). After a send with fruit.csv and notes.txt
// the chips are gone and the next, unrelated prompt uploads nothing (the
// simulator's upload log); the finished run's "Follow up" offers "Attach
// the same files", which sends them again when chosen; the quick prompt
// behaves the same.
func TestSentFilesLeaveWithThePrompt(t *testing.T) {
	t.Parallel()
	requireDisplay(t)
	requireFrontendBuilt(t)
	files := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(files, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fruit := write("fruit.csv", "name,colour\napple,red\nbanana,yellow\n")
	notes := write("notes.txt", "remember the milk\n")

	srv, _, app, page := composeOnSim(t, 5*time.Minute)
	chips := func(scope string) int {
		return page.MustEval(`(s) => document.querySelectorAll(s + ' [data-testid=attachment-chip]').length`, scope).Int()
	}
	// uploadedSums is the sha256 of every file the site received, sorted.
	uploadedSums := func(from int) []string {
		var out []string
		for _, u := range srv.Uploads(sim.ChatGPT)[from:] {
			out = append(out, u.SHA256)
		}
		sort.Strings(out)
		return out
	}
	both := []string{sha256Of(t, fruit), sha256Of(t, notes)}
	sort.Strings(both)
	lastSub := func() sim.Submission {
		subs := srv.Submissions(sim.ChatGPT)
		if len(subs) == 0 {
			t.Fatal("nothing was submitted")
		}
		return subs[len(subs)-1]
	}
	// sendCompose types prompt in Compose, sends it and waits for its run to end done.
	sendCompose := func(t *testing.T, prompt string) {
		t.Helper()
		before := srv.SubmissionCount(sim.ChatGPT)
		page.MustElement(`[data-testid=prompt]`).MustSelectAllText().MustInput(prompt)
		page.MustWait(`() => !document.querySelector('[data-testid=send]').disabled`)
		page.MustElement(`[data-testid=send]`).MustClick()
		if states := waitRunEnded(t, page, 1, 90*time.Second); states[0] != "done" {
			t.Fatalf("the run ended %s: %s", states[0], page.MustElement(`[data-testid=live-run]`).MustText())
		}
		if n := srv.SubmissionCount(sim.ChatGPT); n != before+1 {
			t.Fatalf("%d submissions, want %d", n, before+1)
		}
	}

	t.Run("the send carries both files and the chips leave with the prompt", func(t *testing.T) {
		dropFiles(t, page, `[data-testid=prompt]`, fruit, notes)
		if err := page.Timeout(eventWithin).Wait(rod.Eval(`() => {
			const chips = [...document.querySelectorAll('[data-testid=attachment-chip]')];
			return chips.length === 2 && chips.every(c => c.dataset.state === 'ok');
		}`)); err != nil {
			t.Fatalf("no two checked chips after the drop: %v (chips: %s)", err, chipStates(page))
		}
		sendCompose(t, "Which fruit in the table is yellow?")
		if got := uploadedSums(0); !reflect.DeepEqual(got, both) {
			t.Fatalf("the site received %v, want the two files %v", got, both)
		}
		if a := lastSub().Attachments; len(a) != 2 {
			t.Fatalf("the send carried %v, want two files", a)
		}
		if n := chips(`[data-testid=compose-view]`); n != 0 {
			t.Fatalf("%d chips are still on the composer after the send (%s)", n, chipStates(page))
		}
	})

	t.Run("the finished run's follow-up attaches the same files when chosen", func(t *testing.T) {
		from := len(srv.Uploads(sim.ChatGPT))
		same := page.MustElement(`[data-testid=follow-same-files]`)
		if txt := same.MustText(); !strings.Contains(txt, "Attach the same files") || !strings.Contains(txt, "fruit.csv") || !strings.Contains(txt, "notes.txt") {
			t.Errorf("the follow-up offers %q", txt)
		}
		page.MustElement(`[data-testid=follow-prompt]`).MustInput("And which one is red?")
		same.MustElement(`input[type=checkbox]`).MustClick()
		page.MustElement(`[data-testid=follow-send]`).MustClick()
		page.MustWait(`() => document.querySelectorAll('[data-testid=earlier-runs] [data-testid=live-run]').length === 1`)
		if states := waitRunEnded(t, page, 2, 90*time.Second); states[1] != "done" {
			t.Fatalf("the follow-up ended %s", states[1])
		}
		if got := uploadedSums(from); !reflect.DeepEqual(got, both) {
			t.Fatalf("the follow-up uploaded %v, want the same two files %v", got, both)
		}
		if sub := lastSub(); len(sub.Attachments) != 2 {
			t.Fatalf("the follow-up carried %v, want two files", sub.Attachments)
		}
		if n := chips(`[data-testid=compose-view]`); n != 0 {
			t.Fatalf("the follow-up put %d chips on the composer", n)
		}
	})

	t.Run("the next, unrelated prompt uploads nothing", func(t *testing.T) {
		from := len(srv.Uploads(sim.ChatGPT))
		sendCompose(t, "What is the tallest lighthouse in Europe?")
		if got := uploadedSums(from); len(got) != 0 {
			t.Fatalf("the unrelated prompt uploaded %d files again", len(got))
		}
		if a := lastSub().Attachments; len(a) != 0 {
			t.Fatalf("the unrelated prompt carried %v", a)
		}
	})

	t.Run("the quick prompt's next prompt uploads nothing either", func(t *testing.T) {
		page.MustEval(`() => window.go.app.Quick.Open()`)
		page.MustElement(`[data-testid=quick-prompt]`)
		_ = page.SetViewport(&proto.EmulationSetDeviceMetricsOverride{Width: 620, Height: 360, DeviceScaleFactor: 1})
		defer func() {
			_ = page.SetViewport(&proto.EmulationSetDeviceMetricsOverride{Width: 1100, Height: 720, DeviceScaleFactor: 1})
			page.MustEval(`() => window.go.app.Quick.Close()`)
			page.MustWait(`() => !document.querySelector('[data-testid=quick-prompt]')`)
		}()
		page.MustWait(`() => document.querySelector('[data-testid=quick-site]')?.value === 'chatgpt'`)
		quickSend := func(t *testing.T, prompt string) {
			t.Helper()
			before := srv.SubmissionCount(sim.ChatGPT)
			prev := page.MustEval(`() => document.querySelector('[data-testid=quick-answer]')?.dataset.run ?? ''`).Str()
			page.MustElement(`[data-testid=quick-box]`).MustInput(prompt)
			page.KeyActions().Type(input.Enter).MustDo()
			if err := page.Timeout(90 * time.Second).Wait(rod.Eval(`(prev) => {
				const a = document.querySelector('[data-testid=quick-answer]');
				return a && a.dataset.run !== prev && a.dataset.ended === 'true';
			}`, prev)); err != nil {
				t.Fatalf("the quick prompt's run did not end: %v", err)
			}
			if n := srv.SubmissionCount(sim.ChatGPT); n != before+1 {
				t.Fatalf("%d submissions, want %d", n, before+1)
			}
		}
		dropFiles(t, page, `[data-testid=quick-box]`, notes)
		if err := page.Timeout(eventWithin).Wait(rod.Eval(`() => {
			const chips = [...document.querySelectorAll('[data-testid=quick-prompt] [data-testid=attachment-chip]')];
			return chips.length === 1 && chips[0].dataset.state === 'ok';
		}`)); err != nil {
			t.Fatalf("the quick prompt shows no checked chip: %v", err)
		}
		quickSend(t, "What do the notes say?")
		if a := lastSub().Attachments; len(a) != 1 {
			t.Fatalf("the quick send carried %v, want the notes", a)
		}
		if n := chips(`[data-testid=quick-prompt]`); n != 0 {
			t.Fatalf("%d chips stay on the quick prompt after the send", n)
		}
		from := len(srv.Uploads(sim.ChatGPT))
		quickSend(t, "How far is the moon?")
		if got := uploadedSums(from); len(got) != 0 {
			t.Fatalf("the quick prompt's next prompt uploaded %d files again", len(got))
		}
		if a := lastSub().Attachments; len(a) != 0 {
			t.Fatalf("the quick prompt's next prompt carried %v", a)
		}
	})

	app.stop(t)
}
