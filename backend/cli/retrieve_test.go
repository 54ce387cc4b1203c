package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// TestRetrieve runs `ferry code` once against the simulator, then brings
// the same zip home again with `ferry retrieve --conv`, and continues the
// conversation with `ferry code --conv`.
func TestRetrieve(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	url := h.Browser.Endpoint()
	dataDir := t.TempDir()
	var outputs [][]byte
	run := func(t *testing.T, args ...string) result {
		t.Helper()
		r := ferry(t, nil, append(args, "--browser-url", url, "--data-dir", dataDir, "--json")...)
		outputs = append(outputs, []byte(r.stdout), []byte(r.stderr))
		return r
	}
	retrieve := func(t *testing.T, conv, out string) (result, RetrieveReceipt) {
		t.Helper()
		r := run(t, "retrieve", "--conv", conv, "--out", out, "--timeout", "40s")
		var rc RetrieveReceipt
		if err := json.Unmarshal([]byte(r.stdout), &rc); err != nil {
			t.Fatalf("stdout is not a receipt (exit %d): %v\n%s\nstderr %s", r.code, err, r.stdout, r.stderr)
		}
		if rc.Path == "" || filepath.Dir(rc.Path) != out {
			t.Fatalf("receipt written to %q, want it in %s", rc.Path, out)
		}
		if _, err := os.Stat(rc.Path); err != nil {
			t.Fatal(err)
		}
		return r, rc
	}
	code := func(t *testing.T, out string, args ...string) (result, Receipt) {
		t.Helper()
		r := run(t, append([]string{"code", "--out", out, "--timeout", "50s"}, args...)...)
		var rc Receipt
		if err := json.Unmarshal([]byte(r.stdout), &rc); err != nil {
			t.Fatalf("stdout is not a receipt (exit %d): %v\n%s\nstderr %s", r.code, err, r.stdout, r.stderr)
		}
		return r, rc
	}
	chatgptTabs := func(t *testing.T) map[string]string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		targets, err := h.Browser.Targets(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, tg := range targets {
			if strings.Contains(tg.URL, "chatgpt.com") {
				out[tg.ID] = tg.URL
			}
		}
		return out
	}
	// leaveConversation points every ChatGPT tab at a new chat, so that no
	// tab shows the conversation any more.
	leaveConversation := func(t *testing.T) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		for id := range chatgptTabs(t) {
			p, err := h.Browser.Page(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Navigate(ctx, sim.URL(sim.ChatGPT, "/")); err != nil {
				t.Fatal(err)
			}
		}
	}

	h.Server.Reset()
	first := t.TempDir()
	r, rc := code(t, first, "--site", "chatgpt", "Build a greeting CLI", sim.Directive(sim.ScenarioCodeZip))
	if r.code != 0 || !rc.OK || len(rc.Zips) != 1 || rc.ConversationID == "" {
		t.Fatalf("ferry code: exit %d ok %v zips %+v error %+v\nstderr %s", r.code, rc.OK, rc.Zips, rc.Error, r.stderr)
	}
	conv := rc.ConversationID
	original, err := os.ReadFile(rc.Zips[0].SavedPath)
	if err != nil {
		t.Fatal(err)
	}
	want, err := sim.ZipBytes(sim.ScenarioCodeZip, 0, 1)
	if err != nil || !bytes.Equal(original, want) {
		t.Fatalf("ferry code saved other bytes than the sandbox served: %v", err)
	}

	t.Run("retrieve brings the same verified zip home and sends nothing", func(t *testing.T) {
		other := t.TempDir()
		r, rr := retrieve(t, conv, other)
		if r.code != 0 || !rr.OK || len(rr.Zips) != 1 || !rr.Zips[0].Verified {
			t.Fatalf("exit %d ok %v zips %+v error %+v\nstderr %s", r.code, rr.OK, rr.Zips, rr.Error, r.stderr)
		}
		z := rr.Zips[0]
		got, err := os.ReadFile(z.SavedPath)
		if err != nil || filepath.Dir(z.SavedPath) != other || filepath.Base(z.SavedPath) != "project.zip" {
			t.Fatalf("saved %s: %v", z.SavedPath, err)
		}
		if !bytes.Equal(got, original) || z.SHA256 != rc.Zips[0].SHA256 {
			t.Fatalf("retrieve saved %d bytes (sha %s), ferry code saved %d (sha %s)", len(got), z.SHA256, len(original), rc.Zips[0].SHA256)
		}
		if _, err := os.Stat(z.Sidecar); err != nil || z.Sidecar != z.SavedPath+".provenance.json" {
			t.Fatalf("sidecar %q: %v", z.Sidecar, err)
		}
		if rr.ConversationID != conv || rr.TabWasCreated {
			t.Fatalf("receipt conversation %q created %v, want %s in the tab that shows it", rr.ConversationID, rr.TabWasCreated, conv)
		}
		if n := h.Server.SubmissionCount(sim.ChatGPT); n != 1 {
			t.Fatalf("%d submissions in total, want exactly 1 (retrieve sends nothing)", n)
		}
	})

	t.Run("retrieve opens the conversation when no tab shows ChatGPT, and closes that tab again", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		// Keep one non-ChatGPT tab so that the browser stays open.
		keep, err := h.Browser.OpenTab(ctx, "about:blank")
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = keep.Close(context.Background()) }()
		for id := range chatgptTabs(t) {
			p, err := h.Browser.Page(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Close(ctx); err != nil {
				t.Fatal(err)
			}
		}
		other := t.TempDir()
		r, rr := retrieve(t, conv, other)
		if r.code != 0 || len(rr.Zips) != 1 || !rr.Zips[0].Verified || !rr.TabWasCreated {
			t.Fatalf("exit %d zips %+v created %v error %+v", r.code, rr.Zips, rr.TabWasCreated, rr.Error)
		}
		got, _ := os.ReadFile(rr.Zips[0].SavedPath)
		if !bytes.Equal(got, original) {
			t.Fatal("the second retrieve saved other bytes")
		}
		// Closing a target is asynchronous in Chromium: give the close the
		// browser already accepted a moment to show in the target list.
		tabs := chatgptTabs(t)
		for wait := time.Now().Add(5 * time.Second); len(tabs) != 0 && time.Now().Before(wait); tabs = chatgptTabs(t) {
			time.Sleep(100 * time.Millisecond)
		}
		if len(tabs) != 0 {
			t.Fatalf("retrieve left its tab open: %v", tabs)
		}
		if n := h.Server.SubmissionCount(sim.ChatGPT); n != 1 {
			t.Fatalf("%d submissions in total, want exactly 1", n)
		}
	})

	t.Run("code --conv continues that conversation in its page", func(t *testing.T) {
		leaveConversation(t)
		out := t.TempDir()
		r, rc2 := code(t, out, "--conv", conv, "Now add a --name flag", sim.Directive(sim.ScenarioCodeZip))
		if r.code != 0 || !rc2.OK || len(rc2.Zips) != 1 || !rc2.Zips[0].Verified {
			t.Fatalf("exit %d ok %v zips %+v error %+v\nstderr %s", r.code, rc2.OK, rc2.Zips, rc2.Error, r.stderr)
		}
		if rc2.ConversationID != conv {
			t.Fatalf("the turn landed in conversation %q, want %s", rc2.ConversationID, conv)
		}
		tab := rc2.Steps[0].Result.Routing.ControlledTabID
		if u := chatgptTabs(t)[tab]; !strings.HasSuffix(u, "/c/"+conv) {
			t.Fatalf("the turn ran in tab %s at %q, want the conversation's page", tab, u)
		}
		if n := h.Server.SubmissionCount(sim.ChatGPT); n != 2 {
			t.Fatalf("%d submissions after two code runs, want 2", n)
		}
	})

	t.Run("an unsafe zip in the conversation exits 7 and is only quarantined", func(t *testing.T) {
		leaveConversation(t)
		r, bad := code(t, t.TempDir(), "--site", "chatgpt", "Build it", sim.Directive(sim.ScenarioZipSlip))
		if r.code != 7 || bad.ConversationID == "" || bad.ConversationID == conv {
			t.Fatalf("ferry code: exit %d conversation %q error %+v, want 7 in a new conversation", r.code, bad.ConversationID, bad.Error)
		}
		sent := h.Server.SubmissionCount(sim.ChatGPT)
		out := t.TempDir()
		r, rr := retrieve(t, bad.ConversationID, out)
		if r.code != 7 || rr.OK || rr.Error == nil || rr.Error.Code != errs.ArtifactUnsafe {
			t.Fatalf("exit %d error %+v, want 7 artifact_unsafe", r.code, rr.Error)
		}
		if len(rr.Zips) != 1 || rr.Zips[0].Verified || !rr.Zips[0].Quarantined {
			t.Fatalf("zips %+v, want one quarantined", rr.Zips)
		}
		for _, f := range allFiles(t, out) {
			rel, _ := filepath.Rel(out, f)
			if f != rr.Path && !strings.HasPrefix(rel, "quarantine"+string(filepath.Separator)) {
				t.Fatalf("a refused zip left %s outside quarantine", rel)
			}
		}
		if n := h.Server.SubmissionCount(sim.ChatGPT); n != sent {
			t.Fatalf("retrieve sent %d prompts", n-sent)
		}
	})

	t.Run("bad input exits 2 before the browser is touched", func(t *testing.T) {
		before := h.Server.SubmissionCount(sim.ChatGPT)
		for _, args := range [][]string{
			{"retrieve"},
			{"retrieve", "--conv", "../etc/passwd"},
			{"retrieve", "--conv", conv, "extra"},
			{"retrieve", "--conv", conv, "--browser", "launch"},
			{"code", "--conv", "a b", "task"},
		} {
			r := run(t, args...)
			if r.code != 2 {
				t.Fatalf("ferry %v: exit %d stdout %q, want 2", args, r.code, r.stdout)
			}
		}
		if n := h.Server.SubmissionCount(sim.ChatGPT); n != before {
			t.Fatalf("bad input sent %d prompts", n-before)
		}
	})

	t.Run("no token or download signature reaches any file or output", func(t *testing.T) {
		for i, o := range outputs {
			assertNoLeak(t, fmt.Sprintf("output %d", i), o)
		}
		for _, f := range allFiles(t, dataDir) {
			if b, err := os.ReadFile(f); err == nil {
				assertNoLeak(t, f, b)
			}
		}
	})
}
