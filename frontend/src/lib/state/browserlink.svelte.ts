// The owner's browser as the sidebar sees it: whether it is connected,
// from its state at start and every browser:changed event after.

import * as api from '../api/tabs';
import { onBrowserChanged } from '../api/runevents';

/** health is what the sidebar's footer says: a problem of the data directory first, then a disconnected browser. */
export function health(problem: boolean, browserStatus: string | undefined): 'attention' | 'disconnected' | 'ready' {
  if (problem) return 'attention';
  if (browserStatus === 'disconnected') return 'disconnected';
  return 'ready';
}

export class BrowserLink {
  state = $state.raw<api.BrowserState | null>(null);
  #api: Pick<typeof api, 'browserState'>;

  constructor(a: Pick<typeof api, 'browserState'> = api) {
    this.#api = a;
  }

  /** follow reads the state once and then follows its changes; returns the unsubscribe. */
  follow(): () => void {
    this.#api.browserState().then(
      (s) => {
        if (!this.state) this.state = s;
      },
      () => {},
    );
    return onBrowserChanged((s) => (this.state = s));
  }
}

export const browserLink = new BrowserLink();
