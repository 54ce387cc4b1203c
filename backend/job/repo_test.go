package job

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/store"
)

func openStore(t testing.TB, dir string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), dir)
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	return st
}

func openRepo(t testing.TB, dir string) (*Repo, *store.Store) {
	t.Helper()
	st := openStore(t, dir)
	r, err := OpenRepo(context.Background(), st)
	if err != nil {
		st.Close()
		t.Fatalf("open repo: %v", err)
	}
	return r, st
}

func TestCreateFillsDefaultsAndJournalsTheFirstState(t *testing.T) {
	r, st := openRepo(t, t.TempDir())
	defer st.Close()
	ctx := context.Background()
	s, err := r.Create(ctx, &Session{Site: "chatgpt", Prompt: "hello there"})
	if err != nil {
		t.Fatal(err)
	}
	if s.ID == "" || s.State != StateResolved || s.Origin != OriginCLI || s.Approval != ApprovalNotRequired || s.Created.IsZero() {
		t.Fatalf("defaults not filled: %+v", s)
	}
	got, err := r.Get(ctx, s.ID)
	if err != nil || got.Prompt != "hello there" {
		t.Fatalf("get: %v %+v", err, got)
	}
	j, err := r.Journal(ctx, s.ID)
	if err != nil || len(j) != 1 || j[0].State != StateResolved || j[0].Seq != 1 {
		t.Fatalf("journal %v %+v", err, j)
	}
}

func TestCreateRefusesBadRecords(t *testing.T) {
	r, st := openRepo(t, t.TempDir())
	defer st.Close()
	ctx := context.Background()
	if _, err := r.Create(ctx, &Session{ID: "dup", Site: "chatgpt", Prompt: "p"}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		s    Session
	}{
		{"a record without a site is refused", Session{Prompt: "p"}},
		{"a record with an empty prompt is refused", Session{Site: "chatgpt", Prompt: "  "}},
		{"an id with a slash is refused", Session{ID: "a/b", Site: "chatgpt", Prompt: "p"}},
		{"an unknown state is refused", Session{Site: "chatgpt", Prompt: "p", State: "flying"}},
		{"an id already stored is refused", Session{ID: "dup", Site: "chatgpt", Prompt: "p"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := r.Create(ctx, &tc.s)
			if !errs.Has(err, errs.BadInput) {
				t.Fatalf("err = %v, want bad_input", err)
			}
		})
	}
	if r.Len() != 1 {
		t.Fatalf("index holds %d sessions, want 1", r.Len())
	}
}

