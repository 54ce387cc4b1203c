package codemode

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"reflect"
	"testing"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/prompt"
	"github.com/ferrydesk/ferry/backend/provider"
)

// plainAdapter drives a site without a sandbox.
type plainAdapter struct{ provider.Adapter }

// sandboxAdapter is an adapter with a provider.ArtifactSource in memory:
// the scan it answers, the files its mint hands out, and what was minted.
type sandboxAdapter struct {
	provider.Adapter
	scan   *provider.SandboxScan
	files  map[string][]byte
	minted []string
}

func (a *sandboxAdapter) SandboxFiles(ctx context.Context, conv string) (*provider.SandboxScan, error) {
	return a.scan, nil
}

func (a *sandboxAdapter) MintDownload(ctx context.Context, conv string, z artifact.Found) (*artifact.Download, error) {
	a.minted = append(a.minted, z.Path)
	b := a.files[z.Path]
	return &artifact.Download{MessageID: z.MessageIDs[0], Fetch: func(ctx context.Context, w io.Writer, limit int64) (artifact.FetchInfo, error) {
		n, err := w.Write(b)
		return artifact.FetchInfo{Bytes: int64(n)}, err
	}}, nil
}

func (a *sandboxAdapter) ConversationAddress(conv string) string {
	return "https://sandbox.test/c/" + conv
}

var _ provider.ArtifactSource = (*sandboxAdapter)(nil)

// twoTurns is a conversation whose first turn left old.zip and whose
// second (answered by a2, after the tool message t2) left project.zip.
func twoTurns() *provider.SandboxScan {
	return &provider.SandboxScan{
		ScanResult: artifact.ScanResult{Zips: []artifact.Found{
			{Path: "/mnt/data/old.zip", MessageIDs: []string{"a1"}},
			{Path: "/mnt/data/project.zip", MessageIDs: []string{"a2", "t2"}},
			{Path: "/mnt/data/both.zip", MessageIDs: []string{"a2", "a1"}},
		}},
		Branch: []provider.BranchMessage{
			{ID: "u1", Role: "user", Text: "first"}, {ID: "a1", Role: "assistant"},
			{ID: "u2", Role: "user", Text: "second"}, {ID: "t2", Role: "tool"}, {ID: "a2", Role: "assistant"},
		},
	}
}

func TestOnlyTheZipsOfTheAnswersTurnAreTaken(t *testing.T) {
	for _, tc := range []struct {
		name, answer string
		want         []artifact.Found
	}{
		{"the latest turn's answer takes its zips with only that turn's messages", "a2", []artifact.Found{
			{Path: "/mnt/data/project.zip", MessageIDs: []string{"a2", "t2"}},
			{Path: "/mnt/data/both.zip", MessageIDs: []string{"a2"}},
		}},
		{"an earlier turn's answer takes its own zips only", "a1", []artifact.Found{
			{Path: "/mnt/data/old.zip", MessageIDs: []string{"a1"}},
			{Path: "/mnt/data/both.zip", MessageIDs: []string{"a1"}},
		}},
		{"an unknown answer takes the last turn's zips", "", []artifact.Found{
			{Path: "/mnt/data/project.zip", MessageIDs: []string{"a2", "t2"}},
			{Path: "/mnt/data/both.zip", MessageIDs: []string{"a2"}},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := turnZips(twoTurns(), tc.answer); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("zips %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestAZipStepAsksTheAdapterForItsSandbox(t *testing.T) {
	ctx := context.Background()
	step := prompt.Step{Contract: prompt.ContractCode}
	run := func(out string) *codeRun {
		return &codeRun{out: out, limits: config.Defaults().Artifacts, receipt: newReceipt(prompt.ContractCode, false, false)}
	}
	session := func() *job.Session {
		return &job.Session{ID: "s1", Site: SiteID, ConversationID: "c1", MessageID: "a2",
			Answer: "Saved [project.zip](sandbox:/mnt/data/project.zip)"}
	}

	t.Run("a tab whose adapter has no sandbox is capability_missing", func(t *testing.T) {
		var sr StepReceipt
		var d job.Delivery
		if _, err := run(t.TempDir()).deliver(ctx, step, session(), plainAdapter{}, &sr, &d); !errs.Has(err, errs.CapabilityMissing) {
			t.Fatalf("err = %v, want capability_missing", err)
		}
	})

	t.Run("the answer's zips come home through the sandbox with its conversation address", func(t *testing.T) {
		out := t.TempDir()
		a := &sandboxAdapter{scan: twoTurns(), files: map[string][]byte{
			"/mnt/data/project.zip": goodZip(t, "project"), "/mnt/data/both.zip": goodZip(t, "both"), "/mnt/data/old.zip": goodZip(t, "old")}}
		r := run(out)
		var sr StepReceipt
		var d job.Delivery
		if _, err := r.deliver(ctx, step, session(), a, &sr, &d); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a.minted, []string{"/mnt/data/project.zip", "/mnt/data/both.zip"}) {
			t.Fatalf("minted %v, want the two zips of the answer's turn", a.minted)
		}
		if r.receipt.ConversationURL != "https://sandbox.test/c/c1" || len(r.receipt.Zips) != 2 || !r.receipt.Zips[0].Verified {
			t.Fatalf("receipt %+v", r.receipt)
		}
		raw, err := os.ReadFile(r.receipt.Zips[0].Sidecar)
		if err != nil {
			t.Fatal(err)
		}
		var p artifact.Provenance
		if err := json.Unmarshal(raw, &p); err != nil || p.ConversationURL != "https://sandbox.test/c/c1" || p.MessageID != "a2" || p.Site != SiteID {
			t.Fatalf("provenance %s (%v)", raw, err)
		}
	})
}
