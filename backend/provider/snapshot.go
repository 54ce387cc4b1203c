package provider

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/ferrydesk/ferry/backend/browser/snapshot"
	"github.com/ferrydesk/ferry/backend/redact"
	"github.com/ferrydesk/ferry/backend/site"
)

// Snapshot is the tab as it was when a run failed, made safe to share: what
// `ferry report` puts in a failure report. Nothing in it may carry a secret
// except the screenshot, which shows the page as it was (see
// SnapshotOptions.Screenshot).
type Snapshot struct {
	At    time.Time `json:"at"`
	URL   string    `json:"url"` // without query, fragment and userinfo
	Title string    `json:"title"`
	// Viewport is the tab's visible area, "780x437".
	Viewport string `json:"viewport"`
	// DOM is the page's HTML with every form value, every text node
	// longer than 200 characters, every src/href query string, cookies,
	// tokens and e-mail addresses redacted; tag names, classes, ids,
	// roles, aria-labels, test ids and the short visible text of controls
	// are kept. Scripts and styles are left out.
	DOM          string `json:"dom"`
	DOMTruncated bool   `json:"domTruncated,omitempty"`
	// Screenshot is a JPEG of the viewport; nil when off or too large.
	Screenshot []byte `json:"screenshot,omitempty"`
	// Console holds the page's errors (console.error, exceptions, failed
	// loads), redacted.
	Console []string `json:"console"`
	// Roles are the site's selectors for each role, as Ferry tried them.
	Roles []RoleProbe `json:"roles"`
	// Browser is Chromium's product string, "Chrome/156.0.8078.108".
	Browser string `json:"browser"`
	// Problems name the parts that could not be taken, and why.
	Problems []string `json:"problems,omitempty"`
}

// RoleProbe is how the selectors of one role fared on the page.
type RoleProbe struct {
	Role      site.Role       `json:"role"`
	Selectors []SelectorProbe `json:"selectors"`
}

// SelectorProbe is what one selector matched: how many elements, how many
// of them rendered, and the first one described (tag, id, classes, role,
// aria-label, test id, head of its text; redacted). Invalid is set for a
// selector the page's querySelectorAll refused.
type SelectorProbe struct {
	Selector string `json:"selector"`
	Matches  int    `json:"matches"`
	Visible  int    `json:"visible"`
	First    string `json:"first,omitempty"`
	Invalid  bool   `json:"invalid,omitempty"`
}

// SnapshotOptions say what Snapshot takes. Screenshot adds the picture,
// which cannot be redacted: it is on by default and off by a setting.
// Secrets are texts the snapshot must not hold anywhere (the run's prompt):
// they are redacted wherever they appear, beside what Snapshot redacts of
// itself.
type SnapshotOptions struct {
	Screenshot bool
	Secrets    []string
}

// Snapshotter is implemented by adapters that can take a Snapshot of their
// tab. Snapshot returns what it could take within ctx, naming the parts it
// could not in Problems; it fails only when it could take nothing (the
// tab is gone), with the page's envelope.
type Snapshotter interface {
	Snapshot(ctx context.Context, o SnapshotOptions) (*Snapshot, error)
}

// Bounds of a snapshot, so that one always fits in a store value.
const (
	snapshotDOMBytes        = 1 << 20
	snapshotScreenshotBytes = 1536 << 10
	snapshotConsoleEntries  = 50
)

