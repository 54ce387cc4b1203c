// Simulated composer tools menu (2026-09-27; the providers reference, "What
// changed": Composer tools menu, and "Tools"). The "+"
// (form button[aria-label="Add files and more"]) opens on a trusted pointer
// press or Enter/Space, as a Radix menu does (a synthetic click() opens
// nothing). The menu's rows: "Add photos & files", "Deep research" ("Get a
// detailed report"), "Create image" ("Visualize anything"), "Web search"
// ("Find real-time news and info"), and "More", whose submenu holds
// "Canvas" and "Agent mode". A row takes trusted clicks only. A chosen tool
// shows as a pill at the start of the editor's first paragraph,
// span[data-inline-selection-pill][data-id][data-system-hint-type]
// (Deep research's has no hint type), with button[aria-label="Remove <row>"];
// its label is not part of the prompt. The send carries the pills' hints as
// system_hints and clears them.
// Scenarios: tool_row_missing (a plan without Deep research, Create image
// and Web search), tool_pill_missing (a chosen row closes the menu and shows
// no pill), tool_pill_late (the pill after param pill_ms, default 2500),
// tool_prompt_cleared (choosing a tool empties the composer), tools_more
// (Web search under More), tool_not_sent (the pill shows, the send's
// request carries no system_hints: the prompt goes out as a plain one).
window.ChatGPTTools = function (cfg, hooks) {
  'use strict';
  const { h } = Sim;
  const sc = cfg.scenario;
  const TOOLS = [
    { row: 'Deep research', note: 'Get a detailed report', id: 'deep_research', hint: '', request: 'plugin:connector_openai_deep_research' },
    { row: 'Create image', note: 'Visualize anything', id: 'picture_v2', hint: 'picture_v2', request: 'picture_v2' },
    { row: 'Web search', note: 'Find real-time news and info', id: 'search', hint: 'search', request: 'search' },
  ];
  const MORE = [
    { row: 'Canvas', note: 'Write and code together', id: 'canvas', hint: 'canvas', request: 'canvas' },
    { row: 'Agent mode', note: 'Get work done for you', id: 'agent', hint: 'agent', request: 'agent' },
  ];
  const missing = sc === 'tool_row_missing';
  const top = missing ? [] : TOOLS.filter((t) => !(sc === 'tools_more' && t.id === 'search'));
  const more = (sc === 'tools_more' ? TOOLS.filter((t) => t.id === 'search') : []).concat(MORE);
  let menus = [];
  let chosen = null;
  let late = null;

  const plus = h('button', { type: 'button', 'data-testid': 'composer-plus-btn', 'aria-label': 'Add files and more', 'aria-haspopup': 'menu', 'aria-expanded': 'false' }, '+');
  plus.addEventListener('pointerdown', (e) => { if (e.isTrusted && e.button === 0) (menus.length ? close() : open()); });
  plus.addEventListener('keydown', (e) => { if ((e.key === 'Enter' || e.key === ' ') && e.isTrusted) { e.preventDefault(); menus.length ? close() : open(); } });

  function close() {
    for (const m of menus) m.remove();
    menus = [];
    plus.setAttribute('aria-expanded', 'false');
  }
  document.addEventListener('keydown', (e) => { if (e.key === 'Escape' && menus.length) close(); }, true);
  document.addEventListener('pointerdown', (e) => {
    if (menus.length && !menus.some((m) => m.contains(e.target)) && !plus.contains(e.target)) close();
  }, true);

  const menu = (left) => {
    const m = h('div', { role: 'menu', 'data-state': 'open', 'data-radix-menu-content': '', 'aria-orientation': 'vertical', class: 'tools-menu',
      style: 'position:fixed;bottom:90px;left:' + left + 'px;min-width:240px;background:#fff;border:1px solid #ccc;border-radius:8px;padding:4px;z-index:20' });
    document.body.appendChild(m);
    menus.push(m);
    return m;
  };
  const row = (attrs, kids, act) => {
    const el = h('div', Object.assign({ role: 'menuitem', tabindex: '-1', class: 'tools-row' }, attrs), ...kids);
    el.addEventListener('click', (e) => { if (e.isTrusted) act(); });
    el.addEventListener('keydown', (e) => { if ((e.key === 'Enter' || e.key === ' ') && e.isTrusted) { e.preventDefault(); act(); } });
    return el;
  };
  const toolRow = (t) => row({}, [h('span', { class: 'tools-title' }, t.row), h('span', { class: 'tools-note' }, t.note)], () => choose(t));

  function open() {
    const m = menu(60);
    plus.setAttribute('aria-expanded', 'true');
    m.appendChild(row({}, [h('span', { class: 'tools-title' }, 'Add photos & files')], () => { close(); hooks.pickFiles(); }));
    for (const t of top) m.appendChild(toolRow(t));
    const opener = row({ 'data-has-submenu': '', 'aria-haspopup': 'menu', 'aria-expanded': 'false' }, [h('span', { class: 'tools-title' }, 'More')], () => {
      if (menus.length > 1) return;
      opener.setAttribute('aria-expanded', 'true');
      const sub = menu(310);
      for (const t of more) sub.appendChild(toolRow(t));
    });
    m.appendChild(opener);
  }

  function choose(t) {
    close();
    if (sc === 'tool_pill_missing') return;
    if (sc === 'tool_prompt_cleared') hooks.clearPrompt();
    clearTimeout(late);
    const show = () => { chosen = t; hooks.render(); };
    if (sc === 'tool_pill_late') late = setTimeout(show, Number((cfg.params || {}).pill_ms || 2500));
    else show();
  }

  return {
    plus,
    // pill is the chosen tool's pill element, or null: the editor places it.
    pill() {
      if (!chosen) return null;
      const t = chosen;
      const attrs = { 'data-inline-selection-pill': '', 'data-id': t.id, contenteditable: 'false', class: 'selection-pill' };
      if (t.hint) attrs['data-system-hint-type'] = t.hint;
      return h('span', attrs, h('span', { class: 'pill-label' }, t.row),
        h('button', { type: 'button', 'aria-label': 'Remove ' + t.row, class: 'pill-remove', onclick: () => { chosen = null; hooks.render(); } }, '×'));
    },
    // hints are the system_hints of a send; reset forgets the chosen tool.
    hints: () => (chosen && sc !== 'tool_not_sent' ? [chosen.request] : []),
    reset() { clearTimeout(late); chosen = null; },
  };
};
