//go:build gui

package guitest

import (
	"bytes"
	"image"
	"image/png"
	"math"
	"strings"
	"testing"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// elementImage is a screenshot of one element.
func elementImage(t *testing.T, el *rod.Element) image.Image {
	t.Helper()
	b, err := el.Screenshot(proto.PageCaptureScreenshotFormatPng, 0)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// pixelDistance is the mean absolute difference of two images' luma, over
// the area both cover (0–255).
func pixelDistance(a, b image.Image) float64 {
	w := min(a.Bounds().Dx(), b.Bounds().Dx())
	h := min(a.Bounds().Dy(), b.Bounds().Dy())
	luma := func(img image.Image, x, y int) float64 {
		r, g, bl, _ := img.At(img.Bounds().Min.X+x, img.Bounds().Min.Y+y).RGBA()
		return 0.2126*float64(r>>8) + 0.7152*float64(g>>8) + 0.0722*float64(bl>>8)
	}
	var sum float64
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			sum += math.Abs(luma(a, x, y) - luma(b, x, y))
		}
	}
	return sum / float64(w*h)
}

// TestDarkModeControls: in the dark palette every form control says its
// state (issue 19, point 7): a placeholder is fainter than typed text and in
// italics; an unselected radio button is dark, not a white dot, and differs
// from a selected one; "New chat" unticked, ticked and disabled look
// different; and the dark window, compared with the light one, is dark
// throughout. The real frontend in Chromium against the real backend.
func TestDarkModeControls(t *testing.T) {
	t.Parallel()
	requireDisplay(t)
	requireFrontendBuilt(t)
	bin := buildApp(t, devTags)
	b := launchBrowser(t)
	shots := t.TempDir()
	app := startDevApp(t, bin, t.TempDir())
	page := openShell(t, b, app.url)
	theme := func(name string) {
		evalJSON(t, page, `(th) => window.go.app.Settings.Get().then(s => window.go.app.Settings.Save({...s, theme: th}))`, name)
		page.MustWait(`(th) => document.documentElement.dataset.theme === th`, name)
	}
	page.MustElement(`[role=tab][data-view=compose]`).MustClick()
	waitTitle(t, page, "Compose")

	theme("light")
	lightShot, err := imageStats(savePageShot(t, page, shots, "compose-light.png"))
	if err != nil {
		t.Fatal(err)
	}
	theme("dark")
	darkShot, err := imageStats(savePageShot(t, page, shots, "compose-dark.png"))
	if err != nil {
		t.Fatal(err)
	}
	if darkShot.MeanLuma > lightShot.MeanLuma-80 || darkShot.MeanLuma > 80 {
		t.Errorf("dark window mean luma %.0f against light %.0f: not dark throughout", darkShot.MeanLuma, lightShot.MeanLuma)
	}

	t.Run("a placeholder does not look typed", func(t *testing.T) {
		res := evalJSON(t, page, `() => {
			const el = document.querySelector('[data-testid=repo-root]');
			const lum = (c) => { const [r, g, b] = c.match(/\d+(\.\d+)?/g).map(Number); return (0.2126*r + 0.7152*g + 0.0722*b) / 255; };
			const ph = getComputedStyle(el, '::placeholder');
			return {text: lum(getComputedStyle(el).color), placeholder: lum(ph.color), style: ph.fontStyle, value: el.value, hint: el.placeholder};
		}`)
		text, ph := res["text"].(float64), res["placeholder"].(float64)
		if ph > text-0.3 || res["style"] != "italic" {
			t.Errorf("placeholder luma %.2f (%v) against typed text %.2f: want clearly fainter and in italics", ph, res["style"], text)
		}
		if hint := str(res["hint"]); strings.HasPrefix(hint, "/") {
			t.Errorf("the placeholder %q reads like a typed path", hint)
		}
	})

	t.Run("New chat unticked, ticked and disabled look different", func(t *testing.T) {
		click := func(sel string) { page.MustElement(sel).MustClick() }
		box := page.MustElement(`[data-testid=compose-newchat]`)
		if box.MustProperty("checked").Bool() {
			click(`[data-testid=compose-newchat]`)
		}
		unticked := elementImage(t, box)
		click(`[data-testid=compose-newchat]`)
		page.MustWait(`() => document.querySelector('[data-testid=compose-newchat]').checked`)
		ticked := elementImage(t, box)
		click(`[data-testid=compose-newchat]`)
		click(`[data-testid=code-summary]`) // code mode's options fold away
		click(`[data-testid=code-mode]`)
		page.MustWait(`() => document.querySelector('[data-testid=compose-newchat]').disabled`)
		disabled := elementImage(t, box)
		for _, p := range []struct {
			name string
			a, b image.Image
		}{{"unticked and ticked", unticked, ticked}, {"unticked and disabled", unticked, disabled}, {"ticked and disabled", ticked, disabled}} {
			if d := pixelDistance(p.a, p.b); d < 12 {
				t.Errorf("%s differ by %.1f (mean luma), want a visible difference", p.name, d)
			}
		}
		if l := stats(unticked).MeanLuma; l > 110 {
			t.Errorf("an unticked box in the dark is bright (mean luma %.0f)", l)
		}
	})

	t.Run("an unselected radio button is not a white dot", func(t *testing.T) {
		one := page.MustElement(`input[type=radio][value=one]`)
		several := page.MustElement(`input[type=radio][value=several]`)
		if !one.MustProperty("checked").Bool() {
			one.MustClick()
		}
		selected, unselected := elementImage(t, one), elementImage(t, several)
		if l := stats(unselected).MeanLuma; l > 110 {
			t.Errorf("an unselected radio button in the dark has mean luma %.0f: it looks lit", l)
		}
		if d := pixelDistance(selected, unselected); d < 12 {
			t.Errorf("selected and unselected radio buttons differ by %.1f", d)
		}
		savePageShot(t, page, shots, "compose-dark.png")
	})
	app.stop(t)
}
