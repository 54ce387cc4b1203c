package artifact

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

type goEntry struct {
	name   string
	data   string
	mode   fs.FileMode
	stored bool
}

// goZip builds a zip with archive/zip, the honest writer.
func goZip(t testing.TB, entries ...goEntry) []byte {
	t.Helper()
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		if e.stored || strings.HasSuffix(e.name, "/") {
			h.Method = zip.Store
		}
		if e.mode != 0 {
			h.SetMode(e.mode)
		}
		f, err := w.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write([]byte(e.data)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func verifyBytes(t testing.TB, b []byte, opts ...VerifyOption) (*Verdict, error) {
	t.Helper()
	return Verify(context.Background(), bytes.NewReader(b), int64(len(b)), opts...)
}

func hasReason(v *Verdict, r Reason) bool {
	for _, p := range v.Problems {
		if p.Reason == r {
			return true
		}
	}
	return false
}

func TestVerifyAcceptsHonestArchives(t *testing.T) {
	cases := []struct {
		name  string
		zip   func(t *testing.T) []byte
		files int
	}{
		{"a Go-written zip with files and directories", func(t *testing.T) []byte {
			return goZip(t, goEntry{name: "proj/"}, goEntry{name: "proj/main.go", data: "package main\n"},
				goEntry{name: "proj/README.md", data: strings.Repeat("docs ", 100)}, goEntry{name: "proj/empty.txt"},
				goEntry{name: "proj/run.sh", data: "#!/bin/sh\n", mode: 0o755})
		}, 4},
		{"a Go-written zip with a non-ASCII name", func(t *testing.T) []byte {
			return goZip(t, goEntry{name: "docs/café.md", data: "menu"})
		}, 1},
		{"a raw zip with a data descriptor", func(t *testing.T) []byte {
			return rawZip{entries: []rawEntry{{name: "a.txt", data: []byte("hello"), deflate: true, descriptor: true}}}.bytes()
		}, 1},
		{"a zip with an archive comment", func(t *testing.T) []byte {
			return rawZip{entries: []rawEntry{{name: "a.txt", data: []byte("hello")}}, comment: "built by ChatGPT"}.bytes()
		}, 1},
	}
	for _, dir := range []string{"python-deflate.zip", "python-stored.zip", "python-streamed.zip", "infozip.zip", "infozip-streamed.zip"} {
		cases = append(cases, struct {
			name  string
			zip   func(t *testing.T) []byte
			files int
		}{"the testdata zip " + dir, func(t *testing.T) []byte {
			b, err := os.ReadFile(filepath.Join("testdata", dir))
			if err != nil {
				t.Fatal(err)
			}
			return b
		}, 4})
	}
	for _, c := range cases {
		t.Run(c.name+" is accepted", func(t *testing.T) {
			b := c.zip(t)
			v, err := verifyBytes(t, b)
			if err != nil {
				t.Fatalf("Verify: %v\nproblems: %v", err, v.Problems)
			}
			if !v.OK || v.Files != c.files {
				t.Fatalf("ok=%v files=%d, want ok with %d files; problems %v", v.OK, v.Files, c.files, v.Problems)
			}
			sum := sha256.Sum256(b)
			if v.SHA256 != hex.EncodeToString(sum[:]) || v.Size != int64(len(b)) {
				t.Errorf("sha256/size = %s/%d, want %x/%d", v.SHA256, v.Size, sum, len(b))
			}
			var total uint64
			for _, e := range v.Entries {
				total += e.Size
			}
			if total != v.TotalUncompressed {
				t.Errorf("entries sum to %d, total says %d", total, v.TotalUncompressed)
			}
		})
	}
}

func TestVerifyReportsEntryFacts(t *testing.T) {
	b := goZip(t, goEntry{name: "d/"}, goEntry{name: "d/run.sh", data: "#!/bin/sh\necho hi\n", mode: 0o750})
	v, err := verifyBytes(t, b)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Entries) != 2 {
		t.Fatalf("entries = %+v", v.Entries)
	}
	dir, file := v.Entries[0], v.Entries[1]
	if !dir.Dir || !dir.Mode.IsDir() {
		t.Errorf("d/ is not reported as a directory: %+v", dir)
	}
	if file.Name != "d/run.sh" || file.Size != 18 || file.Mode.Perm() != 0o750 || file.CRC32 == 0 {
		t.Errorf("file entry = %+v", file)
	}
}

func TestVerifyRejectsHostileArchives(t *testing.T) {
	honest := goZip(t, goEntry{name: "a.txt", data: "hello world"}, goEntry{name: "b.txt", data: "second file"})
	zeros := make([]byte, 2<<20)
	cases := []struct {
		name   string
		zip    func() []byte
		opts   []VerifyOption
		reason Reason
		code   errs.Code
	}{
		{"a name with a dot-dot component", func() []byte { return goZip(t, goEntry{name: "../evil.sh", data: "x"}) }, nil, ReasonUnsafeName, errs.ArtifactUnsafe},
		{"a dot-dot deep in the path", func() []byte { return goZip(t, goEntry{name: "a/b/../../../x", data: "x"}) }, nil, ReasonUnsafeName, errs.ArtifactUnsafe},
		{"an absolute name", func() []byte { return goZip(t, goEntry{name: "/etc/passwd", data: "x"}) }, nil, ReasonUnsafeName, errs.ArtifactUnsafe},
		{"a backslash name", func() []byte { return goZip(t, goEntry{name: `..\evil.bat`, data: "x"}) }, nil, ReasonUnsafeName, errs.ArtifactUnsafe},
		{"a drive letter name", func() []byte { return goZip(t, goEntry{name: "C:/Windows/evil.dll", data: "x"}) }, nil, ReasonUnsafeName, errs.ArtifactUnsafe},
		{"a NUL in a name", func() []byte { return goZip(t, goEntry{name: "a.txt\x00.png", data: "x"}) }, nil, ReasonUnsafeName, errs.ArtifactUnsafe},
		{"a control character in a name", func() []byte { return goZip(t, goEntry{name: "a\x1b[31m.txt", data: "x"}) }, nil, ReasonUnsafeName, errs.ArtifactUnsafe},
		{"an alternate data stream name", func() []byte { return goZip(t, goEntry{name: "a.txt:evil", data: "x"}) }, nil, ReasonUnsafeName, errs.ArtifactUnsafe},
		{"a Windows device name", func() []byte { return goZip(t, goEntry{name: "src/aux.go", data: "x"}) }, nil, ReasonUnsafeName, errs.ArtifactUnsafe},
		{"a Windows dot-dot spelling", func() []byte { return goZip(t, goEntry{name: "a/.../x", data: "x"}) }, nil, ReasonUnsafeName, errs.ArtifactUnsafe},
		{"a name that is not UTF-8", func() []byte { return goZip(t, goEntry{name: "a\xff.txt", data: "x"}) }, nil, ReasonUnsafeName, errs.ArtifactUnsafe},
		{"names equal after case folding", func() []byte {
			return goZip(t, goEntry{name: "README.md", data: "a"}, goEntry{name: "readme.MD", data: "b"})
		}, nil, ReasonDuplicateName, errs.ArtifactUnsafe},
		{"names equal after NFC normalisation", func() []byte {
			return goZip(t, goEntry{name: "caf\u00e9.txt", data: "a"}, goEntry{name: "cafe\u0301.txt", data: "b"})
		}, nil, ReasonDuplicateName, errs.ArtifactUnsafe},
		{"names equal after cleaning", func() []byte {
			return goZip(t, goEntry{name: "a/b.txt", data: "a"}, goEntry{name: "a/./b.txt", data: "b"})
		}, nil, ReasonDuplicateName, errs.ArtifactUnsafe},
		{"a file used as a directory", func() []byte {
			return goZip(t, goEntry{name: "lib", data: "a"}, goEntry{name: "lib/x.go", data: "b"})
		}, nil, ReasonDuplicateName, errs.ArtifactUnsafe},
		{"a symbolic link", func() []byte {
			return goZip(t, goEntry{name: "link", data: "/etc/passwd", mode: fs.ModeSymlink | 0o777})
		}, nil, ReasonSpecialFile, errs.ArtifactUnsafe},
		{"a device", func() []byte { return goZip(t, goEntry{name: "dev", mode: fs.ModeDevice | fs.ModeCharDevice | 0o666}) }, nil, ReasonSpecialFile, errs.ArtifactUnsafe},
		{"a named pipe", func() []byte { return goZip(t, goEntry{name: "fifo", mode: fs.ModeNamedPipe | 0o666}) }, nil, ReasonSpecialFile, errs.ArtifactUnsafe},
		{"a setuid binary", func() []byte { return goZip(t, goEntry{name: "su", data: "x", mode: fs.ModeSetuid | 0o755}) }, nil, ReasonSetuid, errs.ArtifactUnsafe},
		{"a setgid binary", func() []byte { return goZip(t, goEntry{name: "sg", data: "x", mode: fs.ModeSetgid | 0o755}) }, nil, ReasonSetuid, errs.ArtifactUnsafe},
		{"an encrypted entry", func() []byte {
			return rawZip{entries: []rawEntry{{name: "secret.txt", data: []byte("0123456789ab-ciphertext"), flags: flagEncrypted}}}.bytes()
		}, nil, ReasonEncrypted, errs.ArtifactUnsafe},
		{"entries that share bytes", overlapBomb, nil, ReasonOverlap, errs.ArtifactUnsafe},
		{"two central records for one local header", func() []byte {
			return rawZip{entries: []rawEntry{{name: "a.txt", data: []byte("x")}, {name: "a.txt", pointTo: 1}}}.bytes()
		}, nil, ReasonOverlap, errs.ArtifactUnsafe},
		{"an entry that inflates more than 100x", func() []byte {
			return rawZip{entries: []rawEntry{{name: "zeros.bin", data: zeros, deflate: true}}}.bytes()
		}, nil, ReasonRatio, errs.ArtifactUnsafe},
		{"an archive that inflates more than 100x overall", func() []byte {
			var es []rawEntry
			for i := 0; i < 8; i++ {
				es = append(es, rawEntry{name: fmt.Sprintf("z%d.bin", i), data: make([]byte, 200<<10), deflate: true})
			}
			return rawZip{entries: es}.bytes()
		}, nil, ReasonTotalRatio, errs.ArtifactUnsafe},
		{"a declared size with nothing compressed", func() []byte {
			return rawZip{entries: []rawEntry{{name: "a.bin", data: nil, deflate: true, usize: u64(5 << 20)}}}.bytes()
		}, nil, ReasonRatio, errs.ArtifactUnsafe},
		{"more entries than the limit", func() []byte { return honest }, []VerifyOption{WithMaxEntries(1)}, ReasonTooManyEntries, errs.ArtifactTooLarge},
		{"a total size over the limit", func() []byte { return honest }, []VerifyOption{WithMaxTotalSize(15)}, ReasonTooLarge, errs.ArtifactTooLarge},
		{"a bad CRC", func() []byte {
			return rawZip{entries: []rawEntry{{name: "a.txt", data: []byte("hello"), crc: u32(0xdeadbeef)}}}.bytes()
		}, nil, ReasonCRCMismatch, errs.ArtifactCorrupt},
		{"a stored CRC of zero on a non-empty entry", func() []byte {
			return rawZip{entries: []rawEntry{{name: "a.txt", data: []byte("hello"), deflate: true, crc: u32(0)}}}.bytes()
		}, nil, ReasonCRCMissing, errs.ArtifactCorrupt},
		{"a flipped byte in deflated data", func() []byte {
			b := rawZip{entries: []rawEntry{{name: "a.txt", data: bytes.Repeat([]byte("abcdefgh"), 200), deflate: true}}}.bytes()
			b[lenLocal+len("a.txt")+3] ^= 0xff
			return b
		}, nil, "", errs.ArtifactCorrupt},
		{"a declared size smaller than the data", func() []byte {
			return rawZip{entries: []rawEntry{{name: "a.txt", data: []byte("hello world"), deflate: true, usize: u64(5)}}}.bytes()
		}, nil, ReasonSizeMismatch, errs.ArtifactCorrupt},
		{"a truncated archive", func() []byte { return honest[:len(honest)-30] }, nil, ReasonNotZip, errs.ArtifactCorrupt},
		{"an archive cut inside its entries", func() []byte {
			b := rawZip{entries: []rawEntry{{name: "a.txt", data: []byte("hello world")}}}.bytes()
			// Keep the directory but claim more data than exists.
			binary.LittleEndian.PutUint32(b[len(b)-lenEnd-lenCentral-len("a.txt")+20:], 1<<20)
			binary.LittleEndian.PutUint32(b[len(b)-lenEnd-lenCentral-len("a.txt")+24:], 1<<20)
			return b
		}, nil, ReasonTruncated, errs.ArtifactCorrupt},
		{"an empty archive", func() []byte { return goZip(t) }, nil, ReasonEmpty, errs.ArtifactCorrupt},
		{"an archive of directories only", func() []byte { return goZip(t, goEntry{name: "a/"}, goEntry{name: "a/b/"}) }, nil, ReasonEmpty, errs.ArtifactCorrupt},
		{"a file that is not a zip", func() []byte { return []byte("<html>403 Forbidden</html>") }, nil, ReasonNotZip, errs.ArtifactCorrupt},
		{"an empty file", func() []byte { return nil }, nil, ReasonNotZip, errs.ArtifactCorrupt},
		{"data after the archive", func() []byte { return append(append([]byte(nil), honest...), "trailing"...) }, nil, ReasonDataAfter, errs.ArtifactCorrupt},
		{"data before the archive", func() []byte {
			return rawZip{prefix: []byte("#!/bin/sh\nexec evil\n"), entries: []rawEntry{{name: "a.txt", data: []byte("x")}}}.bytes()
		}, nil, ReasonDataBefore, errs.ArtifactUnsafe},
		{"data hidden between entries", func() []byte {
			return rawZip{entries: []rawEntry{{name: "a.txt", data: []byte("x")}, {name: "b.txt", data: []byte("y"), gapBefore: []byte("hidden")}}}.bytes()
		}, nil, ReasonHiddenData, errs.ArtifactUnsafe},
		{"data hidden before the central directory", func() []byte {
			return rawZip{entries: []rawEntry{{name: "a.txt", data: []byte("x")}}, cdGap: []byte("hidden")}.bytes()
		}, nil, ReasonHiddenData, errs.ArtifactUnsafe},
		{"data hidden after a deflate stream inside an entry", func() []byte {
			return rawZip{entries: []rawEntry{{name: "a.txt", data: []byte("hello hello hello"), deflate: true, trailing: []byte("hidden payload")}}}.bytes()
		}, nil, ReasonHiddenData, errs.ArtifactUnsafe},
		{"a local header that names another file", func() []byte {
			return rawZip{entries: []rawEntry{{name: "a.txt", localName: "../x.sh", data: []byte("x")}}}.bytes()
		}, nil, ReasonHeaderMismatch, errs.ArtifactUnsafe},
		{"a Unicode path field that names another file", func() []byte {
			name := "../../evil"
			extra := make([]byte, 9, 9+len(name))
			binary.LittleEndian.PutUint16(extra, extraUnicodePa)
			binary.LittleEndian.PutUint16(extra[2:], uint16(5+len(name)))
			extra[4] = 1
			extra = append(extra, name...)
			return rawZip{entries: []rawEntry{{name: "a.txt", data: []byte("x"), extra: extra}}}.bytes()
		}, nil, ReasonHeaderMismatch, errs.ArtifactUnsafe},
		{"a data descriptor that disagrees", func() []byte {
			return rawZip{entries: []rawEntry{{name: "a.txt", data: []byte("hello"), descriptor: true, descCRC: u32(1)}}}.bytes()
		}, nil, ReasonDescriptorWrong, errs.ArtifactCorrupt},
		{"an unsupported compression method", func() []byte {
			b := rawZip{entries: []rawEntry{{name: "a.txt", data: []byte("hello")}}}.bytes()
			binary.LittleEndian.PutUint16(b[8:], 12)                                        // local: bzip2
			binary.LittleEndian.PutUint16(b[len(b)-lenEnd-lenCentral-len("a.txt")+10:], 12) // central
			return b
		}, nil, ReasonUnsupported, errs.ArtifactUnsafe},
		{"a directory entry with data", func() []byte {
			return rawZip{entries: []rawEntry{{name: "d/", data: []byte("data in a dir")}, {name: "d/a", data: []byte("x")}}}.bytes()
		}, nil, ReasonBadDirEntry, errs.ArtifactCorrupt},
	}
	for _, c := range cases {
		t.Run(c.name+" is refused", func(t *testing.T) {
			b := c.zip()
			v, err := verifyBytes(t, b, c.opts...)
			if err == nil || v.OK {
				t.Fatalf("Verify accepted it: %+v", v)
			}
			if got := errs.CodeOf(err); got != c.code {
				t.Errorf("code = %q, want %q (err %v)", got, c.code, err)
			}
			if c.reason != "" && !hasReason(v, c.reason) {
				t.Errorf("problems %v lack reason %q", v.Problems, c.reason)
			}
			p, _ := v.Blocking()
			var env *errs.Envelope
			if !errors.As(err, &env) || env.Evidence["reason"] != string(p.Reason) {
				t.Errorf("envelope evidence %v does not name the first blocking reason %q", env, p.Reason)
			}
		})
	}
}

func TestVerifyWarnsAboutAGenuineZeroCRC(t *testing.T) {
	// Four bytes whose CRC-32 is 0: found by solving the CRC backwards.
	data := zeroCRCData()
	b := rawZip{entries: []rawEntry{{name: "z.bin", data: data}}}.bytes()
	v, err := verifyBytes(t, b)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if !hasReason(v, ReasonCRCZeroSuspect) {
		t.Errorf("no warning for a zero CRC: %v", v.Problems)
	}
}

func TestVerifyReadsZip64Archives(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 65 537-entry archive")
	}
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for i := 0; i < 0x10001; i++ {
		f, err := w.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("f%05x", i), Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte{byte(i)})
	}
	w.Close()
	v, err := verifyBytes(t, b.Bytes(), WithMaxEntries(100000))
	if err != nil {
		t.Fatalf("Verify: %v (%v)", err, v.Problems[:min(3, len(v.Problems))])
	}
	if v.Files != 0x10001 {
		t.Errorf("files = %d", v.Files)
	}
}

