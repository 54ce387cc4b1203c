// The Tabs view's state: the controlled browser and its tabs.

import * as api from '../api/tabs';
import { toEnvelope, type Envelope } from '../envelope';
import { toasts } from './toasts.svelte';

export type TabsApi = Pick<typeof api, 'browserState' | 'connect' | 'reconnect' | 'list' | 'open' | 'show' | 'close' | 'login'>;

/** TabAction is what a row's buttons do. */
export type TabAction = 'show' | 'close' | 'login';

export class TabsState {
  browser = $state.raw<api.BrowserState | null>(null);
  tabs = $state.raw<api.TabState[]>([]);
  loading = $state(false);
  /** busy is the browser action in flight ('connect', 'reconnect', 'open'), or ''. */
  busy = $state('');
  problem = $state.raw<Envelope | null>(null);
  /** acting is the row action in flight, as "targetId action", or ''. */
  acting = $state('');
  #api: TabsApi;
  #again = false;

  constructor(a: TabsApi = api) {
    this.#api = a;
  }

  get connected(): boolean {
    return this.browser?.status === 'connected';
  }

  /** load reads the browser's state and, when connected, its tabs. */
  async load(): Promise<void> {
    if (this.loading) {
      // A change came while listing: list once more when this one is done.
      this.#again = true;
      return;
    }
    this.loading = true;
    try {
      this.browser = await this.#api.browserState();
      this.tabs = this.connected ? await this.#api.list() : [];
      this.problem = null;
    } catch (e) {
      this.problem = toEnvelope(e);
    } finally {
      this.loading = false;
    }
    if (this.#again) {
      this.#again = false;
      await this.load();
    }
  }

  /** act shows, closes or logs in on a tab; the list follows the browser's events, and is read again here too. */
  async act(tab: api.TabState, action: TabAction): Promise<void> {
    this.acting = `${tab.targetId} ${action}`;
    try {
      if (action === 'close') {
        await this.#api.close(tab.targetId);
        this.tabs = this.tabs.filter((t) => t.targetId !== tab.targetId);
      } else {
        const now = action === 'show' ? await this.#api.show(tab.targetId) : await this.#api.login(tab.targetId);
        this.tabs = this.tabs.map((t) => (t.targetId === now.targetId ? now : t));
      }
    } catch (e) {
      toasts.error(e);
      void this.load();
    } finally {
      this.acting = '';
    }
  }

  /** applyBrowser takes a browser:changed event. */
  applyBrowser(s: api.BrowserState): void {
    this.browser = s;
    if (s.status !== 'connected') this.tabs = [];
  }

  async connect(again = false): Promise<void> {
    this.busy = again ? 'reconnect' : 'connect';
    try {
      this.browser = again ? await this.#api.reconnect() : await this.#api.connect();
      this.tabs = await this.#api.list();
    } catch (e) {
      toasts.error(e);
      try {
        this.browser = await this.#api.browserState();
      } catch {
        // the toast already says what went wrong
      }
    } finally {
      this.busy = '';
    }
  }

  /** open opens site in a new tab and returns it (null on failure, shown as a toast). */
  async open(site: string): Promise<api.TabState | null> {
    this.busy = 'open';
    try {
      const tab = await this.#api.open(site);
      this.browser = await this.#api.browserState();
      this.tabs = await this.#api.list();
      return tab;
    } catch (e) {
      toasts.error(e);
      return null;
    } finally {
      this.busy = '';
    }
  }
}
