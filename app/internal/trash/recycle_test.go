package trash

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

func TestRecycleInfoPathReadsBothVersions(t *testing.T) {
	const path = `C:\Users\Zoë\Ferry\artifacts\my project.zip`
	u := utf16.Encode([]rune(path))
	header := func(version byte) []byte {
		b := make([]byte, 24)
		b[0] = version
		b[8] = 0x10 // a size
		return b
	}
	le16 := func(units []uint16, pad int) []byte {
		b := make([]byte, 0, 2*(len(units)+pad))
		for _, x := range units {
			b = append(b, byte(x), byte(x>>8))
		}
		return append(b, make([]byte, 2*pad)...)
	}
	v2 := append(header(2), byte(len(u)+1), 0, 0, 0)
	v2 = append(v2, le16(u, 1)...)
	v1 := append(header(1), le16(u, 260-len(u))...)
	cases := []struct {
		name string
		b    []byte
		want string
	}{
		{"a Windows 10 $I file names the path", v2, path},
		{"a Windows 7 $I file names the path", v1, path},
		{"a short file is none", v2[:20], ""},
		{"a length past the end is none", append(append(header(2), 200, 0, 0, 0), le16(u, 0)...), ""},
		{"an unknown version is none", append(header(3), le16(u, 1)...), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := recycleInfoPath(c.b); got != c.want {
				t.Errorf("recycleInfoPath = %q, want %q", got, c.want)
			}
		})
	}
}
