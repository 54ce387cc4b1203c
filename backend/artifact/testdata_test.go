package artifact

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateTestdata = flag.Bool("update", false, "rewrite the generated hostile zips in testdata/")

// hostileFixtures are written to testdata/hostile-<reason>.zip with
// -update, so that other tools (and the fuzzer's seed corpus) can use them.
func hostileFixtures(t *testing.T) map[Reason][]byte {
	return map[Reason][]byte{
		ReasonUnsafeName:    goZip(t, goEntry{name: "../../evil.sh", data: "rm -rf ~"}),
		ReasonSpecialFile:   goZip(t, goEntry{name: "link", data: "/etc/passwd", mode: os.ModeSymlink | 0o777}),
		ReasonOverlap:       overlapBomb(),
		ReasonCRCMismatch:   rawZip{entries: []rawEntry{{name: "a.txt", data: []byte("hello"), crc: u32(0xdeadbeef)}}}.bytes(),
		ReasonRatio:         rawZip{entries: []rawEntry{{name: "zeros.bin", data: make([]byte, 8<<20), deflate: true}}}.bytes(),
		ReasonDuplicateName: goZip(t, goEntry{name: "README.md", data: "a"}, goEntry{name: "readme.md", data: "b"}),
		ReasonEncrypted:     rawZip{entries: []rawEntry{{name: "s.txt", data: []byte("ciphertext-ish"), flags: flagEncrypted}}}.bytes(),
	}
}

func TestHostileTestdataZipsAreRefused(t *testing.T) {
	if *updateTestdata {
		for r, b := range hostileFixtures(t) {
			if err := os.WriteFile(filepath.Join("testdata", "hostile-"+string(r)+".zip"), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "hostile-*.zip"))
	if len(files) < 7 {
		t.Fatalf("testdata holds %d hostile zips; run go test ./backend/artifact -run Hostile -update", len(files))
	}
	for _, f := range files {
		reason := Reason(strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "hostile-"), ".zip"))
		t.Run(filepath.Base(f)+" is refused for "+string(reason), func(t *testing.T) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			v, err := verifyBytes(t, b)
			if err == nil || !hasReason(v, reason) {
				t.Fatalf("err %v, problems %v", err, v.Problems)
			}
			if p, _ := v.Blocking(); p.Reason.Code() != reason.Code() {
				t.Errorf("first blocking problem %v is not of the %s kind", p, reason.Code())
			}
		})
	}
}
