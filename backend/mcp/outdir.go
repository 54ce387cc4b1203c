package mcp

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/ferrydesk/ferry/backend/confine"
	"github.com/ferrydesk/ferry/backend/errs"
)

// roots are the directories an out_dir may lie in, cleaned; none when the
// server was given none.
func (s *Server) roots() []string {
	if s.opts.OutRoots == nil {
		return nil
	}
	var out []string
	for _, r := range s.opts.OutRoots() {
		if filepath.IsAbs(r) {
			out = append(out, filepath.Clean(r))
		}
	}
	return out
}

// outDirRule says in a tool's description which out_dir is accepted.
func (s *Server) outDirRule() string {
	roots := s.roots()
	if len(roots) == 0 {
		return "out_dir is not accepted here: an agent's zips stay in Ferry's artifacts directory (their paths are returned)."
	}
	return "The zips are saved in Ferry's artifacts directory; out_dir, an absolute path, also receives a copy of each verified zip and must lie inside " +
		strings.Join(roots, " or ") + " (nothing outside these roots is written)."
}

// checkOutDir returns out_dir cleaned ("" for none). Errors: errs.BadInput
// for a relative path, or one outside every root (or any when there are
// none).
func (s *Server) checkOutDir(dir string) (string, error) {
	if strings.TrimSpace(dir) == "" {
		return "", nil
	}
	if !filepath.IsAbs(dir) {
		return "", errs.New(errs.BadInput, "out_dir must be an absolute path, got %q", dir).WithHint("give an absolute directory")
	}
	dir = filepath.Clean(dir)
	roots := s.roots()
	if len(roots) == 0 {
		return "", errs.New(errs.BadInput, "out_dir is not accepted from an agent here: the zips stay in Ferry's artifacts directory").
			WithHint("leave out_dir out and use the returned paths")
	}
	if confine.Within(dir, roots) {
		return dir, nil
	}
	return "", errs.New(errs.BadInput, "out_dir %s is outside the allowed roots (%s)", dir, strings.Join(roots, ", ")).
		WithHint("choose a directory inside %s", strings.Join(roots, " or "))
}

// remember keeps dir as the out_dir of job id: in memory, and in the
// pending directory for a later server (a failure to write there is
// logged: this server still copies the zips).
func (s *Server) remember(id, dir string) {
	s.mu.Lock()
	s.outDirs[id] = dir
	s.mu.Unlock()
	if f := s.pendingFile(id); f != "" {
		if err := writePending(f, dir); err != nil {
			s.log.Warn("mcp: keep out_dir for a later server", "job", id, "err", err)
		}
	}
}

// pendingFile is where job id's out_dir is kept ("" without a pending
// directory or for an id that is not a file name).
func (s *Server) pendingFile(id string) string {
	if s.opts.PendingDir == "" || !jobIDRe.MatchString(id) {
		return ""
	}
	return filepath.Join(s.opts.PendingDir, id+".outdir")
}

// jobIDRe is the shape of a job id that may name a pending file.
var jobIDRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$`)

func writePending(file, dir string) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return fmt.Errorf("create pending directory: %w", err)
	}
	tmp := file + ".part"
	if err := os.WriteFile(tmp, []byte(dir), 0o600); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write pending out_dir: %w", err)
	}
	if err := os.Rename(tmp, file); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("place pending out_dir: %w", err)
	}
	return nil
}

// outDirOf is job id's out_dir: this server's, else one a server before it
// kept, checked again against this server's roots (a kept path outside
// them is dropped). ok is false for none.
func (s *Server) outDirOf(id string) (dir string, ok bool) {
	s.mu.Lock()
	dir, ok = s.outDirs[id]
	delete(s.outDirs, id)
	s.mu.Unlock()
	f := s.pendingFile(id)
	if f == "" {
		return dir, ok
	}
	if !ok {
		raw, err := os.ReadFile(f)
		if err == nil {
			if checked, err := s.checkOutDir(string(raw)); err == nil && checked != "" {
				dir, ok = checked, true
			} else {
				s.log.Warn("mcp: a kept out_dir is no longer allowed", "job", id)
			}
		}
	}
	if err := os.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
		s.log.Warn("mcp: remove a kept out_dir", "job", id, "err", err)
	}
	return dir, ok
}

// copyOut copies the verified zips of a code job started with an out_dir
// (by this server or one before it) there once, and points the result's
// paths at the copies; a copy that fails is said in the zip's error.
func (s *Server) copyOut(r *JobResult) {
	if dir, ok := s.outDirOf(r.JobID); ok {
		copyZips(r.Zips, dir)
	}
}

// copyZips copies each verified zip of zips into dir, a folder checked
// against the roots, and points its path at the copy; a copy that fails
// is said in the zip's error.
func copyZips(zips []Zip, dir string) {
	for i, z := range zips {
		if !z.Verified || z.Path == "" {
			continue
		}
		dst := filepath.Join(dir, filepath.Base(z.Path))
		if err := copyFile(z.Path, dst); err != nil {
			zips[i].Error = err.Error()
			continue
		}
		zips[i].Path = dst
	}
}

func copyFile(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("create out_dir: %w", err)
	}
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("open zip: %w", err)
	}
	defer in.Close()
	tmp := dst + ".part"
	out, err := os.OpenFile(tmp, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("create copy: %w", err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		os.Remove(tmp)
		return fmt.Errorf("copy zip: %w", err)
	}
	if err := out.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("close copy: %w", err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		return fmt.Errorf("place copy: %w", err)
	}
	return nil
}
