// Collects what the interstitial detector needs from a page, as a JSON
// string. It decides nothing: the decision is Go's (package interstitial).
// cfg: {composer, loggedIn, loggedOut, errorText, assistantTurn}: selector lists.
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
    if (turns.length) { lastAnswer = (turns[turns.length - 1].innerText || '').trim().slice(0, 1000); break; }
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
    composerPresent: matches(cfg.composer, true),
    times,
    now: new Date().toISOString(),
    tzOffsetMinutes: new Date().getTimezoneOffset(),
  });
}
