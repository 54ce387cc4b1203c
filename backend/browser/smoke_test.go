package browser

import (
	"strings"
	"testing"
	"time"
)

func TestSmoke(t *testing.T) {
	p := newTab(t, "/blank.html")
	ctx := testCtx(t, 10*time.Second)
	var title string
	if err := p.EvalInto(ctx, &title, `() => document.title`); err != nil {
		t.Fatal(err)
	}
	if title != "Blank fixture" {
		t.Fatalf("title %q", title)
	}
	v, err := shared.Version(ctx)
	if err != nil || !strings.Contains(v, "Chrome") {
		t.Fatalf("version %q %v", v, err)
	}
	t.Log(v)
}
