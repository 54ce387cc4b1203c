// Simulated ChatGPT model and effort picker: the three layouts of 2026 (the
// providers reference, "What changed": Intelligence picker), told apart only
// by what they show.
//   slider (default, 2026-08-31; trigger of 2026-09-28): "Select model" row,
//     the simple view's "High, 3 of 5.Use Left and Right arrow keys to adjust
//     power." text, a Power row holding span[role=slider] (aria-valuenow 0–4,
//     no aria-valuetext; the tier only in the aria-describedby text) moved
//     only by trusted ArrowLeft/ArrowRight, one step per ~220 ms (keys during
//     a step are dropped; Home/End do nothing), and "Show advanced options"
//     with one menuitemradio per model (clicking the checked one closes).
//   picker_intelligence (2026-07-10): the "Intelligence" group of tier
//     menuitemradio rows, then a menuitem[data-has-submenu] naming the model
//     whose submenu lists the models.
//   picker_power (2026-08-07; also tier_exhausted): an inert copy of the
//     collapsed view first, the Power row, "Show advanced options" (then
//     "Show compact options"), the advanced view's "ModelGPT-5.6 Sol" and
//     "EffortHigh" openers, each a submenu of menuitemradio rows; only
//     trusted clicks reach the advanced rows.
// tier_exhausted: the Pro row is aria-disabled; hovering it adds a tooltip's
// id to its aria-describedby: "Limit reached. Try again after <date>."
// no_pro_tier: a plan without Pro (four tiers, "N of 4").
// The trigger shows the tier and mounts a while after the page is
// interactive (param picker_ms, default 1000). Param models (comma-separated
// ids, gpt-5-6,gpt-5-5) lists fewer models, as some plans do.
window.ChatGPTPicker = function (cfg) {
  'use strict';
  const { h } = Sim;
  const listed = ((cfg.params || {}).models || '').split(',').filter(Boolean);
  const MODELS = [['gpt-5-6', 'GPT-5.6 Sol', ''], ['gpt-5-5', 'GPT-5.5', ''], ['gpt-5-4', 'GPT-5.4', 'Leaving on July 23'], ['gpt-5-3', 'GPT-5.3', ''], ['o3', 'o3', '']]
    .filter(([id]) => !listed.length || listed.includes(id));
  const TIERS = ['Instant', 'Medium', 'High', 'Extra High', 'Pro'];
  const EFFORTS = [null, 'standard', 'extended', 'max', null];
  const sc = cfg.scenario;
  const layout = sc === 'picker_intelligence' ? 'intelligence' : (sc === 'picker_power' || sc === 'tier_exhausted') ? 'power' : 'slider';
  const maxTier = sc === 'no_pro_tier' ? 3 : 4;
  const exhausted = sc === 'tier_exhausted' ? 4 : -1;
  const resetDay = new Date(Date.now() + 3 * 864e5).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
  const pick = { model: 0, tier: 2 };
  let menus = [];
  let advanced = false;
  let moving = false;

  const trigger = h('button', layout === 'slider'
    ? { type: 'button', 'data-codex-intelligence-trigger': 'true', 'aria-haspopup': 'menu', 'aria-expanded': 'false', class: 'picker-trigger' }
    : layout === 'power'
      ? { type: 'button', 'aria-label': 'Select ChatGPT model', 'aria-haspopup': 'menu', 'aria-expanded': 'false', class: '__composer-pill picker-trigger' }
      : { type: 'button', 'aria-haspopup': 'menu', 'aria-expanded': 'false', class: '__composer-pill picker-trigger' });
  trigger.addEventListener('click', () => (menus.length ? close() : open()));
  const label = () => { trigger.textContent = TIERS[pick.tier]; };
  label();

  function close() {
    for (const m of menus) m.remove();
    menus = [];
    advanced = false;
    trigger.setAttribute('aria-expanded', 'false');
  }
  document.addEventListener('keydown', (e) => { if (e.key === 'Escape' && menus.length) close(); }, true);
  document.addEventListener('pointerdown', (e) => {
    if (menus.length && !menus.some((m) => m.contains(e.target)) && !trigger.contains(e.target)) close();
  }, true);

  const menu = (left) => {
    const m = h('div', { role: 'menu', 'data-state': 'open', 'data-radix-menu-content': '', class: 'picker-menu', style: 'position:fixed;bottom:90px;left:' + left + 'px;min-width:220px;background:#fff;border:1px solid #ccc;border-radius:8px;padding:4px;z-index:20' });
    document.body.appendChild(m);
    menus.push(m);
    return m;
  };
  // row: a menu row that acts on a click (trusted only where the page is
  // strict) or on Enter/Space, unless disabled.
  const row = (attrs, kids, act, trusted) => {
    const el = h('div', Object.assign({ tabindex: '-1', class: 'picker-row' }, attrs), ...kids);
    const go = (e) => {
      if ((trusted && !e.isTrusted) || el.getAttribute('aria-disabled') === 'true') return;
      act();
    };
    el.addEventListener('click', go);
    el.addEventListener('keydown', (e) => { if ((e.key === 'Enter' || e.key === ' ') && e.isTrusted) { e.preventDefault(); go(e); } });
    return el;
  };
  const radio = (on, kids, act, trusted) => row({ role: 'menuitemradio', 'aria-checked': String(on), 'data-state': on ? 'checked' : 'unchecked' }, kids, act, trusted);
  const tierRows = (trusted) => TIERS.slice(0, maxTier + 1).map((t, i) => {
    const r = radio(i === pick.tier, [t], () => { pick.tier = i; label(); close(); }, trusted);
    if (i === exhausted) {
      r.setAttribute('aria-disabled', 'true');
      r.setAttribute('data-disabled', '');
      r.addEventListener('pointerenter', () => {
        if (document.getElementById('tier-limit-tip')) return;
        const tip = h('div', { role: 'tooltip', id: 'tier-limit-tip', style: 'position:fixed;bottom:40px;left:40px' }, 'Limit reached. Try again after ' + resetDay + '.');
        document.body.appendChild(tip);
        r.setAttribute('aria-describedby', ((r.getAttribute('aria-describedby') || '') + ' tier-limit-tip').trim());
      });
    }
    return r;
  });
  const modelRows = (trusted, closeOnChecked) => MODELS.map(([, name, note], i) => radio(i === pick.model,
    [h('span', { class: 'model-name' }, name), note ? h('span', { class: 'model-note' }, ' ' + note) : null],
    () => { if (i === pick.model && !closeOnChecked) return; pick.model = i; close(); }, trusted));
  const opener = (kids, rowsFor, trusted) => {
    const el = row({ role: 'menuitem', 'data-has-submenu': '', 'aria-haspopup': 'menu', 'aria-expanded': 'false' }, kids, () => {
      while (menus.length > 1) menus.pop().remove();
      el.setAttribute('aria-expanded', 'true');
      menu(270).append(...rowsFor());
    }, trusted);
    return el;
  };

  // advancedToggle is the "Show advanced options" row: it fills body with
  // advancedView() or, shown compact again, compactView() (or nothing).
  const advancedToggle = (body, advancedView, compactView, trusted) => {
    const toggle = row({ role: 'menuitem', 'aria-label': 'Show advanced options', 'aria-expanded': 'false' }, ['Show advanced options'], () => {
      advanced = !advanced;
      const words = advanced ? 'Show compact options' : 'Show advanced options';
      toggle.setAttribute('aria-label', words);
      toggle.setAttribute('aria-expanded', String(advanced));
      toggle.textContent = words;
      body.innerHTML = '';
      const view = advanced ? advancedView() : compactView && compactView();
      if (view) body.appendChild(view);
    }, trusted);
    return toggle;
  };

  function open() {
    trigger.setAttribute('aria-expanded', 'true');
    const m = menu(40);
    if (layout === 'intelligence') {
      m.appendChild(h('div', { role: 'group', 'data-testid': 'composer-intelligence-picker-content' },
        h('div', { class: 'picker-heading' }, 'Intelligence'), ...tierRows(false),
        opener([MODELS[pick.model][1]], () => modelRows(false, false), false)));
      return;
    }
    if (layout === 'power') {
      const collapsed = () => h('div', {}, h('div', { role: 'menuitem', 'aria-label': 'Power', tabindex: '-1' }, 'Power ' + TIERS[pick.tier]));
      m.appendChild(h('div', { inert: '' }, collapsed()));
      const body = h('div', {});
      const toggle = advancedToggle(body, () => h('div', { 'data-testid': 'composer-model-picker-slider-advanced-view' },
        opener([h('span', {}, 'Model'), h('span', {}, MODELS[pick.model][1])], () => modelRows(true, false), true),
        opener([h('span', {}, 'Effort'), h('span', {}, TIERS[pick.tier])], () => tierRows(true), true)), collapsed, true);
      body.appendChild(collapsed());
      m.append(body, toggle);
      return;
    }
    // The slider.
    const desc = h('div', { id: 'power-slider-desc', 'data-testid': 'composer-model-picker-slider-simple-view' });
    const slider = h('span', { role: 'slider', tabindex: '0', 'aria-valuemin': '0', 'aria-valuemax': String(maxTier), 'aria-valuenow': String(pick.tier), 'aria-describedby': 'power-slider-desc', 'aria-label': 'Power' });
    const select = h('div', { role: 'menuitem', 'aria-label': 'Select model', tabindex: '-1' });
    const show = () => {
      desc.textContent = TIERS[pick.tier] + ', ' + (pick.tier + 1) + ' of ' + (maxTier + 1) + '.Use Left and Right arrow keys to adjust power.';
      slider.setAttribute('aria-valuenow', String(pick.tier));
      select.textContent = TIERS[pick.tier];
      label();
    };
    show();
    const power = h('div', { role: 'menuitem', 'aria-label': 'Power', 'aria-keyshortcuts': 'ArrowLeft ArrowRight', tabindex: '-1' },
      h('div', { 'data-model-reasoning-effort-slider': '' }, slider));
    power.addEventListener('keydown', (e) => {
      if (!e.isTrusted || (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight')) return;
      e.preventDefault();
      if (moving) return;
      const to = pick.tier + (e.key === 'ArrowRight' ? 1 : -1);
      if (to < 0 || to > maxTier) return;
      moving = true;
      setTimeout(() => { moving = false; pick.tier = to; show(); }, 220);
    });
    const adv = h('div', {});
    const toggle = advancedToggle(adv, () => h('div', { 'data-testid': 'composer-model-picker-slider-advanced-view' }, ...modelRows(false, true)), null, false);
    m.append(select, desc, power, toggle, adv);
  }

  return {
    trigger,
    // request is what the send carries: the model of the chosen family and
    // tier, and the thinking effort of the middle tiers.
    request() {
      const m = MODELS[pick.model][0];
      if (m === 'o3') return { model: 'o3' };
      const family = pick.tier === 0 ? '-instant' : pick.tier === 4 ? '-pro' : '-thinking';
      const out = { model: m + family };
      if (EFFORTS[pick.tier]) out.thinking_effort = EFFORTS[pick.tier];
      return out;
    },
  };
};
