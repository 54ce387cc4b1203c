// The Tabs view's state: the controlled browser and its tabs.

import * as api from '../api/tabs';
import { toEnvelope, type Envelope } from '../envelope';
import { toasts } from './toasts.svelte';

export type TabsApi = Pick<typeof api, 'browserState' | 'connect' | 'reconnect' | 'list' | 'open'>;

export class TabsState {
  browser = $state.raw<api.BrowserState | null>(null);
  tabs = $state.raw<api.TabState[]>([]);
  loading = $state(false);
  /** busy is the browser action in flight ('connect', 'reconnect', 'open'), or ''. */
  busy = $state('');
  problem = $state.raw<Envelope | null>(null);
  #api: TabsApi;

  constructor(a: TabsApi = api) {
    this.#api = a;
  }

  get connected(): boolean {
    return this.browser?.status === 'connected';
  }

  /** load reads the browser's state and, when connected, its tabs. */
  async load(): Promise<void> {
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
