import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HistoryState, SEARCH_DEBOUNCE_MS } from './history.svelte';
import { ArtifactsState, canDrag, downloadURL, startDrag, whenOf, type DataTransferLike } from './artifacts.svelte';
import type { Hit, HistoryItem, HistorySummary, SessionDetail, SessionList } from '../api/sessions';

// listed builds a row as Sessions.List sends it: a summary of the run (no
// answer) and its hit. The data fields are checked against the generated
// classes; only their convertValues helper is left out.
function listed(id: string, site: string): HistoryItem {
  const created = '2026-03-01T10:00:00Z';
  const session = { id, site, state: 'done', created, prompt: 'p ' + id } satisfies Omit<HistorySummary, 'convertValues'>;
  const hit = { id, site, model: '', state: 'done', created, prompt: 'p ' + id, score: 0, matches: [], snippet: '' } satisfies Omit<Hit, 'convertValues'>;
  return { session, hit } as unknown as HistoryItem;
}

function fakeList(items: HistoryItem[]) {
  return vi.fn(async (q: string, site: string, _state: string, _limit: number) => {
    const out = items.filter((l) => (!site || l.session.site === site) && l.session.prompt.includes(q));
    return { items: out, total: out.length } as unknown as SessionList;
  });
}

describe('HistoryState', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('searches once after the user pauses typing', async () => {
    const list = fakeList([listed('a1', 'chatgpt'), listed('b2', 'claude')]);
    const h = new HistoryState(list);
    for (const q of ['b', 'b2']) h.setQuery(q);
    expect(list).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS + 1);
    expect(list).toHaveBeenCalledTimes(1);
    expect(list.mock.calls[0][0]).toBe('b2');
    expect(h.items.map((l) => l.session?.id)).toEqual(['b2']);
    expect(h.selected).toBe(0);
  });

  it('keeps the newest answer when an older one arrives late', async () => {
    let release: (v: SessionList) => void = () => {};
    const slow = new Promise<SessionList>((r) => (release = r));
    const list = vi
      .fn()
      .mockImplementationOnce(() => slow)
      .mockImplementationOnce(async () => ({ items: [listed('new', 'x')], total: 1 }));
    const h = new HistoryState(list);
    const first = h.search();
    await h.search();
    release({ items: [listed('old', 'x')], total: 1 } as unknown as SessionList);
    await first;
    expect(h.items.map((l) => l.session?.id)).toEqual(['new']);
  });

  it('moves the selection with the arrows, wraps, and opens on Enter', async () => {
    const show = vi.fn(async (id: string) => ({ session: { id }, journal: [] }) as unknown as SessionDetail);
    const h = new HistoryState(fakeList([listed('a', 's'), listed('b', 's'), listed('c', 's')]), show);
    await h.search();
    expect(h.onKey('ArrowDown')).toBe(true);
    expect(h.selected).toBe(1);
    h.onKey('ArrowUp');
    h.onKey('ArrowUp');
    expect(h.selected).toBe(2);
    expect(h.onKey('x')).toBe(false);
    expect(h.onKey('Enter')).toBe(true);
    await vi.runAllTimersAsync();
    expect(show).toHaveBeenCalledWith('c');
    expect(h.detail?.session?.id).toBe('c');
  });

  it('collects the sites of the unfiltered list for the site filter', async () => {
    const h = new HistoryState(fakeList([listed('a', 'claude'), listed('b', 'chatgpt'), listed('c', 'claude')]));
    await h.search();
    expect(h.sites).toEqual(['chatgpt', 'claude']);
    h.setSite('claude');
    await vi.runAllTimersAsync();
    expect(h.items).toHaveLength(2);
    expect(h.sites).toEqual(['chatgpt', 'claude']);
    expect(h.filtered).toBe(true);
  });

  it('keeps a failed search as the problem, not as an empty history', async () => {
    const h = new HistoryState(vi.fn(async () => Promise.reject({ code: 'bad_input', message: 'unknown state' })));
    await h.search();
    expect(h.problem?.code).toBe('bad_input');
    expect(h.loaded).toBe(false);
  });
});

