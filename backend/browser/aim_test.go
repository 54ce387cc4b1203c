package browser

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

type aimClick struct {
	ID      string  `json:"id"`
	Trusted bool    `json:"trusted"`
	X       float64 `json:"x"`
	Y       float64 `json:"y"`
}

// shortTab opens the aim fixture in a viewport as short as Ferry's
// headless window (780×437).
func shortTab(t *testing.T) *Page {
	t.Helper()
	p := newTab(t, "/aim.html")
	ctx := testCtx(t, 5*time.Second)
	if err := p.Exec(ctx, "Emulation.setDeviceMetricsOverride", proto.EmulationSetDeviceMetricsOverride{
		Width: 780, Height: 437, DeviceScaleFactor: 1,
	}, nil); err != nil {
		t.Fatal(err)
	}
	return p
}

func aimClicks(t *testing.T, p *Page) []aimClick {
	t.Helper()
	var clicks []aimClick
	if err := p.EvalInto(testCtx(t, 5*time.Second), &clicks, `() => window.clicks`); err != nil {
		t.Fatal(err)
	}
	return clicks
}

func TestAPressLandsOnTheElementItWasAimedAt(t *testing.T) {
	t.Run("a tall control whose centre is below the fold is scrolled into view and clicked once", func(t *testing.T) {
		p := shortTab(t)
		ctx := testCtx(t, 10*time.Second)
		var before struct {
			Bottom float64 `json:"bottom"`
			Top    float64 `json:"top"`
			Centre float64 `json:"centre"`
			H      float64 `json:"h"`
		}
		if err := p.EvalInto(ctx, &before, `() => { const r = document.getElementById('tall').getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, centre: r.top + r.height / 2, h: innerHeight}; }`); err != nil {
			t.Fatal(err)
		}
		if before.Top >= before.H || before.Centre <= before.H {
			t.Fatalf("fixture: the control spans %v..%v in a %v high viewport; want its top in view and its centre below", before.Top, before.Bottom, before.H)
		}
		pt, err := p.Click(ctx, "#tall")
		if err != nil {
			t.Fatalf("click: %v", err)
		}
		clicks := aimClicks(t, p)
		if len(clicks) != 1 || clicks[0].ID != "tall" || !clicks[0].Trusted {
			t.Fatalf("clicks %+v, want one trusted click on the tall control", clicks)
		}
		if pt.Y < 0 || pt.Y >= before.H {
			t.Errorf("clicked at %+v, outside the %v high viewport", pt, before.H)
		}
	})
	t.Run("a control clipped by its container is clicked in its visible part", func(t *testing.T) {
		p := shortTab(t)
		ctx := testCtx(t, 10*time.Second)
		pt, err := p.Click(ctx, "#clipped")
		if err != nil {
			t.Fatalf("click: %v", err)
		}
		clicks := aimClicks(t, p)
		if len(clicks) != 1 || clicks[0].ID != "clipped" {
			t.Fatalf("clicks %+v, want one on the clipped control", clicks)
		}
		if pt.Y < 10 || pt.Y > 50 {
			t.Errorf("clicked at %+v, outside the container's 10..50 band", pt)
		}
	})
	t.Run("a control whose centre is under a banner is clicked where it shows", func(t *testing.T) {
		p := shortTab(t)
		ctx := testCtx(t, 10*time.Second)
		if _, err := p.Click(ctx, "#part"); err != nil {
			t.Fatalf("click: %v", err)
		}
		if clicks := aimClicks(t, p); len(clicks) != 1 || clicks[0].ID != "part" {
			t.Fatalf("clicks %+v, want one on the partly covered control", clicks)
		}
	})
	t.Run("a control under an overlay is not clicked and the error names the overlay", func(t *testing.T) {
		p := shortTab(t)
		ctx := testCtx(t, 10*time.Second)
		if _, err := p.Eval(ctx, `() => document.body.classList.add('dialog')`); err != nil {
			t.Fatal(err)
		}
		_, err := p.Click(ctx, "#under")
		var oe *ObscuredError
		if !errors.Is(err, ErrObscured) || !errors.As(err, &oe) {
			t.Fatalf("click: %v, want an ObscuredError", err)
		}
		for _, want := range []string{"div#consent", "cookie-wall", `aria-label="Cookie consent"`, `role="dialog"`, "We use cookies"} {
			if !strings.Contains(oe.By, want) {
				t.Errorf("the cover is described as %q, which does not name %q", oe.By, want)
			}
		}
		if clicks := aimClicks(t, p); len(clicks) != 0 {
			t.Fatalf("something was clicked: %+v", clicks)
		}
	})
	t.Run("a control that moves when the pointer arrives is looked up again and clicked once", func(t *testing.T) {
		p := shortTab(t)
		ctx := testCtx(t, 10*time.Second)
		pt, err := p.Click(ctx, "#jumpy")
		if err != nil {
			t.Fatalf("click: %v", err)
		}
		clicks := aimClicks(t, p)
		if len(clicks) != 1 || clicks[0].ID != "jumpy" {
			t.Fatalf("clicks %+v, want one on the control where it moved to (none on the decoy)", clicks)
		}
		if pt.Y < 400 {
			t.Errorf("clicked at %+v, where the control was before it moved", pt)
		}
	})
}
