// The live run panel's model: a run as it streams in, built from the
// backend's RunInfo and updated by its run:event events, and what to tell
// the user when a run stopped at something only they can fix.

import { toEnvelope, type Envelope } from './envelope';

/** RunInfoLike is the part of app.RunInfo the panel reads. */
export interface RunInfoLike {
  id: string;
  kind: string;
  state: string;
  ended: boolean;
  site?: string;
  tabId?: string;
  model?: string;
  prompt: string;
  origin?: string;
  clientName?: string;
  requestedBy?: string;
  template?: string;
  error?: unknown;
  /** The run stopped after its prompt was sent: the rest may be collected. */
  collectable?: boolean;
  session?: {
    id?: string;
    answer?: string;
    /** answer is only what streamed before the run was cancelled. */
    answerPartial?: boolean;
    /** The tab the run drove. */
    targetId?: string;
    site?: string;
    model?: { slug?: string; verified?: boolean };
    artifacts?: { name: string; path?: string; verdict?: string; reason?: string; file?: string }[];
  } | null;
  timeline?: { state: string; at: unknown; note?: string }[] | null;
}

/** RunEventLike is the part of a run:event the panel reads. */
export interface RunEventLike {
  jobId: string;
  kind: 'state' | 'partial' | 'ended';
  session?: string;
  state?: string;
  note?: string;
  text?: string;
  at: string;
}

export interface TimelineItem {
  state: string;
  at: string;
  note?: string;
}

export interface LiveRun {
  id: string;
  kind: string;
  site: string;
  model: string;
  prompt: string;
  /** Who asked: desktop, cli or agent (then clientName names it). */
  origin: string;
  clientName: string;
  /** The template the prompt was rendered from ("" for a typed prompt). */
  template: string;
  state: string;
  ended: boolean;
  /** The answer so far, then the final answer. */
  text: string;
  /** How many partial updates arrived (the streaming proof). */
  partials: number;
  /** The session's id once the run has one (History finds it). */
  session: string;
  modelProof: string;
  timeline: TimelineItem[];
  error: Envelope | null;
  /** file is what is at path now: '' (there), 'trashed' or 'missing'. */
  artifacts: { name: string; path: string; verdict: string; reason: string; file: string }[];
  /** The run stopped after its prompt was sent: "Collect the rest" may get the whole answer. */
  collectable: boolean;
  /** text is only what streamed before the run was cancelled. */
  partial: boolean;
  /** The tab the run drove ("" before it had one). */
  tab: string;
}

/** fromInfo builds (or refreshes) a live run from the backend's record. */
export function fromInfo(info: RunInfoLike, prev?: LiveRun): LiveRun {
  const s = info.session ?? null;
  const timeline = (info.timeline ?? []).map((e) => ({ state: e.state, at: String(e.at), note: e.note || undefined }));
  return {
    id: info.id,
    kind: info.kind || 'ask',
    site: info.site || s?.site || prev?.site || '',
    model: info.model || prev?.model || '',
    prompt: info.prompt,
    origin: info.origin || prev?.origin || 'desktop',
    clientName: info.clientName || prev?.clientName || '',
    template: info.template || prev?.template || '',
    state: info.state,
    ended: info.ended,
    text: s?.answer || prev?.text || '',
    partials: prev?.partials ?? 0,
    session: s?.id || prev?.session || '',
    modelProof: s?.model?.slug ? `${s.model.slug}${s.model.verified ? ' (verified)' : ''}` : prev?.modelProof || '',
    timeline: timeline.length ? timeline : prev?.timeline ?? [],
    error: info.error ? toEnvelope(info.error) : null,
    artifacts: (s?.artifacts ?? []).map((a) => ({ name: a.name, path: a.path ?? '', verdict: a.verdict ?? '', reason: a.reason ?? '', file: a.file ?? '' })),
    collectable: !!info.collectable,
    partial: !!s?.answerPartial,
    tab: s?.targetId || info.tabId || prev?.tab || '',
  };
}

/** The states of a run before its answer streams. */
const beforeStreaming = new Set(['', 'starting', 'queued', 'resolved', 'preflighted', 'composed', 'submitting', 'submitted']);

