import { describe, expect, it, vi } from 'vitest';
import { ActiveRuns, ENDED_KEPT, type ActiveRunsApi } from './activeruns.svelte';
import type { RunInfo } from '../api/runs';
import { originLabel } from '../liverun';

function info(id: string, extra: Partial<RunInfo> = {}): RunInfo {
  return { id, kind: 'ask', state: 'streaming', ended: false, site: 'chatgpt', prompt: 'p ' + id, origin: 'agent', clientName: 'codex', timeline: [], ...extra } as unknown as RunInfo;
}

function fakeApi(over: Partial<ActiveRunsApi> = {}): ActiveRunsApi {
  return {
    active: vi.fn(async () => [info('job-1'), info('job-old', { ended: true, state: 'done' })]),
    get: vi.fn(async (id: string) => info(id, { origin: 'cli', clientName: '' })),
    cancel: vi.fn(async (id: string) => info(id, { state: 'cancelled', ended: true })),
    ...over,
  } as ActiveRunsApi;
}

describe('ActiveRuns', () => {
  it('lists the running jobs of any origin and leaves out ended ones', async () => {
    const a = new ActiveRuns(fakeApi());
    await a.load();
    expect(a.runs.map((r) => [r.id, r.origin, r.clientName])).toEqual([['job-1', 'agent', 'codex']]);
    expect(originLabel(a.runs[0])).toBe('agent codex');
  });

  it('streams the answer so far into a listed run', async () => {
    const a = new ActiveRuns(fakeApi());
    await a.load();
    a.onEvent({ jobId: 'job-1', kind: 'partial', text: 'Hel', at: '' });
    a.onEvent({ jobId: 'job-1', kind: 'partial', text: 'Hello', at: '' });
    expect(a.runs[0].text).toBe('Hello');
    expect(a.runs[0].partials).toBe(2);
  });

  it('reads a job first heard of through its events, keeping the events that came meanwhile', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const api = fakeApi({ get: vi.fn(async (id: string) => (await gate, info(id, { origin: 'cli', clientName: '' }))) });
    const a = new ActiveRuns(api);
    a.onEvent({ jobId: 'job-9', kind: 'state', state: 'resolved', at: '' });
    a.onEvent({ jobId: 'job-9', kind: 'partial', text: 'So far', at: '' });
    expect(a.runs).toHaveLength(0);
    release();
    await vi.waitFor(() => expect(a.runs.map((r) => r.id)).toEqual(['job-9']));
    expect(a.runs[0].text).toBe('So far');
    expect(originLabel(a.runs[0])).toBe('CLI');
    expect(api.get).toHaveBeenCalledTimes(1);
  });

  it('moves an ended run to the just-ended list and reads its final record', async () => {
    const api = fakeApi({ get: vi.fn(async (id: string) => info(id, { state: 'done', ended: true, session: { id: 's1', answer: 'All' } } as Partial<RunInfo>)) });
    const a = new ActiveRuns(api);
    await a.load();
    a.toggle('job-1');
    a.onEvent({ jobId: 'job-1', kind: 'ended', state: 'done', at: '' });
    expect(a.runs).toHaveLength(0);
    expect(a.open).toBe('');
    await vi.waitFor(() => expect(a.ended[0].session).toBe('s1'));
    expect(a.ended[0].state).toBe('done');
    // A late event of the ended run does not list it again.
    a.onEvent({ jobId: 'job-1', kind: 'state', state: 'done', at: '' });
    expect(a.runs).toHaveLength(0);
  });

  it('keeps only the last few ended runs', async () => {
    const a = new ActiveRuns(fakeApi({ active: vi.fn(async () => Array.from({ length: ENDED_KEPT + 2 }, (_, i) => info('job-' + i))) }));
    await a.load();
    for (let i = 0; i < ENDED_KEPT + 2; i++) a.onEvent({ jobId: 'job-' + i, kind: 'ended', state: 'done', at: '' });
    expect(a.ended.map((r) => r.id)).toEqual(['job-6', 'job-5', 'job-4', 'job-3', 'job-2']);
  });

  it('cancels any run and shows it ended as cancelled', async () => {
    const api = fakeApi();
    const a = new ActiveRuns(api);
    await a.load();
    await a.cancel('job-1');
    expect(api.cancel).toHaveBeenCalledWith('job-1');
    expect(a.runs).toHaveLength(0);
    expect(a.ended[0]).toMatchObject({ id: 'job-1', state: 'cancelled', ended: true });
  });

  it('reads a run as cancelling until it has stopped, and asks once however often Cancel is pressed', async () => {
    let stop: () => void = () => {};
    const stopped = new Promise<void>((r) => (stop = r));
    const api = fakeApi({ cancel: vi.fn(async (id: string) => (await stopped, info(id, { state: 'cancelled', ended: true }))) });
    const a = new ActiveRuns(api);
    await a.load();
    const first = a.cancel('job-1');
    const second = a.cancel('job-1');
    expect(a.cancelling['job-1']).toBe(true);
    expect(a.runs.map((r) => r.id)).toEqual(['job-1']);
    stop();
    await Promise.all([first, second]);
    expect(api.cancel).toHaveBeenCalledTimes(1);
    expect(a.cancelling['job-1']).toBeUndefined();
    expect(a.ended[0]).toMatchObject({ id: 'job-1', state: 'cancelled' });
  });

  it('lets Cancel be pressed again after a cancel the app refused', async () => {
    const api = fakeApi({ cancel: vi.fn(async () => { throw new Error('hub_not_found'); }) });
    const a = new ActiveRuns(api);
    await a.load();
    await a.cancel('job-1');
    expect(a.cancelling['job-1']).toBeUndefined();
    expect(a.runs.map((r) => r.id)).toEqual(['job-1']);
  });
});
