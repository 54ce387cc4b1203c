// Simulated grok.com: Tiptap editor (Enter inserts a newline; Ctrl/Cmd+Enter
// sends), chat-submit hidden until text, NDJSON stream, listing GETs that
// must not end a turn.
(function () {
  'use strict';
  const { h, cfg } = Sim;
  const D = cfg.drift;
  const T = D ? { submit: 'composer-submit', stop: 'composer-stop', md: 'answer-markdown' }
    : { submit: cfg.scenario === 'renamed_send' ? 'composer-send' : 'chat-submit', stop: 'chat-stop', md: 'response-content-markdown' };
  if (!cfg.loggedIn) {
    // Logged out: a landing page with Sign in / Sign up and no composer.
    document.getElementById('app').append(h('header', {}, h('a', { href: 'https://accounts.x.ai/sign-in', class: 'btn' }, 'Sign in'),
      h('a', { href: 'https://accounts.x.ai/sign-up', class: 'btn btn-primary' }, 'Sign up')),
    h('main', { class: 'landing' }, h('h1', {}, 'Grok'), h('p', {}, 'Understand the universe.')));
    return;
  }
  let conv = cfg.conversation || '';
  let model = 'grok-4';
  const app = document.getElementById('app');
  const thread = h('div', { class: 'thread' });
  const edEl = h('div', { contenteditable: 'true', class: D ? 'editor-surface' : 'tiptap ProseMirror', role: 'textbox', 'aria-label': D ? 'Message Grok' : 'Ask Grok anything', translate: 'no' });
  const editor = Sim.prose(edEl, { placeholder: 'What do you want to know?', onChange: () => eng.changed(), onKey: (e) => eng.key(e) });
  const controls = h('div', { class: 'controls' });
  const modelBtn = h('button', { type: 'button', 'aria-label': 'Model select', onclick: openModels }, 'Auto');
  app.append(h('nav', {}, cfg.loggedIn ? h('button', { type: 'button', 'aria-label': 'Open user menu' }, 'S') : h('a', { href: 'https://accounts.x.ai/sign-in', class: 'btn' }, 'Sign in')),
    h('main', { class: 'main' }, thread, h('form', { class: 'composer', onsubmit: (e) => e.preventDefault() }, edEl, modelBtn, controls)));
  function openModels() {
    if (document.querySelector('[role="menu"]')) return;
    const menu = h('div', { role: 'menu', class: 'menu' });
    // The modes of 2026 (Heavy is tier-gated: see the tier_gated scenario).
    for (const [id, label] of [['grok-4', 'Auto'], ['grok-4-fast', 'Fast'], ['grok-4-expert', 'Expert'], ['grok-4-heavy', 'Heavy']]) {
      menu.appendChild(h('div', { role: 'menuitem', onclick: () => { model = id; modelBtn.textContent = label; menu.remove(); } }, label));
    }
    document.body.appendChild(menu);
  }
  const eng = Sim.chat({
    conversation: () => conv,
    editor: () => editor,
    submitOn: (e) => e.key === 'Enter' && (e.ctrlKey || e.metaKey),
    renderControls(state) {
      controls.innerHTML = '';
      if (state === 'busy') { controls.appendChild(h('button', { type: 'button', 'data-testid': T.stop, 'aria-label': 'Stop model response', onclick: () => eng.stop() }, '■')); return; }
      const ready = state === 'ready';
      controls.appendChild(h('button', { type: 'submit', 'data-testid': T.submit, 'aria-label': 'Submit', disabled: !ready, style: ready ? '' : 'visibility:hidden', onclick: () => eng.submit() }, '↑'));
    },
    userTurn(text) {
      thread.appendChild(h('div', { class: 'message-row items-end' }, h('div', { class: 'message-bubble user' }, h('p', { class: 'whitespace-pre-wrap', text }))));
    },
    assistantTurn() {
      const md = h('div', { class: T.md });
      const row = h('div', { class: 'message-row items-start' }, h('div', { class: 'message-bubble assistant' }, md));
      thread.appendChild(row);
      const opts = { code: (lang, code) => h('div', { class: 'code-block' }, h('div', { class: 'lang' }, lang), h('pre', {}, h('code', { class: 'language-' + lang, text: code }))) };
      return {
        update(text, th) { md.innerHTML = ''; if (th && !text) md.appendChild(h('div', { class: 'thinking' }, 'Thinking…')); md.appendChild(Sim.markdown(text, opts)); },
        done() { row.appendChild(h('div', { class: 'action-buttons' }, h('button', { type: 'button', 'aria-label': 'Copy' }, 'Copy'), h('button', { type: 'button', 'aria-label': 'Regenerate' }, 'Regenerate'))); },
        error(msg, retry) { row.appendChild(h('div', { class: 'error', role: 'alert' }, msg)); if (retry) row.appendChild(h('button', { type: 'button', onclick: retry }, 'Retry')); },
        remove() { row.remove(); },
      };
    },
    async send(prompt, turn, signal) {
      const url = conv ? '/rest/app-chat/conversations/' + conv + '/responses' : '/rest/app-chat/conversations/new';
      const resp = await fetch(url, { method: 'POST', credentials: 'include', signal, headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: prompt, modelName: model, temporary: false, fileAttachments: [], disableSearch: false }) });
      if (resp.status === 403) {
        // {"code":7,"message":"Request rejected by anti-bot rules."}
        turn.remove();
        Sim.toast('Something went wrong. Please refresh the page and try again.');
        return;
      }
      if (resp.status === 429) {
        // {"code":8,"message":…,"details":[]}: RESOURCE_EXHAUSTED for a short
        // rate limit and for the plan's cap alike; the words tell them apart.
        const j = await resp.json();
        turn.remove();
        if (j.message.includes('limit')) capNotice(Date.now() + 3 * 3600e3);
        else Sim.toast('Too many requests. Please slow down.');
        return;
      }
      let text = '', thoughts = '', soft = false, full = null, err = null;
      await Sim.readBody(resp, Sim.lines((line) => {
        const r = JSON.parse(line).result;
        if (!r) return;
        if (r.conversation && !conv) { conv = r.conversation.conversationId; history.pushState({}, '', '/chat/' + conv); }
        const rr = r.response;
        if (!rr) return;
        if (typeof rr.token === 'string') { if (rr.isThinking) thoughts += rr.token; else text += rr.token; if (rr.isSoftStop) soft = true; turn.update(text, thoughts); }
        if (rr.modelResponse) { full = rr.modelResponse; turn.update(full.message); }
        if (rr.error) err = rr.error;
      }));
      if (err) { turn.error(err.message, () => eng.submit(prompt)); return; }
      if (!soft || !full) throw new Error('stream ended early');
      fetch('/rest/app-chat/conversations?pageSize=60', { credentials: 'include' });
      turn.done(full.model);
    },
  });
  function capNotice(until) { Sim.capBanner('You\u2019ve reached your limit of messages. Resets at ', until, 'alert'); }
  if (Sim.capOnLoad()) capNotice(cfg.capResetAt);
  Sim.afterHydration(eng.hydrate);
  eng.changed();
})();
