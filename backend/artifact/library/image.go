package library

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/errs"
)

// imageItem decides an image's status: verified when its sidecar is an
// image's (artifact.ImageProvenance, which SaveImage writes only for bytes
// CheckImage proved), records the size and sha256 of the bytes on disk now,
// and those bytes still pass CheckImage. What the bytes are (MIME, pixels)
// is read from them, never from the sidecar.
func imageItem(it Item) (Item, error) {
	info, cerr := checkImage(it.Path, it.Size)
	if cerr == nil {
		it.MIME, it.Width, it.Height = info.MIME, info.Width, info.Height
	}
	prov, perr := readImageProvenance(it.Path)
	var sha string
	var size int64
	if prov != nil {
		it.Site, it.Session, it.ConversationURL, it.VerifiedAt, it.Title = prov.Site, prov.Session, prov.ConversationURL, prov.SavedAt, prov.Title
		sha, size = prov.SHA256, prov.Size
	}
	switch {
	case sidecarFails(&it, perr, sha, size):
	case cerr != nil:
		env := errs.From(cerr)
		it.Status, it.Reason, it.Why = StatusUnverified, ReasonVerdictFailed, "the bytes are no whole image: "+env.Message
		if r := env.Evidence["reason"]; r != "" {
			it.Reason = r
		}
	default:
		it.Status = StatusVerified
	}
	return it, nil
}

// checkImage proves the image at path with artifact.CheckImage.
func checkImage(path string, size int64) (artifact.ImageInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return artifact.ImageInfo{}, errs.Wrap(err, errs.StoreIO, "open %s: %v", path, err)
	}
	defer f.Close()
	return artifact.CheckImage(f, size)
}

// readImageProvenance reads the sidecar of the image at path; a missing
// one is an fs.ErrNotExist error, one that is not an image's (a zip's, or
// not JSON) an error saying so.
func readImageProvenance(path string) (*artifact.ImageProvenance, error) {
	var p artifact.ImageProvenance
	if err := readSidecar(path, "image", &p); err != nil {
		return nil, err
	}
	return &p, nil
}

// sidecarFails marks it unverified, saying why, when its provenance
// sidecar is missing or cannot be read (perr), or records other bytes than
// the file's (sha256 and size, the sidecar's when it was read); it reports
// whether it did.
func sidecarFails(it *Item, perr error, sha256 string, size int64) bool {
	switch {
	case errors.Is(perr, fs.ErrNotExist):
		it.Status, it.Reason, it.Why = StatusUnverified, ReasonNoProvenance, noSidecarWhy(it.Name)
	case perr != nil:
		it.Status, it.Reason = StatusUnverified, ReasonBadProvenance
		it.Why = "the provenance sidecar cannot be read: " + perr.Error()
	case !strings.EqualFold(sha256, it.SHA256) || size != it.Size:
		it.Status, it.Reason, it.Why = StatusUnverified, ReasonChanged, changedWhy(sha256, it.SHA256)
	default:
		return false
	}
	return true
}

// readSidecar decodes the sidecar of the file at path into dst when it is
// the provenance of kind ("image", "report"); a missing one is an
// fs.ErrNotExist error, another kind's or one that is not JSON an error
// saying so.
func readSidecar(path, kind string, dst any) error {
	side := path + artifact.SidecarSuffix
	b, err := os.ReadFile(side)
	if err != nil {
		return err
	}
	var k struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(b, &k); err != nil {
		return fmt.Errorf("decode %s: %w", filepath.Base(side), err)
	}
	if k.Kind != kind {
		return fmt.Errorf("%s is not the provenance of a %s (kind %q)", filepath.Base(side), kind, k.Kind)
	}
	if err := json.Unmarshal(b, dst); err != nil {
		return fmt.Errorf("decode %s: %w", filepath.Base(side), err)
	}
	return nil
}
