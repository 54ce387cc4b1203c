// Simulated aistudio.google.com: Angular textarea with a token counter, one
// Run/Stop control told apart by its text, ms-chat-turn turns.
(function () {
  'use strict';
  const { h, cfg } = Sim;
  const D = cfg.drift;
  const model = new URLSearchParams(location.search).get('model') || 'gemini-3-pro-preview';
  const app = document.getElementById('app');
  const turns = h('div', { class: 'chat-session-content' });
  const ta = h('textarea', D ? { 'aria-label': 'Prompt', placeholder: 'Start typing a prompt', rows: '3' } : { formcontrolname: 'promptText', 'aria-label': 'Start typing a prompt', placeholder: 'Start typing a prompt', rows: '3' });
  const editor = Sim.plainTextarea(ta, { onChange: () => { eng.changed(); countTokens(); }, onKey: (e) => eng.key(e) });
  const tokens = h('span', { class: 'v3-token-count-value' }, '0 tokens');
  const runBtn = h('button', { type: 'button', class: 'run-button', onclick: () => { if (runBtn.getAttribute('aria-disabled') === 'true') return; eng.busy ? eng.stop() : eng.submit(); } }, 'Run');
  const zero = h('ms-zero-state', {}, h('button', { type: 'button', class: 'model-selector-card' }, model));
  app.append(h('nav', {}, cfg.loggedIn ? h('a', { 'aria-label': 'Google Account: Sim User', href: '#' }, 'S') : h('a', { href: 'https://accounts.google.com/ServiceLogin' }, 'Sign in')),
    h('main', { class: 'main' }, zero, turns,
      h('footer', {}, h(D ? 'ms-input-box' : 'ms-prompt-box', {}, ta), tokens, h(D ? 'ms-submit-button' : 'ms-run-button', {}, runBtn))));
  let tokenTimer = null;
  function countTokens() {
    clearTimeout(tokenTimer);
    tokenTimer = setTimeout(() => { const t = editor.text(); tokens.textContent = (t ? Math.ceil(t.length / 4) : 0) + ' tokens'; }, 150);
  }
  const eng = Sim.chat({
    editor: () => editor,
    submitOn: (e) => e.key === 'Enter' && (e.ctrlKey || e.metaKey),
    renderControls(state) {
      runBtn.textContent = state === 'busy' ? 'Stop' : 'Run';
      runBtn.setAttribute('aria-disabled', String(state !== 'ready' && state !== 'busy'));
    },
    userTurn(text) {
      zero.remove();
      turns.appendChild(h('ms-chat-turn', { 'data-turn-role': 'User' }, h('ms-text-chunk', {}, h('span', { class: 'cmark-node', text })),
        h('ms-run-button', {}, h('button', { type: 'button' }, 'Rerun'))));
    },
    assistantTurn() {
      const chunk = h('ms-text-chunk', {});
      const thought = h('ms-thought-chunk', { hidden: true });
      const turn = h('ms-chat-turn', { 'data-turn-role': 'Model' }, thought, chunk);
      turns.appendChild(turn);
      const opts = { code: (lang, code) => h('ms-code-block', {}, h('div', { class: 'language' }, lang), h('pre', {}, h('code', { text: code }))) };
      return {
        update(text, th) {
          if (th) { thought.hidden = false; thought.textContent = th; }
          chunk.innerHTML = '';
          const frag = Sim.markdown(text, opts);
          frag.childNodes.forEach((n) => n.classList && n.classList.add('cmark-node'));
          chunk.appendChild(frag);
        },
        done() {
          // AI Studio shows the footer only when the turn is finished.
          setTimeout(() => turn.appendChild(h('div', { class: 'turn-footer' }, h('button', { type: 'button', iconname: 'thumb_up', 'aria-label': 'Good response' }, 'thumb_up'),
            h('button', { type: 'button', iconname: 'thumb_down', 'aria-label': 'Bad response' }, 'thumb_down'))), 50);
        },
        error(msg, retry) { turn.appendChild(h('div', { class: 'model-error', role: 'alert' }, msg)); if (retry) turn.appendChild(h('button', { type: 'button', onclick: retry }, 'Retry')); },
        remove() { turn.remove(); },
      };
    },
    async send(prompt, turn, signal) {
      const resp = await fetch('/_/ms/GenerateContent', { method: 'POST', credentials: 'include', signal, headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prompt, model, chat: location.pathname }) });
      if (resp.status === 429) {
        const j = await resp.json();
        if (/rate limit/i.test(j.error.message)) { turn.remove(); Sim.toast(j.error.message); return; }
        turn.error(j.error.message, null);
        Sim.toast(j.error.message + ' Try again at ').appendChild(Sim.resetTime(Date.now() + 3 * 3600e3));
        return;
      }
      let text = '', th = '', fin = null, err = null;
      await Sim.readBody(resp, Sim.lines((line) => {
        const f = JSON.parse(line);
        if (f.thought) th += f.text; else if (typeof f.text === 'string') text += f.text;
        if (f.finishReason) fin = f;
        if (f.error) err = f.error;
        turn.update(text, th);
      }));
      if (err) { turn.error(err.message, () => eng.submit(prompt)); return; }
      if (!fin) throw new Error('stream ended early');
      turn.done(fin.modelVersion);
    },
  });
  if (Sim.capOnLoad()) Sim.capBanner('You exceeded your current quota. Try again at ', cfg.capResetAt, 'alert');
  Sim.afterHydration(eng.hydrate);
  eng.changed();
})();
