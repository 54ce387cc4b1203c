package confirm

import (
	"io"
	"os"
	"strings"
	"testing"
)

func TestAskIsYesOnlyForYOrYes(t *testing.T) {
	for _, c := range []struct {
		answer string
		want   bool
	}{
		{"y\n", true}, {"Yes\n", true}, {"  YES  \r\n", true}, {"y", true},
		{"\n", false}, {"", false}, {"n\n", false}, {"yep\n", false}, {"no\ny\n", false},
	} {
		var out strings.Builder
		got, err := Ask(strings.NewReader(c.answer), &out, "Add 1 file? [y/N] ")
		if err != nil || got != c.want || !strings.HasPrefix(out.String(), "Add 1 file? [y/N] ") {
			t.Errorf("answer %q: %v, %v (asked %q), want %v", c.answer, got, err, out.String(), c.want)
		}
	}
}

func TestNoOneAnswersOnAPipeOrAReaderThatIsNoFile(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	for name, in := range map[string]io.Reader{"a pipe": r, "the null device": devnull, "a string": strings.NewReader("y\n")} {
		if Terminal(in) {
			t.Errorf("%s is taken for a terminal", name)
		}
	}
}