describe('drag-out', () => {
  function recorder(): DataTransferLike & { data: Record<string, string> } {
    return { effectAllowed: 'none', data: {}, setData(t: string, d: string) { this.data[t] = d; } };
  }

  it('a verified zip carries its file URL and path', () => {
    const dt = recorder();
    expect(startDrag({ status: 'verified', path: '/data/artifacts/my project.zip' }, dt)).toBe(true);
    expect(dt.data['text/uri-list']).toBe('file:///data/artifacts/my%20project.zip');
    expect(dt.data['text/plain']).toBe('/data/artifacts/my project.zip');
    expect(dt.effectAllowed).toBe('copy');
  });

  it.each(['quarantined', 'unverified'])('a %s zip writes nothing', (status) => {
    const dt = recorder();
    expect(startDrag({ status, path: '/x.zip' }, dt)).toBe(false);
    expect(dt.data).toEqual({});
  });

  const base = 'http://127.0.0.1:50123/drag/tok/';

  it('on WebView2 a verified zip carries a DownloadURL on loopback and no file URL', () => {
    const dt = recorder();
    const path = 'C:\\Users\\Ann Lee\\AppData\\Local\\Ferry\\artifacts\\my project.zip';
    expect(startDrag({ status: 'verified', path }, dt, { kind: 'download-url', base })).toBe(true);
    expect(dt.data['DownloadURL']).toBe(
      'application/zip:my project.zip:http://127.0.0.1:50123/drag/tok/my%20project.zip?path=C%3A%5CUsers%5CAnn%20Lee%5CAppData%5CLocal%5CFerry%5Cartifacts%5Cmy%20project.zip',
    );
    expect(dt.data['text/uri-list']).toBeUndefined();
    expect(dt.data['text/plain']).toBe(path);
    expect(dt.effectAllowed).toBe('copy');
  });

  it('a colon in a name cannot end the DownloadURL name field', () => {
    expect(downloadURL('/a/b:c.zip', base).split(':').slice(0, 2)).toEqual(['application/zip', 'b_c.zip']);
  });

  it('where no drag can carry a file nothing is written and the card is not draggable', () => {
    const dt = recorder();
    for (const source of [{ kind: 'none' }, { kind: 'download-url' }]) {
      expect(canDrag({ status: 'verified' }, source)).toBe(false);
      expect(startDrag({ status: 'verified', path: 'C:\\x.zip' }, dt, source)).toBe(false);
    }
    expect(dt.data).toEqual({});
  });

  it.each(['quarantined', 'unverified'])('on WebView2 a %s zip writes nothing', (status) => {
    const dt = recorder();
    expect(startDrag({ status, path: 'C:\\x.zip' }, dt, { kind: 'download-url', base })).toBe(false);
    expect(dt.data).toEqual({});
  });
});

describe('ArtifactsState', () => {
  it('loads the library and keeps a failure as the problem', async () => {
    const ok = new ArtifactsState(async () => ({ dir: '/d', items: [{ name: 'a.zip', status: 'verified' }] }) as never);
    await ok.load();
    expect(ok.items).toHaveLength(1);
    expect(ok.dir).toBe('/d');
    const bad = new ArtifactsState(async () => Promise.reject({ code: 'store_io', message: 'no' }));
    await bad.load();
    expect(bad.problem?.code).toBe('store_io');
    expect(bad.loaded).toBe(false);
  });

  it('asks once how a drag-out leaves the window, and a failure there leaves Show in folder', async () => {
    const list = async () => ({ dir: '/d', items: [] }) as never;
    const source = vi.fn(async () => ({ kind: 'download-url', base: 'http://127.0.0.1:1/drag/t/' }));
    const s = new ArtifactsState(list, source);
    await s.load();
    await s.load();
    expect(source).toHaveBeenCalledTimes(1);
    expect(s.drag).toEqual({ kind: 'download-url', base: 'http://127.0.0.1:1/drag/t/' });
    const failing = new ArtifactsState(list, async () => Promise.reject({ code: 'internal', message: 'no port' }));
    await failing.load();
    expect(failing.drag.kind).toBe('none');
    expect(canDrag({ status: 'verified' }, failing.drag)).toBe(false);
  });
});