// Snapshot implements Snapshotter: the page, its console errors, the
// site's selectors and the screenshot are taken side by side, each bounded
// by ctx.
func (w *Web) Snapshot(ctx context.Context, o SnapshotOptions) (*Snapshot, error) {
	s := &Snapshot{At: time.Now().UTC()}
	secrets := []string{}
	for _, sec := range o.Secrets {
		secrets = append(secrets, redact.Literals(sec)...)
	}
	clean := func(v string) string { return redact.Text(v, secrets...) }
	var mu sync.Mutex
	problem := func(part string, err error) {
		mu.Lock()
		defer mu.Unlock()
		s.Problems = append(s.Problems, part+": "+clean(err.Error()))
	}
	var wg sync.WaitGroup
	var pageErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		var page struct {
			URL       string `json:"url"`
			Title     string `json:"title"`
			Viewport  string `json:"viewport"`
			DOM       string `json:"dom"`
			Truncated bool   `json:"truncated"`
		}
		if err := w.Page.EvalInto(ctx, &page, snapshotDOMJS, snapshotDOMBytes); err != nil {
			pageErr = err
			problem("dom", err)
			return
		}
		s.URL, s.Title, s.Viewport = redact.URL(page.URL), clean(page.Title), page.Viewport
		s.DOM, s.DOMTruncated = clean(page.DOM), page.Truncated
	}()
	wg.Add(1)
	go func() {
		defer wg.Done()
		roles, err := w.probeRoles(ctx)
		if err != nil {
			problem("selectors", err)
			return
		}
		for i := range roles {
			for j := range roles[i].Selectors {
				roles[i].Selectors[j].First = clean(roles[i].Selectors[j].First)
			}
		}
		s.Roles = roles
	}()
	wg.Add(1)
	go func() {
		defer wg.Done()
		lines, err := snapshot.ConsoleErrors(ctx, w.Page, snapshotConsoleEntries)
		if err != nil {
			problem("console", err)
			return
		}
		for _, l := range lines {
			s.Console = append(s.Console, clean(l))
		}
	}()
	wg.Add(1)
	go func() {
		defer wg.Done()
		v, err := w.Page.Version(ctx)
		if err != nil {
			problem("browser version", err)
			return
		}
		s.Browser = v
	}()
	wg.Wait()
	// The screenshot comes last: it shows the tab for a moment in a
	// headful window, which must not disturb the reads above.
	if o.Screenshot {
		img, err := snapshot.Screenshot(ctx, w.Page, snapshotScreenshotBytes)
		switch {
		case err != nil:
			problem("screenshot", err)
		case img == nil:
			problem("screenshot", errors.New("larger than its bound, left out"))
		default:
			s.Screenshot = img
		}
	}
	if pageErr != nil && s.Roles == nil {
		return nil, pageErr
	}
	return s, nil
}

// probeRoles runs every selector of the site's roles on the page.
func (w *Web) probeRoles(ctx context.Context) ([]RoleProbe, error) {
	var roles []site.Role
	var lists [][]string
	for _, r := range site.Roles() {
		if sels := w.Env.Site.Selector(r); len(sels) > 0 {
			roles, lists = append(roles, r), append(lists, sels)
		}
	}
	var got [][]SelectorProbe
	if err := w.Page.EvalInto(ctx, &got, probeRolesJS, lists); err != nil {
		return nil, err
	}
	out := make([]RoleProbe, len(roles))
	for i, r := range roles {
		out[i] = RoleProbe{Role: r}
		if i < len(got) {
			out[i].Selectors = got[i]
		}
	}
	return out, nil
}

// describeElementJS names an element for a report: tag, id, classes, role,
// aria-label, test id, and for a control (a button, a link, a menu item…)
// its short label. The text of anything else (a turn of the thread, the
// composer) is left out: it is the user's or the site's answer.
const describeElementJS = `
const __control = (e) => ['BUTTON', 'A', 'LABEL', 'SUMMARY', 'OPTION'].includes(e.tagName) ||
  ['button', 'link', 'menuitem', 'menuitemradio', 'menuitemcheckbox', 'tab', 'radio', 'checkbox', 'switch', 'option'].includes(e.getAttribute('role'));
const __describe = (e) => {
  let d = e.tagName.toLowerCase() + (e.id ? '#' + e.id : '');
  if (typeof e.className === 'string' && e.className.trim()) d += '.' + e.className.trim().split(/\s+/).slice(0, 6).join('.');
  for (const a of ['role', 'aria-label', 'data-testid', 'type']) {
    const v = e.getAttribute(a);
    if (v) d += '[' + a + '="' + v.slice(0, 60) + '"]';
  }
  if (!__control(e) || e.isContentEditable || e.querySelector('[contenteditable], textarea, input:not([type=hidden])')) return d;
  const text = (e.innerText || e.textContent || '').replace(/\s+/g, ' ').trim();
  if (text && text.length <= 60) d += ' "' + text + '"';
  return d;
};`

