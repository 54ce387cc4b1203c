package codemode

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider"
)

// goodZip is a small valid archive.
func goodZip(t *testing.T, body string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	f, err := w.Create("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte(body)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestAReattachTakesOnlyItsOwnVerifiedZipsFromDisk(t *testing.T) {
	ctx := context.Background()
	s := &job.Session{ID: "s1", ConversationID: "conv-1", MessageID: "msg-2"}
	found := []artifact.Found{{Path: "/mnt/data/project.zip", MessageIDs: []string{"msg-2", "tool-1"}}}
	// save writes a zip as a run of (conv, msg) would have saved it.
	save := func(t *testing.T, out, conv, msg string, data []byte) *artifact.Saved {
		t.Helper()
		saved, err := artifact.Save(ctx, out, "project.zip", bytes.NewReader(data),
			artifact.Provenance{Site: "chatgpt", ConversationID: conv, MessageID: msg, SandboxPath: "/mnt/data/project.zip"})
		if err != nil {
			t.Fatal(err)
		}
		return saved
	}
	run := func(out string) *codeRun {
		return &codeRun{out: out, limits: config.Defaults().Artifacts, resume: true}
	}

	t.Run("the zip this turn saved before the interruption is taken, not fetched", func(t *testing.T) {
		out := t.TempDir()
		saved := save(t, out, "conv-1", "tool-1", goodZip(t, "hello"))
		have, rest := run(out).savedZips(ctx, s, found)
		if len(have) != 1 || len(rest) != 0 || have[0].Saved.Path != saved.Path || have[0].Saved.Verdict.SHA256 != saved.Verdict.SHA256 {
			t.Fatalf("have %+v rest %+v", have, rest)
		}
	})
	for _, tc := range []struct {
		name    string
		prepare func(t *testing.T, out string) *job.Session
	}{
		{"a zip of another turn of the conversation is fetched", func(t *testing.T, out string) *job.Session {
			save(t, out, "conv-1", "msg-0", goodZip(t, "older"))
			return s
		}},
		{"a zip of another conversation is fetched", func(t *testing.T, out string) *job.Session {
			save(t, out, "conv-9", "msg-2", goodZip(t, "other"))
			return s
		}},
		{"a zip whose bytes changed on disk is fetched", func(t *testing.T, out string) *job.Session {
			saved := save(t, out, "conv-1", "msg-2", goodZip(t, "hello"))
			if err := os.WriteFile(saved.Path, goodZip(t, "tampered"), 0o644); err != nil {
				t.Fatal(err)
			}
			return s
		}},
		{"a zip whose sha256 differs from the session's record is fetched", func(t *testing.T, out string) *job.Session {
			saved := save(t, out, "conv-1", "msg-2", goodZip(t, "hello"))
			x := *s
			x.Artifacts = []job.Artifact{{Name: "project.zip", Path: saved.Path, SHA256: "00", Verdict: "verified"}}
			return &x
		}},
		{"a quarantined zip is never taken as good", func(t *testing.T, out string) *job.Session {
			saved := save(t, out, "conv-1", "msg-2", goodZip(t, "hello"))
			b, _ := os.ReadFile(saved.SidecarPath)
			var p artifact.Provenance
			_ = json.Unmarshal(b, &p)
			p.Quarantined = true
			b, _ = json.Marshal(p)
			if err := os.WriteFile(saved.SidecarPath, b, 0o644); err != nil {
				t.Fatal(err)
			}
			return s
		}},
		{"a zip over the recorded caps is fetched (and judged) again", func(t *testing.T, out string) *job.Session {
			var b bytes.Buffer
			w := zip.NewWriter(&b)
			for _, n := range []string{"a", "b", "c"} {
				f, _ := w.Create(n)
				_, _ = f.Write([]byte(n))
			}
			_ = w.Close()
			save(t, out, "conv-1", "msg-2", b.Bytes())
			return s
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			sess := tc.prepare(t, out)
			r := run(out)
			r.limits.MaxEntries = 2
			have, rest := r.savedZips(ctx, sess, found)
			if len(have) != 0 || len(rest) != 1 {
				t.Fatalf("have %+v rest %+v, want the zip fetched", have, rest)
			}
		})
	}
}

func TestARecordedTurnIsFoundByItsPrompt(t *testing.T) {
	t.Run("the conversation id comes from the recorded address", func(t *testing.T) {
		s := &job.Session{ID: "s", ConversationURL: "https://chatgpt.com/c/abc-123?model=x"}
		if err := recordedTurn(s); err != nil || s.ConversationID != "abc-123" {
			t.Fatalf("id %q err %v", s.ConversationID, err)
		}
		if err := recordedTurn(&job.Session{ID: "s"}); err == nil {
			t.Fatal("a session without a conversation was accepted")
		}
	})
	msg := func(id, role, text string) provider.BranchMessage {
		return provider.BranchMessage{ID: id, Role: role, Text: text}
	}
	branch := []provider.BranchMessage{
		msg("u1", "user", "TASK\nBuild it\n  [[sim:x]]"), msg("t1", "tool", ""), msg("a1", "assistant", "done"),
		msg("u2", "user", "Something else"), msg("a2", "assistant", "ok"),
	}
	for _, tc := range []struct{ name, prompt, want string }{
		{"an earlier turn is found by its prompt, whitespace aside", "TASK Build it [[sim:x]]", "a1"},
		{"the latest turn is found", "Something else", "a2"},
		{"a prompt the conversation does not hold finds nothing", "Never sent", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := promptAnswer(branch, tc.prompt); got != tc.want {
				t.Fatalf("answer %q, want %q", got, tc.want)
			}
		})
	}
}
