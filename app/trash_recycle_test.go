package app

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/ferrydesk/ferry/backend/errs"
)

func TestDoubleNulListEndsEachPathAndTheList(t *testing.T) {
	got, err := doubleNulList(`C:\a b\x.zip`, `C:\Zoë\y.zip.ferry.json`)
	if err != nil {
		t.Fatal(err)
	}
	want := append(append(append(utf16.Encode([]rune(`C:\a b\x.zip`)), 0), utf16.Encode([]rune(`C:\Zoë\y.zip.ferry.json`))...), 0, 0)
	if !slices.Equal(got, want) {
		t.Errorf("doubleNulList = %v, want %v", got, want)
	}
	if one, _ := doubleNulList(`C:\x`); !slices.Equal(one[len(one)-2:], []uint16{0, 0}) {
		t.Errorf("one path ends %v, want two NULs", one[len(one)-2:])
	}
	if astral, _ := doubleNulList("C:\\😀.zip"); len(astral) != len("C:\\")+2+len(".zip")+2 {
		t.Errorf("a character outside the BMP is one surrogate pair: %v", astral)
	}
	for _, bad := range [][]string{{""}, {"C:\\a\x00b"}, {`C:\ok`, ""}} {
		if _, err := doubleNulList(bad...); err == nil {
			t.Errorf("doubleNulList(%q) accepted a path that would cut the list", bad)
		}
	}
}

func TestRecycleResultNamesThePathAndTheCause(t *testing.T) {
	const path = `C:\Users\ann\Ferry\artifacts\x.zip`
	if err := recycleResult(path, 0, false); err != nil {
		t.Fatalf("success = %v", err)
	}
	cases := []struct {
		name    string
		code    uint32
		aborted bool
		says    string
	}{
		{"a cancelled operation keeps the file", 0, true, "cancelled"},
		{"ERROR_CANCELLED is a cancel too", 1223, false, "cancelled"},
		{"a missing file says so", 2, false, "not there"},
		{"DE_INVALIDFILES is a missing file", 0x7C, false, "not there"},
		{"access denied says so", 5, false, "denied"},
		{"DE_ACCESSDENIEDSRC is access denied", 0x78, false, "denied"},
		{"a file open elsewhere names the other program", 32, false, "another program"},
		{"a path too deep says so", 0x79, false, "too long"},
		{"an unknown code is shown in hex", 0x402, false, "0x402"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := errs.From(recycleResult(path, c.code, c.aborted))
			if e == nil || e.Code != errs.StoreIO {
				t.Fatalf("recycleResult = %v, want store_io", e)
			}
			if e.Evidence["path"] != path || !strings.Contains(e.Message, path) {
				t.Errorf("the envelope does not name the path: %+v", e)
			}
			if !strings.Contains(e.Message, c.says) || e.RetryHint == "" {
				t.Errorf("message %q (hint %q), want it to say %q and give a hint", e.Message, e.RetryHint, c.says)
			}
			if errs.NamesCLI(e.RetryHint) {
				t.Errorf("hint %q names a command; a desktop user has Explorer", e.RetryHint)
			}
		})
	}
}
