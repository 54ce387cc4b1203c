package artifact

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/record"
)

// Status is what the library says about a zip on disk; Item is one zip of
// the artifacts directory as the library found it (its Run is the
// service's to fill).
type (
	Status = record.ArtifactStatus
	Item   = record.ArtifactItem
)

// The statuses. Only StatusVerified may be handed to the user as a file
// (dragged out, opened); the others carry a Why.
const (
	StatusVerified    = record.ArtifactVerified
	StatusQuarantined = record.ArtifactQuarantined
	StatusUnverified  = record.ArtifactUnverified
)

// Library reasons, beside the verifier's.
const (
	ReasonNoProvenance  = "no_provenance"
	ReasonBadProvenance = "bad_provenance"
	ReasonChanged       = "changed"
	ReasonVerdictFailed = "verdict_failed"
)

// Library lists the zips of dir (the artifacts directory) and of its
// quarantine subdirectory, newest first, each with the verdict its provenance
// sidecar records, checked against the bytes on disk (every zip is hashed
// again, so a file changed after it was verified is never called verified).
// A missing dir is an empty library. Errors: errs.StoreIO for a directory or
// file that cannot be read; ctx's error when it ends first.
func Library(ctx context.Context, dir string) ([]Item, error) {
	items := []Item{}
	for _, sub := range []struct {
		dir        string
		quarantine bool
	}{{dir, false}, {filepath.Join(dir, QuarantineDir), true}} {
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
			name := e.Name()
			if !e.Type().IsRegular() || !strings.HasSuffix(strings.ToLower(name), ".zip") || strings.HasPrefix(name, ".") {
				continue // temporaries (.ferry-*.zip.part), sidecars, directories, links
			}
			it, err := libraryItem(filepath.Join(sub.dir, name), sub.quarantine)
			if err != nil {
				return nil, err
			}
			items = append(items, it)
		}
	}
	slices.SortStableFunc(items, func(a, b Item) int { return b.Modified.Compare(a.Modified) })
	return items, nil
}

// libraryItem reads one zip and its sidecar and decides its status.
func libraryItem(path string, quarantined bool) (Item, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return Item{}, errs.Wrap(err, errs.StoreIO, "resolve %s: %v", path, err)
	}
	it := Item{Path: abs, Name: filepath.Base(abs), Files: []Entry{}}
	st, sum, err := hashLibraryFile(abs)
	if err != nil {
		return Item{}, errs.Wrap(err, errs.StoreIO, "read artifact %s: %v", abs, err).WithEvidence("path", abs)
	}
	it.Size, it.SHA256, it.Modified = st.Size(), sum, st.ModTime().UTC()

	prov, perr := readProvenance(abs + SidecarSuffix)
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
		it.Status, it.Reason = StatusUnverified, ReasonNoProvenance
		it.Why = "no provenance sidecar (" + it.Name + SidecarSuffix + "): Ferry did not verify this file"
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
	case !strings.EqualFold(prov.SHA256, sum) || prov.Size != it.Size:
		it.Status, it.Reason = StatusUnverified, ReasonChanged
		it.Why = fmt.Sprintf("the file changed after it was verified (sha256 %s then, %s now)", short(prov.SHA256), short(sum))
	default:
		it.Status = StatusVerified
	}
	return it, nil
}

func quarantineWhy(prov *Provenance) string {
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

// readProvenance decodes a sidecar; a missing one is fs.ErrNotExist.
// ReadProvenance reads the provenance sidecar of the zip at path (path +
// SidecarSuffix). Errors: an fs.ErrNotExist error when there is none; a
// decode error for a sidecar that is not valid JSON.
func ReadProvenance(path string) (*Provenance, error) { return readProvenance(path + SidecarSuffix) }

func readProvenance(path string) (*Provenance, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var p Provenance
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("decode %s: %w", filepath.Base(path), err)
	}
	return &p, nil
}

func hashLibraryFile(path string) (fs.FileInfo, string, error) {
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
