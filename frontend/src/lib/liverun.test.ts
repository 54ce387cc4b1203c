import { describe, expect, it } from 'vitest';
import { applyEvent, cancelNote, charCount, fromInfo, guidance, isActive, retryable, shownState, stateLabel, type RunInfoLike } from './liverun';

const info: RunInfoLike = { id: 'job-1', kind: 'ask', state: 'starting', ended: false, site: 'chatgpt', prompt: 'hi', timeline: [] };

describe('a live run', () => {
  it('grows its answer with each partial and counts them', () => {
    let r = fromInfo(info);
    r = applyEvent(r, { jobId: 'job-1', kind: 'partial', text: 'Hel', at: '' });
    r = applyEvent(r, { jobId: 'job-1', kind: 'partial', text: 'Hello', at: '' });
    expect(r.text).toBe('Hello');
    expect(r.partials).toBe(2);
  });

  it('adds each new state to its timeline once', () => {
    let r = fromInfo(info);
    for (const s of ['resolved', 'resolved', 'streaming']) r = applyEvent(r, { jobId: 'job-1', kind: 'state', state: s, at: 't' });
    expect(r.timeline.map((e) => e.state)).toEqual(['resolved', 'streaming']);
    expect(r.state).toBe('streaming');
  });

  it('is streaming once its text comes, even when the state event is late or lost', () => {
    let r = applyEvent(fromInfo(info), { jobId: 'job-1', kind: 'state', state: 'submitted', at: 't1' });
    r = applyEvent(r, { jobId: 'job-1', kind: 'partial', text: 'Hel', at: 't2' });
    expect(r.state).toBe('streaming');
    r = applyEvent(r, { jobId: 'job-1', kind: 'state', state: 'streaming', at: 't3' });
    expect(r.timeline.map((e) => e.state)).toEqual(['submitted', 'streaming']);
    r = applyEvent(r, { jobId: 'job-1', kind: 'state', state: 'completed', at: 't4' });
    r = applyEvent(r, { jobId: 'job-1', kind: 'partial', text: 'Hello', at: 't5' });
    expect(r.state).toBe('completed');
  });

  it('ignores events of other runs', () => {
    const r = fromInfo(info);
    expect(applyEvent(r, { jobId: 'job-2', kind: 'partial', text: 'x', at: '' })).toBe(r);
  });

  it('keeps the state a cancelled run was read with when its end is announced', () => {
    const cancelled = fromInfo({ ...info, state: 'cancelled', ended: true });
    const r = applyEvent(cancelled, { jobId: 'job-1', kind: 'ended', state: 'streaming', at: '' });
    expect(r.state).toBe('cancelled');
  });

  it('ignores late partials once ended', () => {
    let r = applyEvent(fromInfo(info), { jobId: 'job-1', kind: 'ended', state: 'done', at: '' });
    r = applyEvent(r, { jobId: 'job-1', kind: 'partial', text: 'late', at: '' });
    expect(r.text).toBe('');
    expect(isActive(r)).toBe(false);
  });

  it('keeps the streamed text and count when the final record has no answer yet', () => {
    let r = applyEvent(fromInfo(info), { jobId: 'job-1', kind: 'partial', text: 'so far', at: '' });
    r = fromInfo({ ...info, state: 'streaming', session: { id: 's1' } }, r);
    expect(r.text).toBe('so far');
    expect(r.partials).toBe(1);
    expect(r.session).toBe('s1');
  });

  it('takes the final answer and journal from the record', () => {
    const r = fromInfo({ ...info, state: 'done', ended: true, session: { id: 's1', answer: 'Final', model: { slug: 'gpt-5-2', verified: true } },
      timeline: [{ state: 'resolved', at: '2026-01-01T00:00:00Z' }, { state: 'done', at: '2026-01-01T00:00:01Z' }] });
    expect(r.text).toBe('Final');
    expect(r.modelProof).toBe('gpt-5-2 (verified)');
    expect(r.timeline).toHaveLength(2);
  });
});

describe('guidance', () => {
  it('tells the user to solve a check in the browser and retry', () => {
    const g = guidance({ site: 'chatgpt', error: { stage: 'interstitial', code: 'cloudflare_challenge', message: 'x', retryable: true } });
    expect(g?.text).toBe('Solve the check in the browser window, then Retry.');
    expect(g?.action).toBe('retry');
  });
  it('names the site to log in to', () => {
    expect(guidance({ site: 'claude', error: { stage: 's', code: 'login_required', message: 'x', retryable: true } })?.text).toContain('Log in to claude');
    // The window names the site as Compose does.
    expect(guidance({ site: 'claude', error: { stage: 's', code: 'login_required', message: 'x', retryable: true } }, 'Claude')?.title).toBe('Log in to Claude');
  });
  it('sends a disconnected browser to Tabs', () => {
    expect(guidance({ site: '', error: { stage: 's', code: 'browser_disconnected', message: 'x', retryable: true } })?.action).toBe('tabs');
  });
  it('leaves other errors to the envelope', () => {
    expect(guidance({ site: '', error: { stage: 's', code: 'internal', message: 'x', retryable: false } })).toBeNull();
    expect(guidance({ site: '', error: null })).toBeNull();
  });
});

