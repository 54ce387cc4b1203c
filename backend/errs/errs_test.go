package errs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestEnvelopeTakesStageHintAndRetryabilityFromTheCatalog(t *testing.T) {
	e := New(StoreBusy, "data dir %s is held by pid %d", "/x", 42)
	if e.Stage != StageStore || !e.Retryable || e.RetryHint == "" {
		t.Fatalf("catalog defaults not applied: %+v", e)
	}
	if e.Error() != "store_busy: data dir /x is held by pid 42" {
		t.Fatalf("Error() = %q", e.Error())
	}
}

func TestJSONFormHasTheDocumentedFieldsAndNoCause(t *testing.T) {
	e := Wrap(errors.New("secret cause"), ArtifactCorrupt, "crc mismatch in %s", "a.txt").WithEvidence("entry", "a.txt")
	var m map[string]any
	if err := json.Unmarshal(e.JSON(), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"stage", "code", "message", "retryHint", "retryable", "evidence"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %q: %s", k, e.JSON())
		}
	}
	if len(m) != 6 {
		t.Errorf("JSON has extra fields: %s", e.JSON())
	}
	if got := string(e.JSON()); strings.Contains(got, "secret cause") {
		t.Errorf("cause leaked into JSON: %s", got)
	}
}

func TestEnvelopesAreFoundThroughWrappingAndComparedByCode(t *testing.T) {
	base := New(SessionStale, "tab gone")
	wrapped := fmt.Errorf("poll session: %w", base)
	if CodeOf(wrapped) != SessionStale || !Has(wrapped, SessionStale) {
		t.Fatal("code not found through %w")
	}
	if !errors.Is(wrapped, New(SessionStale, "other text")) {
		t.Fatal("errors.Is should compare codes, not text")
	}
	if errors.Is(wrapped, New(SessionNotFound, "tab gone")) {
		t.Fatal("errors.Is matched a different code")
	}
}

func TestFromClassifiesPlainErrors(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want Code
	}{
		{"a deadline becomes a timeout", fmt.Errorf("wait: %w", context.DeadlineExceeded), Timeout},
		{"a cancellation becomes cancelled", context.Canceled, Cancelled},
		{"anything else is internal", errors.New("boom"), Internal},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := From(c.err).Code; got != c.want {
				t.Fatalf("From(%v).Code = %s, want %s", c.err, got, c.want)
			}
		})
	}
	if From(nil) != nil {
		t.Fatal("From(nil) must be nil")
	}
}

func TestExitCodesAreDistinctPerClassAndStable(t *testing.T) {
	want := map[Class]int{
		ClassOK: 0, ClassInternal: 1, ClassBadInput: 2, ClassBlocked: 3, ClassRouting: 4,
		ClassDeliverable: 5, ClassTimeout: 6, ClassArtifact: 7, ClassCancelled: 8,
		ClassDiskFull: 9,
	}
	for class, code := range want {
		if class.ExitCode() != code {
			t.Errorf("%s exits %d, want %d", class, class.ExitCode(), code)
		}
	}
	if ExitCode(nil) != 0 || ExitCode(New(BadInput, "x")) != 2 || ExitCode(errors.New("x")) != 1 ||
		ExitCode(New(LoginRequired, "x")) != 3 || ExitCode(New(SessionStale, "x")) != 4 ||
		ExitCode(New(DeliverableMissing, "x")) != 5 || ExitCode(context.DeadlineExceeded) != 6 ||
		ExitCode(New(ArtifactCorrupt, "x")) != 7 || ExitCode(New(DiskFull, "x")) != 9 {
		t.Fatal("exit code mapping changed")
	}
}

func TestEveryCatalogEntryIsComplete(t *testing.T) {
	for _, s := range Catalog() {
		if s.Stage == "" || s.Hint == "" || s.Class == ClassOK {
			t.Errorf("incomplete catalog entry %+v", s)
		}
	}
}

func TestUnknownCodePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("New with an unknown code must panic")
		}
	}()
	New(Code("no_such_code"), "x")
}
