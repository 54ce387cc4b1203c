// Simulated gemini.google.com: Quill editor, send button that stays enabled,
// user-query/model-response turns, StreamGenerate length-prefixed frames.
(function () {
  'use strict';
  const { h, cfg } = Sim;
  const D = cfg.drift;
  const T = D ? { editor: 'input-editor', send: 'submit-button', sendLabel: 'Submit', markdown: 'response-markdown', footer: 'turn-footer' }
    : { editor: 'ql-editor', send: cfg.scenario === 'renamed_send' ? 'submit-button' : 'send-button', sendLabel: 'Send message', markdown: 'markdown', footer: 'response-footer' };
  window.WIZ_global_data = { SNlM0e: 'AJvLN6M' + Math.random().toString(36).slice(2) };
  let cid = cfg.conversation || '', rid = '', rcid = '';
  let model = 'Flash';
  let dropNext = true;
  const modelIds = { 'Flash-Lite': 'gemini-3-flash-lite', Flash: 'gemini-3-flash', Pro: 'gemini-3-pro', 'Extended thinking': 'gemini-3-pro-thinking' };
  const app = document.getElementById('app');
  const chat = h('div', { id: 'chat-history', class: 'chat-history' });
  const edEl = h('div', { class: T.editor + ' textarea', contenteditable: 'true', role: 'textbox', 'aria-label': 'Enter a prompt for Gemini', 'aria-multiline': 'true', 'data-gramm': 'false' });
  const editor = Sim.prose(edEl, { placeholder: 'Ask Gemini', blankClass: 'ql-blank', onChange: () => eng.changed(), onKey: (e) => eng.key(e) });
  const sendBtn = h('button', { class: T.send + ' mdc-icon-button', 'aria-label': T.sendLabel, type: 'button', onclick: () => (eng.busy ? eng.stop() : eng.submit()) }, h('mat-icon', { fonticon: 'send' }, 'send'));
  const modeBtn = h('button', { type: 'button', 'aria-label': 'Open mode picker, currently Flash', onclick: openModes }, 'Flash');
  const tray = h('div', { class: 'file-preview-container' });
  const inputArea = h('input-area-v2', {}, tray, h('rich-textarea', {}, edEl), h('div', { class: 'send-button-container' }, sendBtn));
  // No file input: files arrive only by a drop on the input area.
  const uploads = Sim.uploads({ tray, drop: inputArea, prefix: '/_/upload', onChange: () => eng.changed(),
    tileAttrs: () => ({ 'data-test-id': 'file-preview' }),
    tooLarge: (name) => 'File ' + name + ' is too large. Try uploading a smaller file.' });
  app.append(
    h('header', {}, cfg.loggedIn ? h('a', { 'aria-label': 'Google Account: Sim User (sim.user@example.com)', href: '#' }, 'S')
      : h('a', { href: 'https://accounts.google.com/ServiceLogin?continue=https://gemini.google.com/app', class: 'sign-in' }, 'Sign in'),
      h('bard-mode-switcher', {}, modeBtn)),
    h('main', { class: 'main' }, chat, inputArea));
  function openModes() {
    if (document.querySelector('gem-menu')) return;
    const menu = h('gem-menu', {});
    for (const m of ['Flash-Lite', 'Flash', 'Pro', 'Extended thinking']) {
      menu.appendChild(h('button', { role: 'menuitem', type: 'button', onclick: () => {
        menu.remove();
        // Gemini drops selections now and then (here: the first one after
        // load): adapters must read the label back and select again.
        if (dropNext) { dropNext = false; return; }
        model = m; modeBtn.textContent = m; modeBtn.setAttribute('aria-label', 'Open mode picker, currently ' + m);
      } }, m));
    }
    document.body.appendChild(menu);
  }
  const eng = Sim.chat({
    conversation: () => cid,
    editor: () => editor,
    files: () => uploads,
    submitOn: () => false, // Enter does not submit on current builds
    renderControls(state) {
      // The button stays enabled throughout; while answering it is the stop control.
      if (state === 'busy') { sendBtn.setAttribute('aria-label', 'Stop response'); sendBtn.innerHTML = '<mat-icon fonticon="stop">stop</mat-icon>'; }
      else { sendBtn.setAttribute('aria-label', T.sendLabel); sendBtn.innerHTML = '<mat-icon fonticon="send">send</mat-icon>'; }
    },
    userTurn(text, files) {
      chat.appendChild(h('div', { class: 'conversation-container' }, h('user-query', {}, Sim.attachmentChips(files), h('div', { class: 'query-text' }, h('p', { class: 'query-text-line', text })))));
    },
    assistantTurn() {
      const md = h('div', { class: T.markdown + ' markdown-main-panel', 'aria-busy': 'true', 'aria-live': 'polite' });
      const thoughts = h('model-thoughts', { hidden: true });
      const footer = h('div', { class: T.footer });
      const resp = h('model-response', {}, thoughts, h('message-content', { class: 'model-response-text' }, md), footer);
      chat.lastChild.appendChild(resp);
      const opts = { code: (lang, code) => h('code-block', {}, h('div', { class: 'code-block-decoration' }, h('span', {}, lang),
        h('button', { 'aria-label': 'Copy code', type: 'button' }, 'content_copy')), h('pre', {}, h('code', { class: 'code-container', text: code }))) };
      return {
        update(text, th) {
          if (th) { thoughts.hidden = false; thoughts.textContent = 'Show thinking'; }
          md.innerHTML = ''; md.appendChild(Sim.markdown(text, opts));
        },
        done() {
          md.setAttribute('aria-busy', 'false');
          footer.classList.add('complete');
          resp.appendChild(h('message-actions', {}, h('button', { 'aria-label': 'Copy response', type: 'button' }, 'content_copy'),
            h('button', { 'aria-label': 'Good response', type: 'button' }, 'thumb_up')));
        },
        error(msg, retry) {
          md.setAttribute('aria-busy', 'false');
          md.innerHTML = ''; md.appendChild(h('p', { text: msg }));
          footer.classList.add('complete');
          if (retry) resp.appendChild(h('button', { type: 'button', class: 'retry', onclick: retry }, 'Retry'));
        },
      };
    },
    networkError: 'Sorry, something went wrong. Please try your request again.',
    async send(prompt, turn, signal, files) {
      const refs = (files || []).length ? files.map((f) => [[f.id, 1], f.name]) : null;
      const freq = JSON.stringify([null, JSON.stringify([[prompt, 0, null, refs, null, null, 0], ['en'], [cid, rid, rcid]])]);
      const body = new URLSearchParams({ 'f.req': freq, at: window.WIZ_global_data.SNlM0e }).toString() + '&';
      const resp = await fetch('/_/BardChatUi/data/assistant.lamda.BardFrontendService/StreamGenerate?bl=boq_assistant-bard-web-server_20260901.06_p0&f.sid=-123&hl=en&_reqid=' + (1000 + Math.floor(Math.random() * 9000)) + '&rt=c',
        { method: 'POST', credentials: 'include', signal, headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8', 'x-goog-ext-525001261-jspb': JSON.stringify([1, null, null, null, modelIds[model]]) }, body });
      let buf = '', complete = false, text = '', thoughts = '', mdl = null, errCode = 0;
      await Sim.readBody(resp, (t) => {
        buf += t;
        buf = buf.replace(/^\)\]\}'\n?/, '');
        for (;;) {
          buf = buf.replace(/^\s+/, '');
          const nl = buf.indexOf('\n');
          if (nl < 0) break;
          const n = parseInt(buf.slice(0, nl), 10);
          if (buf.length < nl + 1 + n) break;
          const frame = JSON.parse(buf.slice(nl + 1, nl + 1 + n));
          buf = buf.slice(nl + 1 + n);
          for (const env of frame) {
            if (env[0] !== 'wrb.fr') continue;
            // A failed turn: [3, null, [["type.googleapis.com/…BardErrorInfo", [code]]]].
            if (!env[2]) { const info = ((env[5] || [])[2] || []).find((d) => String(d[0]).endsWith('BardErrorInfo')); errCode = info ? info[1][0] : (env[5] || [0])[0]; continue; }
            const b = JSON.parse(env[2]);
            cid = b[1][0]; rid = b[1][1];
            // The address names the conversation as soon as a frame does.
            if (location.pathname !== '/app/' + cid.replace(/^c_/, '')) history.pushState({}, '', '/app/' + cid.replace(/^c_/, ''));
            const c = b[4][0];
            rcid = c[0]; text = c[1][0]; mdl = b[42];
            if (c[37]) thoughts = c[37][0][0];
            if (c[8][0] === 2) complete = true;
            turn.update(text, thoughts);
          }
        }
      });
      if (errCode === 1037) { turn.error('You\u2019ve reached your limit for now. Try again later.', null); Sim.toast('Usage limit reached. Your limit resets at ', {}).appendChild(Sim.resetTime(Date.now() + 3 * 3600e3)); return; }
      if (errCode) { turn.error('Sorry, something went wrong. Please try your request again.', null); return; }
      if (!complete) throw new Error('stream ended early');
      if (location.pathname !== '/app/' + cid.replace(/^c_/, '')) history.pushState({}, '', '/app/' + cid.replace(/^c_/, ''));
      turn.done(mdl);
    },
  });
  if (Sim.capOnLoad()) Sim.capBanner('You\u2019ve reached your limit for now. Your limit resets at ', cfg.capResetAt, 'alert');
  Sim.afterHydration(eng.hydrate);
})();
