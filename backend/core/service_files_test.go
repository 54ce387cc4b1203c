package core

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// TestAnAgentAttachesOnlyFilesUnderItsRoots: through the gateway an agent
// names files by path; they must lie under the folders the user allowed
// its client (a symbolic link out of them does not count), and the
// approval lists them with their sizes.
func TestAnAgentAttachesOnlyFilesUnderItsRoots(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, c := openTestService(t, ctx)
	agent, err := s.EnsureAgent(ctx, service.Owner(service.FaceMCP), service.EnsureAgentRequest{Name: "builder", Kind: service.AgentKindMCP})
	if err != nil {
		t.Fatal(err)
	}
	root, outside := t.TempDir(), t.TempDir()
	write := func(dir, name string, n int) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Repeat("x", n)), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	inA, inB := write(root, "a.log", 300), write(root, "b.txt", 2048)
	secret := write(outside, "secret.txt", 10)
	link := filepath.Join(root, "link.txt")
	if err := os.Symlink(secret, link); err != nil {
		t.Fatal(err)
	}
	submit := func(files ...string) (service.Job, error) {
		return s.SubmitJob(ctx, service.Agent(agent.ID), service.JobRequest{Kind: service.KindAsk, Site: "chatgpt", Prompt: "read these", Files: files})
	}
	t.Run("a client the user allowed no folder attaches nothing", func(t *testing.T) {
		if _, err := submit(inA); !errs.Has(err, errs.HubForbidden) {
			t.Fatalf("submit: %v, want hub_forbidden", err)
		}
	})
	t.Run("only the owner sets a client's folders, as absolute paths", func(t *testing.T) {
		if _, err := s.SetFileRoots(ctx, service.Agent(agent.ID), service.FileRootsRequest{ID: agent.ID, Roots: []string{root}}); !errs.Has(err, errs.HubForbidden) {
			t.Fatalf("an agent setting its own folders: %v, want hub_forbidden", err)
		}
		if _, err := s.SetFileRoots(ctx, service.Owner(service.FaceCLI), service.FileRootsRequest{ID: agent.ID, Roots: []string{"rel/dir"}}); !errs.Has(err, errs.BadInput) {
			t.Fatalf("a relative folder: %v, want bad_input", err)
		}
	})
	info, err := s.SetFileRoots(ctx, service.Owner(service.FaceDesktop), service.FileRootsRequest{ID: agent.ID, Roots: []string{root, root + "/"}})
	if err != nil || len(info.FileRoots) != 1 || info.FileRoots[0] != root {
		t.Fatalf("set folders: %+v %v", info, err)
	}
	if rec, err := c.clients.Get(ctx, agent.ID); err != nil || len(rec.FileRoots) != 1 || rec.FileRoots[0] != root {
		t.Fatalf("stored client %+v %v", rec, err)
	}
	t.Run("a file outside the allowed folders is refused", func(t *testing.T) {
		if _, err := submit(inA, secret); !errs.Has(err, errs.HubForbidden) || errs.From(err).Evidence["file"] != secret {
			t.Fatalf("submit: %v, want hub_forbidden naming %s", err, secret)
		}
	})
	t.Run("a link out of the allowed folders is refused", func(t *testing.T) {
		if _, err := submit(link); !errs.Has(err, errs.HubForbidden) {
			t.Fatalf("submit: %v, want hub_forbidden", err)
		}
	})
	t.Run("files under the allowed folders wait for approval, which lists them with sizes", func(t *testing.T) {
		j, err := submit(inA, inB)
		if err != nil || j.State != service.StateAwaitingApproval {
			t.Fatalf("submit: %+v, %v", j, err)
		}
		aps, err := s.ListApprovals(ctx, service.Owner(service.FaceCLI), service.ListApprovalsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		var ap *service.Approval
		for i := range aps {
			if aps[i].JobID == j.ID {
				ap = &aps[i]
			}
		}
		if ap == nil || len(ap.Files) != 2 || ap.Files[0].Name != "a.log" || ap.Files[0].Bytes != 300 || ap.Files[1].Bytes != 2048 {
			t.Fatalf("approval %+v", ap)
		}
		if d := ap.Describe(); !strings.Contains(d, "with 2 files: a.log (300 B), b.txt (2.0 KiB)") {
			t.Fatalf("described %q", d)
		}
	})
}
