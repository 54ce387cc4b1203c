package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/hub/client"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// TestCodeThroughTheHub drives code jobs through a `ferry serve` owner
// attached to the simulator: an agent's job waits for approval, runs, and
// its verified zip downloads; `ferry code` through the owner prints the
// receipt the embedded run prints.
func TestCodeThroughTheHub(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	dd := t.TempDir()
	d := "--data-dir=" + dd
	s := startServe(t, dd, "--browser-url", h.Browser.Endpoint())
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	r := ferry(t, nil, "pair", "--json", d)
	var p pairJSON
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &p) != nil || p.Code == "" || p.Port != s.info.Port {
		t.Fatalf("ferry pair: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	ep, _, err := client.Pair(ctx, p.Port, p.Code, "code agent")
	if err != nil {
		t.Fatal(err)
	}
	agent := client.New(ep)
	waitJob := func(t *testing.T, id string) hub.Job {
		t.Helper()
		for {
			j, err := agent.GetJob(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if j.Ended() {
				return j
			}
			if ctx.Err() != nil {
				t.Fatalf("job %s still %s", id, j.State)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}

	refused := []struct {
		name string
		spec hub.JobSpec
		code errs.Code
	}{
		{"an agent may not choose the output directory", hub.JobSpec{Kind: hub.KindCode, Site: "chatgpt", Prompt: "x", OutDir: t.TempDir()}, errs.BadInput},
		{"an agent may not name a source repository", hub.JobSpec{Kind: hub.KindCode, Site: "chatgpt", Prompt: "x", RepoRoot: "/", SourcePaths: []string{"etc"}}, errs.BadInput},
		{"a code job on a site without a sandbox is refused", hub.JobSpec{Kind: hub.KindCode, Site: "claude", Prompt: "x"}, errs.CapabilityMissing},
		{"the plan contract needs the architecture authorization", hub.JobSpec{Kind: hub.KindCode, Site: "chatgpt", Prompt: "x", Contract: "plan"}, errs.AuthorizationRequired},
		{"a template missing a variable is refused naming it", hub.JobSpec{Kind: hub.KindCode, Site: "chatgpt", Template: "build-project", Vars: map[string]string{"project": "p"}}, errs.BadInput},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			_, err := agent.CreateJob(ctx, tc.spec)
			if !errs.Has(err, tc.code) {
				t.Fatalf("create %+v: %v, want %s", tc.spec, err, tc.code)
			}
		})
	}

	t.Run("an agent's code job from a template waits for approval, then its verified zip downloads", func(t *testing.T) {
		h.Server.Reset()
		j, err := agent.CreateJob(ctx, hub.JobSpec{Kind: hub.KindCode, Site: "chatgpt", Template: "build-project",
			Vars: map[string]string{"project": "a greeter " + sim.Directive(sim.ScenarioCodeZip), "requirements": "it greets", "language": "Go"}})
		if err != nil {
			t.Fatal(err)
		}
		if j.State != hub.StateAwaitingApproval {
			t.Fatalf("new agent code job is %s", j.State)
		}
		if n := h.Server.SubmissionCount(sim.ChatGPT); n != 0 {
			t.Fatalf("%d submissions before approval", n)
		}
		if r := ferry(t, nil, "approvals", "approve", j.ID, d); r.code != 0 {
			t.Fatalf("approve: exit %d %s", r.code, r.stderr)
		}
		end := waitJob(t, j.ID)
		if end.Detail == nil {
			t.Fatal("the ended job carries no detail")
		}
		det := *end.Detail
		if end.State != string(job.StateDone) || end.Error != nil || det.Run == nil || det.Receipt == nil || !det.Receipt.OK {
			t.Fatalf("code job ended %s error %+v receipt %+v", end.State, end.Error, det.Receipt)
		}
		if n := h.Server.SubmissionCount(sim.ChatGPT); n != 1 {
			t.Fatalf("%d submissions, want exactly 1", n)
		}
		run := det.Run
		if run.Template != "build-project" || run.Origin != job.OriginAgent || run.Contract != "code" || !strings.Contains(run.Prompt, "Build a greeter") {
			t.Fatalf("session template %q origin %s contract %q prompt %.80q", run.Template, run.Origin, run.Contract, run.Prompt)
		}
		if len(run.Artifacts) != 1 || run.Artifacts[0].Verdict != "verified" {
			t.Fatalf("artifacts %+v", run.Artifacts)
		}
		z := det.Receipt.Zips[0]
		if filepath.Dir(z.SavedPath) != filepath.Join(dd, "artifacts") {
			t.Fatalf("an agent's zip was saved at %s, not in the owner's artifacts directory", z.SavedPath)
		}
		var buf bytes.Buffer
		n, err := agent.DownloadArtifact(ctx, j.ID, "project.zip", &buf)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := sim.ZipBytes(sim.ScenarioCodeZip, 0, 1)
		sum := sha256.Sum256(buf.Bytes())
		if n != int64(len(want)) || !bytes.Equal(buf.Bytes(), want) || hex.EncodeToString(sum[:]) != run.Artifacts[0].SHA256 {
			t.Fatalf("downloaded %d bytes that differ from the sandbox's zip", n)
		}
		// The receipt names the artifact, and the token never reaches it.
		b, err := os.ReadFile(det.Receipt.Path)
		if err != nil {
			t.Fatal(err)
		}
		assertNoLeak(t, "receipt", b)
	})

	t.Run("ferry code through the owner prints the receipt the embedded run prints", func(t *testing.T) {
		h.Server.Reset()
		out := t.TempDir()
		r := ferry(t, nil, "code", "--site", "chatgpt", "--json", "--timeout", "50s", "--out", out, d, "Build a hub CLI", sim.Directive(sim.ScenarioCodeZip))
		var rc Receipt
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &rc) != nil || !rc.OK {
			t.Fatalf("code through the hub: exit %d %s %s", r.code, r.stdout, r.stderr)
		}
		if len(rc.Zips) != 1 || !rc.Zips[0].Verified || filepath.Dir(rc.Zips[0].SavedPath) != out || filepath.Dir(rc.Path) != out {
			t.Fatalf("receipt %+v, want one verified zip and the receipt in --out %s", rc, out)
		}
		for name, l := range map[string]Layer{"routing": rc.Layers.Routing, "transport": rc.Layers.Transport, "content": rc.Layers.Content, "download": rc.Layers.Download} {
			if l.Status != "passed" {
				t.Fatalf("layer %s = %+v", name, l)
			}
		}
		// Text mode: the saved path on stdout, the details on stderr.
		h.Server.Reset()
		r = ferry(t, nil, "code", "--site", "chatgpt", "--timeout", "50s", "--out", out, d, "Build it again", sim.Directive(sim.ScenarioCodeZip))
		if r.code != 0 || !strings.HasPrefix(r.stdout, filepath.Join(out, "project")) || !strings.Contains(r.stderr, "saved project") || !strings.Contains(r.stderr, "receipt "+out) {
			t.Fatalf("text mode through the hub: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		// A failure keeps its exit code and its receipt.
		h.Server.Reset()
		r = ferry(t, nil, "code", "--site", "chatgpt", "--json", "--timeout", "50s", "--out", out, d, "Build it", sim.Directive(sim.ScenarioZipSlip))
		if r.code != 7 || json.Unmarshal([]byte(r.stdout), &rc) != nil || rc.OK || rc.Error == nil || rc.Error.Code != errs.ArtifactUnsafe {
			t.Fatalf("zip-slip through the hub: exit %d %s %s", r.code, r.stdout, r.stderr)
		}
	})
}
