package job

import (
	"context"
	"fmt"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
)

// extractedRun stores a code-mode run journaled up to state (through
// extracted), as a process killed there leaves it.
func extractedRun(t *testing.T, repo *Repo, state State, artifacts ...Artifact) *Session {
	t.Helper()
	ctx := context.Background()
	r := NewRunner(repo)
	s, err := r.Create(ctx, Spec{Site: "chatgpt", Prompt: "build it", CodeMode: true, Contract: "code"})
	if err != nil {
		t.Fatal(err)
	}
	path := []State{StatePreflighted, StateComposed, StateSubmitting, StateSubmitted, StateStreaming, StateCompleted, StateExtracted,
		StateArtifactsRetrieved, StateArtifactsVerified}
	for _, st := range path {
		if s, err = repo.Transition(ctx, s.ID, st, "test", func(x *Session) {
			if st == StateArtifactsRetrieved {
				x.Artifacts = append(x.Artifacts, artifacts...)
			}
		}); err != nil {
			t.Fatal(err)
		}
		if st == state {
			return s
		}
	}
	t.Fatalf("state %s is not on the artifact path", state)
	return nil
}

func TestReattachOfAnExtractedCodeRunResumesItsArtifactStep(t *testing.T) {
	repo, st := openRepo(t, t.TempDir())
	defer st.Close()
	ctx := context.Background()
	zip := Artifact{Name: "project.zip", Path: "/out/project.zip", SHA256: "aa", Verdict: "verified"}

	t.Run("without a deliverable a run at artifacts_retrieved is refused, untouched", func(t *testing.T) {
		s := extractedRun(t, repo, StateArtifactsRetrieved, zip)
		out, _, err := NewRunner(repo).Reattach(ctx, s.ID, nil)
		if !errs.Has(err, errs.CapabilityMissing) || out.State != StateArtifactsRetrieved {
			t.Fatalf("err %v state %s, want capability_missing and the run left at artifacts_retrieved", err, out.State)
		}
	})
	for _, from := range []State{StateExtracted, StateArtifactsRetrieved, StateArtifactsVerified} {
		t.Run(fmt.Sprintf("with a deliverable a run at %s is finished through it, each file recorded once", from), func(t *testing.T) {
			var have []Artifact
			if from != StateExtracted {
				have = []Artifact{zip}
			}
			s := extractedRun(t, repo, from, have...)
			calls := 0
			deliver := func(ctx context.Context, got *Session, a provider.Adapter) (Delivery, error) {
				calls++
				if got.ID != s.ID || got.State != from {
					return Delivery{}, fmt.Errorf("deliverable got %s at %s", got.ID, got.State)
				}
				again := zip
				again.Bytes = 42 // the same file, verified again
				return Delivery{Artifacts: []Artifact{again}, Receipts: []Receipt{{Layer: "download"}}}, nil
			}
			out, f, err := NewRunner(repo, WithDeliverable(deliver)).Reattach(ctx, s.ID, nil)
			if err != nil || calls != 1 || out.State != StateDone || f.Action != "finish" || f.From != from {
				t.Fatalf("err %v calls %d state %s finding %+v", err, calls, out.State, f)
			}
			if len(out.Artifacts) != 1 || out.Artifacts[0].Bytes != 42 {
				t.Fatalf("artifacts %+v, want project.zip once, as verified again", out.Artifacts)
			}
			journal, err := repo.Journal(ctx, s.ID)
			if err != nil {
				t.Fatal(err)
			}
			var tail []State
			for _, e := range journal {
				tail = append(tail, e.State)
			}
			want := map[State][]State{
				StateExtracted:          {StateExtracted, StateArtifactsRetrieved, StateArtifactsVerified, StateDone},
				StateArtifactsRetrieved: {StateArtifactsRetrieved, StateArtifactsVerified, StateDone},
				StateArtifactsVerified:  {StateArtifactsVerified, StateDone},
			}[from]
			if got := tail[len(tail)-len(want):]; fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("journal %v, want it to end %v", tail, want)
			}
			for _, w := range out.Warnings {
				t.Fatalf("unexpected warning %q", w)
			}
		})
	}
	t.Run("a deliverable failing on reattach fails the run with its envelope", func(t *testing.T) {
		s := extractedRun(t, repo, StateArtifactsRetrieved, zip)
		deliver := func(context.Context, *Session, provider.Adapter) (Delivery, error) {
			return Delivery{}, errs.New(errs.ArtifactExpired, "the sandbox expired")
		}
		out, _, err := NewRunner(repo, WithDeliverable(deliver)).Reattach(ctx, s.ID, nil)
		if !errs.Has(err, errs.ArtifactExpired) || out.State != StateFailed || out.Error == nil || out.Error.Code != errs.ArtifactExpired {
			t.Fatalf("err %v state %s", err, out.State)
		}
	})
}

func TestMergeArtifactsReplacesTheSameFile(t *testing.T) {
	a := Artifact{Name: "a.zip", Path: "/o/a.zip", Verdict: "verified"}
	b := Artifact{Name: "b.zip", Path: "/o/b.zip", Verdict: "rejected"}
	b2 := Artifact{Name: "b.zip", Path: "/o/b.zip", Verdict: "verified"}
	c := Artifact{Name: "c.zip", Verdict: "rejected"}
	got := mergeArtifacts([]Artifact{a, b, c}, []Artifact{b2, {Name: "c.zip", Verdict: "quarantined"}, {Name: "d.zip", Path: "/o/d.zip"}})
	if len(got) != 4 || got[0] != a || got[1] != b2 || got[2].Verdict != "quarantined" || got[3].Name != "d.zip" {
		t.Fatalf("merged %+v", got)
	}
}
