package artifact

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

// fakeSite is a site's mint and fetch in memory: a sandbox that holds
// files (or has expired), a download that may be refused or cut short,
// and the download limit applied as a fetch applies it.
type fakeSite struct {
	files   map[string][]byte // sandbox path -> bytes
	expired bool
	forbid  bool
	cutAt   int // >0: the download stops after this many bytes
}

func (s *fakeSite) MintDownload(ctx context.Context, conv string, z Found) (*Download, error) {
	b, ok := s.files[z.Path]
	if s.expired || !ok {
		return nil, errs.New(errs.ArtifactExpired, "the sandbox that held the file has expired").WithEvidence("sandboxPath", z.Path)
	}
	return &Download{MessageID: z.MessageIDs[len(z.MessageIDs)-1], Fetch: func(ctx context.Context, w io.Writer, limit int64) (FetchInfo, error) {
		if s.forbid {
			return FetchInfo{}, DownloadStatusError(403)
		}
		if s.cutAt > 0 {
			n, _ := w.Write(b[:s.cutAt])
			return FetchInfo{Bytes: int64(n)}, errs.New(errs.ArtifactFetchFailed, "the download ended after %d of %d bytes", n, len(b))
		}
		if int64(len(b)) > limit {
			n, _ := w.Write(b[:limit+1])
			return FetchInfo{Bytes: int64(n)}, TooLargeError(limit)
		}
		n, err := w.Write(b)
		return FetchInfo{Bytes: int64(n)}, err
	}}, nil
}

func (s *fakeSite) ConversationAddress(conv string) string { return "https://site.test/c/" + conv }

