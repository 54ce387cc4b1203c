package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/ferrydesk/ferry/app/internal/desktop"
	"github.com/ferrydesk/ferry/app/internal/dragout"
	"github.com/ferrydesk/ferry/app/internal/thumb"
	"github.com/ferrydesk/ferry/app/internal/trash"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/service"
)

// Artifacts is the frontend's API for the files in the artifacts directory:
// the verified zips of code mode and the images sites generated.
type Artifacts struct {
	sh   *shell
	desk desktop.Desktop

	dragOnce sync.Once
	drag     dragout.Drag // dragout.System's, made at the first DragSource
}

// List returns every zip and generated image of the artifacts directory
// and the zips of its quarantine, newest first, each with the verdict its
// provenance sidecar records checked against the bytes on disk. Errors:
// store_io for an unreadable directory; why the core is not open.
func (a *Artifacts) List() (service.ArtifactList, error) {
	out := service.ArtifactList{Items: []service.ArtifactItem{}}
	err := a.sh.withService(func(svc service.Service) error {
		list, err := svc.ListArtifacts(context.Background(), desktopCaller, service.ListArtifactsRequest{})
		if list.Items != nil {
			out.Items = list.Items
		}
		out.Dir = list.Dir
		return err
	})
	return out, err
}

// CopyPath puts the absolute path of the artifact at path on the clipboard.
// Errors: artifact_not_found for a path that is not a file of the library.
func (a *Artifacts) CopyPath(path string) error {
	it, err := a.find(path)
	if err != nil {
		return err
	}
	return a.desk.CopyText(it.Path)
}

// RevealInFolder shows the artifact at path in the file manager. When no
// file manager answers, the folder's path goes on the clipboard and the
// error says so. Errors: artifact_not_found for a path that is not a file
// of the library; capability_missing when no file manager answered.
func (a *Artifacts) RevealInFolder(path string) error {
	it, err := a.find(path)
	if err != nil {
		return err
	}
	return a.orCopy(a.desk.Reveal(it.Path), filepath.Dir(it.Path), "No file manager answered to show the folder")
}

// Open opens the verified file at path in the desktop's application for
// it (an archive manager for a zip, the image viewer for an image, a text
// editor or Markdown viewer for a report). When
// none answers, its path goes on the clipboard and the error says so.
// Errors: artifact_not_found; artifact_unsafe for a file that is not
// verified (Ferry never hands one to another program); capability_missing
// when no application answered.
func (a *Artifacts) Open(path string) error {
	it, err := a.verified(path) // verified files only, as for a drag-out
	if err != nil {
		return err
	}
	return a.orCopy(a.desk.Open(it.Path), it.Path, "No application answered to open the "+noun(it))
}

// orCopy turns an opener's failure into the user's next step: the path on
// the clipboard, and a message that says both.
func (a *Artifacts) orCopy(err error, path, what string) error {
	if err == nil {
		return nil
	}
	env := errs.From(err)
	if cerr := a.desk.CopyText(path); cerr != nil {
		return errs.Wrap(err, env.Code, "%s (%s)", what, env.Message).WithHint("open %s yourself", path)
	}
	return errs.Wrap(err, env.Code, "%s; its path is on the clipboard: %s", what, path).
		WithHint("paste the path into a file manager or a terminal")
}

// Delete moves the artifact at path, with its provenance sidecar, to the
// desktop's trash (where a file manager can restore both). Errors:
// artifact_not_found; store_io when the move failed (nothing is lost then:
// the file stays where it was).
func (a *Artifacts) Delete(path string) error {
	it, err := a.find(path)
	if err != nil {
		return err
	}
	bin := trash.System()
	if err := bin.Trash(it.Path); err != nil {
		return err
	}
	side := it.Path + service.ArtifactSidecarSuffix
	if _, err := os.Lstat(side); err == nil {
		if err := bin.Trash(side); err != nil {
			return err
		}
	}
	return nil
}

// DragSource says what the page writes on a drag-out of a verified file:
// a text/uri-list (WebKitGTK), or Chromium's DownloadURL pointing at a
// loopback address that serves verified files only (WebView2 on Windows).
// Errors: internal when the loopback server cannot start (the page then
// offers Show in folder).
func (a *Artifacts) DragSource() (DragSource, error) {
	a.dragOnce.Do(func() { a.drag = dragout.System(a.DragPath) })
	src, err := a.drag.Source()
	return DragSource(src), err
}

// DragPath returns the absolute path a drag-out of the artifact at path
// hands to the desktop. Only a verified file (zip, image or report) may leave the
// window. Errors: artifact_not_found; artifact_unsafe for a quarantined or
// unverified file, with the reason.
func (a *Artifacts) DragPath(path string) (string, error) {
	it, err := a.verified(path)
	return it.Path, err
}

