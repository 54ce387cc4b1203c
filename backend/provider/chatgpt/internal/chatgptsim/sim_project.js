// Simulated project page (/g/g-p-<id>[-slug]/project; the providers
// reference, "Tools", "Projects"). Its header names the project (from the
// sidebar) and has the tabs Chats and Sources (a[role=tab], ?tab=…). The
// Sources tab (?tab=sources) is section[role=tabpanel][aria-label=Sources]:
// once the project's files are loaded it lists each as
// li[data-testid="project-source"][aria-label=<name>] (its size beside),
// "No sources yet" when there is none, and shows button "Add sources". A
// trusted click on it opens div[role=dialog][aria-label="Add sources"] with
// input[type=file][multiple] ("Browse files"): its files take the upload
// path (Sim.uploads: a tile div[role=group][aria-label=<name>] with a
// spinner until processed; a refusal removes the tile and shows the site's
// words in a toast). Its confirm button "Upload" stays disabled while a
// file uploads or none is ready; a trusted click adds the ready files to
// the project (POST /backend-api/gizmos/<id>/files), closes the dialog and
// lists them. The real markup is not public (GAP): this is the
// simulator's. Scenarios: sources_no_dialog (the button opens nothing),
// sources_wording (the confirm button says param confirm, default "Add"),
// sources_type_refused (a name ending with param ext, default .exe, is
// refused: "<name>: this file type is not supported").
window.ChatGPTProject = function (cfg, hooks) {
  'use strict';
  const { h } = Sim;
  const m = location.pathname.match(/^\/g\/(g-p-[^/]+)\/project\/?$/);
  if (!m) return null;
  const sc = cfg.scenario;
  const params = cfg.params || {};
  const gizmo = m[1].slice(0, 36);
  const tab = new URLSearchParams(location.search).get('tab') === 'sources' ? 'sources' : 'chats';
  const title = h('h1', { class: 'project-title' });
  const link = (name, label) => h('a', { role: 'tab', href: '?tab=' + name, 'aria-selected': String(tab === name) }, label);
  const el = h('header', { class: 'project-header' }, title, h('div', { role: 'tablist', 'aria-label': 'Project' }, link('chats', 'Chats'), link('sources', 'Sources')));
  const panel = h('section', { role: 'tabpanel', 'aria-label': 'Sources', class: 'project-sources' }, h('h2', {}, 'Sources'));
  if (tab === 'sources') el.append(panel);
  const size = (n) => n < 1024 ? n + ' B' : (n / 1024).toFixed(1) + ' KB';
  const post = (path, body) => hooks.fetch(path, { method: 'POST', headers: Object.assign({}, hooks.headers(), { 'content-type': 'application/json' }), body: JSON.stringify(body) });

  function render(items) {
    const add = h('button', { type: 'button', class: 'btn', onclick: (e) => { if (e.isTrusted && sc !== 'sources_no_dialog') openDialog(); } }, 'Add sources');
    const list = items.length
      ? h('ul', { class: 'source-list' }, items.map((f) => h('li', { 'data-testid': 'project-source', 'aria-label': f.name },
        h('span', { class: 'source-name' }, f.name), ' ', h('span', { class: 'source-size' }, size(f.size)))))
      : h('p', { class: 'empty' }, 'No sources yet');
    panel.replaceChildren(panel.firstChild, add, list);
  }

  function openDialog() {
    if (document.querySelector('[role=dialog][aria-label="Add sources"]')) return;
    const input = h('input', { type: 'file', multiple: true, hidden: true, tabindex: '-1' });
    const tray = h('div', { class: 'file-tray' });
    const confirm = h('button', { type: 'button', class: 'btn', disabled: true, onclick: (e) => { if (e.isTrusted) commit(); } },
      sc === 'sources_wording' ? (params.confirm || 'Add') : 'Upload');
    const backdrop = h('div', { class: 'sim-backdrop', 'data-state': 'open' });
    const close = () => { backdrop.remove(); box.remove(); };
    const box = h('div', { role: 'dialog', 'aria-modal': 'true', 'aria-label': 'Add sources', class: 'sim-dialog', 'data-state': 'open' },
      h('h2', {}, 'Add sources'), h('p', {}, 'Files added here are available to every chat in the project.'),
      input, h('button', { type: 'button', class: 'btn', onclick: () => input.click() }, 'Browse files'), tray,
      h('div', { class: 'dialog-actions' }, h('button', { type: 'button', class: 'btn', onclick: close }, 'Cancel'), confirm));
    const ups = Sim.uploads({ tray, prefix: '/backend-api', headers: hooks.headers,
      onChange: () => { confirm.disabled = ups.busy() || ups.ready().length === 0; },
      tooLarge: (name) => 'Unable to upload ' + name + ': file is too large' });
    input.addEventListener('change', () => {
      const ext = sc === 'sources_type_refused' ? (params.ext || '.exe').toLowerCase() : null;
      const files = [...input.files].filter((f) => {
        if (!ext || !f.name.toLowerCase().endsWith(ext)) return true;
        Sim.toast(f.name + ': this file type is not supported');
        return false;
      });
      input.value = '';
      ups.add(files);
    });
    async function commit() {
      confirm.disabled = true;
      for (const f of ups.ready()) {
        const r = await post('/backend-api/gizmos/' + gizmo + '/files', { file_id: f.id });
        if (!r.ok) Sim.toast('Unable to add ' + f.name + ' to the project');
      }
      close();
      await load();
    }
    document.body.append(backdrop, box);
  }

  async function load() {
    const side = await hooks.fetch('/backend-api/gizmos/snorlax/sidebar?conversations_per_gizmo=0');
    if (side.ok) {
      const it = ((await side.json()).items || []).find((i) => i.gizmo.gizmo.id === gizmo);
      if (it) title.textContent = it.gizmo.gizmo.display.name;
    }
    if (tab !== 'sources') return;
    const r = await hooks.fetch('/backend-api/gizmos/' + gizmo + '/files');
    if (r.ok) render((await r.json()).items || []);
  }
  return { el, load };
};
