package provider

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/attach"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/site"
)

// Attacher is implemented by adapters that can attach files to the prompt.
// Attach puts files in the composer the way the site takes them and
// returns only once each is shown there by its name and the site reports
// it ready (no pending sign, no refusal, the send control enabled); it
// types and sends nothing. Errors: errs.AttachmentRejected naming the file
// and the site's words; errs.AttachmentUnconfirmed for a file that never
// shows or never gets ready; errs.CapabilityMissing for a site without an
// upload definition; the page's envelopes. In every case nothing was sent.
// On success it returns, for each file in order, the name its tile shows:
// files[i].Name, or the site's own rename of it (ChatGPT's "notes(1).txt"
// for a name its library already holds, site.Uploads.RenamesRepeats).
type Attacher interface {
	Attach(ctx context.Context, files []attach.File) ([]string, error)
}

// CanAttach fails closed unless a can attach n files (nil for n = 0):
// before anything is typed. Errors: errs.CapabilityMissing.
func CanAttach(a Adapter, n int) error {
	if n == 0 {
		return nil
	}
	s := a.Site()
	if _, ok := a.(Attacher); !ok || s.Uploads == nil {
		return errs.New(errs.CapabilityMissing, "%s takes no attachments in Ferry", s.Name).
			WithEvidence("site", s.ID).WithEvidence("feature", string(site.FeatureFileUpload)).WithEvidence("sent", "false").
			WithHint("use a site that takes files (chatgpt, claude, gemini), or paste text files with --inline-files")
	}
	return nil
}

// The waits of Attach: how long a file may take to show its tile (the
// default of Env.TileTimeout), and how long a shown file may stay pending
// (uploading, processing).
const (
	TileTimeout    = 20 * time.Second
	pendingTimeout = 10 * time.Minute
)

// tileState is what attachJS reads about the files being attached.
type tileState struct {
	Shown []bool `json:"shown"`
	// Names are the names the files' tiles show ("" when not shown).
	Names   []string `json:"names"`
	All     []string `json:"all"` // the names of every tile in the composer
	Pending []bool   `json:"pending"`
	Refused []string `json:"refused"` // the texts of the refusals shown
	Send    bool     `json:"send"`    // a send control is visible and enabled
}

const attachJS = `(spec) => {
  const vis = (el) => el && el.isConnected && el.getClientRects().length > 0 &&
    getComputedStyle(el).visibility !== 'hidden' && getComputedStyle(el).display !== 'none';
  const all = (sels) => {
    const out = [];
    for (const s of sels || []) { try { out.push(...document.querySelectorAll(s)); } catch (e) {} }
    return out.filter(vis);
  };
  const nameOf = (el) => spec.attr ? (el.getAttribute(spec.attr) || '') :
    (el.getAttribute('aria-label') || el.getAttribute('title') || el.textContent || '').trim();
  // A tile is in the composer: never inside a turn of the thread (a sent
  // turn shows the files it carried).
  const tiles = all(spec.tile).filter((el) => !(spec.turns || []).some((s) => { try { return el.closest(s); } catch (e) { return false; } }));
  const shownNames = tiles.map(nameOf);
  // A tile shown before the upload (spec.before, names counted) is no
  // file's put in now.
  const left = {};
  for (const b of spec.before || []) left[b] = (left[b] || 0) + 1;
  const fresh = shownNames.map((x) => { if (left[x] > 0) { left[x]--; return false; } return true; });
  const claimed = new Set();
  const idx = spec.names.map((n) => {
    const i = shownNames.findIndex((x, j) => x === n && fresh[j] && !claimed.has(j));
    if (i >= 0) claimed.add(i);
    return i;
  });
  if (spec.renames) {
    // A site that renames a name its library holds shows "stem(N).ext".
    spec.names.forEach((n, k) => {
      if (idx[k] >= 0) return;
      const dot = n.lastIndexOf('.');
      const stem = dot > 0 ? n.slice(0, dot) : n, ext = dot > 0 ? n.slice(dot) : '';
      const i = shownNames.findIndex((x, j) => !claimed.has(j) && fresh[j] && x.startsWith(stem + '(') && x.endsWith(')' + ext) &&
        /^[0-9]+$/.test(x.slice(stem.length + 1, x.length - ext.length - 1)));
      if (i >= 0) { claimed.add(i); idx[k] = i; }
    });
  }
  const shown = [], pending = [], names = [];
  for (const i of idx) {
    const t = i >= 0 ? tiles[i] : null;
    shown.push(!!t);
    names.push(t ? shownNames[i] : '');
    let p = false;
    if (t) for (const s of spec.pending || []) { try { if ([...t.querySelectorAll(s)].some(vis)) p = true; } catch (e) {} }
    pending.push(p);
  }
  const refused = all(spec.refused).map((el) => (el.innerText || el.textContent || '').trim()).filter(Boolean);
  const send = all(spec.send).some((el) => !el.disabled && el.getAttribute('aria-disabled') !== 'true');
  return {shown, names, all: shownNames, pending, refused, send};
}`

