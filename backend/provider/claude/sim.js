// Simulated claude.ai: ProseMirror composer (property writes fail silently),
// send button that hydrates late, data-is-streaming container, SSE
// content_block_delta stream.
(function () {
  'use strict';
  const { h, cfg } = Sim;
  const D = cfg.drift;
  const T = D ? { input: 'composer-input', send: 'composer-send', sendLabel: 'Send', copy: 'turn-copy' }
    : { input: 'chat-input', send: cfg.scenario === 'renamed_send' ? 'composer-send-button' : 'chat-input-send', sendLabel: 'Send message', copy: 'action-bar-copy' };
  // At the usage cap the page shows a banner without a role and blocks the
  // composer: no request goes out until the reset, reloads included.
  let capped = false;
  const capBanner = (until) => {
    if (capped) return;
    capped = true;
    Sim.capBanner('You\u2019ve hit your limit for Claude messages. Limits will reset at ', until);
    eng.changed();
  };
  // The newest layout (2026-08) has no test ids on the action bars: a
  // message is div[data-test-render-count] › div › (the message, its bar),
  // the copy control the bar's first button. The older layout (scenario
  // older_turns, and the drifted page) has action-bar-copy and
  // action-bar-retry.
  const older = D || cfg.scenario === 'older_turns';
  let renders = 0;
  const message = (content, bar) => h('div', { 'data-test-render-count': String(++renders) }, h('div', { class: 'message-frame' }, content, ...(bar ? [bar] : [])));
  const actionBar = (retry) => older
    ? h('div', { class: 'action-bar' }, h('button', { type: 'button', 'data-testid': T.copy }, 'Copy'), ...(retry ? [h('button', { type: 'button', 'data-testid': 'action-bar-retry' }, 'Retry')] : []))
    : h('div', { class: 'flex items-center' }, h('button', { type: 'button', 'aria-label': 'Copy' }, 'Copy'), ...(retry ? [h('button', { type: 'button', 'aria-label': 'Retry' }, 'Retry')] : []));
  const org = '8f3e2b1c-sim0-4c7d-9a1e-000000000001';
  let conv = cfg.conversation || '';
  let model = 'claude-sonnet-4-6';
  if (!cfg.loggedIn) { location.replace('/login'); return; }
  const app = document.getElementById('app');
  const thread = h('div', { class: 'thread' });
  const edEl = h('div', { contenteditable: 'true', class: 'ProseMirror', translate: 'no', role: 'textbox', 'aria-label': D ? 'Message Claude' : 'Write your prompt to Claude', 'data-testid': T.input, 'aria-multiline': 'true' });
  const editor = Sim.prose(edEl, { placeholder: 'How can I help you today?', onChange: () => eng.changed(), onKey: (e) => eng.key(e) });
  const controls = h('div', { class: 'controls' });
  const modelBtn = h('button', { type: 'button', 'data-testid': 'model-selector-dropdown', onclick: openModels }, 'Claude Sonnet 4.6');
  const fileInput = h('input', { type: 'file', id: 'chat-input-file-upload-onpage', multiple: true, hidden: true });
  const tray = h('div', { class: 'file-tray' });
  app.append(h('nav', {}, h('button', { 'data-testid': 'user-menu-button', type: 'button' }, 'Sim User')),
    h('main', { class: 'main' }, thread, h('fieldset', { class: 'composer' }, fileInput, tray, edEl, modelBtn, controls)));
  const uploads = Sim.uploads({ tray, input: fileInput, prefix: '/api/organizations/' + org, onChange: () => eng.changed(),
    tileAttrs: () => ({ 'data-testid': 'file-thumbnail' }),
    tooLarge: (name) => name + ' exceeds the maximum file size.' });
  function openModels() {
    if (document.querySelector('[role="menu"]')) return;
    const menu = h('div', { role: 'menu', class: 'menu' });
    for (const [id, label] of [['claude-opus-4-6', 'Claude Opus 4.6'], ['claude-sonnet-4-6', 'Claude Sonnet 4.6'], ['claude-haiku-4-5', 'Claude Haiku 4.5']]) {
      menu.appendChild(h('div', { role: 'menuitemradio', 'aria-checked': String(id === model), onclick: () => { model = id; modelBtn.textContent = label; menu.remove(); } }, label));
    }
    document.body.appendChild(menu);
  }
  const eng = Sim.chat({
    conversation: () => conv,
    editor: () => editor,
    blocked: () => capped,
    files: () => uploads,
    submitOn: (e) => e.key === 'Enter' && !e.shiftKey && !e.isComposing,
    renderControls(state) {
      controls.innerHTML = '';
      if (state === 'busy') { controls.appendChild(h('button', { type: 'button', 'aria-label': 'Stop response', onclick: () => eng.stop() }, '■')); return; }
      controls.appendChild(h('button', { type: 'button', 'aria-label': T.sendLabel, 'data-testid': T.send, disabled: state !== 'ready' || capped, onclick: () => eng.submit() }, '↑'));
    },
    userTurn(text, files) {
      const msg = h('div', { 'data-testid': 'user-message' }, Sim.attachmentChips(files), h('p', { class: 'whitespace-pre-wrap', text }));
      thread.appendChild(older ? h('div', { class: 'user-row' }, msg, h('button', { type: 'button', 'data-testid': T.copy }, 'Copy'))
        : message(h('div', { class: 'user-row' }, msg), actionBar(false)));
    },
    assistantTurn() {
      const md = h('div', { class: 'standard-markdown grid-cols-1' });
      const body = h('div', { class: 'font-claude-response' }, md);
      let summary = null;
      const box = h('div', { 'data-is-streaming': 'true', class: 'group relative' }, body);
      const row = h('div', { class: 'assistant-row' }, box);
      const frame = older ? row : message(row);
      thread.appendChild(frame);
      const opts = { code: (lang, code) => h('div', { class: 'code-block' }, h('div', { class: 'code-lang' }, lang), h('pre', {}, h('code', { class: 'language-' + lang, text: code }))) };
      const end = () => box.setAttribute('data-is-streaming', 'false');
      return {
        update(text) { md.innerHTML = ''; md.appendChild(Sim.markdown(text, opts)); },
        // The thinking summary renders inside .font-claude-response, before
        // and outside the answer's .standard-markdown.
        think(th) {
          if (!summary) { summary = h('div', { class: 'thinking-summary transition-all' }, h('div', { class: 'text-sm' })); body.insertBefore(summary, md); }
          summary.firstChild.appendChild(h('p', { text: th }));
        },
        remove() { frame.remove(); },
        done() {
          end();
          (older ? row : frame.firstChild).appendChild(actionBar(true));
        },
        error(msg, retry) {
          end();
          row.appendChild(h('div', { class: 'error-message', role: 'alert' }, msg));
          if (retry) row.appendChild(h('button', older ? { type: 'button', 'data-testid': 'action-bar-retry', onclick: retry } : { type: 'button', 'aria-label': 'Retry', onclick: retry }, 'Retry'));
        },
      };
    },
    async send(prompt, turn, signal, files) {
      if (!conv) {
        const r = await Sim.postJSON('/api/organizations/' + org + '/chat_conversations', { name: '', uuid: Sim.uuid() });
        conv = (await r.json()).uuid;
        history.pushState({}, '', '/chat/' + conv);
      }
      const resp = await fetch('/api/organizations/' + org + '/chat_conversations/' + conv + '/completion', {
        method: 'POST', credentials: 'include', signal, headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ prompt, model, timezone: 'UTC', attachments: [], files: (files || []).map((f) => f.id), rendering_mode: 'messages' }) });
      if (resp.status === 429) {
        const j = await resp.json();
        let limit = null;
        try { limit = JSON.parse(j.error.message); } catch (e) { limit = null; }
        if (limit && limit.type === 'exceeded_limit') { turn.remove(); capBanner(limit.resetsAt * 1000); return; }
        turn.remove();
        Sim.toast('Too many requests. Please wait a moment before trying again.');
        return;
      }
      let text = '', stopped = false, err = null;
      await Sim.readBody(resp, Sim.sse(({ event, data }) => {
        const f = JSON.parse(data);
        if (f.type === 'content_block_delta' && f.delta.type === 'text_delta') { text += f.delta.text; turn.update(text); }
        if (f.type === 'content_block_delta' && f.delta.type === 'thinking_summary_delta') turn.think(f.delta.summary.summary);
        if (f.type === 'message_stop') stopped = true;
        if (f.type === 'error') err = f.error;
      }));
      if (err && err.message === 'prompt is too long') { turn.error('Claude hit the maximum length for this conversation. Please start a new conversation to continue chatting with Claude.', null); return; }
      if (err) { turn.error('Claude is currently overloaded. Please try again.', () => eng.submit(prompt)); return; }
      if (!stopped) throw new Error('stream ended early');
      turn.done(model);
    },
  });
  if (cfg.scenario === 'session_expired') Sim.dialog('Session expired', 'Your session has expired. Please log in again.', [{ label: 'Log in', onclick: () => { location.href = '/login'; } }]);
  if (Sim.capOnLoad()) capBanner(cfg.capResetAt);
  Sim.afterHydration(eng.hydrate);
  eng.changed();
})();
