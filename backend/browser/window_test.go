package browser

import (
	"context"
	"testing"
	"time"
)

func TestMinimizeWindows(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b, err := Launch(ctx, t.TempDir(), WithBinary(testBinary), Headless())
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