/** applyEvent returns the run after ev (events of other runs leave it as is). */
export function applyEvent(run: LiveRun, ev: RunEventLike): LiveRun {
  if (ev.jobId !== run.id || run.ended && ev.kind !== 'ended') return run;
  const next = { ...run, session: ev.session || run.session };
  switch (ev.kind) {
    case 'partial':
      next.text = ev.text ?? run.text;
      next.partials = run.partials + 1;
      // Text comes only while the answer streams: a run still shown before
      // that (its state event late, or dropped for a slow window) is
      // streaming now.
      if (beforeStreaming.has(run.state)) {
        next.state = 'streaming';
        next.timeline = [...run.timeline, { state: 'streaming', at: ev.at }];
      }
      return next;
    case 'state': {
      if (!ev.state) return next;
      next.state = ev.state;
      const last = run.timeline[run.timeline.length - 1];
      if (!last || last.state !== ev.state) next.timeline = [...run.timeline, { state: ev.state, at: ev.at, note: ev.note || undefined }];
      return next;
    }
    case 'ended':
      // A run already read whole (after Cancel) keeps the state it was read
      // with: the event's is the session's, which a run stopped after the
      // send keeps.
      if (run.ended) return next;
      next.ended = true;
      if (ev.state) next.state = ev.state;
      return next;
  }
  return run;
}

/** Guidance is what the user can do about a run that stopped. */
export interface Guidance {
  title: string;
  text: string;
  /** The action that follows: retry the run, or open the browser's tabs. */
  action: 'retry' | 'tabs' | 'none';
}

/**
 * guidance says what to do about the run's error, or null when the
 * envelope's own hint is enough. siteName is the site as the window names it
 * ("ChatGPT"); without it, the run's site id.
 */
export function guidance(run: Pick<LiveRun, 'error' | 'site'> & { collectable?: boolean }, siteName = ''): Guidance | null {
  const code = run.error?.code;
  const site = siteName || run.site || 'the site';
  if (run.collectable && (code === 'browser_disconnected' || code === 'target_not_found' || code === 'target_crashed')) {
    // Lost after the send: the site went on answering.
    const what = code === 'browser_disconnected' ? 'The browser went away' : code === 'target_crashed' ? 'The tab crashed' : 'The tab was closed';
    return { title: `${what} while ${site} answered`, text: `The prompt was sent and ${site} very likely finished the answer. “Collect the rest” opens the conversation in the browser (starting it if needed) and reads the whole answer, without sending the prompt again.`, action: 'none' };
  }
  switch (code) {
    case 'cloudflare_challenge':
      return { title: 'A check stands in the way', text: 'Solve the check in the browser window, then Retry.', action: 'retry' };
    case 'login_required':
      return { title: `Log in to ${site}`, text: `Log in to ${site} in the browser window, then Retry.`, action: 'retry' };
    case 'consent_required':
      return { title: 'The site asks for consent', text: 'Answer the consent page in the browser window, then Retry.', action: 'retry' };
    case 'rate_limited':
      return { title: 'Too many requests', text: `${site} refused for now. Wait a few minutes, then Retry.`, action: 'retry' };
    case 'usage_cap': {
      const at = run.error?.evidence?.resets_at;
      const when = at ? ` It resets at ${new Date(at).toLocaleString()}.` : '';
      return { title: 'Usage limit reached', text: `The plan's limit on ${site} is reached.${when} Retry then, or pick another model or site.`, action: 'retry' };
    }
    case 'conversation_too_long':
      return { title: 'The conversation is too long', text: 'Tick “New chat” and send again.', action: 'none' };
    case 'browser_not_found':
    case 'browser_launch_failed':
    case 'browser_disconnected':
      return { title: 'No browser', text: 'Connect the browser in Tabs, then Retry.', action: 'tabs' };
    case 'tab_ambiguous':
      return { title: 'Several tabs of the site are open', text: 'Pick the tab to send to: the run goes again, on that tab.', action: 'none' };
    case 'target_not_found':
      return { title: 'The tab is gone', text: 'Pick another tab in Tabs, or send to the site instead.', action: 'tabs' };
  }
  return null;
}

/**
 * cancelNote is the line under the kept text of a run cancelled while its
 * answer streamed: whether the site stopped writing when Ferry pressed its
 * stop control (the envelope's site_stopped evidence), and what
 * “Collect the rest” gets.
 */
