package artifact

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/platform"
)

// SidecarSuffix is appended to a saved zip's name for its provenance file.
const SidecarSuffix = ".provenance.json"

// QuarantineDir is the subdirectory of the output directory that holds
// archives refused as unsafe or too large, never as good files.
const QuarantineDir = "quarantine"

// Provenance is the sidecar written beside every saved zip. It says where the
// file came from and what the verifier found; it never holds a token, a
// cookie or a signed download URL.
type Provenance struct {
	Site string `json:"site"`
	// Session is the run that brought the zip home (empty for a zip
	// fetched outside a run, by `ferry retrieve`).
	Session         string    `json:"session,omitempty"`
	ConversationURL string    `json:"conversationUrl"`
	ConversationID  string    `json:"conversationId,omitempty"`
	MessageID       string    `json:"messageId,omitempty"`
	SandboxPath     string    `json:"sandboxPath,omitempty"`
	FileName        string    `json:"fileName"`
	Size            int64     `json:"size"`
	SHA256          string    `json:"sha256"`
	Files           []Entry   `json:"files"`
	Verdict         *Verdict  `json:"verdict"`
	VerifiedAt      time.Time `json:"verifiedAt"`
	FerryVersion    string    `json:"ferryVersion"`
	Quarantined     bool      `json:"quarantined,omitempty"`
	Reason          Reason    `json:"reason,omitempty"`
}

// ReadProvenance reads the provenance sidecar of the zip at path (path +
// SidecarSuffix). Errors: an fs.ErrNotExist error when there is none; a
// decode error for a sidecar that is not valid JSON.
func ReadProvenance(path string) (*Provenance, error) {
	b, err := os.ReadFile(path + SidecarSuffix)
	if err != nil {
		return nil, err
	}
	var p Provenance
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("decode %s: %w", filepath.Base(path+SidecarSuffix), err)
	}
	return &p, nil
}

// Saved says where a zip ended up.
type Saved struct {
	Path        string   // the saved zip; "" when nothing was kept
	SidecarPath string   // its provenance sidecar
	Quarantined bool     // Path is under quarantine/, not a good file
	Verdict     *Verdict // the verifier's account
	// Transport is how the bytes left the browser, when Retrieve fetched
	// them.
	Transport Transport
}

type saveConfig struct {
	verify     []VerifyOption
	now        func() time.Time
	version    string
	beforeLink func(Provenance) error
}

// SaveOption changes how Save works.
type SaveOption func(*saveConfig)

// saveConfigOf is the configuration opts make of the defaults.
func saveConfigOf(opts []SaveOption) saveConfig {
	cfg := saveConfig{now: time.Now, version: "dev"}
	for _, o := range opts {
		o(&cfg)
	}
	return cfg
}

// WithVerify passes limits to the verifier.
func WithVerify(opts ...VerifyOption) SaveOption {
	return func(c *saveConfig) { c.verify = append(c.verify, opts...) }
}

// WithClock sets the clock for VerifiedAt (tests).
func WithClock(now func() time.Time) SaveOption { return func(c *saveConfig) { c.now = now } }

// WithBeforeLink has Save call fn with the provenance of a good zip (its
// sha256, size, file list and intended file name) after verification and
// before the zip gets its final name, so that the caller can journal what
// is about to appear: a process killed between the rename and the sidecar
// leaves a zip that Adopt can then prove. An error from fn stops the save
// with nothing left behind.
func WithBeforeLink(fn func(Provenance) error) SaveOption {
	return func(c *saveConfig) { c.beforeLink = fn }
}

// WithFerryVersion records Ferry's version in the sidecar.
func WithFerryVersion(v string) SaveOption { return func(c *saveConfig) { c.version = v } }

