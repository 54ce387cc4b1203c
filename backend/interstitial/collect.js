// Collects what the interstitial detector needs from a page, as a JSON
// string. It decides nothing: the decision is Go's (package interstitial).
// cfg: {composer, loggedIn, loggedOut, errorText, assistantTurn, userTurn,
// thoughts}: selector lists.
function (cfg) {
  const visible = (el) => {
    if (!el || !el.getBoundingClientRect) return false;
    const r = el.getBoundingClientRect();
    const st = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && st.visibility !== 'hidden' && st.display !== 'none';
  };
  const all = (sel) => {
    try { return Array.from(document.querySelectorAll(sel)); } catch (e) { return []; }
  };
  const matches = (sels, needVisible) =>
    (sels || []).some((s) => all(s).some((el) => !needVisible || visible(el)));
  const texts = (sels, max) => {
    const out = [];
    for (const s of sels || []) {
      for (const el of all(s)) {
        if (!visible(el)) continue;
        const t = (el.innerText || el.textContent || '').trim().slice(0, max);
        if (t && !out.includes(t)) out.push(t);
        if (out.length >= 20) return out;
      }
    }
    return out;
  };
  const probes = {
    cf_challenge_form: ['#challenge-form'],
    cf_challenge_running: ['#challenge-running'],
    cf_challenge_class: ['[class*="cf-challenge"]'],
    cf_challenge_iframe: ['iframe[src*="challenges.cloudflare.com"]', 'iframe[src*="/cdn-cgi/challenge-platform/"]'],
    cf_challenge_script: ['script[src*="/challenge-platform/"]'],
    regenerate_error: ['[data-testid="regenerate-thread-error-button"]'],
  };
  const flags = [];
  for (const [name, sels] of Object.entries(probes)) if (matches(sels, false)) flags.push(name);
  if (matches(cfg.loggedIn, true)) flags.push('logged_in');
  if (matches(cfg.loggedOut, true)) flags.push('logged_out');
  // A visible "Sign in" / "Log in" control on a loaded page: with no
  // composer, a login wall whatever the site's markup.
  if (document.readyState === 'complete' && all('a, button, [role="button"]').some((el) =>
    visible(el) && /^(log ?in|sign ?in|sign up|log in to [^\n]{1,40}|sign in to [^\n]{1,40})$/i.test((el.innerText || '').trim()))) flags.push('login_control');
  const notices = ['[role="dialog"]', '[role="alertdialog"]', '[role="alert"]', '[data-sonner-toast]', '[data-testid*="rate-limit"]'];
  const times = [];
  for (const s of notices.concat(cfg.errorText || [])) {
    for (const el of all(s + ' time[datetime]')) {
      const v = el.getAttribute('datetime');
      if (v && !times.includes(v)) times.push(v);
    }
  }
  let lastAnswer = '';
  for (const s of cfg.assistantTurn || []) {
    const turns = all(s);
    if (turns.length) {
      let t = turns[turns.length - 1].innerText || '';
      for (const ts of cfg.thoughts || []) {
        let th = [];
        try { th = Array.from(turns[turns.length - 1].querySelectorAll(ts)); } catch (e) { continue; }
        for (const el of th) t = t.replace(el.innerText || '', '');
      }
      lastAnswer = t.trim().slice(0, 1000);
      break;
    }
  }
  // The text outside the thread's turns and the composer, for banners
  // without a role; and the time elements there.
  const inside = [].concat(cfg.assistantTurn || [], cfg.userTurn || [], cfg.composer || []).filter((s) => {
    try { document.querySelector(s); return true; } catch (e) { return false; }
  }).join(',');
  const isInside = (el) => !!(inside && el.closest(inside));
  const parts = [];
  let size = 0;
  if (document.body) {
    // Turns, the composer and scripts are skipped whole (a long thread is
    // never walked text node by text node).
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
      acceptNode: (n) => n.nodeType !== 1 ? NodeFilter.FILTER_ACCEPT
        : (/^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE)$/.test(n.tagName) || (inside && n.matches(inside))) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_SKIP,
    });
    for (let n = walker.nextNode(); n && size < 8000; n = walker.nextNode()) {
      const el = n.parentElement;
      const t = (n.nodeValue || '').trim();
      if (!t || !el) continue;
      if (el.checkVisibility ? !el.checkVisibility() : !visible(el)) continue;
      parts.push(t);
      size += t.length + 1;
    }
  }
  const outsideTimes = [];
  for (const el of all('time[datetime]')) {
    const v = el.getAttribute('datetime');
    if (v && !isInside(el) && !outsideTimes.includes(v)) outsideTimes.push(v);
  }
  const body = document.body ? (document.body.innerText || '') : '';
  return JSON.stringify({
    url: location.href,
    title: document.title,
    body: body.slice(0, 2000),
    bodyLength: body.length,
    flags,
    dialogs: texts(notices, 1000),
    errorTexts: texts(cfg.errorText, 1000),
    lastAnswer,
    outside: parts.join('\n').slice(0, 8000),
    outsideTimes,
    composerPresent: matches(cfg.composer, true),
    times,
    now: new Date().toISOString(),
    tzOffsetMinutes: new Date().getTimezoneOffset(),
  });
}
