import { afterEach, describe, expect, it, vi } from 'vitest';
import { WelcomeState, type WelcomeApi } from './welcome.svelte';
import { navigation } from './navigation.svelte';
import type { SiteLogin, WelcomeState as Welcome } from '../api/welcome';

const fresh = { show: true, used: false, loggedIn: false, dismissed: false } as Welcome;
const used = { show: false, used: true, loggedIn: true, dismissed: false } as Welcome;
const claude = (state: string) => ({ site: 'claude', name: 'Claude', address: 'https://claude.ai/', state }) as SiteLogin;

function fakeApi(over: Partial<WelcomeApi> = {}): WelcomeApi {
  return {
    state: vi.fn(async () => fresh),
    logins: vi.fn(async () => [claude('logged_out')]),
    openLogin: vi.fn(async () => claude('checking')),
    dismiss: vi.fn(async () => ({ ...fresh, show: false, dismissed: true }) as Welcome),
    ...over,
  };
}

afterEach(() => {
  navigation.welcome = false;
  navigation.chosen = false;
  vi.useRealTimers();
});

describe('WelcomeState', () => {
  it('opens the view at start when no site was ever used, with the badge', async () => {
    const w = new WelcomeState(fakeApi());
    await w.load();
    expect(navigation.welcome).toBe(true);
    expect(w.badge).toBe(true);
  });

  it('does not cover a view the user chose before the answer came', async () => {
    navigation.go('compose');
    const w = new WelcomeState(fakeApi());
    await w.load();
    expect(navigation.welcome).toBe(false);
  });

  it('stays closed, without the badge, once a site is used and logged in', async () => {
    const w = new WelcomeState(fakeApi({ state: vi.fn(async () => used) }));
    await w.load();
    expect(navigation.welcome).toBe(false);
    expect(w.badge).toBe(false);
  });

  it('polls the logins only while watched, and the badge goes when a site logs in', async () => {
    vi.useFakeTimers();
    let state = 'logged_out';
    const a = fakeApi({ logins: vi.fn(async () => [claude(state)]) });
    const w = new WelcomeState(a);
    await w.refresh();
    const stop = w.watch();
    await vi.advanceTimersByTimeAsync(0);
    expect(w.logins[0].state).toBe('logged_out');
    state = 'logged_in';
    await vi.advanceTimersByTimeAsync(2000);
    expect(w.logins[0].state).toBe('logged_in');
    expect(w.badge).toBe(false);
    stop();
    const calls = (a.logins as ReturnType<typeof vi.fn>).mock.calls.length;
    await vi.advanceTimersByTimeAsync(10_000);
    expect((a.logins as ReturnType<typeof vi.fn>).mock.calls.length).toBe(calls);
  });

  it('marks the site opening while its login page opens', async () => {
    let release: () => void = () => {};
    const a = fakeApi({ openLogin: vi.fn(() => new Promise<SiteLogin>((ok) => (release = () => ok(claude('checking'))))) });
    const w = new WelcomeState(a);
    const p = w.logIn('claude');
    expect(w.opening).toBe('claude');
    release();
    await p;
    expect(w.opening).toBe(null);
    expect(a.openLogin).toHaveBeenCalledWith('claude');
  });

  it('leaving records the dismissal and shows the view underneath', async () => {
    const a = fakeApi();
    const w = new WelcomeState(a);
    w.show();
    await w.leave();
    expect(a.dismiss).toHaveBeenCalled();
    expect(navigation.welcome).toBe(false);
    expect(w.state?.dismissed).toBe(true);
  });
});
