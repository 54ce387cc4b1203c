package browser

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

func TestEval(t *testing.T) {
	p := newTab(t, "/blank.html")
	t.Run("a value and an awaited promise come back as JSON", func(t *testing.T) {
		var got struct {
			Title string `json:"title"`
			Sum   int    `json:"sum"`
		}
		err := p.EvalInto(testCtx(t, 5*time.Second), &got,
			`async (a, b) => ({title: document.title, sum: await Promise.resolve(a + b)})`, 40, 2)
		if err != nil || got.Title != "Blank fixture" || got.Sum != 42 {
			t.Fatalf("got %+v %v", got, err)
		}
	})
	t.Run("arguments are data, never code", func(t *testing.T) {
		evil := `"); window.__pwned = true; ("`
		var got string
		if err := p.EvalInto(testCtx(t, 5*time.Second), &got, `(s) => s`, evil); err != nil || got != evil {
			t.Fatalf("got %q %v", got, err)
		}
		var pwned bool
		p.EvalInto(testCtx(t, 5*time.Second), &pwned, `() => window.__pwned === true`)
		if pwned {
			t.Fatal("an argument ran as code")
		}
	})
	t.Run("a thrown exception is an internal envelope wrapping a ScriptError", func(t *testing.T) {
		_, err := p.Eval(testCtx(t, 5*time.Second), `() => { throw new Error('boom'); }`)
		var se *ScriptError
		if !errs.Has(err, errs.Internal) || !errors.As(err, &se) || !strings.Contains(se.Text, "boom") {
			t.Fatalf("error %v", err)
		}
	})
	t.Run("the caller's deadline ends a call that would never return", func(t *testing.T) {
		start := time.Now()
		_, err := p.Eval(testCtx(t, 300*time.Millisecond), `() => new Promise(() => {})`)
		if !errs.Has(err, errs.Timeout) || time.Since(start) > 2*time.Second {
			t.Fatalf("error %v after %s", err, time.Since(start))
		}
	})
	t.Run("the browser names its product version", func(t *testing.T) {
		v, err := shared.Version(testCtx(t, 5*time.Second))
		if err != nil || !strings.HasPrefix(v, "Chrome/") {
			t.Fatalf("version %q %v", v, err)
		}
	})
}
