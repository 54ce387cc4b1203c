// Simulated chatgpt.com: ProseMirror composer, send/stop controls that appear
// with input, virtualised thread, delta-encoding v1 stream, backend-api with
// bearer token, code-mode sandbox buttons, interstitials.
(function () {
  'use strict';
  const { h, cfg } = Sim;
  const drift = cfg.drift;
  const anon = !cfg.loggedIn;
  // A temporary chat (/?temporary-chat=true) keeps its address and no
  // history: its send says so, the site answers with a conv_key_<id> cookie.
  const temporary = new URLSearchParams(location.search).get('temporary-chat') === 'true';
  // A project's page (/g/g-p-<id>-slug/project), a project chat
  // (/g/<short>/c/<id>) or a custom GPT (/g/g-<id>-slug): its chats stay
  // under /g/<short>/ and its sends name the gizmo.
  const place = (location.pathname.match(/^\/g\/(g-[^/]+)/) || [])[1] || null;
  const gizmo = place ? (place.startsWith('g-p-') ? place.slice(0, 36) : 'g-' + place.slice(2).split('-')[0]) : null;
  // Drifted DOM: the selectors an adapter hard-codes no longer match.
  const T = drift
    ? { composer: 'composer-editor', send: 'composer-send', stop: 'composer-halt', turn: 'chat-turn-', markdown: 'prose-answer', sendLabel: 'Submit message', copy: 'turn-copy' }
    : { composer: 'prompt-textarea', send: cfg.scenario === 'renamed_send' ? 'composer-submit-button' : 'send-button', stop: 'stop-button', turn: 'conversation-turn-', markdown: 'markdown', sendLabel: 'Send prompt', copy: 'copy-turn-action-button' };
  const MOUNTED = 6; // turns kept in the DOM: the thread is virtualised
  // The turn markup of 2026-09-29 is the default: div[data-turn-key] ›
  // [data-content-search-unit-key] › [data-conversation-role] › the id in
  // [data-chatgpt-selection-message-id] › the answer in
  // [data-markdown-text-style="assistant-message"]; no
  // data-message-author-role, data-message-id, data-message-model-slug,
  // aria-busy or data-is-streaming. The older markup (article turns,
  // data-message-author-role) is the older_turns scenario; a drifted page
  // renames the older markup's classes.
  const older = drift || cfg.scenario === 'older_turns';
  // A new chat shows a transient address until its turn is over: /c/WEB:<uuid>,
  // or /c/local-chatgpt%3A<id> in the local_chat_url scenario.
  const transientURL = () => cfg.scenario === 'local_chat_url' ? '/c/local-chatgpt%3A' + Sim.uuid().replace(/-/g, '') : '/c/WEB:' + Sim.uuid();

  // The header's Chat/Work toggle (2026-07/08): button[role=radio] with
  // aria-checked and data-state; Work's composer says "Work on anything".
  // Only trusted clicks switch it (the work_stuck scenario ignores them).
  let work = cfg.scenario === 'work_mode' || cfg.scenario === 'work_stuck';
  let hydrated = false;
  let sendShown = false;
  let token = null;
  const picker = window.ChatGPTPicker(cfg);
  // apiFetch calls the backend-api with the session's bearer.
  const apiFetch = async (path, opts) => { await ensureToken(); return fetch(path, Object.assign({ credentials: 'include', headers: authHeaders() }, opts || {})); };
  const research = window.ChatGPTResearch({ conversation: () => conversationId, fetch: apiFetch });
  let conversationId = cfg.conversation || null;
  let parentId = 'client-created-root';
  let busy = false;
  let modalOpen = false;
  let lockedUntil = 0;
  let abort = null;
  const turns = []; // {role, id, text, el, ...}
  let windowStart = 0;

  const app = document.getElementById('app');
  const nav = h('nav', { class: 'sidebar', 'aria-label': 'Chat history' });
  const thread = h('div', { id: 'thread', class: 'thread' });
  const spacer = h('div', { class: 'virtual-spacer', 'aria-hidden': 'true' });
  const turnsEl = h('div', { class: 'turns' });
  thread.append(spacer, turnsEl);
  const trailing = h('div', { class: 'composer-trailing' });
  const tray = h('div', { class: 'file-tray' });
  const pickerSlot = h('span', { class: 'picker-slot' });
  let editor, composerEl, uploads, tools, project;

  function build() {
    if (!anon) {
      nav.append(
        h('a', { 'data-testid': 'create-new-chat-button', href: '/', class: 'new-chat' }, 'New chat'),
        h('div', { id: 'history', class: 'history' }),
        h('button', { type: 'button', 'data-testid': 'accounts-profile-button', 'aria-label': 'Open profile menu' }, 'Sim User'));
    } else {
      nav.append(h('a', { href: '/auth/login', 'data-testid': 'login-button', class: 'btn' }, 'Log in'),
        h('button', { type: 'button', 'data-testid': 'signup-button', class: 'btn' }, 'Sign up for free'));
    }
    let header = '';
    if (!anon && !drift) {
      const radio = (label, on) => h('button', { type: 'button', role: 'radio', 'aria-checked': String(on), 'data-state': on ? 'on' : 'off', class: 'mode-radio',
        onclick: (e) => { if (!e.isTrusted || cfg.scenario === 'work_stuck') return; setWork(label === 'Work'); } }, label);
      header = h('header', { class: 'page-header' }, h('div', { role: 'radiogroup', 'aria-label': 'Chat or Work', class: 'mode-toggle' }, radio('Chat', !work), radio('Work', work)));
    }
    const form = h('form', { 'data-type': 'unified-composer', class: 'composer' });
    form.addEventListener('submit', (e) => e.preventDefault());
    form.appendChild(h('textarea', { name: 'prompt-textarea', style: 'display:none' }));
    const fileInput = h('input', { type: 'file', id: 'upload-files', multiple: true, hidden: true, tabindex: '-1' });
    form.appendChild(fileInput);
    form.appendChild(tray);
    uploads = Sim.uploads({ tray, input: fileInput, prefix: anon ? '/backend-anon' : '/backend-api', headers: authHeaders, onChange: () => renderTrailing(),
      tooLarge: (name) => 'Unable to upload ' + name + ': file is too large' });
    if (anon) form.appendChild(h('button', { type: 'button', 'data-testid': 'composer-plus-btn', 'aria-label': 'Add files and more' }, '+'));
    else {
      tools = window.ChatGPTTools(cfg, { render: () => editor.render(), clearPrompt: () => editor.clear(), pickFiles: () => fileInput.click() });
      form.appendChild(tools.plus);
    }
    if (anon) {
      composerEl = h('textarea', { id: 'mobile-composer-prompt', placeholder: 'Ask anything', rows: '1' });
      editor = Sim.reactTextarea(composerEl, { onChange: renderTrailing, onKey });
    } else {
      composerEl = h('div', drift
        ? { id: T.composer, contenteditable: 'true', class: 'editor-input', translate: 'no' }
        : { id: T.composer, contenteditable: 'true', class: 'ProseMirror', role: 'textbox', translate: 'no', 'aria-label': 'Message ChatGPT' });
      editor = Sim.prose(composerEl, { placeholder: () => (work ? 'Work on anything' : 'Ask anything'), onChange: renderTrailing, onKey, pill: () => tools.pill() });
    }
    form.appendChild(composerEl);
    form.appendChild(pickerSlot);
    form.appendChild(trailing);
    const main = h('main', { class: 'main' }, ...(header ? [header] : []), thread, form);
    // A project's page heads the thread with the project and its tabs.
    project = anon ? null : window.ChatGPTProject(cfg, { fetch: apiFetch, headers: authHeaders });
    if (project) main.insertBefore(project.el, thread);
    app.append(nav, main);
    renderTrailing();
    thread.addEventListener('scroll', () => { if (thread.scrollTop < 40 && windowStart > 0) remount(Math.max(0, windowStart - 2)); });
  }

  function setWork(on) {
    work = on;
    for (const b of document.querySelectorAll('button.mode-radio')) {
      const checked = (b.textContent === 'Work') === on;
      b.setAttribute('aria-checked', String(checked));
      b.setAttribute('data-state', checked ? 'on' : 'off');
    }
    const ph = composerEl.querySelector('p[data-placeholder]');
    if (ph) ph.setAttribute('data-placeholder', on ? 'Work on anything' : 'Ask anything');
  }

  function onKey(e) {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) { e.preventDefault(); submit(); }
  }

  // The send button exists only while the composer has text; the stop button
  // replaces it while an answer streams.
  function renderTrailing() {
    trailing.innerHTML = '';
    const empty = editor.text().trim() === '' && !(uploads && uploads.ready().length);
    if (busy || !hydrated || empty) sendShown = false;
    if (busy) {
      trailing.appendChild(h('button', { type: 'button', 'data-testid': T.stop, id: 'composer-submit-button', 'aria-label': 'Stop streaming', class: 'composer-btn', onclick: stop }, '■'));
      return;
    }
    if (!hydrated || empty) {
      trailing.appendChild(h('button', { type: 'button', 'data-testid': 'composer-speech-button', 'aria-label': 'Start voice mode', class: 'composer-btn' }, '🎙'));
      return;
    }
    // While a file uploads or is processed the send button stays disabled.
    if (uploads && uploads.busy()) {
      trailing.appendChild(h('button', { type: 'button', 'data-testid': T.send, id: 'composer-submit-button', 'aria-label': T.sendLabel, class: 'composer-btn',
        disabled: true, 'aria-disabled': 'true', 'data-disabled': 'true' }, '↑'));
      sendShown = false;
      return;
    }
    // The button mounts disabled and enables on the next render: a click in
    // between is accepted by the page and ignored, as on the real site.
    const fresh = !sendShown;
    const btn = h('button', { type: 'button', 'data-testid': T.send, id: 'composer-submit-button', 'aria-label': T.sendLabel, class: 'composer-btn',
      disabled: fresh, 'aria-disabled': fresh ? 'true' : null, 'data-disabled': fresh ? 'true' : null,
      onclick: () => { if (!btn.disabled) submit(); } }, '↑');
    trailing.appendChild(btn);
    sendShown = true;
    if (fresh) setTimeout(() => { btn.disabled = false; btn.removeAttribute('aria-disabled'); btn.removeAttribute('data-disabled'); }, 120);
  }

  // ---- turns (virtualised) ----
  function remount(start) {
    windowStart = Math.max(0, start);
    turnsEl.innerHTML = '';
    for (let i = windowStart; i < turns.length; i++) turnsEl.appendChild(turns[i].el);
    spacer.style.height = windowStart * 120 + 'px';
  }
  function pushTurn(t) {
    t.index = turns.length;
    turns.push(t);
    const start = Math.max(0, turns.length - MOUNTED);
    if (start !== windowStart || !t.el.isConnected) remount(start);
    thread.scrollTop = thread.scrollHeight;
  }
  function userTurn(text, id, files) {
    const n = turns.length + 1;
    const bubble = [Sim.attachmentChips(files), h('div', { class: 'whitespace-pre-wrap user-bubble', text })];
    const el = older
      ? h('article', { 'data-testid': T.turn + n, 'data-turn': 'user', 'data-turn-id': id, class: 'turn' },
        h('h5', { class: 'sr-only' }, 'You said:'),
        h('div', { 'data-message-author-role': 'user', 'data-message-id': id }, ...bubble))
      : h('div', { 'data-turn-key': 'turn-' + Sim.uuid(), class: 'turn' },
        h('div', { 'data-content-search-unit-key': 'unit-' + n },
          h('div', { 'data-conversation-role': 'user' },
            h('div', { 'data-chatgpt-selection-message-id': id }, ...bubble))));
    pushTurn({ role: 'user', id, text, el });
  }
  function assistantTurn() {
    const n = turns.length + 1;
    const body = h('div', older ? { class: T.markdown + ' prose markdown-new-styling' } : { 'data-markdown-text-style': 'assistant-message', class: 'prose markdown-new-styling' },
      h('span', { class: 'loading-shimmer' }, 'Thinking'));
    const extras = h('div', { class: 'turn-extras' });
    let msg, el;
    if (older) {
      msg = h('div', { 'data-message-author-role': 'assistant', 'data-message-id': 'request-placeholder-' + Sim.uuid(), 'aria-busy': 'true', 'data-is-streaming': 'true' }, extras, body);
      el = h('article', { 'data-testid': T.turn + n, 'data-turn': 'assistant', class: 'turn' }, h('h6', { class: 'sr-only' }, 'ChatGPT said:'), msg);
    } else {
      // The id holder mounts once the server names the message.
      msg = h('div', { 'data-conversation-role': 'assistant' }, extras, body);
      el = h('div', { 'data-turn-key': 'turn-' + Sim.uuid(), class: 'turn' }, h('div', { 'data-content-search-unit-key': 'unit-' + n }, msg));
    }
    const t = { role: 'assistant', el, msg, body, extras, text: '', id: null };
    pushTurn(t);
    return t;
  }
  // setMessageId names the answer's message: on the older markup its
  // data-message-id, on the newer a [data-chatgpt-selection-message-id]
  // holder around the extras and the answer.
  function setMessageId(t, id) {
    if (t.id === id) return;
    t.id = id;
    if (older) { t.msg.setAttribute('data-message-id', id); return; }
    let holder = t.msg.querySelector('[data-chatgpt-selection-message-id]');
    if (!holder) { holder = h('div', { class: 'message-selection' }); t.msg.append(holder); holder.append(t.extras, t.body); }
    holder.setAttribute('data-chatgpt-selection-message-id', id);
  }

  const mdOpts = (t) => ({
    code(lang, code) {
      return h('pre', { class: 'overflow-visible!' },
        h('div', { class: 'contain-inline-size rounded-2xl relative' },
          h('div', { class: 'sticky top-9' },
            h('div', { class: 'flex items-center code-lang' }, lang),
            h('button', { type: 'button', 'aria-label': 'Copy', 'data-testid': 'copy-code-button', class: 'copy-code' }, 'Copy code')),
          h('div', { class: 'overflow-y-auto p-4', dir: 'ltr' },
            h('code', { class: 'whitespace-pre! language-' + lang, text: code }))));
    },
    link(label, url) {
      if (url.startsWith('sandbox:')) {
        return h('button', { type: 'button', class: 'behavior-btn entity-underline', onclick: () => downloadSandbox(t, url.slice(8)) }, label);
      }
      return h('a', { href: url, target: '_blank', rel: 'noopener' }, label);
    },
    // A citation span is a pill link to its first source, named by its
    // attribution (or title, or host), "+N" for more (the reference, "Tools"
    // → "Web search"); a hidden marker or a span without sources shows
    // nothing. A span no content_reference names yet keeps the old stand-in.
    cite(marker) {
      const refs = t.refs || [];
      if (!refs.length) return h('span', { 'data-testid': 'webpage-citation-pill', class: 'citation-pill' }, h('a', { href: '#', class: 'pill' }, 'example.com'));
      const ref = refs.find((r) => r.matched_text === '\uE200cite\uE202' + marker + '\uE201');
      const items = (ref && ref.type !== 'hidden' && ref.items) || [];
      if (!items.length) return document.createTextNode('');
      const first = items[0];
      let name = first.attribution || first.title;
      try { name = name || new URL(first.url).hostname.replace(/^www\./, ''); } catch (e) {}
      const kids = [h('span', { class: 'pill-name' }, name)];
      if (items.length > 1) kids.push(document.createTextNode(' '), h('span', { class: 'pill-more' }, '+' + (items.length - 1)));
      return h('span', { 'data-testid': 'webpage-citation-pill', class: 'citation-pill' }, h('a', { href: first.url, target: '_blank', rel: 'noopener', class: 'pill' }, ...kids));
    },
  });
  // renderAnswer renders the answer as the site does: citation spans as
  // pills, markers outside spans (hidden ones, the footnote's) and a span
  // still open at the end not at all.
  function renderAnswer(t) {
    t.body.innerHTML = '';
    const text = t.text.replace(/\uE200[^\uE201]*$/, '').replace(/[\uE203-\uE206]/g, '');
    t.body.appendChild(Sim.markdown(text, mdOpts(t)));
  }
  function finishTurn(t, slug) {
    if (older) {
      t.msg.removeAttribute('aria-busy');
      t.msg.setAttribute('data-is-streaming', 'false');
      if (slug) t.msg.setAttribute('data-message-model-slug', slug);
    }
    t.el.appendChild(h('div', { class: 'turn-actions', role: 'group' },
      h('button', { type: 'button', 'data-testid': T.copy, 'aria-label': 'Copy' }, '⧉'),
      h('button', { type: 'button', 'data-testid': 'good-response-turn-action-button', 'aria-label': 'Good response' }, '👍'),
      h('button', { type: 'button', 'data-testid': 'bad-response-turn-action-button', 'aria-label': 'Bad response' }, '👎'),
      h('button', { type: 'button', 'data-testid': 'voice-play-turn-action-button', 'aria-label': 'Read aloud' }, '🔊'),
      h('button', { type: 'button', 'aria-label': 'Share' }, 'Share')));
  }
  function errorInTurn(t, text, button) {
    if (older) {
      t.msg.removeAttribute('aria-busy');
      t.msg.setAttribute('data-is-streaming', 'false');
    }
    const box = h('div', { class: 'text-token-text-error error-box' }, text);
    t.msg.appendChild(box);
    if (button) t.msg.appendChild(button);
  }

  // ---- delta-encoding v1 decoder (the page's own) ----
  function applyOp(root, p, op, v) {
    if (op === 'patch') { for (const x of v) applyOp(root, x.p, x.o, x.v); return; }
    const keys = p.split('/').slice(1);
    if (keys.length === 0) { if (op === 'add') Object.assign(root, v); return; }
    let obj = root;
    for (let i = 0; i < keys.length - 1; i++) obj = obj[keys[i]];
    const k = keys[keys.length - 1];
    if (op === 'replace' || op === 'add') obj[k] = v;
    else if (op === 'append') {
      if (typeof obj[k] === 'string') obj[k] += v;
      else if (Array.isArray(obj[k])) obj[k].push(...(Array.isArray(v) ? v : [v]));
      else if (obj[k] && typeof obj[k] === 'object') Object.assign(obj[k], v);
      else obj[k] = v;
    }
  }

  async function ensureToken() {
    if (anon) return null;
    const r = await fetch('/api/auth/session', { credentials: 'include' });
    const j = await r.json();
    token = j.accessToken || null;
    return token;
  }

  function authHeaders() {
    const hd = { accept: 'text/event-stream' };
    if (token) hd.authorization = 'Bearer ' + token;
    const did = document.cookie.split('; ').find((c) => c.startsWith('oai-did='));
    if (did) hd['oai-device-id'] = did.slice(8);
    return hd;
  }

  async function submit(regenerate) {
    if (!hydrated || busy || modalOpen) return;
    // Enter is ignored while a file uploads: the prompt stays unsent.
    if (uploads.busy()) return;
    const text = regenerate ? '' : editor.text();
    const files = regenerate ? [] : uploads.ready().map((f) => ({ id: f.id, size: f.size, name: f.name, mime_type: 'application/octet-stream' }));
    if (!regenerate && text.trim() === '' && !files.length) return;
    busy = true;
    const msgId = Sim.uuid();
    const hints = regenerate || !tools ? [] : tools.hints();
    if (tools && !regenerate) tools.reset();
    if (!regenerate) { userTurn(text, msgId, files.map((f) => f.name)); editor.clear(); uploads.clear(); }
    if (!anon && !temporary && !place && !conversationId && !transient) { transient = transientURL(); history.pushState({}, '', transient); }
    renderTrailing();
    const t = assistantTurn();
    await send(t, text, msgId, regenerate, files, hints);
    settleAddress();
    busy = false;
    abort = null;
    renderTrailing();
  }

  async function send(t, text, msgId, regenerate, files, hints) {
    const base = anon ? '/backend-anon' : '/backend-api';
    abort = new AbortController();
    try {
      if (!anon && !token) await ensureToken();
      await Sim.postJSON(base + '/f/conversation/prepare', { action: 'next', conversation_id: conversationId }, authHeaders());
      await Sim.postJSON(base + '/sentinel/chat-requirements', {}, authHeaders());
      const body = {
        action: regenerate ? 'variant' : 'next',
        messages: regenerate ? [] : [{ id: msgId, author: { role: 'user' }, create_time: Date.now() / 1000, content: { content_type: 'text', parts: [text] }, metadata: files && files.length ? { attachments: files } : {} }],
        parent_message_id: parentId, supported_encodings: ['v1'], timezone_offset_min: 0,
        conversation_mode: { kind: work ? 'work' : 'primary_assistant' },
      };
      // Logged out there is no picker: the site chooses (a weaker model).
      Object.assign(body, anon ? { model: 'auto' } : picker.request());
      if (conversationId) body.conversation_id = conversationId;
      if (hints && hints.length) body.system_hints = hints;
      if (temporary) body.history_and_training_disabled = true;
      if (gizmo) body.gizmo_id = gizmo;
      const resp = await fetch(base + '/f/conversation', {
        method: 'POST', credentials: 'include', signal: abort.signal,
        headers: Object.assign({ 'content-type': 'application/json' }, authHeaders()), body: JSON.stringify(body),
      });
      if (resp.status === 429) return tooMany(t, resp);
      if (resp.status === 401) { t.el.remove(); turns.pop(); return sessionExpired(); }
      if (!resp.ok) return errorInTurn(t, 'Something went wrong. If this issue persists please contact us through our help center at help.openai.com.', regenButton());
      await readStream(t, resp);
    } catch (e) {
      if (e.name === 'AbortError') { finishTurn(t); return; }
      errorInTurn(t, 'A network error occurred. Please check your connection and try again. If this issue persists please contact us through our help center at help.openai.com.', regenButton());
    }
  }

  // ---- the user socket (celsius): one per page, its topics multiplexed ----
  // A long turn's stream moves here (stream_handoff): the page subscribes
  // to the turn's topic and reads each stream item's encoded SSE, once per
  // stream_item_id; a dropped socket reconnects and subscribes again from
  // the last offset it had.
  const celsius = (() => {
    let ws = null, opening = null, nextId = 1;
    const topics = new Map(); // topic -> {offset, onItem, seen}
    const subscribe = (name) => ({ id: nextId++, command: { type: 'subscribe', topic_id: name, offset: topics.get(name).offset } });
    function handle(x) {
      if (x.type === 'reply' && x.reply && Array.isArray(x.reply.catchups)) {
        for (const c of x.reply.catchups) handle(Object.assign({ topic_id: x.reply.topic_id }, c));
        return;
      }
      const tp = x.type === 'message' && topics.get(x.topic_id);
      if (!tp) return;
      if (x.offset) tp.offset = x.offset;
      const p = x.payload && x.payload.type === 'conversation-turn-stream' && x.payload.payload;
      if (!p || p.type !== 'stream-item' || tp.seen.has(p.stream_item_id)) return;
      tp.seen.add(p.stream_item_id);
      tp.onItem(p.encoded_item);
    }
    function open() {
      if (opening) return opening;
      opening = (async () => {
        if (!token) await ensureToken();
        const r = await fetch('/backend-api/celsius/ws/user', { credentials: 'include', headers: authHeaders() });
        if (!r.ok) throw new Error('celsius ' + r.status);
        const sock = new WebSocket((await r.json()).websocket_url);
        await new Promise((ok, fail) => { sock.onopen = ok; sock.onerror = fail; });
        sock.onmessage = (e) => {
          let m;
          try { m = JSON.parse(e.data); } catch (err) { return; }
          for (const x of (Array.isArray(m) ? m : [m])) handle(x);
        };
        sock.onclose = () => { ws = null; opening = null; if ([...topics.keys()].some((k) => k !== 'conversations')) setTimeout(open, 50); };
        ws = sock;
        sock.send(JSON.stringify([{ id: nextId++, command: { type: 'connect', presence: { type: 'presence', state: 'foreground' } } }, ...[...topics.keys()].map(subscribe)]));
      })().catch(() => { opening = null; });
      return opening;
    }
    return {
      open,
      follow(name, onItem) {
        topics.set(name, { offset: '0', onItem, seen: new Set() });
        if (ws) ws.send(JSON.stringify([subscribe(name)]));
        else open();
      },
      leave(name) {
        topics.delete(name);
        if (ws) ws.send(JSON.stringify([{ id: nextId++, command: { type: 'unsubscribe', topic_id: name } }]));
      },
    };
  })();

  async function readStream(t, resp) {
    const channels = [];
    let cur = 0, lastP = '', lastO = '';
    let complete = false, errored = false, slug = null, handoff = null;
    const rerender = Sim.throttle(() => {
      const ans = answerOf(channels);
      if (ans) { t.text = ans.message.content.parts[0] || ''; t.refs = (ans.message.metadata || {}).content_references; renderAnswer(t); }
      const th = channels.find((c) => c && c.message && c.message.content.content_type === 'reasoning_recap');
      if (th && !t.extras.querySelector('.thoughts-summary')) t.extras.appendChild(h('button', { type: 'button', class: 'thoughts-summary' }, th.message.content.content));
      const code = channels.find((c) => c && c.message && c.message.content.content_type === 'code');
      if (code && !t.extras.querySelector('.code-analysis')) t.extras.appendChild(h('div', { class: 'code-analysis' }, 'Analyzed'));
      for (const c of channels) if (c && c.message && c.message.status !== 'in_progress') renderImages(t, c.message);
    });
    const onEvent = ({ event, data }) => {
      if (data === '[DONE]') return;
      let f;
      try { f = JSON.parse(data); } catch (e) { return; }
      if (event === 'delta_encoding') return;
      if (event === 'delta') {
        if ('o' in f || 'p' in f) { lastP = f.p || ''; lastO = f.o; }
        if ('c' in f) cur = f.c;
        if (lastO === 'add' && lastP === '') { channels[cur] = {}; applyOp(channels[cur], '', 'add', f.v); }
        else applyOp(channels[cur], lastP, lastO, f.v);
        const m = channels[cur].message;
        if (m && m.author.role === 'assistant' && m.content.content_type === 'text' && m.channel !== 'commentary' && m.channel !== 'analysis') {
          setMessageId(t, m.id);
          slug = m.metadata && m.metadata.model_slug;
        }
        rerender();
        return;
      }
      if (f.conversation_id && !conversationId) setConversation(f.conversation_id);
      if (f.type === 'message_stream_complete') complete = true;
      if (f.type === 'stream_handoff') handoff = ((f.options || []).find((o) => o.type === 'subscribe_ws_topic') || {}).topic_id || null;
      if (f.type === 'title_generation' && !temporary) addHistory(f.title);
      if (f.error) {
        errored = true;
        rerender.flush();
        if (f.error_code === 'conversation_too_large') {
          errorInTurn(t, 'You\u2019ve reached the maximum length for this conversation, but you can keep talking by starting a new chat.',
            h('button', { type: 'button', class: 'btn', onclick: () => { location.href = '/'; } }, 'Start new chat'));
        } else errorInTurn(t, f.error, regenButton());
      }
    };
    await Sim.readBody(resp, Sim.sse(onEvent));
    if (handoff && !complete && !errored) {
      // The rest of the turn comes over the socket, in the same decoder.
      const item = Sim.sse(onEvent);
      await new Promise((done) => {
        celsius.follow(handoff, (sse) => { item(sse); if (complete || errored) done(); });
      });
      celsius.leave(handoff);
    }
    rerender.flush();
    const ans = answerOf(channels);
    if (ans) parentId = ans.message.id;
    if (errored) return;
    if (!complete) throw new Error('stream ended early');
    finishTurn(t, slug);
    if (ans && research.stateOf(ans.message)) research.follow(t, ans.message.id);
  }

  // Generated images: each image part of the image tool's finished message
  // shows as an img, its address minted through files/{id}/download.
  function renderImages(t, m) {
    if (m.author.role !== 'tool' || !m.content || m.content.content_type !== 'multimodal_text') return;
    for (const p of m.content.parts || []) {
      if (!p || p.content_type !== 'image_asset_pointer') continue;
      const id = String(p.asset_pointer || '').replace(/^[a-z-]+:\/\//, '');
      if (t.extras.querySelector('[id="image-' + id + '"]')) continue;
      const img = h('img', { alt: 'Generated image: ' + ((m.metadata && m.metadata.image_gen_title) || ''), width: String(p.width), height: String(p.height) });
      t.extras.appendChild(h('div', { id: 'image-' + id, class: 'imagegen-image' }, img));
      ensureToken().then(() => fetch('/backend-api/files/' + encodeURIComponent(id) + '/download?inline=true', { credentials: 'include', headers: authHeaders() }))
        .then((r) => r.json()).then((j) => { if (j.status === 'success') img.src = j.download_url; }).catch(() => {});
    }
  }

  function answerOf(channels) {
    let ans = null;
    for (const c of channels) {
      const m = c && c.message;
      if (m && m.author.role === 'assistant' && m.content.content_type === 'text' && m.channel !== 'commentary' && m.channel !== 'analysis') ans = c;
    }
    return ans;
  }

  // A new chat's lasting address replaces its transient one only a while
  // (param durable_after, ms) after its first turn is over.
  let transient = null;
  function setConversation(id) {
    conversationId = id;
    if (anon || transient || temporary) return;
    const path = (place ? '/g/' + place : '') + '/c/' + id;
    if (location.pathname !== path) history.pushState({}, '', path);
  }
  function settleAddress() {
    const was = transient;
    if (!was) return;
    const after = parseInt((cfg.params || {}).durable_after || '800', 10);
    setTimeout(() => {
      transient = null;
      if (conversationId && location.pathname === was) history.replaceState({}, '', (place ? '/g/' + place : '') + '/c/' + conversationId);
    }, after);
  }
  function addHistory(title) {
    const hist = document.getElementById('history');
    if (!hist) return;
    const n = hist.children.length;
    hist.prepend(h('a', { 'data-testid': 'history-item-' + n, href: '/c/' + conversationId, class: 'history-item' }, title));
  }

  function regenButton() {
    return h('button', { type: 'button', 'data-testid': 'regenerate-thread-error-button', class: 'btn', onclick: () => submit(true) }, 'Retry');
  }

  async function stop() {
    if (!(await Sim.pressStop())) return;
    if (abort) abort.abort();
    if (conversationId && token) Sim.postJSON('/backend-api/stop_conversation', { conversation_id: conversationId }, authHeaders());
  }

  async function tooMany(t, resp) {
    const j = await resp.json().catch(() => ({}));
    t.el.remove(); turns.pop();
    if (j.detail && j.detail.code === 'model_cap_exceeded') return usageCap(j.detail);
    lockedUntil = Date.now() + (parseInt(resp.headers.get('retry-after') || '5', 10) * 1000);
    rateLimitModal();
  }

  // The rate-limit modal: its backdrop swallows every click; it comes back
  // every few seconds while the lock lasts.
  function rateLimitModal() {
    if (modalOpen) return;
    modalOpen = true;
    Sim.dialog('Too many requests', 'You\u2019re making requests too quickly. We\u2019ve temporarily limited access to your conversations to protect our systems. Please wait a few minutes before trying again.',
      [{ label: 'Got it', onclick: () => {
        modalOpen = false;
        if (Date.now() < lockedUntil) setTimeout(() => { if (Date.now() < lockedUntil) rateLimitModal(); }, 2000);
      } }]);
  }

  // The cap notice; banner (an account already at its cap, on load) has
  // no role or test id, only its words above the composer.
  function usageCap(detail, banner) {
    const reset = new Date(detail.reset_at);
    const label = reset.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });
    const box = h('div', banner ? { class: 'notice cap-banner' } : { role: 'alert', 'data-testid': 'rate-limit-notice', class: 'notice' },
      'You\u2019ve hit the Free plan limit for GPT-5. Responses will use another model until your limit resets after ',
      h('time', { datetime: detail.reset_at }, label), '.',
      h('a', { href: '/', class: 'btn' }, 'New chat'), h('button', { type: 'button', class: 'btn' }, 'Upgrade'));
    document.querySelector('main').prepend(box);
  }

  function sessionExpired() {
    if (modalOpen) return;
    modalOpen = true;
    Sim.dialog('Your session has expired', 'Your session has expired. Please log in again to continue using the app.',
      [{ label: 'Log in', onclick: () => { location.href = '/auth/login'; } }]);
  }

  // ---- loading an existing conversation ----
  async function loadConversation(id) {
    await ensureToken();
    const r = await fetch('/backend-api/conversation/' + id, { credentials: 'include', headers: authHeaders() });
    if (r.status === 429) { lockedUntil = Date.now() + parseInt(r.headers.get('retry-after') || '5', 10) * 1000; rateLimitModal(); return; }
    if (r.status === 401) return sessionExpired();
    if (!r.ok) return;
    const c = await r.json();
    const chain = [];
    for (let nid = c.current_node; nid; nid = c.mapping[nid].parent) chain.unshift(c.mapping[nid]);
    let tools = [];
    for (const n of chain) {
      const m = n.message;
      if (!m || (m.metadata && m.metadata.is_visually_hidden_from_conversation)) continue;
      if (m.author.role === 'tool') tools.push(m);
      if (m.author.role === 'user') { userTurn(m.content.parts.join('\n'), m.id); tools = []; }
      else if (m.author.role === 'assistant' && m.content.content_type === 'text' && m.channel !== 'commentary' && m.channel !== 'analysis') {
        const t = assistantTurn();
        for (const tm of tools) renderImages(t, tm);
        tools = [];
        setMessageId(t, m.id);
        t.text = m.content.parts.join('');
        t.refs = (m.metadata || {}).content_references;
        renderAnswer(t);
        if (m.status === 'in_progress') followAnswer(id, t, m.id);
        else finishTurn(t, m.metadata.model_slug);
        if (research.stateOf(m)) research.follow(t, m.id);
      }
    }
    parentId = c.current_node;
    addHistory(c.title);
  }

  // An answer still being generated (its stream's reader went away) is
  // shown in progress and read again until the site stores it finished.
  async function followAnswer(id, t, mid) {
    for (;;) {
      await new Promise((r) => setTimeout(r, 400));
      const r = await fetch('/backend-api/conversation/' + id, { credentials: 'include', headers: authHeaders() });
      if (!r.ok) continue;
      const m = ((await r.json()).mapping[mid] || {}).message;
      if (!m) continue;
      t.text = m.content.parts.join('');
      t.refs = (m.metadata || {}).content_references;
      renderAnswer(t);
      if (m.status !== 'in_progress') { finishTurn(t, m.metadata.model_slug); return; }
    }
  }

  // Code mode: clicking a sandbox link mints a download URL and fetches the
  // bytes in-page (cookie-bound). No file is written, as on the real site.
  async function downloadSandbox(t, path) {
    await ensureToken();
    const mid = t.id;
    const r = await fetch('/backend-api/conversation/' + conversationId + '/interpreter/download?message_id=' + encodeURIComponent(mid) + '&sandbox_path=' + encodeURIComponent(path), { credentials: 'include', headers: authHeaders() });
    const j = await r.json();
    if (j.status !== 'success') {
      document.body.appendChild(h('div', { 'data-sonner-toast': '', role: 'status', class: 'toast' }, 'Code interpreter session expired'));
      return;
    }
    const f = await fetch(j.download_url, { credentials: 'include' });
    if (!f.ok) {
      document.body.appendChild(h('div', { 'data-sonner-toast': '', role: 'status', class: 'toast' }, 'Failed to download file'));
      return;
    }
    await f.arrayBuffer();
  }

  // A lapsed session whose accounts the site still knows: "Welcome back"
  // lists them (welcome_back); a trusted click on one signs it in.
  function welcomeBack() {
    const params = cfg.params || {};
    if (cfg.scenario !== 'welcome_back' || params.chosen) return false;
    const box = h('main', { class: 'welcome' }, h('h1', {}, 'Welcome back'), h('p', {}, 'Choose an account to continue.'));
    for (const email of (params.accounts || 'sim.user@example.com').split(',')) {
      box.appendChild(h('button', { type: 'button', class: 'account-row', onclick: async (e) => {
        if (!e.isTrusted) return;
        await Sim.postJSON('/api/auth/choose-account', { email }, {});
        location.reload();
      } }, h('span', { class: 'avatar', 'aria-hidden': 'true' }, email[0].toUpperCase()), h('span', { class: 'account-email' }, email)));
    }
    box.append(h('a', { href: '/auth/login', class: 'btn' }, 'Log in to another account'), h('button', { type: 'button', class: 'btn' }, 'Sign up'));
    app.append(box);
    return true;
  }
  if (welcomeBack()) return;
  build();
  if (cfg.scenario === 'session_expired') Sim.afterHydration(sessionExpired);
  if (Sim.capOnLoad()) usageCap({ reset_at: new Date(cfg.capResetAt).toISOString() }, true);
  Sim.afterHydration(() => {
    editor.attach();
    hydrated = true;
    renderTrailing();
    // The picker's trigger mounts a while after the page is interactive.
    if (!anon) setTimeout(() => pickerSlot.appendChild(picker.trigger), Number((cfg.params || {}).picker_ms || 1000));
    if (project) project.load();
    if (conversationId) loadConversation(conversationId);
    else ensureToken();
    // The page keeps its user socket from load on, subscribed to the
    // conversations topic; long turns come over it.
    if (!anon) { celsius.follow('conversations', () => {}); }
  });
})();