// Save copies the zip from src into a temporary file in dir, syncs it,
// verifies it, and then:
//   - a good zip is linked to its final name (the sanitised base name of
//     name; never over an existing file: "-1", "-2"… are added) with its
//     sidecar `<name>.zip.provenance.json`, and the directory is synced;
//   - an unsafe or too-large zip is moved under dir/quarantine/ with a
//     sidecar naming the reason, and the verdict's envelope is returned
//     with the quarantine path as evidence;
//   - a corrupt zip is deleted, and the verdict's envelope is returned.
//
// No final file is ever half-written; the temporary file is removed on every
// path, and one left by a killed process is removed by the next Save into
// dir (SweepDeadTemps). I/O failures are ArtifactSaveFailed envelopes
// (errs.DiskFull when the disk is full); a cancelled ctx returns ctx's
// error.
func Save(ctx context.Context, dir, name string, src io.Reader, prov Provenance, opts ...SaveOption) (*Saved, error) {
	cfg := saveConfigOf(opts)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, saveErr(err, "create output directory %s", dir)
	}
	// What a killed save left here goes first; live saves keep theirs.
	_, _ = SweepDeadTemps(dir)
	tmp, release, err := createLockedTemp(dir, ".ferry-*.zip.part")
	if err != nil {
		return nil, saveErr(err, "create temporary file in %s", dir)
	}
	tmpPath := tmp.Name()
	defer release()          // last: the file is gone or renamed by then
	defer os.Remove(tmpPath) // a no-op once the file was renamed
	defer tmp.Close()

	size, err := io.Copy(tmp, ctxReader{ctx, src})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, saveErr(err, "write %s", tmpPath)
	}
	if err := tmp.Sync(); err != nil {
		return nil, saveErr(err, "sync %s", tmpPath)
	}
	v, verr := Verify(ctx, tmp, size, cfg.verify...)
	if verr != nil && errs.CodeOf(verr) == "" {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, saveErr(verr, "read back %s", tmpPath)
	}
	if err := tmp.Close(); err != nil {
		return nil, saveErr(err, "close %s", tmpPath)
	}

	prov.FileName = SafeFileName(name)
	prov.ConversationURL = StripURLSecrets(prov.ConversationURL)
	prov.Size, prov.SHA256, prov.Files, prov.Verdict = v.Size, v.SHA256, v.Entries, v
	prov.VerifiedAt = cfg.now().UTC()
	prov.FerryVersion = cfg.version
	out := &Saved{Verdict: v}

	target := dir
	if p, blocked := v.Blocking(); blocked {
		if p.Reason.Code() != errs.ArtifactUnsafe && p.Reason.Code() != errs.ArtifactTooLarge {
			return out, verr // corrupt: the deferred Remove deletes it
		}
		target = filepath.Join(dir, QuarantineDir)
		if err := os.MkdirAll(target, 0o700); err != nil {
			return nil, saveErr(err, "create quarantine directory %s", target)
		}
		prov.Quarantined, prov.Reason = true, p.Reason
		out.Quarantined = true
	}
	if cfg.beforeLink != nil && !out.Quarantined {
		if err := cfg.beforeLink(prov); err != nil {
			return nil, err
		}
	}
	final, err := linkUnique(tmpPath, target, prov.FileName)
	if err != nil {
		return nil, err
	}
	prov.FileName = filepath.Base(final)
	side, err := json.MarshalIndent(prov, "", "  ")
	if err != nil {
		os.Remove(final)
		return nil, saveErr(err, "encode provenance of %s", final)
	}
	if err := WriteFileAtomic(final+SidecarSuffix, append(side, '\n'), 0o600); err != nil {
		os.Remove(final) // a zip without its provenance is not a finished save
		return nil, err
	}
	if err := syncDir(target); err != nil {
		return nil, saveErr(err, "sync directory %s", target)
	}
	out.Path, out.SidecarPath = final, final+SidecarSuffix
	if out.Quarantined {
		return out, errs.From(verr).WithEvidence("quarantined", final)
	}
	return out, nil
}