// verified returns the library item at path when it is verified. Errors:
// find's; artifact_unsafe for a quarantined or unverified file, with the
// reason.
func (a *Artifacts) verified(path string) (service.ArtifactItem, error) {
	it, err := a.find(path)
	if err != nil {
		return service.ArtifactItem{}, err
	}
	if it.Status != record.ArtifactVerified {
		return service.ArtifactItem{}, errs.New(errs.ArtifactUnsafe, "%s is %s: %s", it.Name, it.Status, it.Why).
			WithEvidence("reason", it.Reason).WithHint("only verified files can be dragged out of Ferry, opened or saved elsewhere")
	}
	return it, nil
}

// noun is what the user calls the item: an image, a report or a zip.
func noun(it service.ArtifactItem) string {
	switch it.Kind {
	case record.ArtifactImage:
		return "image"
	case record.ArtifactReport:
		return "report"
	}
	return "zip"
}

// SaveAs asks where to save a copy of the verified file (zip or image) at
// path and copies it there atomically (temporary file, fsync, rename),
// checking on the way that the bytes still have the sha256 the library
// verified; it returns the new path, or "" when the user cancelled.
// Errors: artifact_not_found; artifact_unsafe for a file that is not
// verified, or that changed on disk since it was verified (nothing is
// written then); bad_input for a folder that cannot be written.
func (a *Artifacts) SaveAs(path string) (string, error) {
	it, err := a.DragPath(path) // the same rule as a drag-out: verified files only
	if err != nil {
		return "", err
	}
	dest, err := a.desk.SavePath("Save "+filepath.Base(it), filepath.Base(it))
	if err != nil || dest == "" {
		return "", err
	}
	if filepath.Clean(dest) == it {
		return it, nil // saving the file over itself: it is already there
	}
	want, err := a.find(it)
	if err != nil {
		return "", err
	}
	src, err := os.Open(it)
	if err != nil {
		return "", errs.Wrap(err, errs.ArtifactNotFound, "open %s: %v", it, err).
			WithHint("refresh the Artifacts view; the file may have been moved or deleted")
	}
	defer src.Close()
	sum := sha256.New()
	err = desktop.CopyFileAtomic(dest, io.TeeReader(src, sum), func() error {
		if got := hex.EncodeToString(sum.Sum(nil)); got != want.SHA256 {
			return errs.New(errs.ArtifactUnsafe, "%s changed on disk after it was verified (sha256 %s, verified %s); nothing was saved", want.Name, got, want.SHA256).
				WithEvidence("path", it).WithHint("refresh the Artifacts view to verify it again")
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return dest, nil
}

// thumbBox is the box a preview fits in, in pixels: the view shows it at
// half that, sharp on a screen of two device pixels to the pixel.
const thumbBox = 256

// Thumbnail returns a data: URL of a small preview of the verified image at
// path, for the Artifacts view: a PNG that fits 256×256 pixels (a WebP,
// which Go cannot decode, as its own bytes when small). It reads only an
// image the library lists as verified, and makes the preview from bytes
// that still hash to what the library verified. Errors: artifact_not_found
// for a path that is not a file of the library; artifact_unsafe for a file
// that is not verified or changed since; bad_input for a zip;
// artifact_corrupt or artifact_too_large when no preview can be made.
func (a *Artifacts) Thumbnail(path string) (string, error) {
	it, err := a.verified(path)
	if err != nil {
		return "", err
	}
	if it.Kind != record.ArtifactImage {
		return "", errs.New(errs.BadInput, "%s is a %s: only an image has a preview", it.Name, noun(it))
	}
	f, err := os.Open(it.Path)
	if err != nil {
		return "", errs.Wrap(err, errs.ArtifactNotFound, "open %s: %v", it.Path, err).
			WithHint("refresh the Artifacts view; the file may have been moved or deleted")
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, it.Size+1))
	if err != nil {
		return "", errs.Wrap(err, errs.StoreIO, "read %s: %v", it.Path, err)
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != it.SHA256 {
		return "", errs.New(errs.ArtifactUnsafe, "%s changed on disk after it was verified; no preview was made", it.Name).
			WithEvidence("path", it.Path).WithHint("refresh the Artifacts view to verify it again")
	}
	return thumb.DataURL(data, thumbBox)
}

// DragSource says how the page hands a verified file to the desktop on a
// drag-out (dragout.Source, as the frontend's API names it).
type DragSource dragout.Source

// find returns the library item at path, judged now from the bytes on
// disk: the UI may only act on files the library lists, never on an
// arbitrary path a page script made up.
func (a *Artifacts) find(path string) (service.ArtifactItem, error) {
	var list service.ArtifactList
	err := a.sh.withService(func(svc service.Service) error {
		var err error
		list, err = svc.ListArtifacts(context.Background(), desktopCaller, service.ListArtifactsRequest{Path: filepath.Clean(path)})
		return err
	})
	if err != nil {
		return service.ArtifactItem{}, err
	}
	if len(list.Items) == 1 {
		return list.Items[0], nil
	}
	return service.ArtifactItem{}, errs.New(errs.ArtifactNotFound, "%s is not a file of the artifacts directory %s", path, list.Dir).
		WithEvidence("path", path).WithHint("refresh the Artifacts view; the file may have been moved or deleted")
}
