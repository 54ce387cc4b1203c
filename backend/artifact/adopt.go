package artifact

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Adopt finishes the save of a zip that reached its final name at path but
// not its sidecar (the process was killed between the two): it verifies
// the file again, requires its sha256 to be sum (what the save journaled
// before the rename, see WithBeforeLink), and writes the sidecar from prov.
// A file that differs from sum, or that the verifier blocks, is left as it
// is and not adopted. Errors: ArtifactCorrupt naming both sums for another
// file; the verdict's envelope; ArtifactSaveFailed for I/O.
func Adopt(ctx context.Context, path, sum string, prov Provenance, opts ...SaveOption) (*Saved, error) {
	cfg := saveConfigOf(opts)
	f, err := os.Open(path)
	if err != nil {
		return nil, saveErr(err, "open %s", path)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, saveErr(err, "stat %s", path)
	}
	if !st.Mode().IsRegular() {
		return nil, errs.New(errs.ArtifactSaveFailed, "%s is not a regular file", path)
	}
	v, verr := Verify(ctx, f, st.Size(), cfg.verify...)
	if verr != nil && errs.CodeOf(verr) == "" {
		return nil, saveErr(verr, "read back %s", path)
	}
	if v == nil {
		return nil, verr
	}
	if v.SHA256 != sum {
		return nil, errs.New(errs.ArtifactCorrupt, "%s is not the zip the run saved: sha256 %s, journaled %s", path, v.SHA256, sum).
			WithEvidence("path", path).WithEvidence("sha256", v.SHA256).WithEvidence("journaled_sha256", sum)
	}
	if _, blocked := v.Blocking(); blocked {
		return &Saved{Verdict: v}, verr
	}
	prov.FileName = filepath.Base(path)
	prov.ConversationURL = StripURLSecrets(prov.ConversationURL)
	prov.Size, prov.SHA256, prov.Files, prov.Verdict = v.Size, v.SHA256, v.Entries, v
	prov.VerifiedAt = cfg.now().UTC()
	prov.FerryVersion = cfg.version
	side, err := json.MarshalIndent(prov, "", "  ")
	if err != nil {
		return nil, saveErr(err, "encode provenance of %s", path)
	}
	if err := WriteFileAtomic(path+SidecarSuffix, append(side, '\n'), 0o600); err != nil {
		return nil, err
	}
	return &Saved{Path: path, SidecarPath: path + SidecarSuffix, Verdict: v}, nil
}
