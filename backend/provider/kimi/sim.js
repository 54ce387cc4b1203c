// Simulated www.kimi.com: Lexical editor (a second input event duplicates
// text), send/stop share one div by class, Connect RPC framing.
(function () {
  'use strict';
  const { h, cfg } = Sim;
  const D = cfg.drift;
  const T = D ? { editor: 'prompt-editor', btn: 'submit-wrapper', md: 'answer-md' } : { editor: 'chat-input-editor', btn: 'send-button-container', md: 'markdown' };
  let chatId = cfg.conversation || '';
  const app = document.getElementById('app');
  const list = h('div', { class: 'chat-content-list' });
  const edEl = h('div', { class: T.editor, contenteditable: 'true', 'data-lexical-editor': 'true', role: 'textbox', spellcheck: 'false' });
  const editor = Sim.lexical(edEl, { onChange: () => eng.changed(), onKey: (e) => eng.key(e) });
  const btn = h('div', { class: T.btn + ' disabled', onclick: () => (eng.busy ? eng.stop() : eng.submit()) }, h('span', { class: 'send-icon' }, '↑'));
  // The newest capture posts to kimi.chat.v1; legacy_stream keeps the
  // older kimi.gateway.chat.v1.
  const chatURL = cfg.scenario === 'legacy_stream' ? '/apiv2/kimi.gateway.chat.v1.ChatService/Chat' : '/apiv2/kimi.chat.v1.ChatService/Chat';
  // Logged out: a "Log In" control in the sidebar; send opens a login
  // dialog and sends nothing.
  const loginDialog = () => { if (!document.querySelector('[role="dialog"]')) Sim.dialog('Log in to Kimi', 'Log in to continue the conversation.', [{ label: 'Log In', class: 'btn login' }]); };
  app.append(h('nav', {}, cfg.loggedIn ? h('div', { class: 'user-info' }, 'Sim User') : h('div', { class: 'user-info-no-login', role: 'button' }, h('span', {}, 'Log In'))),
    h('main', { class: 'main' }, h('div', { class: 'current-model' }, 'K2'), list,
      h('div', { class: 'chat-editor' }, edEl, h('div', { class: 'chat-editor-action' }, btn))));
  const eng = Sim.chat({
    conversation: () => chatId,
    editor: () => editor,
    blocked: () => { if (cfg.loggedIn) return false; loginDialog(); return true; },
    submitOn: (e) => e.key === 'Enter' && !e.shiftKey && !e.isComposing,
    renderControls(state) {
      btn.className = T.btn + (state === 'busy' ? ' stop' : state === 'ready' ? '' : ' disabled');
    },
    userTurn(text) {
      list.appendChild(h('div', { class: 'chat-content-item chat-content-item-user' }, h('div', { class: 'user-content', text })));
    },
    assistantTurn() {
      const md = h('div', { class: T.md });
      const content = h('div', { class: 'segment-content' }, md);
      const item = h('div', { class: 'chat-content-item chat-content-item-assistant' }, content);
      let thinking = null;
      list.appendChild(item);
      const opts = { code: (lang, code) => h('div', { class: 'segment-code' }, h('div', { class: 'segment-code-header' }, h('span', { class: 'segment-code-lang' }, lang)), h('pre', {}, h('code', { class: 'language-' + lang, text: code }))) };
      return {
        update(text) { md.innerHTML = ''; md.appendChild(Sim.markdown(text, opts)); },
        // A thinking model's thinking renders first, as a .markdown inside
        // .thinking-container (the trap a public audit names).
        think(text) {
          if (!thinking) { thinking = h('div', { class: 'markdown' }); content.insertBefore(h('div', { class: 'thinking-container' }, h('div', { class: 'thinking-title' }, 'Thinking'), thinking), md); }
          thinking.innerHTML = ''; thinking.appendChild(Sim.markdown(text, opts));
        },
        remove() { item.remove(); },
        done() { item.appendChild(h('div', { class: 'segment-assistant-actions' }, h('div', { class: 'simple-button', 'aria-label': 'Copy' }, 'Copy'))); },
        error(msg, retry) { item.appendChild(h('div', { class: 'segment-error', role: 'alert' }, msg)); if (retry) item.appendChild(h('div', { class: 'simple-button retry', onclick: retry }, 'Retry')); },
      };
    },
    async send(prompt, turn, signal) {
      btn.classList.add('loading');
      const resp = await fetch(chatURL, { method: 'POST', credentials: 'include', signal,
        headers: { 'content-type': 'application/connect+json', 'connect-protocol-version': '1' },
        body: Sim.connectEnvelope({ chat_id: chatId, scenario: 'SCENARIO_K2', message: { role: 'user', blocks: [{ message_id: '', text: { content: prompt } }], scenario: 'SCENARIO_K2' }, options: { thinking: false } }) });
      btn.classList.remove('loading');
      let text = '', think = '', done = false, err = null;
      await Sim.connectFrames(resp, (flags, f) => {
        if (flags & 2) { if (f.error) err = f.error; return; }
        if (f.chat && !chatId) { chatId = f.chat.id; history.pushState({}, '', '/chat/' + chatId); }
        if (f.block && f.block.think) { think = f.op === 'set' ? f.block.think.content : think + f.block.think.content; turn.think(think); }
        if (f.block && f.block.text) { text = f.op === 'set' ? f.block.text.content : text + f.block.text.content; turn.update(text); }
        if (f.done) done = true;
      });
      if (err && err.code === 'resource_exhausted' && /usage limit/i.test(err.message)) { turn.error(err.message, null); capNotice(Date.now() + 3 * 3600e3); return; }
      if (err && err.code === 'resource_exhausted') { turn.remove(); Sim.toast(err.message); return; }
      if (err) { turn.error('Service is busy, please try again later', () => eng.submit(prompt)); return; }
      if (!done) throw new Error('stream ended early');
      turn.done('kimi-k2');
    },
  });
  function capNotice(until) { Sim.capBanner('You\u2019ve reached the usage limit. Try again after ', until, 'alert'); }
  if (Sim.capOnLoad()) capNotice(cfg.capResetAt);
  Sim.afterHydration(eng.hydrate);
  eng.changed();
})();
