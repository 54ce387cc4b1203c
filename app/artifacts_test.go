package app

import (
	"bytes"
	"context"
	"encoding/base64"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider/sim/simimage"
	"github.com/ferrydesk/ferry/backend/service"
)

func TestSaveAsCopiesOnlyAVerifiedZip(t *testing.T) {
	sh, _, dataDir := openShell(t, nil)
	out := t.TempDir()
	desk := &fakeDesktop{}
	arts := &Artifacts{sh: sh, desk: desk}
	dir := filepath.Join(dataDir, "artifacts")
	ctx := context.Background()
	content := zipOf(t, "main.go", "package main\n")
	good, err := artifact.Save(ctx, dir, "good.zip", bytes.NewReader(content), artifact.Provenance{Site: "chatgpt"})
	if err != nil {
		t.Fatal(err)
	}
	bad, _ := artifact.Save(ctx, dir, "slip.zip", bytes.NewReader(zipOf(t, "../evil", "x")), artifact.Provenance{Site: "chatgpt"})

	t.Run("the chosen path receives the same bytes and no temporary file is left", func(t *testing.T) {
		desk.saveTo = filepath.Join(out, "copy.zip")
		got, err := arts.SaveAs(good.Path)
		if err != nil || got != desk.saveTo {
			t.Fatalf("SaveAs = %q, %v", got, err)
		}
		b, err := os.ReadFile(got)
		if err != nil || !bytes.Equal(b, content) {
			t.Fatalf("the copy differs from the zip (%d bytes, %v)", len(b), err)
		}
		entries, _ := os.ReadDir(out)
		if len(entries) != 1 {
			t.Errorf("the folder holds %d entries, want only copy.zip", len(entries))
		}
	})
	t.Run("a cancelled dialog writes nothing", func(t *testing.T) {
		desk.saveTo = ""
		got, err := arts.SaveAs(good.Path)
		if err != nil || got != "" {
			t.Fatalf("SaveAs = %q, %v", got, err)
		}
	})
	t.Run("a quarantined zip is refused before the dialog", func(t *testing.T) {
		desk.saveTo = filepath.Join(out, "slip.zip")
		if _, err := arts.SaveAs(bad.Path); !errs.Has(err, errs.ArtifactUnsafe) {
			t.Fatalf("SaveAs(quarantined): %v", err)
		}
		if _, err := os.Stat(desk.saveTo); !os.IsNotExist(err) {
			t.Errorf("a quarantined zip was written to %s", desk.saveTo)
		}
	})
	t.Run("a zip changed on disk after its verification is refused", func(t *testing.T) {
		if err := os.WriteFile(good.Path, zipOf(t, "main.go", "package evil\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		desk.saveTo = filepath.Join(out, "changed.zip")
		if _, err := arts.SaveAs(good.Path); !errs.Has(err, errs.ArtifactUnsafe) {
			t.Fatalf("SaveAs(changed): %v", err)
		}
		if _, err := os.Stat(desk.saveTo); !os.IsNotExist(err) {
			t.Errorf("a changed zip was written to %s", desk.saveTo)
		}
	})
	t.Run("a folder that cannot be written is bad input", func(t *testing.T) {
		desk.saveTo = filepath.Join(out, "missing-dir", "x.zip")
		if err := os.WriteFile(good.Path, content, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := arts.SaveAs(good.Path); !errs.Has(err, errs.BadInput) {
			t.Fatalf("SaveAs(into a missing folder): %v", err)
		}
	})
}

func TestFindNarrowsTheHistoryByDate(t *testing.T) {
	sh, _, _ := openShell(t, nil)
	sessions := &Sessions{sh: sh, desk: &fakeDesktop{}}
	cases := []struct {
		name     string
		from, to string
		code     errs.Code
	}{
		{"RFC 3339 bounds are accepted", "2026-01-01T00:00:00+01:00", "2026-02-01T00:00:00Z", ""},
		{"empty bounds mean no bound", "", "", ""},
		{"a date without a time is refused with what to do", "2026-01-01", "", errs.BadInput},
		{"a range ending before it starts is refused", "2026-02-01T00:00:00Z", "2026-01-01T00:00:00Z", errs.BadInput},
	}
	t.Run("a tool narrows it too, and an unknown one is refused naming those there are", func(t *testing.T) {
		if _, err := sessions.Find(HistoryFilter{Tool: "none"}); err != nil {
			t.Fatalf("Find none: %v", err)
		}
		if _, err := sessions.Find(HistoryFilter{Tool: "canvas"}); !errs.Has(err, errs.BadInput) || !strings.Contains(err.Error(), "web-search") {
			t.Fatalf("Find canvas: %v", err)
		}
	})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := sessions.Find(HistoryFilter{From: c.from, To: c.to})
			if c.code == "" && err != nil {
				t.Fatalf("Find: %v", err)
			}
			if c.code != "" && !errs.Has(err, c.code) {
				t.Fatalf("Find: %v, want %s", err, c.code)
			}
		})
	}
}