describe('charCount', () => {
  it('counts code points, not UTF-16 units', () => {
    expect(charCount('a😀b')).toBe(3);
  });
});

describe('a cancelled run', () => {
  it('keeps its partial answer, says so, and offers to collect the rest', () => {
    const run = fromInfo({
      id: 'job-1',
      kind: 'ask',
      state: 'cancelled',
      ended: true,
      prompt: 'p',
      collectable: true,
      session: { id: 'run-1', answer: 'the part that came', answerPartial: true },
    });
    expect(run.text).toBe('the part that came');
    expect(run.partial).toBe(true);
    expect(run.collectable).toBe(true);
    expect(isActive(run)).toBe(false);
  });
  it('is neither partial nor collectable once its whole answer is in', () => {
    const run = fromInfo({ id: 'job-2', kind: 'reattach', state: 'done', ended: true, prompt: 'p', session: { answer: 'all of it' } });
    expect(run.partial).toBe(false);
    expect(run.collectable).toBe(false);
  });
});

describe('stateLabel', () => {
  it('names each step in the window\'s words', () => {
    expect(stateLabel('preflighted')).toBe('Checking the tab');
    expect(stateLabel('submitting')).toBe('Sending');
    expect(stateLabel('submitted')).toBe('Waiting for the answer');
    expect(stateLabel('cancelled')).toBe('Cancelled');
    expect(stateLabel('some_new_state')).toBe('Some new state');
  });
});

describe('a run whose browser went away', () => {
  const lost = { state: 'streaming', error: { code: 'browser_disconnected', message: 'the connection to the browser dropped' } };
  it('shows as browser_disconnected in History, not as its answer arriving', () => {
    expect(shownState(lost)).toBe('browser_disconnected');
    expect(stateLabel(shownState(lost))).toBe('Browser disconnected');
    expect(shownState({ ...lost, state: 'failed' })).toBe('failed');
    expect(shownState({ state: 'streaming' })).toBe('streaming');
    expect(shownState({ ...lost, state: 'stale' })).toBe('stale');
  });
  it('offers to collect the answer when the prompt was sent, and a browser when nothing was', () => {
    const err = { code: 'browser_disconnected', message: 'the connection to the browser dropped', stage: 'browser', retryable: false };
    const sent = guidance({ error: err, site: 'claude', collectable: true }, 'Claude');
    expect(sent?.title).toBe('The browser went away while Claude answered');
    expect(sent?.text).toContain('Collect the rest');
    expect(sent?.action).toBe('none');
    expect(guidance({ error: err, site: 'claude' }, 'Claude')?.title).toBe('No browser');
  });
});

describe('History offers Retry', () => {
  it('for a run that ended without its answer, never for one done or going on now', () => {
    const err = { code: 'browser_disconnected', message: 'gone' };
    expect(retryable({ state: 'failed' })).toBe(true);
    expect(retryable({ state: 'cancelled' })).toBe(true);
    expect(retryable({ state: 'stale' })).toBe(true);
    expect(retryable({ state: 'streaming', error: err })).toBe(true);
    expect(retryable({ state: 'done' })).toBe(false);
    expect(retryable({ state: 'streaming' })).toBe(false);
    expect(retryable(null)).toBe(false);
  });
});

describe('the note of a run cancelled while it streamed', () => {
  const run = (stopped: string | undefined, collectable = true) => ({
    site: 'chatgpt', collectable,
    error: { stage: 'internal', code: 'cancelled', message: 'm', retryable: true, evidence: (stopped === undefined ? {} : { site_stopped: stopped }) as Record<string, string> },
  });
  it('says the site stopped writing where it did', () => {
    expect(cancelNote(run('true'), 'ChatGPT')).toBe('Cancelled — ChatGPT stopped writing here. “Collect the rest” reads the answer as ChatGPT kept it.');
  });
  it('says the site did not stop, and where the next prompt goes', () => {
    const n = cancelNote(run('false', false), 'ChatGPT');
    expect(n).toContain('ChatGPT did not stop writing');
    expect(n).toContain('the next prompt to ChatGPT goes to another tab');
    expect(n).not.toContain('Collect');
  });
  it('says only that the answer stops here when Ferry could not ask the site', () => {
    expect(cancelNote(run(undefined), 'ChatGPT')).toBe('Cancelled — the answer stops here. “Collect the rest” gets the whole answer from ChatGPT.');
  });
});
