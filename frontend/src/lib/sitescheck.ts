// What the live check of the sites (Settings → Sites → "Check sites now")
// shows of one site's report: a one-line verdict and the fixes it offers.

export interface CandidateLike {
  selector: string;
  matches: number;
  label?: string;
  text?: string;
  override: string;
}

export interface RoleLike {
  role: string;
  status: string;
  selectors: string[];
  matched: number;
  matchedSelector?: string;
  note?: string;
  candidates?: CandidateLike[];
  /** the feature a missing optional role blocks (model_selection, file_upload) */
  blocks?: string;
}

export interface SiteLike {
  site: string;
  name: string;
  ok: boolean;
  loggedIn: boolean;
  login?: string;
  interstitial?: { kind: string; message?: string };
  roles?: RoleLike[];
  stream?: { status: string; detail: string; override?: string };
  problems?: string[];
  error?: { message: string };
}

/** A fix the check offers: the "sites" entry that would mend what it names. */
export interface Fix {
  key: string;
  what: string;
  selector: string;
  override: string;
}

/** featureWords names what a missing optional role blocks, in the desktop's words. */
export function featureWords(feature: string): string {
  switch (feature) {
    case 'model_selection':
      return 'choosing a model';
    case 'file_upload':
      return 'attaching files';
  }
  return feature.replace(/_/g, ' ');
}

/** blocked lists, in words, what the missing optional roles of a site block. */
export function blocked(s: SiteLike): string[] {
  const out: string[] = [];
  for (const r of s.roles ?? []) {
    if (r.status === 'missing' && r.blocks && !out.includes(featureWords(r.blocks))) out.push(featureWords(r.blocks));
  }
  return out;
}

/** verdict is the one line a site's report reads as. */
export function verdict(s: SiteLike): string {
  if (s.error) return `Could not look at the page: ${s.error.message}`;
  if (!s.loggedIn) return 'Not logged in';
  if (s.interstitial && !s.ok) return `Blocked: ${s.interstitial.message || s.interstitial.kind}`;
  const missing = (s.roles ?? []).filter((r) => r.status === 'missing' && !r.blocks).length;
  const streamMissed = s.stream?.status === 'missed';
  const without = blocked(s);
  if (s.ok) return without.length ? `OK for plain asks; not for ${without.join(', ')} (this page lacks it)` : 'OK';
  const parts: string[] = [];
  if (missing) parts.push(`${missing} role${missing === 1 ? '' : 's'} resolve${missing === 1 ? 's' : ''} nowhere`);
  if (streamMissed) parts.push('stream not captured on the last turn');
  return parts.length ? parts.join('; ') : (s.problems ?? []).join('; ') || 'Not OK';
}

/** fixes lists, for each missing role, its candidates, then the stream's override. */
export function fixes(s: SiteLike): Fix[] {
  const out: Fix[] = [];
  for (const r of s.roles ?? []) {
    if (r.status !== 'missing') continue;
    (r.candidates ?? []).forEach((c, i) =>
      out.push({ key: `${r.role}:${i}`, what: r.role, selector: c.selector, override: c.override }),
    );
  }
  if (s.stream?.status === 'missed' && s.stream.override) {
    out.push({ key: 'stream', what: 'stream', selector: '', override: s.stream.override });
  }
  return out;
}

/** shownRoles are the roles worth a line: those the site defines, found or missing first. */
export function shownRoles(s: SiteLike): RoleLike[] {
  const rank = (r: RoleLike) => (r.status === 'missing' ? 0 : r.status === 'ok' ? 1 : 2);
  return (s.roles ?? []).filter((r) => r.status !== 'undefined').sort((a, b) => rank(a) - rank(b));
}