func TestArtifactActions(t *testing.T) {
	sh, _, dataDir := openShell(t, nil)
	trash := t.TempDir()
	t.Setenv("XDG_DATA_HOME", trash)
	desk := &fakeDesktop{}
	arts := &Artifacts{sh: sh, desk: desk}
	dir := filepath.Join(dataDir, "artifacts")
	ctx := context.Background()
	good, err := artifact.Save(ctx, dir, "good.zip", bytes.NewReader(zipOf(t, "main.go", "package main\n")), artifact.Provenance{Site: "chatgpt"})
	if err != nil {
		t.Fatal(err)
	}
	bad, _ := artifact.Save(ctx, dir, "slip.zip", bytes.NewReader(zipOf(t, "../evil", "x")), artifact.Provenance{Site: "chatgpt"})

	t.Run("Open hands a verified zip to the desktop, never a quarantined one", func(t *testing.T) {
		if err := arts.Open(good.Path); err != nil || len(desk.opened) != 1 || desk.opened[0] != good.Path {
			t.Fatalf("Open = %v, opened %v", err, desk.opened)
		}
		if err := arts.Open(bad.Path); !errs.Has(err, errs.ArtifactUnsafe) || len(desk.opened) != 1 {
			t.Fatalf("Open(quarantined) = %v, opened %v", err, desk.opened)
		}
	})
	t.Run("when no file manager answers, Reveal says so and puts the folder on the clipboard", func(t *testing.T) {
		desk.noOpener = true
		defer func() { desk.noOpener = false }()
		err := arts.RevealInFolder(good.Path)
		env := errs.From(err)
		if env == nil || env.Code != errs.CapabilityMissing || !strings.Contains(env.Message, "No file manager answered") || !strings.Contains(env.Message, "clipboard") {
			t.Fatalf("Reveal with no file manager = %v", err)
		}
		if n := len(desk.copied); n == 0 || desk.copied[n-1] != filepath.Dir(good.Path) {
			t.Fatalf("copied %v, want the folder", desk.copied)
		}
	})
	t.Run("Delete moves the zip and its sidecar to the trash", func(t *testing.T) {
		if err := arts.Delete(good.Path); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"good.zip", "good.zip" + service.ArtifactSidecarSuffix} {
			if _, err := os.Stat(filepath.Join(trash, "Trash", "files", name)); err != nil {
				t.Errorf("%s is not in the trash: %v", name, err)
			}
			if _, err := os.Stat(filepath.Join(trash, "Trash", "info", name+".trashinfo")); err != nil {
				t.Errorf("%s has no trash info: %v", name, err)
			}
		}
		list, err := arts.List()
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range list.Items {
			if it.Path == good.Path {
				t.Fatal("the deleted zip is still listed")
			}
		}
		if err := arts.Delete(good.Path); !errs.Has(err, errs.ArtifactNotFound) {
			t.Fatalf("deleting it again = %v, want artifact_not_found", err)
		}
	})
}

