package browser

import (
	"context"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/browser/launch"
)

func TestMinimizeWindows(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b, err := Launch(ctx, t.TempDir(), launch.WithBinary(testBinary), launch.Headless())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close(context.Background())
	before, err := b.WindowStates(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(before) == 0 {
		t.Fatal("the launched browser lists no window")
	}
	for id, st := range before {
		if st == "minimized" {
			t.Fatalf("window %d starts minimized", id)
		}
	}
	if err := b.MinimizeWindows(ctx); err != nil {
		t.Fatal(err)
	}
	after, err := b.WindowStates(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for id, st := range after {
		if st != "minimized" {
			t.Errorf("window %d is %q after MinimizeWindows, want minimized", id, st)
		}
	}
}

func TestShowTab(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b, err := Launch(ctx, t.TempDir(), launch.WithBinary(testBinary), launch.Headless())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close(context.Background())
	p, err := b.OpenTab(ctx, "about:blank")
	if err != nil {
		t.Fatal(err)
	}
	if err := b.MinimizeWindows(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.ShowTab(ctx, p.ID()); err != nil {
		t.Fatal(err)
	}
	states, err := b.WindowStates(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for id, st := range states {
		if st != "normal" {
			t.Errorf("window %d is %q after ShowTab, want normal", id, st)
		}
	}
	if err := b.ShowTab(ctx, "NOSUCHTARGET"); err == nil {
		t.Error("showing a tab that does not exist succeeded")
	}
}