func TestRetrieveAllOutcomes(t *testing.T) {
	good := goZip(t, goEntry{name: "app/main.go", data: "package main\n"})
	docs := goZip(t, goEntry{name: "docs/README.md", data: "# docs\n"})
	slip := goZip(t, goEntry{name: "../../.ssh/authorized_keys", data: "ssh-rsa x"})
	badCRC := rawZip{entries: []rawEntry{{name: "a.txt", data: []byte("hello"), crc: u32(7)}}}.bytes()
	bomb := rawZip{entries: []rawEntry{{name: "zeros", data: make([]byte, 4<<20), deflate: true}}}.bytes()
	symlink := goZip(t, goEntry{name: "link", data: "/etc/passwd", mode: 0o777 | 1<<27})
	found := func(paths ...string) []Found {
		var out []Found
		for _, p := range paths {
			out = append(out, Found{Path: p, MessageIDs: []string{"m-exec", "m-final"}})
		}
		return out
	}
	cases := []struct {
		name      string
		server    *fakeSite
		zips      []Found
		opts      []RetrieveOption
		code      errs.Code // of the run
		each      []errs.Code
		wantFiles []string
	}{
		{"one good zip", &fakeSite{files: map[string][]byte{"/mnt/data/app.zip": good}}, found("/mnt/data/app.zip"), nil,
			"", []errs.Code{""}, []string{"app.zip", "app.zip.provenance.json"}},
		{"several zips", &fakeSite{files: map[string][]byte{"/mnt/data/app.zip": good, "/mnt/data/docs.zip": docs}}, found("/mnt/data/app.zip", "/mnt/data/docs.zip"), nil,
			"", []errs.Code{"", ""}, []string{"app.zip", "app.zip.provenance.json", "docs.zip", "docs.zip.provenance.json"}},
		{"one good zip and one missing", &fakeSite{files: map[string][]byte{"/mnt/data/app.zip": good}}, found("/mnt/data/app.zip", "/mnt/data/gone.zip"), nil,
			"", []errs.Code{"", errs.ArtifactExpired}, []string{"app.zip", "app.zip.provenance.json"}},
		{"an expired sandbox", &fakeSite{expired: true, files: map[string][]byte{"/mnt/data/app.zip": good}}, found("/mnt/data/app.zip"), nil,
			errs.ArtifactExpired, []errs.Code{errs.ArtifactExpired}, nil},
		{"a forbidden download", &fakeSite{forbid: true, files: map[string][]byte{"/mnt/data/app.zip": good}}, found("/mnt/data/app.zip"), nil,
			errs.ArtifactForbidden, []errs.Code{errs.ArtifactForbidden}, nil},
		{"a bad CRC", &fakeSite{files: map[string][]byte{"/mnt/data/app.zip": badCRC}}, found("/mnt/data/app.zip"), nil,
			errs.ArtifactCorrupt, []errs.Code{errs.ArtifactCorrupt}, nil},
		{"a truncated transfer", &fakeSite{cutAt: 40, files: map[string][]byte{"/mnt/data/app.zip": good}}, found("/mnt/data/app.zip"), nil,
			errs.ArtifactFetchFailed, []errs.Code{errs.ArtifactFetchFailed}, nil},
		{"a zip-slip", &fakeSite{files: map[string][]byte{"/mnt/data/app.zip": slip}}, found("/mnt/data/app.zip"), nil,
			errs.ArtifactUnsafe, []errs.Code{errs.ArtifactUnsafe}, []string{"quarantine/app.zip", "quarantine/app.zip.provenance.json"}},
		{"a zip bomb", &fakeSite{files: map[string][]byte{"/mnt/data/app.zip": bomb}}, found("/mnt/data/app.zip"), nil,
			errs.ArtifactUnsafe, []errs.Code{errs.ArtifactUnsafe}, []string{"quarantine/app.zip", "quarantine/app.zip.provenance.json"}},
		{"a symlink", &fakeSite{files: map[string][]byte{"/mnt/data/app.zip": symlink}}, found("/mnt/data/app.zip"), nil,
			errs.ArtifactUnsafe, []errs.Code{errs.ArtifactUnsafe}, []string{"quarantine/app.zip", "quarantine/app.zip.provenance.json"}},
		{"a download over the limit", &fakeSite{files: map[string][]byte{"/mnt/data/app.zip": good}}, found("/mnt/data/app.zip"), []RetrieveOption{WithMaxDownload(50)},
			errs.ArtifactTooLarge, []errs.Code{errs.ArtifactTooLarge}, nil},
		{"no zip", &fakeSite{}, nil, nil, errs.ArtifactNotFound, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name+" ends right with nothing partial on disk", func(t *testing.T) {
			dir := t.TempDir()
			res, err := RetrieveAll(context.Background(), c.server, "conv-1", c.zips, dir, Provenance{Site: "chatgpt"}, c.opts...)
			if got := errs.CodeOf(err); got != c.code {
				t.Errorf("run code = %q, want %q (%v)", got, c.code, err)
			}
			var each []errs.Code
			for _, r := range res {
				each = append(each, errs.CodeOf(r.Err))
			}
			if fmt.Sprint(each) != fmt.Sprint(c.each) {
				t.Errorf("per-zip codes = %v, want %v", each, c.each)
			}
			if got := listDir(t, dir); strings.Join(got, ",") != strings.Join(c.wantFiles, ",") {
				t.Errorf("dir holds %v, want %v", got, c.wantFiles)
			}
			for _, r := range res {
				if r.Err == nil && (r.Saved == nil || !r.Saved.Verdict.OK) {
					t.Errorf("%s: success without a good verdict", r.Path)
				}
			}
			for _, r := range res {
				if r.Saved != nil && r.Err == nil && filepath.Dir(r.Saved.Path) != dir {
					t.Errorf("%s: saved as %s, outside %s", r.Path, r.Saved.Path, dir)
				}
			}
		})
	}
}

func TestRetrieveRecordsWhereTheZipCameFrom(t *testing.T) {
	good := goZip(t, goEntry{name: "app/main.go", data: "package main\n"})
	site := &fakeSite{files: map[string][]byte{"/mnt/data/app.zip": good}}
	dir := t.TempDir()
	s, err := Retrieve(context.Background(), site, "conv-1", Found{Path: "/mnt/data/app.zip", MessageIDs: []string{"m-exec", "m-final"}}, dir, Provenance{Site: "chatgpt"})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(s.SidecarPath)
	var p Provenance
	json.Unmarshal(raw, &p)
	if p.MessageID != "m-final" || p.ConversationID != "conv-1" || p.SandboxPath != "/mnt/data/app.zip" || p.ConversationURL != "https://site.test/c/conv-1" {
		t.Errorf("provenance = %+v", p)
	}
}