func TestGetOfAMissingSessionIsSessionNotFound(t *testing.T) {
	r, st := openRepo(t, t.TempDir())
	defer st.Close()
	for _, id := range []string{"nope", "a/b", ""} {
		t.Run(fmt.Sprintf("id %q is not found", id), func(t *testing.T) {
			if _, err := r.Get(context.Background(), id); !errs.Has(err, errs.SessionNotFound) {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

func TestUpdateChecksTransitionsAndJournalsThem(t *testing.T) {
	r, st := openRepo(t, t.TempDir())
	defer st.Close()
	ctx := context.Background()
	s, _ := r.Create(ctx, &Session{Site: "chatgpt", Prompt: "p"})
	if _, err := r.Transition(ctx, s.ID, StateSubmitted, "skip", nil); !errors.Is(err, ErrIllegalTransition) {
		t.Fatalf("resolved -> submitted: err = %v", err)
	}
	path := []State{StatePreflighted, StateComposed, StateSubmitting, StateSubmitted, StateStreaming, StateCompleted, StateExtracted, StateDone}
	for _, to := range path {
		if _, err := r.Transition(ctx, s.ID, to, "step "+string(to), nil); err != nil {
			t.Fatalf("-> %s: %v", to, err)
		}
	}
	if _, err := r.Transition(ctx, s.ID, StateFailed, "late", nil); !errors.Is(err, ErrIllegalTransition) {
		t.Fatalf("done -> failed: err = %v", err)
	}
	// A field-only update journals nothing.
	if _, err := r.Update(ctx, s.ID, "", func(x *Session) error { x.Warnings = []string{"w"}; return nil }); err != nil {
		t.Fatal(err)
	}
	j, _ := r.Journal(ctx, s.ID)
	if len(j) != len(path)+1 {
		t.Fatalf("journal has %d entries, want %d", len(j), len(path)+1)
	}
	for i, to := range path {
		if j[i+1].State != to || j[i+1].Seq != uint64(i+2) || j[i+1].Note != "step "+string(to) {
			t.Fatalf("entry %d = %+v", i+1, j[i+1])
		}
	}
	got, _ := r.Get(ctx, s.ID)
	if got.State != StateDone || got.Seq != uint64(len(path)+1) || len(got.Warnings) != 1 {
		t.Fatalf("record %+v", got)
	}
}

func TestFailureRemembersTheStateBefore(t *testing.T) {
	r, st := openRepo(t, t.TempDir())
	defer st.Close()
	ctx := context.Background()
	s, _ := r.Create(ctx, &Session{Site: "chatgpt", Prompt: "p"})
	r.Transition(ctx, s.ID, StatePreflighted, "", nil)
	out, err := r.Transition(ctx, s.ID, StateFailed, "login", func(x *Session) { x.Error = errs.New(errs.LoginRequired, "log in") })
	if err != nil || out.StateBefore != StatePreflighted || out.Error.Code != errs.LoginRequired {
		t.Fatalf("%v %+v", err, out)
	}
	j, _ := r.Journal(ctx, s.ID)
	if last := j[len(j)-1]; last.Error == nil || last.Error.Code != errs.LoginRequired {
		t.Fatalf("journal lacks the envelope: %+v", last)
	}
}

func TestADoneRunKeepsItsInterruptionAsAWarning(t *testing.T) {
	r, st := openRepo(t, t.TempDir())
	defer st.Close()
	ctx := context.Background()
	s, _ := r.Create(ctx, &Session{Site: "chatgpt", Prompt: "p"})
	for _, to := range []State{StatePreflighted, StateComposed, StateSubmitting, StateSubmitted, StateStreaming} {
		if _, err := r.Transition(ctx, s.ID, to, "", nil); err != nil {
			t.Fatal(err)
		}
	}
	// A cancel after the send leaves the run streaming with its envelope;
	// reattach then collects it.
	r.Update(ctx, s.ID, "", func(x *Session) error {
		x.Error = errs.New(errs.Cancelled, "evaluate in the page: cancelled")
		return nil
	})
	for _, to := range []State{StateCompleted, StateExtracted, StateDone} {
		if _, err := r.Transition(ctx, s.ID, to, "", nil); err != nil {
			t.Fatal(err)
		}
	}
	out, _ := r.Get(ctx, s.ID)
	if out.Error != nil || len(out.Warnings) != 1 || !strings.Contains(out.Warnings[0], "cancelled: evaluate in the page: cancelled") {
		t.Fatalf("done with error %+v and warnings %q", out.Error, out.Warnings)
	}
}

func TestListFiltersAndSearchesNewestFirst(t *testing.T) {
	r, st := openRepo(t, t.TempDir())
	defer st.Close()
	ctx := context.Background()
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	mk := func(i int, site, prompt string, state State) {
		if _, err := r.Create(ctx, &Session{ID: fmt.Sprintf("s%02d", i), Site: site, Prompt: prompt, State: state, Created: base.Add(time.Duration(i) * time.Minute)}); err != nil {
			t.Fatal(err)
		}
	}
	mk(1, "chatgpt", "explain kubernetes operators", StateDone)
	mk(2, "claude", "write a haiku about ferries", StateDone)
	mk(3, "chatgpt", "kubernetes pod eviction", StateFailed)
	mk(4, "gemini", "plan a trip", StateResolved)
	for _, tc := range []struct {
		name string
		f    Filter
		want []string
	}{
		{"no filter lists everything newest first", Filter{}, []string{"s04", "s03", "s02", "s01"}},
		{"a site filter keeps that site", Filter{Site: "chatgpt"}, []string{"s03", "s01"}},
		{"a state filter keeps that state", Filter{State: StateDone}, []string{"s02", "s01"}},
		{"a query finds fuzzy matches", Filter{Query: "kubernets"}, []string{"s01", "s03"}},
		{"query and state combine", Filter{Query: "kubernetes", State: StateFailed}, []string{"s03"}},
		{"several states keep a run in any of them", Filter{States: []State{StateFailed, StateResolved}}, []string{"s04", "s03"}},
		{"a limit cuts the list", Filter{Limit: 1}, []string{"s04"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _, err := r.List(ctx, tc.f)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, l := range got {
				ids = append(ids, l.Session.ID)
			}
			if tc.f.Query != "" {
				// Ranking may order equal matches either way; membership matters.
				if len(ids) != len(tc.want) || !sameSet(ids, tc.want) {
					t.Fatalf("got %v, want %v", ids, tc.want)
				}
				return
			}
			if strings.Join(ids, ",") != strings.Join(tc.want, ",") {
				t.Fatalf("got %v, want %v", ids, tc.want)
			}
		})
	}
	if _, _, err := r.List(ctx, Filter{State: "sideways"}); !errs.Has(err, errs.BadInput) {
		t.Fatalf("unknown state: %v", err)
	}
	if _, _, err := r.List(ctx, Filter{States: []State{StateDone, "sideways"}}); !errs.Has(err, errs.BadInput) {
		t.Fatalf("unknown state among several: %v", err)
	}
	act, err := r.Active(ctx)
	if err != nil || len(act) != 1 || act[0].ID != "s04" {
		t.Fatalf("active = %v %v", act, err)
	}
}

func sameSet(a, b []string) bool {
	m := map[string]int{}
	for _, x := range a {
		m[x]++
	}
	for _, x := range b {
		m[x]--
	}
	for _, v := range m {
		if v != 0 {
			return false
		}
	}
	return true
}

func TestTheIndexIsRebuiltAtOpenAndFollowsUpdates(t *testing.T) {
	dir := t.TempDir()
	r, st := openRepo(t, dir)
	ctx := context.Background()
	s, _ := r.Create(ctx, &Session{Site: "chatgpt", Prompt: "zebra crossing rules"})
	r.Update(ctx, s.ID, "", func(x *Session) error { x.Answer = "walk when the light is green"; return nil })
	st.Close()

	r2, st2 := openRepo(t, dir)
	defer st2.Close()
	if r2.Len() != 1 {
		t.Fatalf("rebuilt index has %d sessions", r2.Len())
	}
	got, _, _ := r2.List(ctx, Filter{Query: "green light"})
	if len(got) != 1 || got[0].Session.ID != s.ID {
		t.Fatalf("the answer written before reopening is not searchable: %+v", got)
	}
	r2.Update(ctx, s.ID, "", func(x *Session) error { x.Answer = "purple"; return nil })
	if got, _, _ := r2.List(ctx, Filter{Query: "green light"}); len(got) != 0 {
		t.Fatalf("the old answer is still found after an update")
	}
}

func TestResolveAcceptsAUniquePrefix(t *testing.T) {
	r, st := openRepo(t, t.TempDir())
	defer st.Close()
	ctx := context.Background()
	for _, id := range []string{"abcd-1", "abcd-2", "wxyz-1"} {
		r.Create(ctx, &Session{ID: id, Site: "chatgpt", Prompt: "p"})
	}
	if s, err := r.Resolve(ctx, "wxyz"); err != nil || s.ID != "wxyz-1" {
		t.Fatalf("unique prefix: %v %v", s, err)
	}
	if _, err := r.Resolve(ctx, "abcd"); !errs.Has(err, errs.SessionAmbiguous) {
		t.Fatalf("shared prefix: %v", err)
	}
	if _, err := r.Resolve(ctx, "qqqq"); !errs.Has(err, errs.SessionNotFound) {
		t.Fatalf("no match: %v", err)
	}
}

func TestExportNeverLeaksSecrets(t *testing.T) {
	s := &Session{ID: "x1", Site: "chatgpt", Prompt: "p ``` q", Answer: "a", State: StateFailed,
		ConversationURL: "https://chatgpt.com/c/abc?token=SECRET1#frag",
		Error:           errs.New(errs.LoginRequired, "log in").WithEvidence("access_token", "SECRET2").WithEvidence("status", "401"),
		Receipts:        []Receipt{{Layer: "routing", Data: map[string]string{"cookie": "SECRET3", "tab": "T1"}}}}
	for _, format := range []string{FormatJSON, FormatMarkdown} {
		t.Run(format+" export holds no secret and keeps the rest", func(t *testing.T) {
			b, err := Export(s, []Entry{{Seq: 1, State: StateResolved}}, format)
			if err != nil {
				t.Fatal(err)
			}
			out := string(b)
			for _, secret := range []string{"SECRET1", "SECRET2", "SECRET3", "frag"} {
				if strings.Contains(out, secret) {
					t.Fatalf("export leaks %s:\n%s", secret, out)
				}
			}
			if !strings.Contains(out, "https://chatgpt.com/c/abc") || !strings.Contains(out, "login_required") {
				t.Fatalf("export lost content:\n%s", out)
			}
			if format == FormatJSON && !json.Valid(b) {
				t.Fatal("invalid JSON")
			}
			if format == FormatMarkdown && !strings.Contains(out, "````text\np ``` q\n````") {
				t.Fatalf("the prompt fence does not survive backticks:\n%s", out)
			}
		})
	}
	if _, err := Export(s, nil, "pdf"); !errs.Has(err, errs.BadInput) {
		t.Fatalf("pdf: %v", err)
	}
	if s.Error.Evidence["access_token"] != "SECRET2" {
		t.Fatal("Redacted changed the original record")
	}
}

func openStoreErr(dir string) (*store.Store, error) { return store.Open(context.Background(), dir) }

// TestARunIsSearchedByItsTitle: a code-mode run's prompt is the user's task
// wrapped in Ferry's contract; History lists and finds it by the task.
func TestARunIsSearchedByItsTitle(t *testing.T) {
	r, st := openRepo(t, t.TempDir())
	defer st.Close()
	ctx := context.Background()
	task := "build a desktop greeter"
	s, err := r.Create(ctx, &Session{Site: "chatgpt", Task: task, Prompt: "TASK\n" + task + "\n\nOUTPUT CONTRACT: code\nDeliver the complete change as the zip file described under DELIVERY."})
	if err != nil {
		t.Fatal(err)
	}
	got, _, _ := r.List(ctx, Filter{Query: "greeter"})
	if len(got) != 1 || got[0].Session.ID != s.ID || got[0].Hit.Prompt != task {
		t.Fatalf("the task does not find and title its run: %+v", got)
	}
	if got, _, _ := r.List(ctx, Filter{Query: "contract delivery"}); len(got) != 0 {
		t.Fatalf("the wrapper's words find the run: %+v", got)
	}
}

// TestAGeneratedIDThatIsTakenIsMadeAgain: two runs created in the same
// second can draw the same id; the second takes another instead of failing.
func TestAGeneratedIDThatIsTakenIsMadeAgain(t *testing.T) {
	r, st := openRepo(t, t.TempDir())
	defer st.Close()
	ctx := context.Background()
	ids := []string{"20261202-010101-aaaaaa", "20261202-010101-aaaaaa", "20261202-010101-bbbbbb"}
	r.newID = func(time.Time) string { id := ids[0]; ids = ids[1:]; return id }
	a, err := r.Create(ctx, &Session{Site: "chatgpt", Prompt: "first"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := r.Create(ctx, &Session{Site: "chatgpt", Prompt: "second"})
	if err != nil {
		t.Fatalf("the second run failed on a taken id: %v", err)
	}
	if a.ID != "20261202-010101-aaaaaa" || b.ID != "20261202-010101-bbbbbb" {
		t.Fatalf("ids %s and %s", a.ID, b.ID)
	}
	// An id the caller chose is never replaced.
	if _, err := r.Create(ctx, &Session{ID: a.ID, Site: "chatgpt", Prompt: "again"}); !errs.Has(err, errs.BadInput) {
		t.Fatalf("a chosen id that is taken: %v, want bad_input", err)
	}
}