const probeRolesJS = `(lists) => {` + describeElementJS + `
  return lists.map((sels) => sels.map((selector) => {
    let all;
    try { all = [...document.querySelectorAll(selector)]; } catch (e) { return {selector, matches: 0, visible: 0, invalid: true}; }
    const shown = all.filter((el) => { const st = getComputedStyle(el);
      return st.display !== 'none' && st.visibility !== 'hidden' && el.getClientRects().length > 0; });
    const first = shown[0] || all[0];
    return {selector, matches: all.length, visible: shown.length, first: first ? __describe(first) : ''};
  }));
}`

// snapshotDOMJS serialises the page for a report (see Snapshot.DOM). It
// walks the live document rather than a clone, since a clone loses the
// values typed into form fields (which it must know to leave out).
const snapshotDOMJS = `(limit) => {
  const keep = new Set(['id', 'class', 'role', 'data-testid', 'data-test-id', 'type', 'name', 'disabled', 'hidden',
    'contenteditable', 'placeholder', 'title', 'alt', 'for', 'lang', 'dir', 'tabindex', 'data-state', 'data-message-author-role',
    'data-conversation-role', 'data-markdown-text-style', 'data-turn-key']);
  const urlAttrs = new Set(['href', 'src', 'action', 'poster']);
  const skip = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME', 'OBJECT', 'EMBED', 'CANVAS', 'LINK', 'META']);
  const formish = (el) => el.isContentEditable || el.tagName === 'TEXTAREA' || el.tagName === 'INPUT' || el.tagName === 'SELECT' || el.tagName === 'OPTION';
  const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const bare = (u) => { const i = u.search(/[?#]/); return i < 0 ? u : u.slice(0, i) + (u[i] === '?' ? '?[redacted]' : ''); };
  let out = '', truncated = false;
  const put = (s) => { if (out.length + s.length > limit) { truncated = true; return false; } out += s; return true; };
  const walk = (n, inForm, depth) => {
    if (truncated || depth > 200) return;
    if (n.nodeType === 3) {
      const t = n.nodeValue;
      if (!t.trim()) { put(t.length > 1 ? ' ' : t); return; }
      if (inForm) { put('[redacted form value]'); return; }
      if (t.trim().length > 200) { put('[redacted text: ' + t.trim().length + ' characters]'); return; }
      put(esc(t));
      return;
    }
    if (n.nodeType !== 1) return;
    const tag = n.tagName.toLowerCase();
    if (skip.has(n.tagName.toUpperCase())) { put('<' + tag + '></' + tag + '>'); return; }
    let a = '<' + tag;
    for (const at of n.attributes) {
      const k = at.name;
      if (keep.has(k) || k.startsWith('aria-')) a += ' ' + k + '="' + esc(at.value.slice(0, 200)) + '"';
      else if (urlAttrs.has(k)) a += ' ' + k + '="' + esc(bare(at.value).slice(0, 300)) + '"';
      else if (k === 'value') a += ' value="[redacted]"';
    }
    if (n.tagName === 'INPUT' && n.type !== 'hidden' && n.value) a += ' data-ferry-value="[redacted]"';
    if (!put(a + '>')) return;
    const form = inForm || formish(n);
    for (const c of n.childNodes) walk(c, form, depth + 1);
    if (n.shadowRoot) { put('<!--shadow-->'); for (const c of n.shadowRoot.childNodes) walk(c, form, depth + 1); }
    put('</' + tag + '>');
  };
  walk(document.documentElement, false, 0);
  if (truncated) out += '<!-- truncated -->';
  return {url: location.href, title: document.title, viewport: innerWidth + 'x' + innerHeight, dom: out, truncated};
}`

var _ Snapshotter = (*Web)(nil)
