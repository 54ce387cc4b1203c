package codemode

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/prompt"
	"github.com/ferrydesk/ferry/backend/store"
)

// TestAReattachAdoptsTheZipWhoseSidecarWasNeverWritten: a code step
// journals each good zip's sha256 before the zip gets its name; a process
// killed between the rename and the sidecar leaves project.zip alone, and a
// reattach adopts it (writes its sidecar) when it is the journaled file,
// instead of saving a second copy as project-1.zip; anything else is
// fetched again with a warning saying why.
func TestAReattachAdoptsTheZipWhoseSidecarWasNeverWritten(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, t.TempDir(), store.WithSyncWrites(false))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	repo, err := job.OpenRepo(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	found := []artifact.Found{{Path: "/mnt/data/project.zip", MessageIDs: []string{"msg-2"}}}
	prov := artifact.Provenance{Site: "chatgpt", ConversationID: "conv-1", MessageID: "msg-2", SandboxPath: "/mnt/data/project.zip"}
	run := func(out string) *codeRun {
		return &codeRun{out: out, repo: repo, limits: config.Defaults().Artifacts, resume: true,
			receipt: newReceipt(prompt.ContractCode, false, false)}
	}
	// killedAfterRename saves data as the code step does (journal first)
	// and removes the sidecar, as a kill right after the rename leaves it.
	killedAfterRename := func(t *testing.T, out, id string, data []byte) string {
		t.Helper()
		if _, err := repo.Create(ctx, &job.Session{ID: id, Site: "chatgpt", Prompt: "p", ConversationID: "conv-1", MessageID: "msg-2", State: job.StateResolved}); err != nil {
			t.Fatal(err)
		}
		saved, err := artifact.Save(ctx, out, "/mnt/data/project.zip", bytes.NewReader(data), prov,
			artifact.WithBeforeLink(run(out).journalZip(ctx, id)))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(saved.SidecarPath); err != nil {
			t.Fatal(err)
		}
		return saved.Path
	}
	session := func(t *testing.T, id string) *job.Session {
		t.Helper()
		s, err := repo.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}

	t.Run("the journaled zip is adopted with its sidecar and nothing is fetched", func(t *testing.T) {
		out := t.TempDir()
		data := goodZip(t, "hello")
		path := killedAfterRename(t, out, "adopt-1", data)
		var d job.Delivery
		adopted, rest := run(out).adoptZips(ctx, session(t, "adopt-1"), found, &d)
		if len(adopted) != 1 || len(rest) != 0 || adopted[0].Saved.Path != path {
			t.Fatalf("adopted %+v, rest %+v", adopted, rest)
		}
		raw, err := os.ReadFile(path + artifact.SidecarSuffix)
		if err != nil {
			t.Fatalf("no sidecar after adoption: %v", err)
		}
		var p artifact.Provenance
		if err := json.Unmarshal(raw, &p); err != nil || p.SHA256 != adopted[0].Saved.Verdict.SHA256 || p.MessageID != "msg-2" ||
			p.ConversationID != "conv-1" || p.SandboxPath != "/mnt/data/project.zip" || p.FileName != "project.zip" {
			t.Fatalf("sidecar %s (%v)", raw, err)
		}
		if len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], "adopted") {
			t.Fatalf("warnings %q, want one saying the zip was adopted", d.Warnings)
		}
		// The next reattach finds it saved, as any zip with its sidecar.
		if have, _ := run(out).savedZips(ctx, session(t, "adopt-1"), found); len(have) != 1 {
			t.Fatalf("after adoption savedZips finds %+v", have)
		}
	})

	for _, tc := range []struct {
		name, id, warning string
		prepare           func(t *testing.T, out, id string)
	}{
		{"a zip changed since the journal is fetched again with a warning", "adopt-2", "is not the zip this run journaled",
			func(t *testing.T, out, id string) {
				path := killedAfterRename(t, out, id, goodZip(t, "hello"))
				if err := os.WriteFile(path, goodZip(t, "tampered"), 0o644); err != nil {
					t.Fatal(err)
				}
			}},
		{"a zip the run never journaled is fetched again with a warning", "adopt-3", "journaled no sha256",
			func(t *testing.T, out, id string) {
				if _, err := repo.Create(ctx, &job.Session{ID: id, Site: "chatgpt", Prompt: "p", ConversationID: "conv-1", MessageID: "msg-2", State: job.StateResolved}); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(out, "project.zip"), goodZip(t, "hello"), 0o644); err != nil {
					t.Fatal(err)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			tc.prepare(t, out, tc.id)
			var d job.Delivery
			adopted, rest := run(out).adoptZips(ctx, session(t, tc.id), found, &d)
			if len(adopted) != 0 || len(rest) != 1 {
				t.Fatalf("adopted %+v, rest %+v, want it fetched again", adopted, rest)
			}
			if _, err := os.Stat(filepath.Join(out, "project.zip"+artifact.SidecarSuffix)); !os.IsNotExist(err) {
				t.Fatalf("a sidecar was written for a file that was not adopted (%v)", err)
			}
			if len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], tc.warning) {
				t.Fatalf("warnings %q, want one with %q", d.Warnings, tc.warning)
			}
		})
	}
}
