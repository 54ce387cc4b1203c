package core

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/codemode"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/search"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/tabs"
)

// fill sets every field reachable from v to a value that is not its zero,
// so that a field the JSON of a mirror drops shows as a difference.
func fill(v reflect.Value, depth int) {
	if depth > 6 {
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("x" + v.Type().Name())
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(7)
	case reflect.Uint64, reflect.Uint, reflect.Uint32:
		v.SetUint(9)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(s.Index(0), depth+1)
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k, depth+1)
		fill(e, depth+1)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(time.Time{}) {
			v.Set(reflect.ValueOf(time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)))
			return
		}
		if v.Type() == reflect.TypeOf(errs.Envelope{}) {
			v.Set(reflect.ValueOf(*errs.New(errs.Timeout, "late").WithEvidence("k", "v")))
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), depth+1)
			}
		}
	}
}

func filled[T any]() T {
	var v T
	fill(reflect.ValueOf(&v).Elem(), 0)
	return v
}

// sameJSON checks that orig goes through its mirror M and back without
// losing a byte of its JSON form.
func sameJSON[M any](t *testing.T, orig any) {
	t.Helper()
	want, err := json.Marshal(orig)
	if err != nil {
		t.Fatal(err)
	}
	var m M
	dec := json.NewDecoder(bytes.NewReader(want))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("%T has a field its mirror %T lacks: %v", orig, m, err)
	}
	got, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%T through %T changes its JSON:\n got %s\nwant %s", orig, m, got, want)
	}
}

func TestServiceConstantsMatch(t *testing.T) {
	if service.ArtifactSidecarSuffix != artifact.SidecarSuffix {
		t.Fatalf("service says a sidecar ends %q, the artifact package writes %q", service.ArtifactSidecarSuffix, artifact.SidecarSuffix)
	}
}

func TestServiceMirrorsKeepEveryField(t *testing.T) {
	t.Run("a run record", func(t *testing.T) { sameJSON[service.Run](t, filled[job.Session]()) })
	t.Run("a journal entry", func(t *testing.T) { sameJSON[service.JournalEntry](t, filled[job.Entry]()) })
	t.Run("a listed run with its hit", func(t *testing.T) { sameJSON[service.Listed](t, filled[job.Listed]()) })
	t.Run("a search hit", func(t *testing.T) { sameJSON[service.Hit](t, filled[search.Hit]()) })
	t.Run("a reattach finding", func(t *testing.T) { sameJSON[service.Finding](t, filled[job.Finding]()) })
	t.Run("a run event", func(t *testing.T) { sameJSON[service.RunEvent](t, filled[job.Event]()) })
	t.Run("a code receipt", func(t *testing.T) { sameJSON[service.CodeReceipt](t, filled[CodeReceipt]()) })
	t.Run("a retrieve receipt", func(t *testing.T) { sameJSON[service.RetrieveReceipt](t, filled[codemode.RetrieveReceipt]()) })
	t.Run("an answer with its proof", func(t *testing.T) { sameJSON[service.Result](t, filled[provider.Result]()) })
	t.Run("a doctor verdict", func(t *testing.T) { sameJSON[service.DoctorReport](t, filled[DoctorReport]()) })
	t.Run("an artifact of the library", func(t *testing.T) { sameJSON[service.ArtifactItem](t, filled[artifact.Item]()) })
	t.Run("a tab with its readiness", func(t *testing.T) { sameJSON[service.TabState](t, filled[tabs.State]()) })
}

func TestConversionsRoundTrip(t *testing.T) {
	s := filled[job.Session]()
	if got := SessionOf(RunOf(&s)); !reflect.DeepEqual(got, &s) {
		t.Fatalf("a run record changed through the service:\n got %+v\nwant %+v", got, &s)
	}
	f := filled[job.Finding]()
	if got := jobFindingOf(findingOf(&f)); !reflect.DeepEqual(got, &f) {
		t.Fatalf("a finding changed: %+v", got)
	}
	if RunOf(nil) != nil || SessionOf(nil) != nil || receiptOf(nil) != nil || codeReceiptOf(nil) != nil {
		t.Fatal("nil does not stay nil")
	}
}

func TestServiceNamesThePipelinesStates(t *testing.T) {
	want := make([]string, 0, len(job.States))
	for _, s := range job.States {
		want = append(want, string(s))
		if service.IsTerminal(string(s)) != s.Terminal() {
			t.Errorf("%s: terminal %v in the service, %v in the pipeline", s, service.IsTerminal(string(s)), s.Terminal())
		}
	}
	if !reflect.DeepEqual(service.RunStates, want) {
		t.Fatalf("service.RunStates %v, the pipeline's %v", service.RunStates, want)
	}
	for k, name := range map[job.EventKind]string{job.EventState: service.RunEventState, job.EventPartial: service.RunEventPartial, job.EventFinding: service.RunEventFinding} {
		if string(k) != name {
			t.Errorf("event kind %s is %s in the service", k, name)
		}
	}
}

func TestARunsResultIsTheSessions(t *testing.T) {
	full := filled[job.Session]()
	full.Receipts = append(full.Receipts, job.Receipt{Layer: "policy", Data: map[string]string{"kind": "rate_limit"}})
	bare := job.Session{ID: "run-bare", Site: "chatgpt"}
	for name, s := range map[string]*job.Session{"a run with every proof": &full, "a run with none": &bare} {
		t.Run(name, func(t *testing.T) {
			want, _ := json.Marshal(s.Result())
			got, _ := json.Marshal(RunOf(s).Result())
			if !bytes.Equal(got, want) {
				t.Fatalf("the service's result differs:\n got %s\nwant %s", got, want)
			}
			var policies []map[string]string
			for _, r := range s.Receipts {
				if r.Layer == "policy" {
					policies = append(policies, r.Data)
				}
			}
			if got := RunOf(s).Policies(); len(got) != len(policies) || (len(got) > 0 && !reflect.DeepEqual(got, policies)) || got == nil {
				t.Fatalf("policies %v, want %v (never nil)", got, policies)
			}
		})
	}
}
