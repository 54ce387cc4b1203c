// Simulated test site: a plain textarea (its model follows input events), a
// send button while there is text, a stop button while the answer streams,
// NDJSON answers, an actions bar under a finished answer.
(function () {
  'use strict';
  const { h, cfg } = Sim;
  const T = cfg.drift
    ? { composer: 'ts-input', send: 'ts-go', stop: 'ts-halt', md: 'ts-md' }
    : { composer: 'ts-composer', send: 'ts-send', stop: 'ts-stop', md: 'ts-answer' };
  let conv = cfg.conversation || '';
  const app = document.getElementById('app');
  const thread = h('div', { class: 'ts-thread' });
  const ta = h('textarea', { class: T.composer, placeholder: 'Ask the test site', rows: '3' });
  const editor = Sim.plainTextarea(ta, { onChange: () => eng.changed(), onKey: (e) => eng.key(e) });
  const controls = h('div', { class: 'ts-controls' });
  app.append(h('nav', {}, cfg.loggedIn ? h('span', { class: 'ts-user' }, 'Sim User') : h('a', { class: 'ts-login', href: '/login' }, 'Log in')),
    h('main', {}, h('div', { class: 'ts-model-label' }, cfg.model), thread, h('div', { class: 'ts-composer-box' }, ta, controls)));
  const code = (lang, text) => h('pre', {}, h('code', { class: 'language-' + lang, text }));
  const eng = Sim.chat({
    editor: () => editor,
    submitOn: (e) => e.key === 'Enter' && !e.shiftKey,
    renderControls(state) {
      controls.innerHTML = '';
      if (state === 'busy') { controls.appendChild(h('button', { type: 'button', class: T.stop, onclick: () => eng.stop() }, 'Stop')); return; }
      controls.appendChild(h('button', { type: 'button', class: T.send, disabled: state !== 'ready', onclick: () => eng.submit() }, 'Send'));
    },
    userTurn(text) { thread.appendChild(h('div', { class: 'ts-turn-user', text })); },
    assistantTurn() {
      const md = h('div', { class: T.md });
      const turn = h('div', { class: 'ts-turn-assistant' }, md);
      thread.appendChild(turn);
      return {
        update(text) { md.innerHTML = ''; md.appendChild(Sim.markdown(text, { code })); },
        done() { turn.appendChild(h('div', { class: 'ts-actions' }, h('button', { type: 'button' }, 'Copy'))); },
        error(msg, retry) {
          turn.appendChild(h('div', { class: 'ts-error', role: 'alert' }, msg));
          if (retry) turn.appendChild(h('button', { type: 'button', onclick: retry }, 'Retry'));
        },
        remove() { turn.remove(); },
      };
    },
    async send(prompt, turn, signal) {
      const resp = await fetch('/api/ask', { method: 'POST', credentials: 'include', signal,
        headers: { 'content-type': 'application/json' }, body: JSON.stringify({ conversation: conv, prompt }) });
      if (resp.status === 429) {
        const j = await resp.json();
        // A usage cap stays in the thread; a rate limit is a toast that goes.
        if (j.error.code === 'usage_cap') { turn.error(j.error.message, null); capNotice(Date.now() + 3 * 3600e3); return; }
        turn.remove();
        Sim.toast(j.error.message + '. Try again at ').appendChild(Sim.resetTime(Date.now() + parseInt(resp.headers.get('retry-after') || '5', 10) * 1000));
        return;
      }
      let text = '', model = '', done = false, err = null;
      await Sim.readBody(resp, Sim.lines((line) => {
        const f = JSON.parse(line);
        if (f.conversation && !conv) { conv = f.conversation; history.pushState({}, '', '/c/' + conv); }
        if (f.model) model = f.model;
        if (typeof f.text === 'string') { text += f.text; turn.update(text); }
        if (f.done) done = true;
        if (f.error) err = f.error;
      }));
      if (err) { turn.error(err.message, () => eng.submit(prompt)); return; }
      if (!done) throw new Error('stream ended early');
      turn.done(model);
    },
  });
  function capNotice(until) { Sim.capBanner('You\u2019ve reached your usage limit. It resets at ', until, 'alert'); }
  if (Sim.capOnLoad()) capNotice(cfg.capResetAt);
  Sim.afterHydration(eng.hydrate);
  eng.changed();
})();
