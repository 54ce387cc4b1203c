package browser

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

const prompt = "Hello, Ferry — ünïcödé 🚢 «quotes» and\nа second line"

// model reads what the fixture's framework believes the editor holds.
func model(t *testing.T, p *Page, id string) string {
	t.Helper()
	var m string
	if err := p.EvalInto(testCtx(t, 5*time.Second), &m, `(id) => window.model[id]`, id); err != nil {
		t.Fatalf("read model: %v", err)
	}
	return m
}

func TestEachTypingStrategyReachesTheFrameworkItIsFor(t *testing.T) {
	cases := []struct {
		name     string
		id       string
		strategy Strategy
		opts     []TypeOption
	}{
		{"insert-text reaches a ProseMirror-like editor", "pm", InsertText, nil},
		{"exec-command reaches a ProseMirror-like editor", "pm", ExecCommand, nil},
		{"insert-text reaches a React-controlled textarea", "react", InsertText, nil},
		{"native-setter reaches a React-controlled textarea", "react", NativeSetter, nil},
		{"exec-command without the extra input reaches a Lexical-like editor", "lex", ExecCommand, []TypeOption{WithoutExtraInput()}},
		{"insert-text reaches a Lexical-like editor", "lex", InsertText, nil},
		{"paste-event reaches an editor that syncs on input", "plain", PasteEvent, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := newTab(t, "/editors.html")
			ctx := testCtx(t, 10*time.Second)
			sel := "#" + tc.id
			if err := p.Type(ctx, sel, prompt, tc.strategy, tc.opts...); err != nil {
				t.Fatalf("type: %v", err)
			}
			if got := model(t, p, tc.id); normalizeSpace(got) != normalizeSpace(prompt) {
				t.Fatalf("the framework's model holds %q, want the prompt", got)
			}
			if _, err := p.Verify(ctx, sel, prompt); err != nil {
				t.Fatalf("verify: %v", err)
			}
		})
	}
}

func TestNaiveWritesGoUnnoticedByTheFrameworks(t *testing.T) {
	cases := []struct {
		name, id, js string
	}{
		{"a textContent write is not seen by a ProseMirror-like editor", "pm",
			`(t) => { document.getElementById('pm').textContent = t; }`},
		{"a value write with an input event is ignored by a React-controlled textarea", "react",
			`(t) => { const el = document.getElementById('react'); el.value = t; el.dispatchEvent(new Event('input', {bubbles: true})); }`},
		{"a textContent write is not seen by a Lexical-like editor", "lex",
			`(t) => { document.getElementById('lex').textContent = t; }`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := newTab(t, "/editors.html")
			ctx := testCtx(t, 10*time.Second)
			if _, err := p.Eval(ctx, tc.js, prompt); err != nil {
				t.Fatal(err)
			}
			// The DOM shows the text, yet the framework's model is empty:
			// this is what a site would send.
			if got, err := p.ReadBack(ctx, "#"+tc.id); err != nil || normalizeSpace(got) != normalizeSpace(prompt) {
				t.Fatalf("read back %q %v", got, err)
			}
			if got := model(t, p, tc.id); got != "" {
				t.Fatalf("the naive write reached the model: %q", got)
			}
		})
	}
}

func TestAnExtraInputEventDuplicatesTextInLexicalAndVerifyCatchesIt(t *testing.T) {
	p := newTab(t, "/editors.html")
	ctx := testCtx(t, 10*time.Second)
	if err := p.Type(ctx, "#lex", "abc", ExecCommand); err != nil {
		t.Fatal(err)
	}
	if got := model(t, p, "lex"); got != "abcabc" {
		t.Fatalf("the Lexical-like model holds %q; the fixture should duplicate on the extra event", got)
	}
	_, err := p.Verify(ctx, "#lex", "abc")
	if !errs.Has(err, errs.ComposerMismatch) {
		t.Fatalf("verify: %v, want composer_mismatch", err)
	}
}

