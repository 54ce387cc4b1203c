package codemode

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/version"
)

// A zip gets its final name before its provenance sidecar is written; a
// process killed between the two leaves a finished zip that the sidecar
// check of a reattach does not count. The code step therefore journals
// each good zip's sha256 just before the rename, and a reattach that finds
// the zip without its sidecar adopts it when it is the journaled file.

// ZipSavingLayer is the session receipt layer in which a code step
// journals a verified zip (file name, sandbox path, message, sha256, size)
// just before the zip gets its final name.
const ZipSavingLayer = "zip_saving"

// journalZip is the save hook that journals a verified zip in session id
// before its rename; the save stops when the journal cannot be written.
func (r *codeRun) journalZip(ctx context.Context, id string) func(artifact.Provenance) error {
	return func(p artifact.Provenance) error {
		if r.repo == nil {
			return nil // no journal to write (tests of the disk checks alone)
		}
		_, err := r.repo.Update(context.WithoutCancel(ctx), id, "", func(x *job.Session) error {
			x.Receipts = append(x.Receipts, job.Receipt{Layer: ZipSavingLayer, At: time.Now().UTC(), Data: map[string]string{
				"name": p.FileName, "sandbox": p.SandboxPath, "conversation": p.ConversationID, "message": p.MessageID,
				"sha256": p.SHA256, "bytes": strconv.FormatInt(p.Size, 10)}})
			return nil
		})
		if err != nil {
			return fmt.Errorf("journal zip %s: %w", p.FileName, err)
		}
		return nil
	}
}

// adoptZips takes from found the zips whose file is already in the output
// directory under its own name but without a sidecar: one the session
// journaled with the same sha256 is adopted (its sidecar written); any
// other is left to fetch again (saved beside it under a new name) with a
// warning saying why.
func (r *codeRun) adoptZips(ctx context.Context, s *job.Session, found []artifact.Found, d *job.Delivery) (adopted []artifact.Result, rest []artifact.Found) {
	warn := func(format string, args ...any) {
		w := fmt.Sprintf(format, args...)
		r.receipt.Warnings = append(r.receipt.Warnings, w)
		d.Warnings = append(d.Warnings, w)
	}
	for _, z := range found {
		name := artifact.SafeFileName(z.Path)
		path := filepath.Join(r.out, name)
		st, err := os.Lstat(path)
		_, serr := os.Lstat(path + artifact.SidecarSuffix)
		if err != nil || !st.Mode().IsRegular() || serr == nil {
			rest = append(rest, z)
			continue
		}
		j := journaledZip(s, name, z.Path)
		if j == nil {
			warn("%s has no provenance sidecar and this run journaled no sha256 for it: fetched a fresh copy beside it; check the old file and remove it", path)
			rest = append(rest, z)
			continue
		}
		prov := artifact.Provenance{Site: s.Site, Session: s.ID, ConversationID: j["conversation"], MessageID: j["message"], SandboxPath: z.Path,
			ConversationURL: r.conversationURL(j["conversation"])}
		saved, err := artifact.Adopt(ctx, path, j["sha256"], prov, artifact.WithFerryVersion(version.Version), artifact.WithVerify(VerifyLimits(r.limits)...))
		if err != nil {
			warn("%s has no provenance sidecar and is not the zip this run journaled (%s): fetched a fresh copy beside it", path, err)
			rest = append(rest, z)
			continue
		}
		warn("%s was saved before the interruption but not its provenance sidecar: its sha256 matches the journal, so it was adopted", path)
		adopted = append(adopted, artifact.Result{Path: z.Path, Saved: saved})
	}
	return adopted, rest
}

// conversationURL is the address of conversation conv on the run's
// sandbox, or "" before a sandbox is known.
func (r *codeRun) conversationURL(conv string) string {
	if r.src == nil {
		return ""
	}
	return r.src.ConversationAddress(conv)
}

// journaledZip is the last ZipSavingLayer receipt of s for file name from
// sandbox path, or nil.
func journaledZip(s *job.Session, name, sandbox string) map[string]string {
	for i := len(s.Receipts) - 1; i >= 0; i-- {
		x := s.Receipts[i]
		if x.Layer == ZipSavingLayer && x.Data["name"] == name && x.Data["sandbox"] == sandbox && x.Data["sha256"] != "" {
			return x.Data
		}
	}
	return nil
}
