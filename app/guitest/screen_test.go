//go:build gui

package guitest

import (
	"context"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// xdotool runs xdotool with args and returns its trimmed output.
func xdotool(ctx context.Context, args ...string) (string, error) {
	return xdotoolOn(ctx, "", args...)
}

// xdotoolOn runs xdotool on display ("" for the tests' own). A search
// that matches nothing is an empty answer, not an error.
func xdotoolOn(ctx context.Context, display string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "xdotool", args...)
	if display != "" {
		cmd.Env = append(os.Environ(), "DISPLAY="+display)
	}
	out, err := cmd.CombinedOutput()
	if err != nil && (len(out) > 0 || len(args) == 0 || args[0] != "search") {
		return "", fmt.Errorf("xdotool %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out)), nil
}

// waitWindow polls for a visible window whose name is exactly name.
func waitWindow(ctx context.Context, name string) (string, error) {
	return waitWindowOn(ctx, "", name)
}

// waitWindowOn is waitWindow on display ("" for the tests' own).
func waitWindowOn(ctx context.Context, display, name string) (string, error) {
	for {
		out, err := xdotoolOn(ctx, display, "search", "--onlyvisible", "--name", "^"+name+"$")
		if err == nil && out != "" {
			return strings.Fields(out)[0], nil
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("no visible window named %q: %w", name, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// screenshot saves window id (or "root") as a PNG at path.
func screenshot(ctx context.Context, id, path string) error {
	out, err := exec.CommandContext(ctx, "import", "-window", id, path).CombinedOutput()
	if err != nil {
		return fmt.Errorf("import -window %s: %v: %s", id, err, out)
	}
	return nil
}

// pixelStats describes a picture well enough to tell a rendered UI from a
// blank or single-colour window.
type pixelStats struct {
	Width, Height int
	MeanLuma      float64 // 0..255
	StdLuma       float64
	Colours       int // distinct colours, counted up to 4096
}

func imageStats(path string) (pixelStats, error) {
	f, err := os.Open(path)
	if err != nil {
		return pixelStats{}, err
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return pixelStats{}, fmt.Errorf("decode %s: %w", path, err)
	}
	return stats(img), nil
}

func stats(img image.Image) pixelStats {
	b := img.Bounds()
	var sum, sumSq float64
	colours := map[uint32]struct{}{}
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			r8, g8, b8 := r>>8, g>>8, bl>>8
			l := 0.2126*float64(r8) + 0.7152*float64(g8) + 0.0722*float64(b8)
			sum += l
			sumSq += l * l
			n++
			if len(colours) < 4096 {
				colours[r8<<16|g8<<8|b8] = struct{}{}
			}
		}
	}
	mean := sum / float64(n)
	return pixelStats{
		Width: b.Dx(), Height: b.Dy(),
		MeanLuma: mean,
		StdLuma:  math.Sqrt(math.Max(0, sumSq/float64(n)-mean*mean)),
		Colours:  len(colours),
	}
}

// keepScreenshot copies a screenshot to $FERRY_SCREENSHOT_DIR when set, for
// people reviewing the design; tests never depend on it.
func keepScreenshot(t *testing.T, path string) {
	dir := os.Getenv("FERRY_SCREENSHOT_DIR")
	if dir == "" {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Logf("keep screenshot: %v", err)
		return
	}
	src, err := os.Open(path)
	if err != nil {
		t.Logf("keep screenshot: %v", err)
		return
	}
	defer src.Close()
	dst, err := os.Create(filepath.Join(dir, filepath.Base(path)))
	if err != nil {
		t.Logf("keep screenshot: %v", err)
		return
	}
	defer dst.Close()
	if _, err := io.Copy(dst, src); err != nil {
		t.Logf("keep screenshot: %v", err)
	}
}
