package job

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

func TestListFiltersByCreationDate(t *testing.T) {
	r, st := openRepo(t, t.TempDir())
	defer st.Close()
	ctx := context.Background()
	day := func(d int) time.Time { return time.Date(2026, 3, d, 12, 0, 0, 0, time.UTC) }
	for _, d := range []int{1, 5, 9} {
		if _, err := r.Create(ctx, &Session{Site: "chatgpt", Prompt: "run of day " + strconv.Itoa(d), Created: day(d), State: StateDone}); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name     string
		from, to time.Time
		want     []int
	}{
		{"no bounds lists every run", time.Time{}, time.Time{}, []int{9, 5, 1}},
		{"a lower bound keeps runs from that instant on", day(5), time.Time{}, []int{9, 5}},
		{"an upper bound is exclusive", time.Time{}, day(5), []int{1}},
		{"both bounds keep the runs between", day(2), day(9).Add(time.Second), []int{9, 5}},
		{"a range with no run lists nothing", day(6), day(8), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, total, err := r.List(ctx, Filter{From: c.from, To: c.to})
			if err != nil {
				t.Fatal(err)
			}
			if total != len(c.want) || len(got) != len(c.want) {
				t.Fatalf("got %d runs (total %d), want %d", len(got), total, len(c.want))
			}
			for i, l := range got {
				if !l.Session.Created.Equal(day(c.want[i])) {
					t.Errorf("run %d created %v, want %v", i, l.Session.Created, day(c.want[i]))
				}
			}
		})
	}
	t.Run("a range that ends before it starts is bad input", func(t *testing.T) {
		if _, _, err := r.List(ctx, Filter{From: day(9), To: day(1)}); !errs.Has(err, errs.BadInput) {
			t.Fatalf("got %v, want bad_input", err)
		}
	})
}
