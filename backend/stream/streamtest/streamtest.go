// Package streamtest checks a stream decoder against the contract every
// decoder keeps (package stream): captured streams decode to what the site
// meant, the result does not depend on how the body was chunked, damaged
// input never panics, and the text is always valid UTF-8. A vendor package
// calls these from its own tests with its captures in its testdata folder.
package streamtest

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/stream"
)

// Fixture is a captured-style stream in the caller's testdata folder and
// what decoding it gives.
type Fixture struct {
	Name     string
	File     string
	Text     string
	Complete bool
	Ended    bool
	Finish   string
	Model    string
	Source   string
	Conv     string
	MsgID    string
	Title    string
	Handoff  bool
	ErrCode  errs.Code
}

// ReadFixture reads testdata/file of the package under test, failing t when
// it cannot.
func ReadFixture(t testing.TB, file string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// DecodeChunks runs the registered decoder name over chunks, then Close, and
// returns the result; an unknown name fails t.
func DecodeChunks(t testing.TB, name string, chunks ...[]byte) stream.Result {
	t.Helper()
	d, err := stream.New(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range chunks {
		_, _ = d.Write(c)
	}
	_ = d.Close()
	return d.Result()
}

// CheckCaptures decodes every fixture whole and compares each field of the
// result with the fixture's.
func CheckCaptures(t *testing.T, name string, fixtures []Fixture) {
	for _, f := range fixtures {
		t.Run(f.Name, func(t *testing.T) {
			r := DecodeChunks(t, name, ReadFixture(t, f.File))
			if r.Text != f.Text {
				t.Errorf("text = %q, want %q", r.Text, f.Text)
			}
			if r.Complete != f.Complete || r.Ended != f.Ended {
				t.Errorf("complete, ended = %v, %v; want %v, %v", r.Complete, r.Ended, f.Complete, f.Ended)
			}
			if r.FinishReason != f.Finish {
				t.Errorf("finish = %q, want %q", r.FinishReason, f.Finish)
			}
			if r.Model != f.Model || r.ModelSource != f.Source {
				t.Errorf("model = %q from %q, want %q from %q", r.Model, r.ModelSource, f.Model, f.Source)
			}
			if r.ConversationID != f.Conv || r.MessageID != f.MsgID || r.Title != f.Title {
				t.Errorf("ids = %q %q %q, want %q %q %q", r.ConversationID, r.MessageID, r.Title, f.Conv, f.MsgID, f.Title)
			}
			if r.Handoff != f.Handoff {
				t.Errorf("handoff = %v", r.Handoff)
			}
			if got := errs.CodeOf(errOf(r)); got != f.ErrCode {
				t.Errorf("error code = %q, want %q (%v)", got, f.ErrCode, r.Err)
			}
			if r.Malformed != 0 {
				t.Errorf("%d units were malformed in a well-formed capture", r.Malformed)
			}
		})
	}
}

func errOf(r stream.Result) error {
	if r.Err == nil {
		return nil
	}
	return r.Err
}

// CheckSplits feeds every fixture split at every byte offset (and one byte
// at a time) and demands the same result as the whole body: chunk
// boundaries inside lines, frame headers and multibyte characters must not
// matter, partial text is valid UTF-8 and completion is never taken back.
func CheckSplits(t *testing.T, name string, fixtures []Fixture) {
	for _, f := range fixtures {
		t.Run(f.File+" decodes the same however it is split", func(t *testing.T) {
			body := ReadFixture(t, f.File)
			want := DecodeChunks(t, name, body)
			for i := 0; i <= len(body); i++ {
				got := DecodeChunks(t, name, body[:i], body[i:])
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("split at %d: got %+v\nwant %+v", i, got, want)
				}
			}
			d, _ := stream.New(name)
			wasComplete := false
			for i := range body {
				_, _ = d.Write(body[i : i+1])
				r := d.Result()
				if !utf8.ValidString(r.Text) {
					t.Fatalf("partial text after %d bytes is not valid UTF-8: %q", i+1, r.Text)
				}
				if wasComplete && !r.Complete {
					t.Fatalf("completion was taken back after %d bytes", i+1)
				}
				wasComplete = r.Complete
			}
			_ = d.Close()
			if got := d.Result(); !reflect.DeepEqual(got, want) {
				t.Fatalf("byte at a time: got %+v\nwant %+v", got, want)
			}
		})
	}
}

// CheckMutations is a deterministic cousin of Fuzz that runs on every `go
// test`: seeded random damage to each capture (flipped, dropped, inserted
// bytes, truncation) must neither panic nor make the result depend on
// chunking.
func CheckMutations(t *testing.T, name string, fixtures []Fixture) {
	rng := rand.New(rand.NewSource(4))
	for _, fx := range fixtures {
		base := ReadFixture(t, fx.File)
		for i := 0; i < 150; i++ {
			b := append([]byte(nil), base...)
			for k := 0; k < 1+rng.Intn(6) && len(b) > 0; k++ {
				j := rng.Intn(len(b))
				switch rng.Intn(4) {
				case 0:
					b[j] = byte(rng.Intn(256))
				case 1:
					b = append(b[:j], b[j+1:]...)
				case 2:
					b = append(b[:j], append([]byte{byte(rng.Intn(256))}, b[j:]...)...)
				case 3:
					b = b[:j+1]
				}
			}
			want := DecodeChunks(t, name, b)
			cut := rng.Intn(len(b) + 1)
			got := DecodeChunks(t, name, b[:cut], b[cut:])
			if !reflect.DeepEqual(got, want) || !utf8.ValidString(got.Text) {
				t.Fatalf("%s mutation %d split at %d: got %+v want %+v", fx.File, i, cut, got, want)
			}
		}
	}
}

// Fuzz checks, for any input, that the decoder does not panic, that its
// text is valid UTF-8, and that feeding the input in chunks of varying sizes
// gives exactly the result of feeding it whole. The fixtures seed the
// corpus, whole and cut into the decoder's units by units.
func Fuzz(f *testing.F, name string, fixtures []Fixture, units func(body []byte) [][]byte) {
	for _, fx := range fixtures {
		body := ReadFixture(f, fx.File)
		f.Add(body, uint16(7), uint8(3))
		// Single units make small seeds that mutate into new shapes faster
		// than whole captures do.
		for _, unit := range units(body) {
			if len(unit) > 0 && len(unit) < 600 {
				f.Add(unit, uint16(1), uint8(0))
			}
		}
	}
	f.Fuzz(func(t *testing.T, body []byte, first uint16, step uint8) {
		want := DecodeChunks(t, name, body)
		if !utf8.ValidString(want.Text) {
			t.Fatalf("text is not valid UTF-8: %q", want.Text)
		}
		var chunks [][]byte
		rest := body
		n := int(first)
		for len(rest) > 0 {
			if n > len(rest) {
				n = len(rest)
			}
			chunks = append(chunks, rest[:n])
			rest = rest[n:]
			n = int(step)%13 + 1 + n%5
		}
		got := DecodeChunks(t, name, chunks...)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("re-chunked result differs:\n got %+v\nwant %+v", got, want)
		}
	})
}

// Events cuts an SSE capture into its events (units for Fuzz).
func Events(body []byte) [][]byte { return bytes.SplitAfter(body, []byte("\n\n")) }

// Lines cuts an NDJSON capture into its lines (units for Fuzz).
func Lines(body []byte) [][]byte { return bytes.SplitAfter(body, []byte("\n")) }

// CheckGarbage decodes body and demands exactly one malformed unit and a
// complete turn: a unit the decoder cannot read is counted and skipped,
// never fatal.
func CheckGarbage(t *testing.T, name, body string) {
	t.Helper()
	r := DecodeChunks(t, name, []byte(body))
	if r.Malformed != 1 || !r.Complete {
		t.Fatalf("got %+v, want one malformed unit and the turn still complete", r)
	}
}
