// Package library lists the artifacts directory as the desktop's Artifacts
// view shows it: the zips (and those of quarantine/), the images a site
// generated and the reports its research wrote, each with the verdict its provenance sidecar records, checked
// against the bytes on disk now. It only reads: saving, verifying and
// moving files are the artifact package's and the app's.
package library

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/record"
)

// Item is one file of the artifacts directory as the library found it (its
// Run is the service's to fill); Status is what the library says of it.
type (
	Item   = record.ArtifactItem
	Status = record.ArtifactStatus
)

// The statuses. Only StatusVerified may be handed to the user as a file
// (dragged out, opened); the others carry a Why.
const (
	StatusVerified    = record.ArtifactVerified
	StatusQuarantined = record.ArtifactQuarantined
	StatusUnverified  = record.ArtifactUnverified
)

// Library reasons, beside the verifier's and CheckImage's.
const (
	ReasonNoProvenance  = "no_provenance"
	ReasonBadProvenance = "bad_provenance"
	ReasonChanged       = "changed"
	ReasonVerdictFailed = "verdict_failed"
)

// imageExts are the extensions of the images the library lists (SaveImage
// names a file by its format: .png, .jpg, .gif, .webp).
var imageExts = []string{".png", ".jpg", ".jpeg", ".gif", ".webp"}

// kindOf says what the file named name is to the library: a zip, an image
// (record.ArtifactImage), a report (record.ArtifactReport, .md), or
// nothing it lists (ok false): temporaries (.ferry-*.zip.part,
// .ferry-*.img.part), sidecars, hidden files and anything else. Images and
// reports are listed outside quarantine/ only, where SaveImage and
// SaveReport put them.
func kindOf(name string, quarantine bool) (kind string, ok bool) {
	if strings.HasPrefix(name, ".") {
		return "", false
	}
	ext := strings.ToLower(filepath.Ext(name))
	switch {
	case ext == ".zip":
		return "", true
	case !quarantine && slices.Contains(imageExts, ext):
		return record.ArtifactImage, true
	case !quarantine && ext == ".md":
		return record.ArtifactReport, true
	}
	return "", false
}

// List lists the zips and images of dir (the artifacts directory) and the
// zips of its quarantine subdirectory, newest first, each with the verdict
// its provenance sidecar records, checked against the bytes on disk (every
// file is hashed again, every image proven again with artifact.CheckImage,
// so a file changed after it was verified is never called verified). A
// missing dir is an empty library. Errors: errs.StoreIO for a directory or
// file that cannot be read; ctx's error when it ends first.
func List(ctx context.Context, dir string) ([]Item, error) {
	items := []Item{}
	for _, sub := range []struct {
		dir        string
		quarantine bool
	}{{dir, false}, {filepath.Join(dir, artifact.QuarantineDir), true}} {
		entries, err := os.ReadDir(sub.dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, errs.Wrap(err, errs.StoreIO, "read artifacts directory %s: %v", sub.dir, err).WithEvidence("dir", sub.dir)
		}
		for _, e := range entries {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			kind, ok := kindOf(e.Name(), sub.quarantine)
			if !ok || !e.Type().IsRegular() {
				continue // directories and links are not listed either
			}
			it, err := item(filepath.Join(sub.dir, e.Name()), kind, sub.quarantine)
			if err != nil {
				return nil, err
			}
			items = append(items, it)
		}
	}
	slices.SortStableFunc(items, func(a, b Item) int { return b.Modified.Compare(a.Modified) })
	return items, nil
}

// At is the item List would list at path, judged alone (the other files
// are not read): ok is false when the library lists nothing there (a path
// outside dir and its quarantine, a sidecar, a temporary, a link, a file
// that is gone). Errors: errs.StoreIO for a file that cannot be read.
func At(ctx context.Context, dir, path string) (Item, bool, error) {
	if err := ctx.Err(); err != nil {
		return Item{}, false, err
	}
	base, err := filepath.Abs(dir)
	if err != nil || !filepath.IsAbs(path) {
		return Item{}, false, nil
	}
	path = filepath.Clean(path)
	var quarantine bool
	switch filepath.Dir(path) {
	case base:
	case filepath.Join(base, artifact.QuarantineDir):
		quarantine = true
	default:
		return Item{}, false, nil
	}
	kind, ok := kindOf(filepath.Base(path), quarantine)
	if st, err := os.Lstat(path); !ok || err != nil || !st.Mode().IsRegular() {
		return Item{}, false, nil
	}
	it, err := item(path, kind, quarantine)
	return it, err == nil, err
}