// SafeFileName reduces a sandbox path or a server-given name to a plain
// file name ending in .zip: the base name, with every character outside
// [A-Za-z0-9._+-] replaced by "_", leading dots removed, at most 150 bytes.
// An empty result becomes "artifact.zip".
func SafeFileName(name string) string {
	base := path.Base(strings.ReplaceAll(name, `\`, "/"))
	var b strings.Builder
	for _, r := range base {
		switch {
		case r < 0x80 && (r == '.' || r == '_' || r == '+' || r == '-' || ('0' <= r && r <= '9') || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z')):
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	stem := b.String()
	if strings.HasSuffix(strings.ToLower(stem), ".zip") {
		stem = stem[:len(stem)-len(".zip")]
	}
	stem = strings.TrimLeft(stem, ".")
	if len(stem) > 146 {
		stem = stem[:146]
	}
	if strings.Trim(stem, "_.") == "" {
		stem = "artifact"
	}
	return stem + ".zip"
}

// StripURLSecrets removes user info, query and fragment from a URL, so that
// an address with a token in it can be recorded. Unparsable input gives "".
func StripURLSecrets(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	u.User, u.RawQuery, u.Fragment, u.RawFragment, u.ForceQuery = nil, "", "", "", false
	return u.String()
}

// linkUnique gives tmp its final name in dir without replacing anything:
// name.zip, else name-1.zip, name-2.zip … (the same with an image's
// extension) (a name is taken when the zip or
// its sidecar exists). A hard link fails atomically on an existing name;
// where links are unsupported, an existence check and a rename stand in.
func linkUnique(tmp, dir, name string) (string, error) {
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for i := 0; i < 10000; i++ {
		cand := filepath.Join(dir, name)
		if i > 0 {
			cand = filepath.Join(dir, fmt.Sprintf("%s-%d%s", stem, i, ext))
		}
		if _, err := os.Lstat(cand + SidecarSuffix); err == nil {
			continue
		}
		err := os.Link(tmp, cand)
		if err == nil {
			os.Remove(tmp)
			return cand, nil
		}
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if _, serr := os.Lstat(cand); serr == nil {
			continue
		}
		if rerr := os.Rename(tmp, cand); rerr != nil {
			return "", saveErr(rerr, "rename %s to %s", tmp, cand)
		}
		return cand, nil
	}
	return "", errs.New(errs.ArtifactSaveFailed, "no free name for %s in %s after 10000 tries", name, dir)
}

// newTemp makes dir and a locked temporary file in it named by pattern,
// after removing what killed saves left there.
func newTemp(dir, pattern string) (*os.File, func(), error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, saveErr(err, "create output directory %s", dir)
	}
	_, _ = SweepDeadTemps(dir)
	tmp, release, err := createLockedTemp(dir, pattern)
	if err != nil {
		return nil, nil, saveErr(err, "create temporary file in %s", dir)
	}
	return tmp, release, nil
}

// placeWithSidecar gives the synced temporary file tmpPath its final name
// in dir (a free one from name, see linkUnique), writes beside it the
// provenance sidecar that side makes from that name, and syncs dir. A file
// whose sidecar cannot be written is removed: it is not a finished save.
func placeWithSidecar(tmpPath, dir, name string, side func(fileName string) any) (string, error) {
	final, err := linkUnique(tmpPath, dir, name)
	if err != nil {
		return "", err
	}
	b, err := json.MarshalIndent(side(filepath.Base(final)), "", "  ")
	if err != nil {
		os.Remove(final)
		return "", saveErr(err, "encode provenance of %s", final)
	}
	if err := WriteFileAtomic(final+SidecarSuffix, append(b, '\n'), 0o600); err != nil {
		os.Remove(final)
		return "", err
	}
	if err := syncDir(dir); err != nil {
		return "", saveErr(err, "sync directory %s", dir)
	}
	return final, nil
}

// WriteFileAtomic writes data to path through a synced temporary file in
// the same directory and a rename, then syncs the directory: readers see
// the old file or the new one, never a part. Failures are
// ArtifactSaveFailed envelopes, errs.DiskFull when the disk is full.
func WriteFileAtomic(path string, data []byte, perm fs.FileMode) error {
	dir := filepath.Dir(path)
	tmp, release, err := createLockedTemp(dir, ".ferry-*.tmp")
	if err != nil {
		return saveErr(err, "create temporary file in %s", dir)
	}
	defer release()
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return saveErr(err, "write %s", tmp.Name())
	}
	if err := tmp.Chmod(perm); err != nil && runtime.GOOS != "windows" {
		tmp.Close()
		return saveErr(err, "chmod %s", tmp.Name())
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return saveErr(err, "sync %s", tmp.Name())
	}
	if err := tmp.Close(); err != nil {
		return saveErr(err, "close %s", tmp.Name())
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return saveErr(err, "rename to %s", path)
	}
	if err := syncDir(dir); err != nil {
		return saveErr(err, "sync directory %s", dir)
	}
	return nil
}

// syncDir makes a rename durable. Windows cannot sync a directory and does
// not need to.
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// saveErr is the envelope of a failed file operation: errs.DiskFull
// (naming the directory) when the disk is full, else ArtifactSaveFailed.
func saveErr(err error, format string, args ...any) error {
	what := fmt.Sprintf(format, args...)
	if errs.IsNoSpace(err) {
		dir := ""
		var pe *fs.PathError
		if errors.As(err, &pe) {
			dir = filepath.Dir(pe.Path)
		}
		e := errs.Wrap(err, errs.DiskFull, "%s: the disk is full (%v); nothing was saved", what, err).WithStage(errs.StageArtifact)
		if dir != "" {
			e = e.WithEvidence("dir", dir).
				WithHint("free space on the disk that holds %s (%s), or save to another directory (--out, or the settings' artifacts.outputDir), then run again", dir, platform.FreeSpace(platform.GOOS, dir))
		}
		return e
	}
	return errs.Wrap(err, errs.ArtifactSaveFailed, "%s: %v", what, err)
}

type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
