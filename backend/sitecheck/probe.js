// Reads, without changing anything, what the site check needs from a page:
// for each selector role which selector of its list matches first, and for
// the roles asked for the elements that look like the role (ranked), and
// the network requests the page made (resource timing entries). It decides
// nothing: the verdict is Go's (package sitecheck).
// spec: {roles: [{role, sels, texts, hidden}], look: [{role, shape, words}],
// composer: [selectors]}
(spec) => {
  const vis = (el) => {
    if (!el || !el.isConnected || !el.getClientRects().length) return false;
    const cs = getComputedStyle(el);
    return cs.visibility !== 'hidden' && cs.display !== 'none';
  };
  const all = (sel) => {
    try { return { list: Array.from(document.querySelectorAll(sel)) }; } catch (e) { return { bad: true, list: [] }; }
  };
  const text = (el) => (el.innerText || el.textContent || '').trim();
  const roles = {};
  for (const r of spec.roles) {
    const out = { matched: -1, count: 0, invalid: [] };
    (r.sels || []).some((s, i) => {
      const q = all(s);
      if (q.bad) { out.invalid.push(i); return false; }
      const els = q.list.filter((el) => (r.hidden || vis(el)) &&
        (!(r.texts || []).length || r.texts.some((t) => text(el).includes(t))));
      if (!els.length) return false;
      out.matched = i; out.count = els.length;
      return true;
    });
    // A control disabled while the composer is empty is still there:
    // its selectors without their :not(...) state filters find it.
    if (out.matched < 0 && r.relax) {
      (r.sels || []).some((s, i) => {
        const bare = s.replace(/:not\([^()]*\)/g, '');
        if (bare === s || !bare) return false;
        const els = all(bare).list.filter(vis);
        if (!els.length) return false;
        out.matched = i; out.count = els.length; out.relaxed = true;
        return true;
      });
    }
    roles[r.role] = out;
  }

  const state = /^(disabled|enabled|active|inactive|loading|stop|stopped|hidden|visible|open|closed|selected|focus|focused|hover|checked|busy|ready|empty)$/;
  const generated = (s) => /\d{3,}|^:r|^radix-|^headlessui-|[A-Za-z0-9]{10,}[_-]?[A-Za-z0-9]*\d/.test(s);
  const quote = (v) => '"' + v.replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"';
  const attrOf = (el) => ({
    tag: el.tagName.toLowerCase(),
    id: el.id || '',
    testId: el.getAttribute('data-testid') || el.getAttribute('data-test-id') || '',
    testAttr: el.hasAttribute('data-testid') ? 'data-testid' : (el.hasAttribute('data-test-id') ? 'data-test-id' : ''),
    label: el.getAttribute('aria-label') || '',
    role: el.getAttribute('role') || '',
    placeholder: el.getAttribute('placeholder') || '',
    type: el.getAttribute('type') || '',
    editable: el.getAttribute('contenteditable') === 'true' || el.getAttribute('contenteditable') === '',
    classes: Array.from(el.classList || []).filter((c) => !generated(c) && !state.test(c) && /^[A-Za-z_-][\w-]*$/.test(c)).slice(0, 3),
    text: ['button', 'a'].includes(el.tagName.toLowerCase()) || el.getAttribute('role') === 'button' ? text(el).slice(0, 40) : '',
  });
  const selectorsOf = (a) => {
    const base = a.tag + (a.editable ? '[contenteditable="true"]' : '') + (a.tag === 'input' && a.type ? '[type=' + quote(a.type) + ']' : '');
    const out = [];
    if (a.testId) out.push(base + '[' + a.testAttr + '=' + quote(a.testId) + ']');
    if (a.label) out.push(base + '[aria-label=' + quote(a.label) + ']');
    if (a.id && !generated(a.id)) out.push(base + '#' + CSS.escape(a.id));
    if (a.placeholder) out.push(base + '[placeholder=' + quote(a.placeholder) + ']');
    if (a.classes.length) out.push(base + '.' + a.classes.map((c) => CSS.escape(c)).join('.'));
    if (a.role) out.push(base + '[role=' + quote(a.role) + ']');
    out.push(base);
    return out;
  };
  const candidates = {};
  for (const l of spec.look || []) {
    const seen = new Set();
    const found = [];
    for (const el of all(l.shape).list.slice(0, 4000)) {
      const visible = vis(el);
      if (!visible && !l.hidden) continue;
      const a = attrOf(el);
      const hay = {
        testId: a.testId.toLowerCase(), label: a.label.toLowerCase(), id: a.id.toLowerCase(),
        placeholder: a.placeholder.toLowerCase(), classes: a.classes.join(' ').toLowerCase(), text: a.text.toLowerCase(),
      };
      let score = l.strong && el.matches(l.strong) ? 3 : 0;
      const why = [];
      for (const w of l.words || []) {
        for (const [k, pts] of [['testId', 4], ['label', 3], ['id', 2], ['placeholder', 2], ['classes', 2], ['text', 1]]) {
          if (hay[k].includes(w)) { score += pts; why.push(k + '~' + w); }
        }
      }
      if (score < 2) continue;
      let best = '', count = 0;
      for (const s of selectorsOf(a)) {
        const q = all(s);
        if (q.bad || !el.matches(s)) continue;
        const n = q.list.filter((x) => l.hidden || vis(x)).length;
        if (!best || n < count) { best = s; count = n; }
        if (n === 1) break;
      }
      if (!best || seen.has(best)) continue;
      seen.add(best);
      found.push({ selector: best, matches: count, score: score - Math.max(0, count - 1), tag: a.tag, role: a.role,
        label: a.label, testId: a.testId, text: a.text, why });
    }
    found.sort((x, y) => y.score - x.score || x.matches - y.matches);
    candidates[l.role] = found.slice(0, 3);
  }

  const here = location.origin;
  const streams = [];
  for (const e of performance.getEntriesByType('resource')) {
    if (!['fetch', 'xmlhttprequest', 'other'].includes(e.initiatorType)) continue;
    let u;
    try { u = new URL(e.name); } catch (x) { continue; }
    if (u.origin !== here) continue;
    streams.push({ path: u.pathname, initiator: e.initiatorType, contentType: e.contentType || '',
      ms: Math.round(e.duration), start: Math.round(e.startTime), status: e.responseStatus || 0 });
  }
  let composerText = false;
  for (const s of spec.composer || []) {
    const el = all(s).list.find(vis);
    if (el) { composerText = ((el.value !== undefined ? el.value : el.innerText) || '').trim() !== ''; break; }
  }
  return { url: location.href, roles, candidates, requests: streams.slice(-200), composerText };
}