// Attach implements Attacher for every site with an upload definition:
// files renamed by attach.Prepare are staged under their new names, set on
// the file input or dropped on the drop target, and watched until each is
// ready.
func (w *Web) Attach(ctx context.Context, files []attach.File) ([]string, error) {
	if err := CanAttach(w, len(files)); err != nil || len(files) == 0 {
		return nil, err
	}
	s := w.Env.Site
	u := s.Uploads
	paths, cleanup, err := stage(files)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	if err := w.blocked(ctx); err != nil {
		return nil, err
	}
	// A refusal already on the page is about an earlier attempt; a tile
	// already there is none of the files put in now.
	before, err := w.tiles(ctx, files, nil)
	if err != nil {
		return nil, err
	}
	switch u.Method {
	case site.UploadDrop:
		var last error
		for _, sel := range u.DropTarget {
			if last = w.Page.DropFiles(ctx, sel, paths); last == nil {
				break
			}
		}
		if last != nil {
			return nil, last
		}
	default:
		if err := w.Page.SetFiles(ctx, s.Selector(site.RoleFileInput), paths); err != nil {
			return nil, err
		}
	}
	return w.awaitFiles(ctx, files, before)
}

// tiles reads the composer's tiles for files; before is the names of the
// tiles shown before the upload, which confirm none of them.
func (w *Web) tiles(ctx context.Context, files []attach.File, before []string) (tileState, error) {
	s := w.Env.Site
	u := s.Uploads
	spec := map[string]any{"names": attach.Names(files), "tile": u.Tile, "attr": u.NameAttr, "pending": u.Pending,
		"refused": u.Refused, "send": s.Selector(site.RoleSend), "renames": u.RenamesRepeats, "before": before,
		"turns": append(s.Selector(site.RoleUserTurn), s.Selector(site.RoleAssistantTurn)...)}
	var st tileState
	err := w.Page.EvalInto(ctx, &st, attachJS, spec)
	return st, err
}

// awaitFiles polls until every file's tile is shown and ready and the send
// control is enabled, or a refusal or a timeout ends the wait; before is
// the page as it was before the upload. It returns the names the tiles
// show.
func (w *Web) awaitFiles(ctx context.Context, files []attach.File, before tileState) ([]string, error) {
	s := w.Env.Site
	start := time.Now()
	clickSend := s.Send == site.SendClick
	for {
		st, err := w.tiles(ctx, files, before.All)
		if err != nil {
			return nil, err
		}
		st.Refused = fresh(st.Refused, before.Refused)
		if len(st.Refused) > 0 {
			return nil, rejected(s, files, st)
		}
		waiting := ""
		for i, f := range files {
			switch {
			case !st.Shown[i] && time.Since(start) > w.Env.TileTimeout:
				return nil, errs.New(errs.AttachmentUnconfirmed, "%s never showed in the %s composer within %s; nothing was sent", f.Name, s.Name, w.Env.TileTimeout).
					WithEvidence("file", f.Name).WithEvidence("site", s.ID).WithEvidence("sent", "false")
			case !st.Shown[i]:
				waiting = f.Name + " to show"
			case st.Pending[i] && waiting == "":
				waiting = f.Name + " to finish uploading"
			}
		}
		if waiting == "" && (st.Send || !clickSend) {
			return st.Names, nil
		}
		if time.Since(start) > pendingTimeout {
			if waiting == "" {
				waiting = "the send control to be enabled"
			}
			return nil, errs.New(errs.AttachmentUnconfirmed, "%s never reported the files ready (still waiting for %s after %s); nothing was sent", s.Name, waiting, pendingTimeout).
				WithEvidence("site", s.ID).WithEvidence("sent", "false")
		}
		select {
		case <-ctx.Done():
			return nil, ContextErr(ctx, "waiting for the attachments")
		case <-time.After(w.Poll):
		}
	}
}

// rejected is the envelope of a refusal the site showed: it names the file
// the site's words name, else the first file not shown ready.
func rejected(s site.Site, files []attach.File, st tileState) error {
	words := strings.Join(st.Refused, " / ")
	name := ""
	for _, f := range files {
		if strings.Contains(words, f.Name) {
			name = f.Name
			break
		}
	}
	for i, f := range files {
		if name == "" && (!st.Shown[i] || st.Pending[i]) {
			name = f.Name
		}
	}
	if name == "" {
		name = files[len(files)-1].Name
	}
	return errs.New(errs.AttachmentRejected, "%s refused %s: %q; nothing was sent", s.Name, name, words).
		WithEvidence("file", name).WithEvidence("site_words", words).WithEvidence("site", s.ID).WithEvidence("sent", "false")
}

// fresh is the refusals of now that were not on the page before.
func fresh(now, before []string) []string {
	seen := map[string]int{}
	for _, b := range before {
		seen[b]++
	}
	var out []string
	for _, n := range now {
		if seen[n] > 0 {
			seen[n]--
			continue
		}
		out = append(out, n)
	}
	return out
}

// stage returns the paths to give the browser: a file's own path, or for a
// renamed file a copy under its new name in a private directory (which
// cleanup removes).
func stage(files []attach.File) (paths []string, cleanup func(), err error) {
	cleanup = func() {}
	var dir string
	for _, f := range files {
		if filepath.Base(f.Path) == f.Name {
			paths = append(paths, f.Path)
			continue
		}
		if dir == "" {
			if dir, err = os.MkdirTemp("", "ferry-attach-"); err != nil {
				return nil, cleanup, errs.Wrap(err, errs.Internal, "stage renamed attachments: %v", err)
			}
			d := dir
			cleanup = func() { _ = os.RemoveAll(d) }
		}
		dst := filepath.Join(dir, f.Name)
		if err := copyFile(f.Path, dst); err != nil {
			cleanup()
			return nil, func() {}, errs.Wrap(err, errs.BadInput, "stage %s as %s: %v", f.Path, f.Name, err).WithEvidence("file", f.Name)
		}
		paths = append(paths, dst)
	}
	return paths, cleanup, nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copy %s: %w", src, err)
	}
	return out.Close()
}

var _ Attacher = (*Web)(nil)
