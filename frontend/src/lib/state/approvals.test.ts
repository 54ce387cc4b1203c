import { describe, expect, it, vi } from 'vitest';
import { ApprovalsState } from './approvals.svelte';
import { QuickState } from './quick.svelte';
import { EnvelopeError } from '../envelope';
import type { Approval, Job } from '../api/gateway';
import type { RunInfo, SiteInfo } from '../api/runs';

const ap = (jobId: string): Approval => ({ jobId, clientId: 'c1', clientName: 'agent', kind: 'ask', site: 'chatgpt', summary: 's', requestedAt: '' }) as unknown as Approval;
const notFound = () => new EnvelopeError({ stage: 'input', code: 'hub_not_found', message: 'gone', retryable: false, evidence: {} });

function fakeGateway(initial: Approval[] = []) {
  return {
    approvals: vi.fn(async () => initial),
    approve: vi.fn(async (_id: string) => ({}) as Job),
    reject: vi.fn(async (_id: string, _r: string) => ({}) as Job),
  };
}

describe('ApprovalsState', () => {
  it('adds a requested approval once and drops it when resolved elsewhere', () => {
    const s = new ApprovalsState(fakeGateway());
    const ev = { seq: 1, type: 'approval.requested', jobId: 'j1', time: '', data: ap('j1') };
    s.apply(ev);
    s.apply(ev);
    expect(s.items.map((a) => a.jobId)).toEqual(['j1']);
    s.apply({ seq: 2, type: 'approval.resolved', jobId: 'j1', time: '', data: { jobId: 'j1', approved: true } });
    expect(s.items).toEqual([]);
  });
  it('ignores other hub events', () => {
    const s = new ApprovalsState(fakeGateway());
    s.apply({ seq: 1, type: 'client.revoked', time: '', data: {} });
    expect(s.items).toEqual([]);
  });
  it('approves through the gateway and removes the job', async () => {
    const g = fakeGateway([ap('j1'), ap('j2')]);
    const s = new ApprovalsState(g);
    await s.load();
    await s.approve('j1');
    expect(g.approve).toHaveBeenCalledWith('j1');
    expect(s.items.map((a) => a.jobId)).toEqual(['j2']);
    expect(s.busy).toEqual([]);
  });
  it('rejects with the reason', async () => {
    const g = fakeGateway([ap('j1')]);
    const s = new ApprovalsState(g);
    await s.load();
    await s.reject('j1', 'not now');
    expect(g.reject).toHaveBeenCalledWith('j1', 'not now');
    expect(s.items).toEqual([]);
  });
  it('drops a job decided elsewhere and says so', async () => {
    const g = fakeGateway([ap('j1')]);
    g.approve.mockRejectedValueOnce(notFound());
    const s = new ApprovalsState(g);
    await s.load();
    await s.approve('j1');
    expect(s.items).toEqual([]);
    expect(s.problem?.code).toBe('hub_not_found');
  });
  it('keeps a job whose approval failed for another reason', async () => {
    const g = fakeGateway([ap('j1')]);
    g.approve.mockRejectedValueOnce(new EnvelopeError({ stage: 'store', code: 'store_io', message: 'disk', retryable: true, evidence: {} }));
    const s = new ApprovalsState(g);
    await s.load();
    await s.approve('j1');
    expect(s.items.map((a) => a.jobId)).toEqual(['j1']);
  });
});

describe('QuickState', () => {
  const sites = [{ id: 'chatgpt', name: 'ChatGPT' }, { id: 'claude', name: 'Claude' }] as SiteInfo[];
  function deps() {
    return {
      start: vi.fn(async () => ({ id: 'job-q', kind: 'ask', state: 'starting', ended: false, prompt: 'a haiku' }) as unknown as RunInfo),
      sites: vi.fn(async () => sites),
      close: vi.fn(async () => {}),
      grow: vi.fn(async () => {}),
      get: vi.fn(async () => ({ id: 'job-q', kind: 'ask', state: 'done', ended: true, prompt: 'a haiku', session: { id: 's1', answer: 'Final **answer**' } }) as unknown as RunInfo),
    };
  }
  it('opens on the default site and loads the sites once', async () => {
    const d = deps();
    const q = new QuickState(d);
    q.open({ site: 'claude' });
    await vi.waitFor(() => expect(q.sites.length).toBe(2));
    q.open({ site: 'chatgpt' });
    expect(q.site).toBe('claude');
    expect(d.sites).toHaveBeenCalledTimes(1);
    expect(q.opened).toBe(2);
  });
  it('sends the trimmed prompt to the chosen site, clears it and shows the answer streaming in the box', async () => {
    const d = deps();
    const q = new QuickState(d);
    q.open({ site: 'claude' });
    q.prompt = '  a haiku  ';
    expect(await q.send()).toBe(true);
    expect(d.start).toHaveBeenCalledWith(expect.objectContaining({ site: 'claude', prompt: 'a haiku', kind: 'ask' }));
    expect(q.prompt).toBe('');
    expect(d.close).not.toHaveBeenCalled();
    expect(d.grow).toHaveBeenCalled();
    expect(q.active).toBe(true);
    expect(q.run?.site).toBe('claude');
    expect(q.sent).toBe('a haiku');
    q.onEvent({ jobId: 'job-q', kind: 'partial', text: 'Final', at: '2026-01-01T00:00:00Z' } as never);
    q.onEvent({ jobId: 'other', kind: 'partial', text: 'not ours', at: '2026-01-01T00:00:00Z' } as never);
    expect(q.run?.text).toBe('Final');
    q.onEvent({ jobId: 'job-q', kind: 'ended', state: 'done', at: '2026-01-01T00:00:01Z' } as never);
    await vi.waitFor(() => expect(q.run?.text).toBe('Final **answer**'));
    q.open({ site: 'claude' });
    expect(q.run).toBeNull();
  });
  it('sends nothing for an empty prompt', async () => {
    const d = deps();
    const q = new QuickState(d);
    q.open({ site: 'claude' });
    q.prompt = '   ';
    expect(await q.send()).toBe(false);
    expect(d.start).not.toHaveBeenCalled();
  });
  it('keeps the text and stays open when the run is refused', async () => {
    const d = deps();
    d.start.mockRejectedValueOnce(new EnvelopeError({ stage: 'browser', code: 'browser_not_found', message: 'no browser', retryable: false, evidence: {} }));
    const q = new QuickState(d);
    q.open({ site: 'claude' });
    q.prompt = 'hello';
    expect(await q.send()).toBe(false);
    expect(q.prompt).toBe('hello');
    expect(q.active).toBe(true);
    expect(q.problem?.code).toBe('browser_not_found');
    expect(d.close).not.toHaveBeenCalled();
  });
});