func TestVerifyRefusesANegativeSize(t *testing.T) {
	if _, err := Verify(context.Background(), bytes.NewReader(nil), -1); !errs.Has(err, errs.BadInput) {
		t.Fatalf("err = %v", err)
	}
}

func TestVerifyStopsWhenTheContextIsCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b := goZip(t, goEntry{name: "a.txt", data: "x"})
	if _, err := Verify(ctx, bytes.NewReader(b), int64(len(b))); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

// zeroCRCData solves crc32(x) == 0 for a 4-byte x: CRC-32 is affine over
// GF(2), so x = L⁻¹(c) where c = crc32(0000) and L's columns are the CRCs of
// the single-bit messages.
func zeroCRCData() []byte {
	word := func(x uint32) []byte { b := make([]byte, 4); binary.LittleEndian.PutUint32(b, x); return b }
	c := crc32.ChecksumIEEE(word(0))
	// Rows of the augmented system: for each output bit, the input bits.
	var cols [32]uint32
	for i := 0; i < 32; i++ {
		cols[i] = crc32.ChecksumIEEE(word(1<<i)) ^ c
	}
	var rows [32]uint64 // low 32 bits: coefficients; bit 32: right-hand side
	for r := 0; r < 32; r++ {
		for i := 0; i < 32; i++ {
			if cols[i]>>r&1 == 1 {
				rows[r] |= 1 << i
			}
		}
		if c>>r&1 == 1 {
			rows[r] |= 1 << 32
		}
	}
	for col := 0; col < 32; col++ {
		p := col
		for p < 32 && rows[p]>>col&1 == 0 {
			p++
		}
		rows[col], rows[p] = rows[p], rows[col]
		for r := 0; r < 32; r++ {
			if r != col && rows[r]>>col&1 == 1 {
				rows[r] ^= rows[col]
			}
		}
	}
	var x uint32
	for i := 0; i < 32; i++ {
		x |= uint32(rows[i]>>32&1) << i
	}
	return word(x)
}

func TestVerifyReportsDataProblemsInDirectoryOrderWhenParallel(t *testing.T) {
	var es []rawEntry
	blob := bytes.Repeat([]byte("0123456789abcdef"), 16<<10) // 256 KiB
	for i := 0; i < 24; i++ {
		e := rawEntry{name: fmt.Sprintf("f%02d.bin", i), data: blob}
		if i == 5 || i == 17 {
			e.crc = u32(1)
		}
		es = append(es, e)
	}
	b := rawZip{entries: es}.bytes()
	if len(b) < 4<<20 {
		t.Fatalf("archive is %d bytes, too small for the parallel path", len(b))
	}
	v, err := verifyBytes(t, b)
	if !errs.Has(err, errs.ArtifactCorrupt) {
		t.Fatalf("err = %v", err)
	}
	var bad []string
	for _, p := range v.Problems {
		if p.Reason == ReasonCRCMismatch {
			bad = append(bad, p.Entry)
		}
	}
	if strings.Join(bad, ",") != "f05.bin,f17.bin" {
		t.Errorf("crc problems = %v", bad)
	}
}
