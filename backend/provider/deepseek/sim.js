// Simulated chat.deepseek.com: React textarea (native setter needed),
// ds-button send control, SSE with BOM/CRLF, THINK and RESPONSE fragments.
(function () {
  'use strict';
  const { h, cfg } = Sim;
  const D = cfg.drift;
  const T = D ? { placeholder: 'Ask DeepSeek', primary: 'ds-btn--main', md: 'ds-md' } : { placeholder: 'Message DeepSeek', primary: 'ds-button--primary', md: 'ds-markdown' };
  let session = cfg.conversation || '';
  let modelType = 'default', thinking = false;
  const app = document.getElementById('app');
  const list = h('div', { class: 'ds-virtual-list' });
  const ta = h('textarea', { placeholder: T.placeholder, rows: '2' });
  const editor = Sim.reactTextarea(ta, { onChange: () => eng.changed(), onKey: (e) => eng.key(e) });
  const btn = h('div', { role: 'button', class: 'ds-button ' + T.primary + ' ds-button--circle', tabindex: '0', onclick: () => (eng.busy ? eng.stop() : eng.submit()) }, '↑');
  const radio = (type, label) => h('div', { 'data-model-type': type, role: 'radio', 'aria-checked': String(type === modelType), onclick: (e) => {
    modelType = type; document.querySelectorAll('[data-model-type]').forEach((r) => r.setAttribute('aria-checked', String(r === e.currentTarget))); } }, label);
  const think = h('div', { class: 'ds-toggle-button', role: 'button', onclick: () => { thinking = !thinking; think.classList.toggle('ds-toggle-button--selected', thinking); } }, 'DeepThink');
  app.append(h('nav', {}, h('div', { class: 'ds-avatar' }, 'S')),
    h('main', { class: 'main' }, cfg.scenario === 'no_model_picker' ? '' : h('div', { class: 'model-radios' }, radio('default', 'Instant'), radio('expert', 'Expert'), radio('vision', 'Vision')), list,
      h('div', { class: 'composer' }, ta, think, h('div', { class: 'ds-toggle-button', role: 'button' }, 'Search'), btn)));
  let n = 0;
  const eng = Sim.chat({
    conversation: () => session,
    editor: () => editor,
    submitOn: (e) => e.key === 'Enter' && !e.shiftKey && !e.isComposing,
    renderControls(state) {
      const disabled = state !== 'ready' && state !== 'busy';
      btn.className = 'ds-button ' + T.primary + ' ds-button--circle' + (disabled ? ' ds-button--disabled' : '');
      btn.setAttribute('aria-disabled', String(disabled));
      btn.innerHTML = state === 'busy' ? '<div class="ds-loading"></div>' : '↑';
    },
    userTurn(text) { list.appendChild(h('div', { 'data-virtual-list-item-key': String(++n) }, h('div', { class: 'ds-message ds-user-message' }, h('div', { class: 'fbb737a4', text })))); },
    assistantTurn() {
      const md = h('div', { class: T.md });
      const think = h('div', { class: 'ds-think-content', hidden: true });
      const item = h('div', { 'data-virtual-list-item-key': String(++n) }, h('div', { class: 'ds-message ds-assistant-message' }, think, h('div', { class: 'ds-assistant-message-main-content' }, md)));
      list.appendChild(item);
      const opts = { code: (lang, code) => h('div', { class: 'md-code-block' }, h('div', { class: 'md-code-block-banner' }, h('span', { class: 'd813de27' }, lang)), h('pre', { text: code })) };
      return {
        update(text, th) { if (th) { think.hidden = false; think.textContent = th; } md.innerHTML = ''; md.appendChild(Sim.markdown(text, opts)); },
        done() { item.appendChild(h('div', { class: 'ds-flex actions' }, h('div', { role: 'button', 'aria-label': 'Copy', class: 'ds-icon-button' }, '⧉'), h('div', { role: 'button', 'aria-label': 'Read aloud', class: 'ds-icon-button' }, '🔊'))); },
        error(msg, retry) { item.appendChild(h('div', { class: 'ds-error', role: 'alert' }, msg)); if (retry) item.appendChild(h('div', { role: 'button', class: 'ds-button retry', onclick: retry }, 'Retry')); },
        remove() { item.remove(); },
      };
    },
    async send(prompt, turn, signal) {
      if (!session) {
        const r = await Sim.postJSON('/api/v0/chat_session/create', { character_id: null });
        session = (await r.json()).data.biz_data.id;
        history.pushState({}, '', '/a/chat/s/' + session);
      }
      const pow = await (await Sim.postJSON('/api/v0/chat/create_pow_challenge', { target_path: '/api/v0/chat/completion' })).json();
      const answer = btoa(JSON.stringify({ algorithm: pow.data.biz_data.challenge.algorithm, challenge: pow.data.biz_data.challenge.challenge, answer: 1 }));
      const resp = await fetch('/api/v0/chat/completion', { method: 'POST', credentials: 'include', signal,
        headers: Object.assign({ 'content-type': 'application/json', 'x-ds-pow-response': answer },
          (cfg.params || {}).build === 'outdated' ? { 'x-app-version': '20241129.1' } : { 'x-client-bundle-id': 'web-2.0.0', 'x-hif-leim': 'sim-signed' }),
        body: JSON.stringify({ chat_session_id: session, parent_message_id: null, prompt, ref_file_ids: [], thinking_enabled: thinking, search_enabled: false, model_type: modelType }) });
      if ((resp.headers.get('content-type') || '').startsWith('application/json')) {
        const j = await resp.json();
        turn.remove();
        Sim.toast(j.msg === 'CLIENT_VERSION_TOO_LOW' ? 'A new version of DeepSeek is available. Please refresh the page.' : j.msg);
        return;
      }
      const frags = [];
      let lastPath = '', status = '', err = null;
      const apply = (p, o, v) => {
        if (p === 'response/fragments' && o === 'APPEND') frags.push(...v);
        else if (p === 'response/fragments/-1/content') frags[frags.length - 1].content += v;
        else if (p === 'response/status') status = v;
        else if (p === 'response' && o === 'BATCH') for (const x of v) if (x.p === 'quasi_status') status = status || '';
      };
      await Sim.readBody(resp, Sim.sse(({ event, data }) => {
        if (event === 'ready' || event === 'title' || event === 'close') return;
        const f = JSON.parse(data);
        if (f.type === 'error') { err = f.content; return; }
        if (f.v && f.v.response) { frags.push(...f.v.response.fragments); return; }
        if ('p' in f) lastPath = f.p;
        let o = f.o || 'APPEND';
        if (!('p' in f) && lastPath === 'response/fragments') { lastPath = 'response/fragments/-1/content'; }
        apply(lastPath, o, f.v);
        if (lastPath === 'response/fragments') lastPath = 'response/fragments/-1/content';
        const th = frags.filter((x) => x.type === 'THINK').map((x) => x.content).join('');
        const tx = frags.filter((x) => x.type === 'RESPONSE').map((x) => x.content).join('');
        turn.update(tx, th);
      }));
      if (err) {
        const busy = err.includes('busy');
        // Sending too frequently: a toast that goes away; the cap stays.
        if (err.includes('too frequently')) { turn.remove(); Sim.toast(err); return; }
        turn.error(busy ? 'The server is busy. Please try again later.' : err, busy ? () => eng.submit(prompt) : null);
        if (!busy) Sim.toast(err + ' ').appendChild(Sim.resetTime(Date.now() + 3 * 3600e3));
        return;
      }
      if (status !== 'FINISHED') throw new Error('stream ended early');
      turn.done(modelType);
    },
  });
  if (Sim.capOnLoad()) Sim.capBanner('You have reached the daily usage limit. It resets at ', cfg.capResetAt, 'alert');
  if (cfg.scenario === 'tall_send') {
    // The page overflows a short window and the send control is tall: its
    // top shows above the fold, its centre lies below it.
    btn.setAttribute('data-sim-tall', '');
    document.head.appendChild(h('style', { text: '#app{height:auto;min-height:calc(100vh + 160px)} .main{min-height:calc(100vh + 160px)} .ds-virtual-list{flex:1} .composer{align-items:flex-start} .composer [role=button].ds-button--circle{height:240px;border-radius:16px}' }));
  }
  if (cfg.scenario === 'covered_send') {
    // A floating banner over the send control: no dialog, no interstitial.
    btn.parentElement.appendChild(h('div', { id: 'ds-download-app', class: 'ds-floating-banner', 'data-sim-cover': '', 'aria-label': 'Get the DeepSeek app',
      style: 'position:absolute;right:0;bottom:0;width:170px;height:64px;z-index:20;background:#eef;border:1px solid #99c;border-radius:8px' }, 'Get the DeepSeek app, scan to download'));
  }
  Sim.afterHydration(eng.hydrate);
  eng.changed();
})();