describe('HistoryState date filter', () => {
  const now = () => new Date(2026, 2, 15, 12, 0);
  function deps() {
    const list = vi.fn(async () => ({ items: [], total: 0 }) as unknown as SessionList);
    const find = vi.fn(async () => ({ items: [listed('d1', 'chatgpt')], total: 1 }) as unknown as SessionList);
    const show = vi.fn(async (id: string) => ({ session: { id } }) as unknown as SessionDetail);
    return { list, find, show };
  }
  it('asks for the dates of a quick range and counts as filtered', async () => {
    const d = deps();
    const h = new HistoryState(d.list, d.show, d.find, now);
    h.setRange('7d');
    await vi.waitFor(() => expect(d.find).toHaveBeenCalledTimes(1));
    const f = d.find.mock.calls[0][0 as never] as unknown as { from: string; to: string };
    expect(new Date(f.from).getTime()).toBe(new Date(2026, 2, 9).getTime());
    expect(f.to).toBe('');
    expect(h.filtered).toBe(true);
    await vi.waitFor(() => expect(h.items.length).toBe(1));
  });
  it('does not search a reversed custom range and says why', async () => {
    const d = deps();
    const h = new HistoryState(d.list, d.show, d.find, now);
    h.setDays('2026-03-10', '2026-03-01');
    expect(h.rangeProblem).toMatch(/after the end/);
    expect(d.find).not.toHaveBeenCalled();
  });
  it('goes back to the plain list for any time', async () => {
    const d = deps();
    const h = new HistoryState(d.list, d.show, d.find, now);
    h.setRange('today');
    h.setRange('any');
    await vi.waitFor(() => expect(d.list).toHaveBeenCalledTimes(1));
  });
  it('opens a run by id even when the list does not hold it', async () => {
    const d = deps();
    const h = new HistoryState(d.list, d.show, d.find, now);
    await h.openId('zz');
    expect(d.show).toHaveBeenCalledWith('zz');
    expect(h.detail?.session?.id).toBe('zz');
  });
});

describe('HistoryState selection', () => {
  it('keeps the opened run selected when a later list holds it', async () => {
    const list = vi.fn(async () => ({ items: [listed('new', 'claude'), listed('old', 'chatgpt')], total: 2 }) as unknown as SessionList);
    const show = vi.fn(async (id: string) => ({ session: { id } }) as unknown as SessionDetail);
    const h = new HistoryState(list, show);
    await h.openId('old');
    await h.search();
    expect(h.selected).toBe(1);
  });
});

describe('an artifact\'s time', () => {
  it('is its run\'s start, else its verification, else its file\'s time', () => {
    const run = { id: 'r1', prompt: 'build a greeter', created: '2026-11-30T10:00:00Z', state: 'done' };
    expect(whenOf({ run, verifiedAt: '2026-11-30T10:05:00Z', modified: '2026-11-30T10:06:00Z' } as never)?.toISOString()).toBe('2026-11-30T10:00:00.000Z');
    expect(whenOf({ verifiedAt: '2026-11-30T10:05:00Z', modified: '2026-11-30T10:06:00Z' } as never)?.toISOString()).toBe('2026-11-30T10:05:00.000Z');
    expect(whenOf({ modified: '2026-11-30T10:06:00Z' } as never)?.toISOString()).toBe('2026-11-30T10:06:00.000Z');
    expect(whenOf({ modified: 'not a time' } as never)).toBeNull();
  });
});

describe('HistoryState tool filter', () => {
  it('asks for the runs of a tool, counts as filtered, and goes back to the plain list for any tool', async () => {
    const list = vi.fn(async () => ({ items: [], total: 0 }) as unknown as SessionList);
    const find = vi.fn(async () => ({ items: [listed('w1', 'chatgpt')], total: 1 }) as unknown as SessionList);
    const h = new HistoryState(list, undefined, find);
    h.setTool('none');
    await vi.waitFor(() => expect(find).toHaveBeenCalledTimes(1));
    expect((find.mock.calls[0][0 as never] as unknown as { tool: string }).tool).toBe('none');
    expect(h.filtered).toBe(true);
    await vi.waitFor(() => expect(h.items.map((l) => l.session?.id)).toEqual(['w1']));
    h.setTool('');
    await vi.waitFor(() => expect(list).toHaveBeenCalledTimes(1));
    expect(h.filtered).toBe(false);
  });
});
