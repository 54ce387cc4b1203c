package artifact

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// FuzzVerify holds the verifier to two promises on any input: it never
// panics, and it never calls an archive good that archive/zip cannot read to
// the end of every entry.
func FuzzVerify(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.zip"))
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b)
		}
	}
	f.Add(goZip(f, goEntry{name: "a/"}, goEntry{name: "a/b.txt", data: "hello hello hello"}))
	f.Add(goZip(f, goEntry{name: "../x", data: "x"}))
	f.Add(goZip(f, goEntry{name: "link", data: "/etc", mode: 0o777 | os.ModeSymlink}))
	f.Add(overlapBomb())
	f.Add(rawZip{entries: []rawEntry{{name: "a.txt", data: []byte("hello"), deflate: true, descriptor: true}}}.bytes())
	f.Add(rawZip{entries: []rawEntry{{name: "a.txt", data: []byte("x")}, {name: "a.txt", pointTo: 1}}}.bytes())
	f.Add(rawZip{entries: []rawEntry{{name: "a.txt", data: []byte("hello"), crc: u32(0)}}}.bytes())
	f.Add(rawZip{prefix: []byte("MZ"), entries: []rawEntry{{name: "a.txt", data: []byte("x")}}, comment: "c"}.bytes())
	f.Add(rawZip{entries: []rawEntry{{name: "z", data: make([]byte, 1<<16), deflate: true}}}.bytes())
	f.Add([]byte("PK\x05\x06\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"))

	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := verifyBytes(t, data, WithMaxEntries(2000), WithMaxTotalSize(64<<20))
		if v == nil {
			t.Fatal("nil verdict")
		}
		if (err == nil) != v.OK {
			t.Fatalf("err %v but ok=%v", err, v.OK)
		}
		if !v.OK {
			return
		}
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatalf("verified ok but archive/zip refuses it: %v", err)
		}
		if len(zr.File) != len(v.Entries) {
			t.Fatalf("verified %d entries, archive/zip sees %d", len(v.Entries), len(zr.File))
		}
		for i, zf := range zr.File {
			if zf.Name != v.Entries[i].Name {
				t.Fatalf("entry %d: %q vs %q", i, zf.Name, v.Entries[i].Name)
			}
			rc, err := zf.Open()
			if err != nil {
				t.Fatalf("verified ok but archive/zip cannot open %q: %v", zf.Name, err)
			}
			n, err := io.Copy(io.Discard, rc)
			rc.Close()
			if err != nil || uint64(n) != zf.UncompressedSize64 {
				t.Fatalf("verified ok but archive/zip reads %d bytes of %q: %v", n, zf.Name, err)
			}
		}
	})
}