// item reads one file and its sidecar and decides its status.
func item(path, kind string, quarantined bool) (Item, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return Item{}, errs.Wrap(err, errs.StoreIO, "resolve %s: %v", path, err)
	}
	it := Item{Path: abs, Name: filepath.Base(abs), Kind: kind, Files: []record.ArtifactEntry{}}
	st, sum, err := hashFile(abs)
	if err != nil {
		return Item{}, errs.Wrap(err, errs.StoreIO, "read artifact %s: %v", abs, err).WithEvidence("path", abs)
	}
	it.Size, it.SHA256, it.Modified = st.Size(), sum, st.ModTime().UTC()
	switch kind {
	case record.ArtifactImage:
		return imageItem(it)
	case record.ArtifactReport:
		return reportItem(it)
	}
	return zipItem(it, quarantined), nil
}

// zipItem decides a zip's status from its sidecar.
func zipItem(it Item, quarantined bool) Item {
	prov, perr := artifact.ReadProvenance(it.Path)
	if prov != nil {
		it.Site, it.Session, it.ConversationURL, it.VerifiedAt = prov.Site, prov.Session, prov.ConversationURL, prov.VerifiedAt
		if prov.Files != nil {
			it.Files = prov.Files
		}
		if prov.Verdict != nil {
			it.Problems = prov.Verdict.Problems
		}
	}
	switch {
	case quarantined:
		it.Status, it.Reason, it.Why = StatusQuarantined, ReasonNoProvenance, quarantineWhy(prov)
		if prov != nil && prov.Reason != "" {
			it.Reason = string(prov.Reason)
		}
	case errors.Is(perr, fs.ErrNotExist):
		it.Status, it.Reason, it.Why = StatusUnverified, ReasonNoProvenance, noSidecarWhy(it.Name)
	case perr != nil:
		it.Status, it.Reason = StatusUnverified, ReasonBadProvenance
		it.Why = "the provenance sidecar cannot be read: " + perr.Error()
	case prov.Verdict == nil || !prov.Verdict.OK:
		it.Status, it.Reason = StatusUnverified, ReasonVerdictFailed
		it.Why = "the verifier did not pass this file"
		if prov.Verdict != nil {
			if p, ok := prov.Verdict.Blocking(); ok {
				it.Reason, it.Why = string(p.Reason), "the verifier refused it: "+p.String()
			}
		}
	case !strings.EqualFold(prov.SHA256, it.SHA256) || prov.Size != it.Size:
		it.Status, it.Reason, it.Why = StatusUnverified, ReasonChanged, changedWhy(prov.SHA256, it.SHA256)
	default:
		it.Status = StatusVerified
	}
	return it
}

func noSidecarWhy(name string) string {
	return "no provenance sidecar (" + name + artifact.SidecarSuffix + "): Ferry did not verify this file"
}

func changedWhy(then, now string) string {
	return fmt.Sprintf("the file changed after it was verified (sha256 %s then, %s now)", short(then), short(now))
}

func quarantineWhy(prov *artifact.Provenance) string {
	if prov == nil {
		return "in quarantine, without a provenance sidecar saying why"
	}
	if prov.Verdict != nil {
		if p, ok := prov.Verdict.Blocking(); ok {
			return "quarantined: " + p.String()
		}
	}
	if prov.Reason != "" {
		return "quarantined: " + string(prov.Reason)
	}
	return "quarantined by the verifier"
}

func short(sum string) string {
	if len(sum) > 12 {
		return sum[:12]
	}
	if sum == "" {
		return "none"
	}
	return sum
}

func hashFile(path string) (fs.FileInfo, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, "", err
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, "", err
	}
	return st, hex.EncodeToString(h.Sum(nil)), nil
}
