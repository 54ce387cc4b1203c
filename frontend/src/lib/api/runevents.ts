// Events about runs and the browser, as app/hub.go and app/browser.go emit
// them.

import { EventsOn } from '../../../wailsjs/runtime/runtime';
import type { BrowserState } from './tabs';

export const RUN_EVENT = 'run:event';
export const BROWSER_EVENT = 'browser:changed';
export const TABS_EVENT = 'tabs:changed';

/** RunEvent mirrors app.RunEvent. */
export interface RunEvent {
  jobId: string;
  kind: 'state' | 'partial' | 'ended';
  session?: string;
  state?: string;
  note?: string;
  text?: string;
  at: string;
  requestedBy?: string;
}

function connected(): boolean {
  return typeof window !== 'undefined' && typeof (window as unknown as { runtime?: unknown }).runtime === 'object';
}

/** onRunEvent subscribes to run news; returns the unsubscribe. */
export function onRunEvent(fn: (e: RunEvent) => void): () => void {
  return connected() ? EventsOn(RUN_EVENT, fn) : () => {};
}

/** onBrowserChanged subscribes to the browser connecting or going away. */
export function onBrowserChanged(fn: (s: BrowserState) => void): () => void {
  return connected() ? EventsOn(BROWSER_EVENT, fn) : () => {};
}

/** onTabsChanged subscribes to the browser's tabs changing (opened, closed, navigated, their state learned anew). */
export function onTabsChanged(fn: () => void): () => void {
  return connected() ? EventsOn(TABS_EVENT, fn) : () => {};
}
