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
  app.append(h('nav', {}, cfg.loggedIn ? h('div', { class: 'user-info' }, 'Sim User') : h('button', { type: 'button', class: 'login-button' }, 'Log In')),
    h('main', { class: 'main' }, h('div', { class: 'current-model' }, 'K2'), list,
      h('div', { class: 'chat-editor' }, edEl, h('div', { class: 'chat-editor-action' }, btn))));
  const eng = Sim.chat({
    editor: () => editor,
    submitOn: (e) => e.key === 'Enter' && !e.shiftKey && !e.isComposing,
    renderControls(state) {
      btn.className = T.btn + (state === 'busy' ? ' stop' : state === 'ready' ? '' : ' disabled');
    },
    userTurn(text) {
      list.appendChild(h('div', { class: 'chat-content-item chat-content-item-user' }, h('div', { class: 'user-content', text })));
    },
    assistantTurn() {
      const md = h('div', { class: T.md });
      const item = h('div', { class: 'chat-content-item chat-content-item-assistant' }, h('div', { class: 'segment-content' }, md));
      list.appendChild(item);
      const opts = { code: (lang, code) => h('div', { class: 'segment-code' }, h('div', { class: 'segment-code-header' }, h('span', { class: 'segment-code-lang' }, lang)), h('pre', {}, h('code', { class: 'language-' + lang, text: code }))) };
      return {
        update(text) { md.innerHTML = ''; md.appendChild(Sim.markdown(text, opts)); },
        done() { item.appendChild(h('div', { class: 'segment-assistant-actions' }, h('div', { class: 'simple-button', 'aria-label': 'Copy' }, 'Copy'))); },
        error(msg, retry) { item.appendChild(h('div', { class: 'segment-error', role: 'alert' }, msg)); if (retry) item.appendChild(h('div', { class: 'simple-button retry', onclick: retry }, 'Retry')); },
      };
    },
    async send(prompt, turn, signal) {
      btn.classList.add('loading');
      const resp = await fetch('/apiv2/kimi.gateway.chat.v1.ChatService/Chat', { method: 'POST', credentials: 'include', signal,
        headers: { 'content-type': 'application/connect+json', 'connect-protocol-version': '1' },
        body: Sim.connectEnvelope({ chat_id: chatId, scenario: 'SCENARIO_K2', message: { role: 'user', blocks: [{ message_id: '', text: { content: prompt } }], scenario: 'SCENARIO_K2' }, options: { thinking: false } }) });
      btn.classList.remove('loading');
      let text = '', done = false, err = null;
      await Sim.connectFrames(resp, (flags, f) => {
        if (flags & 2) { if (f.error) err = f.error; return; }
        if (f.chat && !chatId) { chatId = f.chat.id; history.pushState({}, '', '/chat/' + chatId); }
        if (f.block && f.block.text) { text = f.op === 'set' ? f.block.text.content : text + f.block.text.content; turn.update(text); }
        if (f.done) done = true;
      });
      if (err && err.code === 'resource_exhausted') Sim.toast(err.message + '. Try again after ').appendChild(Sim.resetTime(Date.now() + 3600e3));
      if (err) { turn.error(err.code === 'resource_exhausted' ? err.message : 'Service is busy, please try again later', err.code === 'resource_exhausted' ? null : () => eng.submit(prompt)); return; }
      if (!done) throw new Error('stream ended early');
      turn.done('kimi-k2');
    },
  });
  Sim.afterHydration(eng.hydrate);
  eng.changed();
})();