export function cancelNote(run: Pick<LiveRun, 'error' | 'site' | 'collectable'>, siteName = ''): string {
  const site = siteName || run.site || 'the site';
  switch (run.error?.evidence?.site_stopped) {
    case 'true':
      return `Cancelled — ${site} stopped writing here.` + (run.collectable ? ` “Collect the rest” reads the answer as ${site} kept it.` : '');
    case 'false':
      return `Cancelled — but ${site} did not stop writing when asked. Its tab stays busy until the answer ends: the next prompt to ${site} goes to another tab.` +
        (run.collectable ? ' “Collect the rest” gets the whole answer.' : '');
  }
  return 'Cancelled — the answer stops here.' + (run.collectable ? ` “Collect the rest” gets the whole answer from ${site}.` : '');
}

/** charCount counts what the user sees as characters (code points). */
export function charCount(s: string): number {
  return Array.from(s).length;
}

/** TERMINAL are the states after which a run does nothing more by itself. */
const TERMINAL = new Set(['done', 'failed', 'cancelled', 'stale']);

/** isActive reports whether the run may still change (Cancel makes sense). */
export function isActive(run: Pick<LiveRun, 'ended' | 'state'>): boolean {
  return !run.ended && !TERMINAL.has(run.state);
}

/** originLabel says who asked for a run, in words. */
export function originLabel(run: Pick<LiveRun, 'origin' | 'clientName'>): string {
  switch (run.origin) {
    case 'desktop':
      return 'Ferry';
    case 'cli':
      return 'CLI';
    case 'agent':
      return run.clientName ? `agent ${run.clientName}` : 'an agent';
  }
  return run.origin || 'Ferry';
}

// What each step of a run is called in the window: the user's words, not
// the pipeline's (the journal's own names stay behind "Details").
const STEP_WORDS: Record<string, string> = {
  starting: 'Starting',
  queued: 'Waiting its turn',
  awaiting_approval: 'Waiting for your approval',
  resolved: 'Finding the tab',
  preflighted: 'Checking the tab',
  composed: 'Typing the prompt',
  attached: 'Attaching the files',
  submitting: 'Sending',
  submitted: 'Waiting for the answer',
  streaming: 'Answer arriving',
  completed: 'Answer complete',
  extracted: 'Answer saved',
  artifacts_retrieved: 'Files downloaded',
  artifacts_verified: 'Files verified',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
  stale: 'Interrupted',
  // A run that stopped after its send because its browser or tab went
  // away (shownState).
  browser_disconnected: 'Browser disconnected',
  target_not_found: 'Tab closed',
  target_crashed: 'Tab crashed',
  rejected: 'Refused',
};

/** The codes of a run that stopped because its browser or tab went away. */
const LOST = new Set(['browser_disconnected', 'target_not_found', 'target_crashed']);

/**
 * shownState is the state the window shows for a run's record (History):
 * a run that stopped after its send because its browser or tab went away
 * keeps the step it stopped in (for "Collect the rest"), and shows its
 * error's code (browser_disconnected) instead, as the backend's RunInfo does
 * (app/internal/wording ShownState).
 */
export function shownState(session: { state?: string; error?: unknown } | null | undefined): string {
  const state = session?.state ?? '';
  const code = (session?.error as { code?: string } | null | undefined)?.code ?? '';
  if (LOST.has(code) && state !== '' && !TERMINAL.has(state)) return code;
  return state;
}

/**
 * retryable says whether History offers Retry for a run's record: it ended
 * without its answer (failed, cancelled, interrupted, or stopped with an
 * error such as a lost browser), and is not going on now.
 */
export function retryable(session: { state?: string; error?: unknown } | null | undefined): boolean {
  const state = session?.state ?? '';
  if (state === '' || state === 'done') return false;
  return TERMINAL.has(state) || !!session?.error;
}

/** stateLabel is a run's state, or a step of its timeline, in the window's words. */
export function stateLabel(state: string): string {
  const w = STEP_WORDS[state];
  if (w) return w;
  const s = state.replace(/_/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * fileLabel is what a run's saved file is now: "moved to trash" or
 * "missing" when it left its path, else its verdict (unverified without one).
 */
export function fileLabel(a: { verdict?: string; file?: string }): string {
  if (a.file === 'trashed') return 'moved to trash';
  if (a.file === 'missing') return 'missing';
  return a.verdict || 'unverified';
}
