// The Get started view's state: whether the window opens on it, each site's
// login while it is open (polled every LOGIN_POLL_MS, and only then), and the
// sidebar's badge while no site is logged in.

import * as api from '../api/welcome';
import { toEnvelope, type Envelope } from '../envelope';
import { anyLoggedIn, LOGIN_POLL_MS } from '../welcome';
import { appState } from './app.svelte';
import { navigation } from './navigation.svelte';
import { toasts } from './toasts.svelte';

export type WelcomeApi = Pick<typeof api, 'state' | 'logins' | 'openLogin' | 'dismiss'>;

/** The badge's refresh while no site is logged in (a login made in the Tabs view counts too). */
const BADGE_REFRESH_MS = 30_000;

export class WelcomeState {
  state = $state.raw<api.WelcomeState | null>(null);
  logins = $state.raw<api.SiteLogin[]>([]);
  /** opening is the site whose "Log in" is on its way, or null. */
  opening = $state<string | null>(null);
  problem = $state.raw<Envelope | null>(null);
  leaving = $state(false);
  #api: WelcomeApi;
  #poll: ReturnType<typeof setInterval> | null = null;
  #badge: ReturnType<typeof setInterval> | null = null;

  constructor(a: WelcomeApi = api) {
    this.#api = a;
  }

  /** badge says the sidebar shows "No site logged in". */
  get badge(): boolean {
    return this.state !== null && !this.state.loggedIn;
  }

  /**
   * load reads the state at start and opens the view when no site was ever
   * used, unless the user already chose a view meanwhile.
   */
  async load(): Promise<void> {
    await this.refresh();
    if (this.state?.show && !navigation.chosen) this.show();
    this.#badge ??= setInterval(() => {
      if (this.badge && !navigation.welcome) void this.refresh();
    }, BADGE_REFRESH_MS);
  }

  /** refresh reads the state again (for the badge). */
  async refresh(): Promise<void> {
    try {
      this.state = await this.#api.state();
    } catch {
      // a core that did not open says so in the shell already
    }
  }

  /** show opens the view over the current one. */
  show(): void {
    navigation.welcome = true;
  }

  /** readLogins polls the sites' logins once. */
  async readLogins(): Promise<void> {
    try {
      this.logins = await this.#api.logins();
      this.problem = null;
      if (this.state && this.state.loggedIn !== anyLoggedIn(this.logins)) {
        this.state = { ...this.state, loggedIn: anyLoggedIn(this.logins) } as api.WelcomeState;
      }
    } catch (e) {
      this.problem = toEnvelope(e);
    }
  }

  /** watch polls the logins until the returned stop is called (the view's life). */
  watch(): () => void {
    void this.readLogins();
    this.#poll = setInterval(() => void this.readLogins(), LOGIN_POLL_MS);
    return () => {
      if (this.#poll) clearInterval(this.#poll);
      this.#poll = null;
      void this.refresh();
    };
  }

  /** logIn opens the site's login page in Ferry's browser, in front. */
  async logIn(site: string): Promise<void> {
    this.opening = site;
    try {
      await this.#api.openLogin(site);
      await this.readLogins();
    } catch (e) {
      toasts.error(e);
    } finally {
      this.opening = null;
    }
  }

  /**
   * leave records the dismissal and opens Compose, where Ferry's work
   * starts (not the view the Get started view was opened over).
   */
  async leave(): Promise<void> {
    this.leaving = true;
    try {
      this.state = await this.#api.dismiss();
      navigation.go('compose');
      // The settings changed: the Settings view saves from this copy.
      void appState.loadSettings();
    } catch (e) {
      toasts.error(e);
    } finally {
      this.leaving = false;
    }
  }
}

export const welcome = new WelcomeState();
