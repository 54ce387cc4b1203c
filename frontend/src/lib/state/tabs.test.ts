import { describe, expect, it, vi } from 'vitest';
import { TabsState, type TabsApi } from './tabs.svelte';
import type { BrowserState, TabState } from '../api/tabs';

const notStarted = { status: 'not_started', mode: 'launch', launched: false, headless: false } as BrowserState;
const connected = { status: 'connected', mode: 'launch', launched: true, headless: true, pid: 42, endpoint: '127.0.0.1:9' } as BrowserState;
const tab = { targetId: 'T1', site: 'chatgpt', siteName: 'ChatGPT', title: 'ChatGPT', url: 'https://chatgpt.com/', state: 'ready' } as TabState;

function fakeApi(over: Partial<TabsApi> = {}): TabsApi {
  return {
    browserState: vi.fn(async () => notStarted),
    connect: vi.fn(async () => connected),
    reconnect: vi.fn(async () => connected),
    list: vi.fn(async () => [tab]),
    open: vi.fn(async () => tab),
    show: vi.fn(async () => tab),
    close: vi.fn(async () => undefined),
    login: vi.fn(async () => tab),
    ...over,
  };
}

describe('TabsState', () => {
  it('does not list tabs of a browser that is not started', async () => {
    const a = fakeApi();
    const t = new TabsState(a);
    await t.load();
    expect(t.connected).toBe(false);
    expect(a.list).not.toHaveBeenCalled();
  });

  it('lists the tabs once connected', async () => {
    const t = new TabsState(fakeApi());
    await t.connect();
    expect(t.connected).toBe(true);
    expect(t.tabs.map((x) => x.targetId)).toEqual(['T1']);
    expect(t.busy).toBe('');
  });

  it('shows the browser state with its problem after a failed connect', async () => {
    const failed = { ...notStarted, status: 'disconnected', problem: { code: 'browser_not_found', message: 'no chromium' } } as unknown as BrowserState;
    const a = fakeApi({
      connect: vi.fn(async () => Promise.reject({ code: 'browser_not_found', message: 'no chromium', stage: 'browser', retryable: false })),
      browserState: vi.fn(async () => failed),
    });
    const t = new TabsState(a);
    await t.connect();
    expect(t.browser?.status).toBe('disconnected');
    expect(t.browser?.problem?.code).toBe('browser_not_found');
  });

  it('forgets the tabs when the browser goes away', async () => {
    const t = new TabsState(fakeApi());
    await t.connect();
    t.applyBrowser({ ...connected, status: 'disconnected' } as BrowserState);
    expect(t.tabs).toEqual([]);
  });
});

describe('TabsState row actions', () => {
  const loggedOut = { ...tab, targetId: 'T2', state: 'login' } as TabState;
  function actApi(over: Partial<TabsApi> = {}): TabsApi {
    return {
      ...fakeApi({ browserState: vi.fn(async () => connected), list: vi.fn(async () => [tab, loggedOut]) }),
      show: vi.fn(async (id: string) => ({ ...tab, targetId: id })),
      close: vi.fn(async () => undefined),
      login: vi.fn(async (id: string) => ({ ...loggedOut, targetId: id, url: 'https://chatgpt.com/auth/login' })),
      ...over,
    };
  }

  it('closes a tab and drops its row', async () => {
    const a = actApi();
    const t = new TabsState(a);
    await t.load();
    await t.act(tab, 'close');
    expect(a.close).toHaveBeenCalledWith('T1');
    expect(t.tabs.map((x) => x.targetId)).toEqual(['T2']);
    expect(t.acting).toBe('');
  });

  it('shows the login page of a logged-out tab and keeps its row in place', async () => {
    const a = actApi();
    const t = new TabsState(a);
    await t.load();
    await t.act(loggedOut, 'login');
    expect(a.login).toHaveBeenCalledWith('T2');
    expect(t.tabs[1].url).toBe('https://chatgpt.com/auth/login');
  });

  it('lists once more when a change comes while listing', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const list = vi.fn(async () => {
      await gate;
      return [tab];
    });
    const t = new TabsState(actApi({ list }));
    const first = t.load();
    await Promise.resolve();
    await Promise.resolve();
    void t.load();
    release();
    await first;
    expect(list).toHaveBeenCalledTimes(2);
  });
});
