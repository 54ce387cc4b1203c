// Shared runtime of the simulated sites: DOM building, stream reading and the
// composer models (ProseMirror-like, Quill-like, Lexical-like, React textarea).
// Hand-written, no framework: each model reproduces how the real editor
// decides what the user typed, so naive property writes are not noticed.
(function () {
  'use strict';
  const Sim = (window.Sim = {});
  Sim.cfg = window.__SIM__ || {};

  Sim.h = function (tag, attrs, ...kids) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === 'class') el.className = v;
      else if (k === 'text') el.textContent = v;
      else if (k === 'html') el.innerHTML = v;
      else if (k === 'style') el.style.cssText = v;
      else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? '' : v);
    }
    for (const kid of kids.flat()) {
      if (kid === null || kid === undefined || kid === false) continue;
      el.appendChild(typeof kid === 'string' ? document.createTextNode(kid) : kid);
    }
    return el;
  };
  Sim.sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  Sim.ready = (fn) => (document.readyState === 'loading' ? document.addEventListener('DOMContentLoaded', fn) : fn());
  Sim.afterHydration = (fn) => setTimeout(fn, Sim.cfg.hydrateMs || 0);
  Sim.uuid = () => crypto.randomUUID();

  // readBody feeds decoded text to onText as bytes arrive; TextDecoder in
  // stream mode joins multibyte characters split across chunks.
  Sim.readBody = async function (resp, onText) {
    const reader = resp.body.getReader();
    const dec = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      onText(dec.decode(value, { stream: true }));
    }
    const tail = dec.decode();
    if (tail) onText(tail);
  };

  // sse returns a feeder parsing text/event-stream (BOM and CRLF tolerated).
  Sim.sse = function (onEvent) {
    let buf = '';
    let first = true;
    return function (t) {
      if (first) { t = t.replace(/^\uFEFF/, ''); first = false; }
      buf = (buf + t).replace(/\r\n/g, '\n');
      let i;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        let ev = 'message';
        const data = [];
        for (const line of block.split('\n')) {
          if (line.startsWith('event:')) ev = line.slice(6).trim();
          else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
        }
        if (data.length) onEvent({ event: ev, data: data.join('\n') });
      }
    };
  };

  // lines returns a feeder for newline-delimited JSON.
  Sim.lines = function (onLine) {
    let buf = '';
    return function (t) {
      buf += t;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i).trim();
        buf = buf.slice(i + 1);
        if (line) onLine(line);
      }
    };
  };

  // markdown renders the subset the simulated answers use: paragraphs, fenced
  // code, links, citations. opts.code(lang, text), opts.link(label, url),
  // opts.cite(marker) build the site-specific elements.
  Sim.markdown = function (text, opts) {
    const frag = document.createDocumentFragment();
    const parts = text.split(/^```/m);
    parts.forEach((part, i) => {
      if (i % 2 === 1) {
        const nl = part.indexOf('\n');
        const lang = nl >= 0 ? part.slice(0, nl).trim() : part.trim();
        let code = nl >= 0 ? part.slice(nl + 1) : '';
        code = code.replace(/\n$/, '');
        frag.appendChild(opts.code(lang, code));
        return;
      }
      for (const para of part.split(/\n{2,}/)) {
        const p = para.replace(/^\n+|\n+$/g, '');
        if (!p) continue;
        frag.appendChild(Sim.inline(p, opts, 'p'));
      }
    });
    return frag;
  };

  Sim.inline = function (p, opts, tag) {
    const el = document.createElement(tag || 'p');
    const re = /(?::chatgpt-content-reference\{[^}]*\})?\[([^\]]+)\]\(([^)]+)\)|\uE200cite\uE202([^\uE201]*)\uE201|\n/g;
    let last = 0, m;
    while ((m = re.exec(p))) {
      if (m.index > last) el.appendChild(document.createTextNode(p.slice(last, m.index)));
      if (m[0] === '\n') el.appendChild(document.createElement('br'));
      else if (m[3] !== undefined) { if (opts.cite) el.appendChild(opts.cite(m[3])); }
      else el.appendChild(opts.link ? opts.link(m[1], m[2]) : Sim.h('a', { href: m[2] }, m[1]));
      last = re.lastIndex;
    }
    if (last < p.length) el.appendChild(document.createTextNode(p.slice(last)));
    return el;
  };

  // Throttled re-render: at most one DOM rebuild per 16 ms.
  // flush runs fn now and drops the run still pending: a late timer would
  // render the turn once more after it finished, replacing its nodes.
  Sim.throttle = function (fn) {
    let timer = null;
    const run = () => { timer = null; fn(); };
    const f = () => { if (timer === null) timer = setTimeout(run, 16); };
    f.flush = () => {
      if (timer !== null) { clearTimeout(timer); timer = null; }
      fn();
    };
    return f;
  };

  // PILL is an inline selection pill in an editor (ChatGPT's chosen tool):
  // an atom whose label is not part of the editor's text.
  const PILL = '[data-inline-selection-pill]';
  function pillFree(b) {
    if (!b.querySelector(PILL)) return b.innerText.replace(/\n$/, '');
    let s = '';
    for (const n of b.childNodes) {
      if (n.nodeType === 3) s += n.data;
      else if (n.nodeType === 1 && !n.matches(PILL)) s += n.tagName === 'BR' ? '\n' : n.innerText;
    }
    return s.replace(/\n$/, '');
  }

  function blockText(el) {
    const blocks = Array.from(el.children).filter((c) => /^(P|DIV)$/.test(c.tagName));
    if (blocks.length === 0) return pillFree(el);
    return blocks.map(pillFree).join('\n');
  }

  function renderParagraphs(el, text, placeholder, blankClass, pill) {
    el.innerHTML = '';
    const lines = text === '' ? [''] : text.split('\n');
    for (const line of lines) {
      const p = document.createElement('p');
      if (line === '') p.appendChild(Sim.h('br', { class: 'ProseMirror-trailingBreak' }));
      else p.textContent = line;
      el.appendChild(p);
    }
    const pn = pill && pill();
    if (pn) el.firstChild.insertBefore(pn, el.firstChild.firstChild);
    if (typeof placeholder === 'function') placeholder = placeholder();
    if (text === '' && placeholder) {
      el.firstChild.setAttribute('data-placeholder', placeholder);
      el.firstChild.className = 'placeholder';
    }
    if (blankClass) el.classList.toggle(blankClass, text === '');
  }

  // prose is a ProseMirror/Quill-like editor: its state changes only through
  // input events (trusted typing, execCommand, or a dispatched input event);
  // DOM writes without an event are reverted like a re-render from state.
  Sim.prose = function (el, opts) {
    let text = '';
    let live = false;
    const api = {
      text: () => text,
      clear() { text = ''; renderParagraphs(el, '', opts.placeholder, opts.blankClass, opts.pill); opts.onChange && opts.onChange(text); },
      // render draws the editor again from its state (a pill came or went).
      render() { renderParagraphs(el, text, opts.placeholder, opts.blankClass, opts.pill); },
      attach() {
        live = true;
        // Hydration re-renders the editor from (empty) state: anything typed
        // before it is lost, as on the real sites.
        renderParagraphs(el, text, opts.placeholder, opts.blankClass, opts.pill);
        el.addEventListener('input', () => {
          if (!live) return;
          text = blockText(el);
          if (opts.blankClass) el.classList.toggle(opts.blankClass, text === '');
          if (text === '' && el.children.length === 0) renderParagraphs(el, '', opts.placeholder, opts.blankClass, opts.pill);
          opts.onChange && opts.onChange(text);
        });
        el.addEventListener('keydown', (e) => opts.onKey && opts.onKey(e));
        new MutationObserver(() => {
          if (blockText(el) !== text) renderParagraphs(el, text, opts.placeholder, opts.blankClass, opts.pill);
        }).observe(el, { childList: true, subtree: true, characterData: true });
      },
    };
    renderParagraphs(el, '', opts.placeholder, opts.blankClass, opts.pill);
    return api;
  };

  // lexical is a Lexical-like editor: trusted edits (typing, CDP insertText,
  // execCommand) are read back from the DOM; an untrusted input event that
  // carries data is treated as a new controlled insertion — a second event
  // after execCommand duplicates the text, as on Kimi.
  Sim.lexical = function (el, opts) {
    let text = '';
    let live = false;
    const render = () => {
      el.innerHTML = '';
      const lines = text === '' ? [''] : text.split('\n');
      for (const line of lines) {
        const p = Sim.h('p', { dir: 'ltr' });
        if (line === '') p.appendChild(document.createElement('br'));
        else p.appendChild(Sim.h('span', { 'data-lexical-text': 'true', text: line }));
        el.appendChild(p);
      }
      opts.onRender && opts.onRender(text);
    };
    const api = {
      text: () => text,
      clear() { text = ''; render(); opts.onChange && opts.onChange(text); },
      attach() {
        live = true;
        render();
        el.addEventListener('input', (e) => {
          if (!live) return;
          if (e.isTrusted) text = blockText(el);
          else if (typeof e.data === 'string' && e.data !== '') { text += e.data; render(); }
          else { render(); return; }
          opts.onChange && opts.onChange(text);
        });
        el.addEventListener('keydown', (e) => opts.onKey && opts.onKey(e));
        new MutationObserver(() => { if (blockText(el) !== text) render(); })
          .observe(el, { childList: true, subtree: true, characterData: true });
      },
    };
    render();
    return api;
  };

  // reactTextarea reproduces React's controlled <textarea>: React tracks the
  // value through an instance setter, so `ta.value = x` followed by an input
  // event looks like "no change" and is dropped; only the prototype's native
  // setter (or real typing) plus an input event updates state. A value left
  // without an event is reset to state on the next render.
  Sim.reactTextarea = function (ta, opts) {
    const native = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value');
    let tracked = '';
    let state = '';
    let live = false;
    Object.defineProperty(ta, 'value', {
      configurable: true,
      get() { return native.get.call(this); },
      set(v) { tracked = String(v); native.set.call(this, v); },
    });
    const api = {
      text: () => state,
      clear() { state = ''; tracked = ''; native.set.call(ta, ''); opts.onChange && opts.onChange(state); },
      attach() {
        live = true;
        native.set.call(ta, state);
        tracked = state;
        ta.addEventListener('input', () => {
          if (!live) return;
          const v = native.get.call(ta);
          if (v === tracked) return;
          tracked = v;
          state = v;
          opts.onChange && opts.onChange(state);
        });
        ta.addEventListener('keydown', (e) => opts.onKey && opts.onKey(e));
        setInterval(() => {
          if (native.get.call(ta) !== state && document.activeElement !== ta) { native.set.call(ta, state); tracked = state; }
        }, 400);
        ta.addEventListener('blur', () => { if (native.get.call(ta) !== state) { native.set.call(ta, state); tracked = state; } });
      },
    };
    return api;
  };

  Sim.postJSON = function (url, body, headers) {
    return fetch(url, {
      method: 'POST', credentials: 'include',
      headers: Object.assign({ 'content-type': 'application/json' }, headers || {}),
      body: JSON.stringify(body),
    });
  };

  // Cloudflare-like full-page checks are served by the server; a logged-out
  // banner and generic dialogs are shared here.
  Sim.dialog = function (title, body, buttons) {
    const backdrop = Sim.h('div', { class: 'fixed inset-0 z-50 sim-backdrop', 'data-state': 'open' });
    const dlg = Sim.h('div', { role: 'dialog', 'aria-modal': 'true', class: 'fixed z-50 sim-dialog', 'data-state': 'open' },
      Sim.h('h2', { text: title }), Sim.h('p', { text: body }));
    const close = () => { backdrop.remove(); dlg.remove(); };
    for (const b of buttons) dlg.appendChild(Sim.h('button', { type: 'button', class: b.class || 'btn', onclick: () => { close(); b.onclick && b.onclick(); } }, b.label));
    document.body.append(backdrop, dlg);
    return { close, el: dlg };
  };
})();

// A plain Angular-style textarea: the model follows input events (el.value is
// read on each); a value written without an event is not seen.
Sim.plainTextarea = function (ta, opts) {
  let state = '';
  let live = false;
  return {
    text: () => state,
    clear() { state = ''; ta.value = ''; opts.onChange && opts.onChange(state); },
    attach() {
      live = true;
      ta.value = state;
      ta.addEventListener('input', () => { if (!live) return; state = ta.value; opts.onChange && opts.onChange(state); });
      ta.addEventListener('keydown', (e) => opts.onKey && opts.onKey(e));
    },
  };
};

// Sim.chat is the engine shared by the six simpler sites. The site gives:
//   editor (one of the models above, built with onChange: engine.changed, onKey: engine.key)
//   renderControls(state)  state: 'unhydrated' | 'empty' | 'ready' | 'busy'
//   userTurn(text), assistantTurn() -> {update(text, thoughts), done(model), error(msg, retry)}
//   send(prompt, turn, signal) -> Promise; resolves when the turn ended
//   submitOn(e) -> whether a keydown submits
//   conversation() (optional) -> the id of the conversation the page shows
// A page opening a conversation's address shows the turns the site keeps
// of it (cfg.turns); an answer still being generated (its stream's reader
// went away) shows in progress, the page busy, and is read again until the
// site has it finished.
Sim.chat = function (spec) {
  const eng = { busy: false, hydrated: false, abort: null };
  // spec.files (optional) is the site's Sim.uploads tray: a file still
  // uploading holds the send ('uploading'); ready files alone may be sent.
  const tray = () => (spec.files ? spec.files() : null);
  const hasFiles = () => !!(tray() && tray().ready().length);
  eng.state = () => (!eng.hydrated ? 'unhydrated' : eng.busy ? 'busy' : tray() && tray().busy() ? 'uploading'
    : spec.editor().text().trim() === '' && !hasFiles() ? 'empty' : 'ready');
  eng.changed = () => spec.renderControls(eng.state());
  eng.key = (e) => { if (spec.submitOn(e)) { e.preventDefault(); eng.submit(); } };
  eng.submit = async (retryText) => {
    if (!eng.hydrated || eng.busy || (spec.blocked && spec.blocked())) return;
    if (tray() && tray().busy()) return;
    const ed = spec.editor();
    const retry = typeof retryText === 'string';
    const text = retry ? retryText : ed.text();
    const files = !retry && tray() ? tray().ready().map((f) => ({ id: f.id, name: f.name, size: f.size })) : [];
    if (text.trim() === '' && !files.length) return;
    eng.busy = true;
    if (!retry) { spec.userTurn(text, files.map((f) => f.name)); ed.clear(); if (tray()) tray().clear(); }
    eng.changed();
    const turn = spec.assistantTurn();
    eng.abort = new AbortController();
    try {
      await spec.send(text, turn, eng.abort.signal, files);
    } catch (e) {
      if (e.name === 'AbortError') turn.done(null, true);
      else turn.error(spec.networkError || 'Network error. Please try again.', () => eng.submit(text));
    }
    eng.busy = false;
    eng.abort = null;
    eng.changed();
  };
  const conv = () => (spec.conversation ? spec.conversation() : '');
  // The stop control: the only thing that stops a turn (see Sim.pressStop).
  // The site keeps a stopped answer as far as it came.
  eng.stop = async () => {
    const a = eng.abort;
    if (!eng.busy || !(await Sim.pressStop())) return;
    if (a) a.abort();
    if (conv()) fetch('/__sim/turns/' + encodeURIComponent(conv()) + '/stop', { method: 'POST', credentials: 'include' }).catch(() => {});
  };
  eng.hydrate = () => { spec.editor().attach(); eng.hydrated = true; eng.changed(); };
  // After the site's script has its engine (its hooks may name it).
  queueMicrotask(() => (Sim.cfg.turns || []).forEach((st, i) => {
    spec.userTurn(st.user, []);
    const turn = spec.assistantTurn();
    turn.update(st.text, '');
    if (st.failed) turn.error(spec.networkError || 'Network error. Please try again.', null);
    else if (st.finished) turn.done(st.model);
    else follow(turn, i);
  }));
  async function follow(turn, i) {
    eng.busy = true;
    eng.changed();
    for (;;) {
      await new Promise((r) => setTimeout(r, 400));
      let st = null;
      try {
        const r = await fetch('/__sim/turns/' + encodeURIComponent(conv()), { credentials: 'include' });
        if (r.ok) st = ((await r.json()).turns || [])[i];
      } catch (e) { st = null; }
      if (!st) continue;
      turn.update(st.text, '');
      if (!st.finished) continue;
      if (st.failed) turn.error(spec.networkError || 'Network error. Please try again.', null);
      else turn.done(st.model);
      break;
    }
    eng.busy = false;
    eng.changed();
  }
  return eng;
};

// readFrames reads a Connect stream: [flags u8][len u32 BE][payload].
Sim.connectFrames = async function (resp, onFrame) {
  const reader = resp.body.getReader();
  let buf = new Uint8Array(0);
  const dec = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const nb = new Uint8Array(buf.length + value.length);
    nb.set(buf); nb.set(value, buf.length); buf = nb;
    while (buf.length >= 5) {
      const len = new DataView(buf.buffer, buf.byteOffset + 1, 4).getUint32(0);
      if (buf.length < 5 + len) break;
      onFrame(buf[0], JSON.parse(dec.decode(buf.slice(5, 5 + len))));
      buf = buf.slice(5 + len);
    }
  }
};

Sim.connectEnvelope = function (obj) {
  const payload = new TextEncoder().encode(JSON.stringify(obj));
  const out = new Uint8Array(5 + payload.length);
  new DataView(out.buffer).setUint32(1, payload.length);
  out.set(payload, 5);
  return out;
};

// Sim.pressStop tells the simulator the page's stop control was pressed
// and reports whether the page stops its turn: a site made to refuse
// (POST /__sim/stop {"refuse":true}) ignores the press and goes on
// streaming. Nothing else stops a turn: a reader that goes away without a
// press (Ferry's capture when a run is cancelled) changes nothing.
Sim.pressStop = async function () {
  try {
    const r = await fetch('/__sim/stop/press?site=' + encodeURIComponent(Sim.cfg.site || ''), { method: 'POST' });
    return !(await r.json()).refuse;
  } catch (e) {
    return true;
  }
};

// Sim.toast shows a toast that goes away after 4 s, as sonner's do.
Sim.toast = function (text, attrs) {
  const el = Sim.h('div', Object.assign({ role: 'alert', class: 'toast', 'data-sonner-toast': '' }, attrs || {}), text);
  document.body.appendChild(el);
  setTimeout(() => el.remove(), 4000);
  return el;
};

Sim.resetTime = function (until) {
  const d = new Date(until);
  return Sim.h('time', { datetime: d.toISOString() }, d.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' }));
};

// Sim.capBanner shows a usage-cap notice: text, then the reset time. With
// role (say 'alert') it is a notice a detector looks for by role; without,
// a banner as Claude shows over its blocked composer. It goes above the
// app's first child.
Sim.capBanner = function (text, until, role) {
  const attrs = { class: 'cap-banner', 'data-sim': 'usage-cap' };
  if (role) attrs.role = role;
  const el = Sim.h('div', attrs, Sim.h('span', { text }), Sim.resetTime(until));
  const app = document.getElementById('app') || document.body;
  app.insertBefore(el, app.firstChild);
  return el;
};

// Sim.capOnLoad is true when the page loads for an account at its cap
// (usage_cap_on_load); Sim.cfg.capResetAt says when it resets.
Sim.capOnLoad = () => Sim.cfg.scenario === 'usage_cap_on_load';

// Sim.uploads is the attachment tray of the sites that take files. The site
// gives: tray (the element tiles go in), input (an <input type=file>) or
// drop (an element taking dropped files), prefix (its upload API path),
// headers() (auth headers), onChange() (re-render the send control), and
// tileAttrs(name) / tooLarge(name) for its own markup and words. Each file
// goes POST {prefix}/files -> PUT upload_url -> POST
// {prefix}/files/process_upload_stream until file.processing.completed; its
// tile shows a spinner until then, and busy() stays true (send disabled).
// A refusal removes the tile and shows the site's words in a toast.
Sim.uploads = function (spec) {
  const files = []; // {name, size, id, state: 'uploading'|'ready', tile}
  const up = {};
  const noTile = Sim.cfg.scenario === 'upload_no_tile';
  up.busy = () => files.some((f) => f.state !== 'ready');
  up.ready = () => files.filter((f) => f.state === 'ready');
  up.ids = () => up.ready().map((f) => f.id);
  up.names = () => up.ready().map((f) => f.name);
  up.clear = () => { for (const f of files) f.tile.remove(); files.length = 0; spec.onChange(); };
  const remove = (f) => { const i = files.indexOf(f); if (i >= 0) files.splice(i, 1); f.tile.remove(); spec.onChange(); };
  async function one(file) {
    const f = { name: file.name, size: file.size, id: null, state: 'uploading' };
    const spinner = Sim.h('svg', { class: 'animate-spin file-spinner', 'aria-hidden': 'true' });
    const n = files.length + 1;
    f.tile = Sim.h('div', Object.assign({ role: 'group', 'aria-label': file.name, class: 'file-tile' }, spec.tileAttrs ? spec.tileAttrs(file.name) : {}),
      spinner,
      Sim.h('span', { class: 'file-name' }, file.name.length > 24 ? file.name.slice(0, 20) + '…' : file.name),
      Sim.h('button', { type: 'button', 'aria-label': 'Remove file ' + n + ': ' + file.name, onclick: () => remove(f) }, '×'));
    if (noTile) return;
    files.push(f);
    spec.tray.appendChild(f.tile);
    spec.onChange();
    const headers = spec.headers ? spec.headers() : {};
    try {
      const slot = await Sim.postJSON(spec.prefix + '/files', { file_name: file.name, file_size: file.size, use_case: 'my_files' }, headers);
      const sj = await slot.json();
      if (!slot.ok) { remove(f); Sim.toast(sj.detail || spec.tooLarge(file.name)); return; }
      f.id = sj.file_id;
      // A name the account's library holds comes back renamed ("a(1).txt"): the tile shows the site's name.
      if (sj.file_name && sj.file_name !== f.name) {
        f.name = sj.file_name;
        f.tile.setAttribute('aria-label', f.name);
        f.tile.querySelector('.file-name').textContent = f.name.length > 24 ? f.name.slice(0, 20) + '…' : f.name;
        f.tile.querySelector('button').setAttribute('aria-label', 'Remove file ' + n + ': ' + f.name);
      }
      const put = await fetch(sj.upload_url, { method: 'PUT', headers: { 'x-ms-blob-type': 'BlockBlob' }, body: file });
      if (put.status !== 201) { remove(f); Sim.toast('Unable to upload ' + file.name); return; }
      const proc = await Sim.postJSON(spec.prefix + '/files/process_upload_stream', { file_id: f.id, file_name: file.name }, headers);
      let completed = false;
      await Sim.readBody(proc, Sim.lines((line) => {
        try { if (JSON.parse(line).event === 'file.processing.completed') completed = true; } catch (e) {}
      }));
      if (!completed) { remove(f); Sim.toast('Unable to upload ' + file.name); return; }
      f.state = 'ready';
      spinner.remove();
      spec.onChange();
    } catch (e) {
      remove(f);
      Sim.toast('Unable to upload ' + file.name);
    }
  }
  up.add = (list) => { for (const file of list) one(file); };
  // upload_stall: a modal dialog nobody dismisses holds the page in the
  // handler, so the page answers nothing more.
  const stall = () => { if (Sim.cfg.scenario === 'upload_stall') alert('Preparing the upload…'); };
  if (spec.input) spec.input.addEventListener('change', () => { stall(); up.add([...spec.input.files]); spec.input.value = ''; });
  if (spec.drop) {
    spec.drop.addEventListener('dragover', (e) => { e.preventDefault(); });
    spec.drop.addEventListener('drop', (e) => { e.preventDefault(); stall(); if (e.dataTransfer && e.dataTransfer.files.length) up.add([...e.dataTransfer.files]); });
  }
  return up;
};

// Sim.attachmentChips shows the files a sent user turn carried.
Sim.attachmentChips = function (names) {
  if (!names || !names.length) return null;
  return Sim.h('div', { class: 'turn-attachments' }, names.map((n) => Sim.h('div', { class: 'turn-file', 'data-file-name': n }, n)));
};
