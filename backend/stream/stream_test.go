package stream_test

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/stream"
)

// The decoders themselves are tested in their vendor folders
// (provider/<vendor>/stream_test.go) with the checks of stream/streamtest.

func TestUnknownDecoderNameIsBadInputListingTheNames(t *testing.T) {
	_, err := stream.New("nope")
	if !errs.Has(err, errs.BadInput) {
		t.Fatalf("err = %v", err)
	}
	if e := errs.From(err); !strings.Contains(e.RetryHint, "chatgpt-delta-v1") {
		t.Fatalf("hint does not list decoders: %q", e.RetryHint)
	}
	if len(stream.Names()) != 6 {
		t.Fatalf("names = %v", stream.Names())
	}
}

func TestDeltaTellsExtensionFromRewrite(t *testing.T) {
	cases := []struct {
		name, prev, cur, added string
		rewritten              bool
	}{
		{"an extension gives the new tail", "Here", "Here’s", "’s", false},
		{"no change gives nothing", "same", "same", "", false},
		{"a rewrite gives the whole text", "Partial tok", "Partial", "Partial", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			added, rw := stream.Delta(c.prev, c.cur)
			if added != c.added || rw != c.rewritten {
				t.Fatalf("Delta = %q, %v", added, rw)
			}
		})
	}
}

func TestTheRegistryRefusesADuplicateNameAndListsSorted(t *testing.T) {
	t.Run("a name registered twice panics", func(t *testing.T) {
		defer func() {
			if recover() == nil {
				t.Fatal("registering chatgpt-delta-v1 again did not panic")
			}
		}()
		stream.Register("chatgpt-delta-v1", func() stream.Decoder { return nil })
	})
	t.Run("the names are listed in sorted order", func(t *testing.T) {
		names := stream.Names()
		if !sort.StringsAreSorted(names) {
			t.Fatalf("names = %v", names)
		}
	})
}

// TestListsFindsAStringInAnArrayAtAnyDepth: a request's JSON names a value
// only as an item of an array (ChatGPT's system_hints), never as a key, a
// plain string field or a part of a longer string.
func TestListsFindsAStringInAnArrayAtAnyDepth(t *testing.T) {
	var v any
	if err := json.Unmarshal([]byte(`{"search":"search","model":"x","hints":{"system_hints":["picture_v2","search"]},"parts":["research"]}`), &v); err != nil {
		t.Fatal(err)
	}
	for want, ok := range map[string]bool{"search": true, "picture_v2": true, "research": true, "x": false, "model": false, "pict": false} {
		if got := stream.Lists(v, want); got != ok {
			t.Errorf("Lists(%q) = %v, want %v", want, got, ok)
		}
	}
}