func TestVerify(t *testing.T) {
	t.Run("a prompt cut by the composer's length limit is prompt_too_large", func(t *testing.T) {
		p := newTab(t, "/editors.html")
		ctx := testCtx(t, 10*time.Second)
		long := strings.Repeat("0123456789", 5)
		if err := p.Type(ctx, "#short", long, InsertText); err != nil {
			t.Fatal(err)
		}
		_, err := p.Verify(ctx, "#short", long)
		if !errs.Has(err, errs.PromptTooLarge) {
			t.Fatalf("verify: %v, want prompt_too_large", err)
		}
		if e := errs.From(err); e.Evidence["kept_chars"] != "20" {
			t.Fatalf("evidence %v", e.Evidence)
		}
	})
	t.Run("a selector that matches nothing is composer_not_found", func(t *testing.T) {
		p := newTab(t, "/editors.html")
		ctx := testCtx(t, 10*time.Second)
		if err := p.Type(ctx, "#nothing-here", "x", InsertText); !errs.Has(err, errs.ComposerNotFound) {
			t.Fatalf("type: %v", err)
		}
		if _, err := p.Verify(ctx, "#nothing-here", "x"); !errs.Has(err, errs.ComposerNotFound) {
			t.Fatalf("verify: %v", err)
		}
	})
	t.Run("a hidden twin earlier in the DOM is passed over for the visible composer", func(t *testing.T) {
		p := newTab(t, "/editors.html")
		ctx := testCtx(t, 10*time.Second)
		if err := p.Type(ctx, ".composer", "visible", InsertText); err != nil {
			t.Fatal(err)
		}
		if got := model(t, p, "pm"); got != "visible" {
			t.Fatalf("pm model %q", got)
		}
	})
	t.Run("clear empties a draft so that the framework notices", func(t *testing.T) {
		p := newTab(t, "/editors.html")
		ctx := testCtx(t, 10*time.Second)
		if err := p.Type(ctx, "#pm", "stale draft", InsertText); err != nil {
			t.Fatal(err)
		}
		if err := p.Clear(ctx, "#pm"); err != nil {
			t.Fatal(err)
		}
		if err := p.Type(ctx, "#pm", "fresh", InsertText); err != nil {
			t.Fatal(err)
		}
		if got := model(t, p, "pm"); got != "fresh" {
			t.Fatalf("pm model %q", got)
		}
	})
	t.Run("native-setter on a contenteditable is bad_input", func(t *testing.T) {
		p := newTab(t, "/editors.html")
		if err := p.Type(testCtx(t, 5*time.Second), "#pm", "x", NativeSetter); !errs.Has(err, errs.BadInput) {
			t.Fatalf("type: %v", err)
		}
	})
}

func TestCompareComposer(t *testing.T) {
	cases := []struct {
		name, got, want string
		code            errs.Code
	}{
		{"identical text matches", "a b", "a b", ""},
		{"paragraph breaks and NBSP differ only in whitespace", "a\n\nb\u00a0", "a\nb", ""},
		{"a strict prefix is prompt_too_large", "abc", "abcdef", errs.PromptTooLarge},
		{"an empty composer is a mismatch, not truncation", "", "abc", errs.ComposerMismatch},
		{"a duplicated prompt is a mismatch", "abcabc", "abc", errs.ComposerMismatch},
		{"a different character is a mismatch", "abx", "abc", errs.ComposerMismatch},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := errs.CodeOf(compareComposer(tc.got, tc.want)); got != tc.code {
				t.Fatalf("code %q, want %q", got, tc.code)
			}
		})
	}
}

func TestClicksAndKeys(t *testing.T) {
	type click struct {
		ID      string  `json:"id"`
		Trusted bool    `json:"trusted"`
		X       float64 `json:"x"`
	}
	t.Run("a click is trusted and lands at the element's centre", func(t *testing.T) {
		p := newTab(t, "/editors.html")
		ctx := testCtx(t, 10*time.Second)
		pt, err := p.Click(ctx, "#covered")
		if err != nil {
			t.Fatal(err)
		}
		var clicks []click
		if err := p.EvalInto(ctx, &clicks, `() => window.clicks`); err != nil {
			t.Fatal(err)
		}
		if len(clicks) != 1 || clicks[0].ID != "covered" || !clicks[0].Trusted || int(clicks[0].X) != int(pt.X) {
			t.Fatalf("clicks %+v at %+v", clicks, pt)
		}
	})
	t.Run("a click on an element under a modal backdrop is refused and clicks nothing", func(t *testing.T) {
		p := newTab(t, "/editors.html")
		ctx := testCtx(t, 10*time.Second)
		if _, err := p.Eval(ctx, `() => document.body.classList.add('modal')`); err != nil {
			t.Fatal(err)
		}
		_, err := p.Click(ctx, "#covered")
		if !errors.Is(err, ErrObscured) {
			t.Fatalf("click: %v, want ErrObscured", err)
		}
		var clicks []click
		if err := p.EvalInto(ctx, &clicks, `() => window.clicks`); err != nil {
			t.Fatal(err)
		}
		if len(clicks) != 0 {
			t.Fatalf("something was clicked: %+v", clicks)
		}
	})
	t.Run("enter and ctrl+enter reach the focused editor as trusted key events", func(t *testing.T) {
		p := newTab(t, "/editors.html")
		ctx := testCtx(t, 10*time.Second)
		if err := p.Type(ctx, "#react", "x", InsertText); err != nil {
			t.Fatal(err)
		}
		if err := p.Press(ctx, Enter); err != nil {
			t.Fatal(err)
		}
		if err := p.Press(ctx, CtrlEnter); err != nil {
			t.Fatal(err)
		}
		var keys []struct {
			Key     string `json:"key"`
			Ctrl    bool   `json:"ctrl"`
			Trusted bool   `json:"trusted"`
			Target  string `json:"target"`
		}
		if err := p.EvalInto(ctx, &keys, `() => window.keys`); err != nil {
			t.Fatal(err)
		}
		if len(keys) != 2 || keys[0].Key != "Enter" || keys[0].Ctrl || !keys[1].Ctrl || !keys[0].Trusted || keys[1].Target != "react" {
			t.Fatalf("keys %+v", keys)
		}
		if got := model(t, p, "react"); got != "x\n" {
			t.Fatalf("enter should insert a newline in a textarea: %q", got)
		}
	})
}
