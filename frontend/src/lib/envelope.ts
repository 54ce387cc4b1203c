// The error envelope as the backend sends it (backend/errs), and the one place
// that turns whatever a failed call produced into something the UI can show.

/** Envelope mirrors backend/errs.Envelope's JSON form. */
export interface Envelope {
  stage: string;
  code: string;
  message: string;
  retryHint?: string;
  retryable: boolean;
  evidence?: Record<string, string>;
  /** tabs are, for tab_ambiguous, the tabs the run could have used (to pick from). */
  tabs?: TabCandidate[];
}

/** TabCandidate mirrors backend/errs.TabCandidate. */
export interface TabCandidate {
  targetId: string;
  url: string;
  title?: string;
}

/** EnvelopeError carries an envelope through `throw` so stack traces survive. */
export class EnvelopeError extends Error {
  readonly envelope: Envelope;
  constructor(envelope: Envelope) {
    super(`${envelope.code}: ${envelope.message}`);
    this.name = 'EnvelopeError';
    this.envelope = envelope;
  }
}

/** isEnvelope reports whether v has the envelope's required fields. */
export function isEnvelope(v: unknown): v is Envelope {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o.code === 'string' && o.code !== '' && typeof o.message === 'string';
}

function normalise(o: Envelope): Envelope {
  const evidence: Record<string, string> = {};
  if (o.evidence && typeof o.evidence === 'object') {
    for (const [k, v] of Object.entries(o.evidence)) evidence[k] = String(v);
  }
  return {
    stage: typeof o.stage === 'string' && o.stage ? o.stage : 'internal',
    code: o.code,
    message: o.message,
    retryHint: typeof o.retryHint === 'string' ? o.retryHint : '',
    retryable: o.retryable === true,
    evidence,
    ...(Array.isArray(o.tabs) && o.tabs.length
      ? { tabs: o.tabs.filter((t) => t && typeof t.targetId === 'string').map((t) => ({ targetId: t.targetId, url: String(t.url ?? ''), title: String(t.title ?? '') })) }
      : {}),
  };
}

const INTERNAL_HINT =
  'this is a bug in Ferry: open Settings → System to check the setup, and report it with the details shown';

/**
 * toEnvelope turns anything a rejected bound call (or our own code) threw into
 * an envelope. Bound methods reject with the envelope object (the app's
 * ErrorFormatter); Wails itself rejects with a plain string when it cannot
 * even decode the arguments, and a bug can throw an Error: both become
 * `internal` so the user still sees code, message and what to do.
 */
export function toEnvelope(err: unknown): Envelope {
  if (err instanceof EnvelopeError) return err.envelope;
  if (isEnvelope(err)) return normalise(err);
  if (typeof err === 'string') {
    const trimmed = err.trim();
    if (trimmed.startsWith('{')) {
      try {
        const parsed: unknown = JSON.parse(trimmed);
        if (isEnvelope(parsed)) return normalise(parsed);
      } catch {
        // not JSON after all: fall through and show the text
      }
    }
    return internal(trimmed || 'an unknown error occurred');
  }
  if (err instanceof Error) return internal(err.message || err.name);
  return internal('an unknown error occurred');
}

function internal(message: string): Envelope {
  return { stage: 'internal', code: 'internal', message, retryHint: INTERNAL_HINT, retryable: false, evidence: {} };
}

// Titles for the codes the shell meets most; the rest are derived from the code.
const TITLES: Record<string, string> = {
  config_invalid: 'Settings file is invalid',
  bad_input: 'Invalid input',
  store_busy: 'Data directory in use',
  store_corrupt: 'History store is damaged',
  store_schema_newer: 'Data written by a newer Ferry',
  store_io: 'Could not read or write the store',
  data_dir_unwritable: 'Data directory is not writable',
  browser_not_found: 'No browser found',
  no_display: 'No display',
  internal: 'Something went wrong',
  timeout: 'Timed out',
  cancelled: 'Cancelled',
};

/** titleFor gives a short human title for a code ("rate_limited" -> "Rate limited"). */
export function titleFor(code: string): string {
  if (TITLES[code]) return TITLES[code];
  const words = code.replace(/[_-]+/g, ' ').trim();
  if (!words) return 'Error';
  return words[0].toUpperCase() + words.slice(1);
}

/** Described is what a toast or inline error shows, in display order. */
export interface Described {
  title: string;
  code: string;
  stage: string;
  message: string;
  /** What the user can do, with the first letter capitalised; "" when none. */
  hint: string;
  /** Evidence sorted by key, for a stable display. */
  evidence: Array<[string, string]>;
  retryable: boolean;
}

/** describe formats an envelope for display. */
export function describe(env: Envelope): Described {
  const hint = (env.retryHint ?? '').trim();
  // config_invalid covers both a broken file and one rejected value; the
  // evidence's field tells them apart.
  const title = env.code === 'config_invalid' && env.evidence?.field ? 'Setting not saved' : titleFor(env.code);
  return {
    title,
    code: env.code,
    stage: env.stage,
    message: sentence(env.message),
    hint: hint ? sentence(hint) : '',
    evidence: Object.entries(env.evidence ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    retryable: env.retryable,
  };
}

function sentence(s: string): string {
  const t = s.trim();
  if (!t) return t;
  return t[0].toUpperCase() + t.slice(1);
}

/**
 * Segment is a run of hint text: plain, or a command the user can type
 * (written between backticks in the catalog's hints).
 */
export interface Segment {
  text: string;
  code: boolean;
}

/** segments splits text on backtick pairs so commands render as code. */
export function segments(text: string): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  for (const m of text.matchAll(/`([^`]+)`/g)) {
    const at = m.index ?? 0;
    if (at > last) out.push({ text: text.slice(last, at), code: false });
    out.push({ text: m[1], code: true });
    last = at + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last), code: false });
  return out;
}
