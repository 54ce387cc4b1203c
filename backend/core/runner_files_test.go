package core

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub/client"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/service"
)

// TestAnAgentsFilesGoThroughTheGateway: over the real loopback gateway, the
// owner allows a paired agent a folder; the agent's ask job naming a file
// outside it is refused before anything is attached, and one naming files
// under it waits for an approval that lists the files with their sizes;
// once approved, the site gets the files with exactly one prompt.
func TestAnAgentsFilesGoThroughTheGateway(t *testing.T) {
	t.Parallel()
	sm, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer sm.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	o := startOwner(t, ctx, t.TempDir(), OwnerOptions{Browser: sm.Browser})
	defer o.stop(t)
	info, token, err := o.register(ctx, "files agent")
	if err != nil {
		t.Fatal(err)
	}
	ep, err := client.Discover(ctx, o.c.Paths().HubFile())
	if err != nil {
		t.Fatal(err)
	}
	ownerCl := client.New(ep)
	agent := client.New(client.NewEndpoint(o.srv.Port(), token))

	root, outside := t.TempDir(), t.TempDir()
	write := func(p string, n int) string {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.Repeat("f", n-1)+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	notes, log := write(filepath.Join(root, "notes.txt"), 300), write(filepath.Join(root, "ci", "build.log"), 2048)
	secret := write(filepath.Join(outside, "secret.txt"), 10)
	set, err := client.NewService(ownerCl).SetFileRoots(ctx, service.Owner(service.FaceCLI), service.FileRootsRequest{ID: info.ID, Roots: []string{root}})
	if err != nil || !reflect.DeepEqual(set.FileRoots, []string{root}) {
		t.Fatalf("allow the folder over the gateway: %+v %v", set, err)
	}
	prompt := "Compare the notes with the build log"

	t.Run("a file outside the allowed folder is refused before anything is attached", func(t *testing.T) {
		_, err := agent.CreateJob(ctx, service.JobRequest{Kind: service.KindAsk, Site: "chatgpt", NewChat: true, Prompt: prompt, Files: []string{notes, secret}})
		if !errs.Has(err, errs.HubForbidden) || errs.From(err).Evidence["file"] != secret {
			t.Fatalf("create: %v, want hub_forbidden naming %s", err, secret)
		}
		if aps, err := ownerCl.Approvals(ctx); err != nil || len(aps) != 0 {
			t.Fatalf("approvals after the refusal: %+v %v", aps, err)
		}
		if n := len(sm.Server.Uploads(sim.ChatGPT)); n != 0 {
			t.Fatalf("%d files reached the site", n)
		}
	})
	t.Run("an agent may not name a repository to send as a zip", func(t *testing.T) {
		_, err := agent.CreateJob(ctx, service.JobRequest{Kind: service.KindAsk, Site: "chatgpt", NewChat: true, Prompt: prompt,
			RepoRoot: root, SourcePaths: []string{"."}, SourceAs: service.SourceAsZip})
		if !errs.Has(err, errs.BadInput) || !strings.Contains(errs.From(err).Message, "owner only") {
			t.Fatalf("create: %v, want bad_input", err)
		}
	})
	t.Run("files under it wait for an approval listing them with sizes, then go with one prompt", func(t *testing.T) {
		j, err := agent.CreateJob(ctx, service.JobRequest{Kind: service.KindAsk, Site: "chatgpt", NewChat: true, Prompt: prompt, Files: []string{notes, log}})
		if err != nil || j.State != service.StateAwaitingApproval {
			t.Fatalf("create: %+v %v", j, err)
		}
		aps, err := ownerCl.Approvals(ctx)
		if err != nil || len(aps) != 1 || aps[0].JobID != j.ID {
			t.Fatalf("approvals: %+v %v", aps, err)
		}
		want := []service.Attachment{{Name: "notes.txt", Bytes: 300}, {Name: "build.log", Bytes: 2048}}
		for i, f := range aps[0].Files {
			if i < len(want) && (f.Name != want[i].Name || f.Bytes != want[i].Bytes) {
				t.Fatalf("approval file %d is %+v, want %+v", i, f, want[i])
			}
		}
		if len(aps[0].Files) != len(want) || !strings.Contains(aps[0].Describe(), "with 2 files: notes.txt (300 B), build.log (2.0 KiB)") {
			t.Fatalf("approval %+v described %q", aps[0].Files, aps[0].Describe())
		}
		if n := len(sm.Server.Uploads(sim.ChatGPT)); n != 0 {
			t.Fatalf("%d files reached the site before the approval", n)
		}
		before := sm.Server.SubmissionCount(sim.ChatGPT)
		if _, err := ownerCl.Approve(ctx, j.ID); err != nil {
			t.Fatal(err)
		}
		for {
			if j, err = agent.GetJob(ctx, j.ID); err != nil {
				t.Fatal(err)
			}
			if j.Detail != nil && j.Detail.Ended {
				break
			}
			if ctx.Err() != nil {
				t.Fatalf("approved job still %s", j.State)
			}
			time.Sleep(100 * time.Millisecond)
		}
		if j.State != string(job.StateDone) || j.Detail.Run == nil || j.Detail.Run.Answer != providertest.NormalAnswer(prompt) {
			t.Fatalf("approved job ended %s, error %v", j.State, j.Error)
		}
		subs := sm.Server.Submissions(sim.ChatGPT)
		if len(subs) != before+1 {
			t.Fatalf("%d prompts reached the site, want exactly one", len(subs)-before)
		}
		if last := subs[len(subs)-1]; last.Prompt != prompt || !reflect.DeepEqual(last.Attachments, []string{"notes.txt", "build.log"}) {
			t.Fatalf("the site got %q with %v", last.Prompt, last.Attachments)
		}
		ups := sm.Server.Uploads(sim.ChatGPT)
		if len(ups) != 2 {
			t.Fatalf("uploads %+v", ups)
		}
		for i, p := range []string{notes, log} {
			b, _ := os.ReadFile(p)
			sum := sha256.Sum256(b)
			if ups[i].SHA256 != hex.EncodeToString(sum[:]) || !ups[i].Completed {
				t.Fatalf("upload %d %+v is not %s", i, ups[i], p)
			}
		}
		if att := j.Detail.Run.Attachments; len(att) != 2 || att[0].Name != "notes.txt" || att[1].Bytes != 2048 || att[1].SHA256 != ups[1].SHA256 {
			t.Fatalf("the run records %+v", att)
		}
	})
}