// TestImageArtifacts: a generated image saved with its sidecar is acted on
// as a verified zip is (opened, dragged, saved, trashed with its sidecar),
// and it alone has a preview, made from bytes that still are the verified
// ones; an image changed on disk, one without a sidecar and a path the
// library does not list get none.
func TestImageArtifacts(t *testing.T) {
	sh, _, dataDir := openShell(t, nil)
	trashHome := t.TempDir()
	t.Setenv("XDG_DATA_HOME", trashHome)
	desk := &fakeDesktop{}
	arts := &Artifacts{sh: sh, desk: desk}
	dir := filepath.Join(dataDir, "artifacts")
	ctx := context.Background()
	save := func(name string, data []byte) string {
		t.Helper()
		_, path, err := artifact.SaveImage(ctx, dir, name, bytes.NewReader(data), 0, artifact.ImageProvenance{Site: "chatgpt", Title: name})
		if err != nil {
			t.Fatal(err)
		}
		return path
	}
	content := simimage.PNG("ferry at dawn", 600, 400)
	good := save("ferry.png", content)
	changed := save("changed.png", simimage.PNG("changed", 50, 50))
	if err := os.WriteFile(changed, simimage.PNG("other", 50, 50), 0o600); err != nil {
		t.Fatal(err)
	}
	bare := filepath.Join(dir, "bare.png")
	if err := os.WriteFile(bare, simimage.PNG("bare", 50, 50), 0o600); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "ferry.png")
	if err := os.WriteFile(outside, content, 0o600); err != nil {
		t.Fatal(err)
	}
	zipped, err := artifact.Save(ctx, dir, "good.zip", bytes.NewReader(zipOf(t, "main.go", "package main\n")), artifact.Provenance{Site: "chatgpt"})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("the list shows the image with its type and pixels", func(t *testing.T) {
		list, err := arts.List()
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range list.Items {
			if it.Path == good {
				if it.Kind != "image" || it.MIME != "image/png" || it.Width != 600 || it.Height != 400 || it.Status != "verified" {
					t.Errorf("listed as %+v", it)
				}
				return
			}
		}
		t.Fatalf("%s is not listed", good)
	})
	t.Run("a verified image's preview is a PNG that fits the box", func(t *testing.T) {
		u, err := arts.Thumbnail(good)
		if err != nil {
			t.Fatal(err)
		}
		b64, ok := strings.CutPrefix(u, "data:image/png;base64,")
		if !ok {
			t.Fatalf("Thumbnail = %.40s…, want a PNG data URL", u)
		}
		raw, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(raw))
		if err != nil || cfg.Width != 256 || cfg.Height != 170 {
			t.Errorf("preview %d×%d (%v), want 256×170", cfg.Width, cfg.Height, err)
		}
	})
	for _, c := range []struct {
		name, path string
		code       errs.Code
	}{
		{"an image changed on disk has no preview", changed, errs.ArtifactUnsafe},
		{"an image without a sidecar has no preview", bare, errs.ArtifactUnsafe},
		{"a path outside the library has no preview", outside, errs.ArtifactNotFound},
		{"a sidecar has no preview", good + service.ArtifactSidecarSuffix, errs.ArtifactNotFound},
		{"a zip has no preview", zipped.Path, errs.BadInput},
	} {
		t.Run(c.name, func(t *testing.T) {
			if u, err := arts.Thumbnail(c.path); !errs.Has(err, c.code) || u != "" {
				t.Errorf("Thumbnail = %.40q, %v; want %s", u, err, c.code)
			}
		})
	}
	t.Run("a verified image is dragged out by its path, an unverified one is refused", func(t *testing.T) {
		if p, err := arts.DragPath(good); err != nil || p != good {
			t.Errorf("DragPath(verified image) = %q, %v", p, err)
		}
		for _, p := range []string{changed, bare} {
			if _, err := arts.DragPath(p); !errs.Has(err, errs.ArtifactUnsafe) {
				t.Errorf("DragPath(%s) = %v, want artifact_unsafe", filepath.Base(p), err)
			}
		}
	})
	t.Run("Open hands the image to the desktop, and says image when nothing answers", func(t *testing.T) {
		if err := arts.Open(good); err != nil || len(desk.opened) != 1 || desk.opened[0] != good {
			t.Fatalf("Open = %v, opened %v", err, desk.opened)
		}
		desk.noOpener = true
		defer func() { desk.noOpener = false }()
		if env := errs.From(arts.Open(good)); env == nil || !strings.Contains(env.Message, "No application answered to open the image") {
			t.Errorf("Open with no viewer = %v", env)
		}
	})
	t.Run("Save as copies the image's bytes", func(t *testing.T) {
		desk.saveTo = filepath.Join(t.TempDir(), "copy.png")
		got, err := arts.SaveAs(good)
		if err != nil || got != desk.saveTo {
			t.Fatalf("SaveAs = %q, %v", got, err)
		}
		if b, _ := os.ReadFile(got); !bytes.Equal(b, content) {
			t.Error("the copy differs from the image")
		}
	})
	t.Run("Delete moves the image and its sidecar to the trash", func(t *testing.T) {
		if err := arts.Delete(good); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{filepath.Base(good), filepath.Base(good) + service.ArtifactSidecarSuffix} {
			if _, err := os.Stat(filepath.Join(trashHome, "Trash", "files", name)); err != nil {
				t.Errorf("%s is not in the trash: %v", name, err)
			}
		}
		if _, err := arts.Thumbnail(good); !errs.Has(err, errs.ArtifactNotFound) {
			t.Errorf("Thumbnail(deleted) = %v, want artifact_not_found", err)
		}
	})
}
