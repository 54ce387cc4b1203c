// The parts of the Wails runtime the UI uses: events from Go, quitting and
// the clipboard.

import { ClipboardSetText, EventsOn, Quit } from '../../../wailsjs/runtime/runtime';
import type { Status } from './system';
import type { SettingsData } from './settings';

/** Event names, as app/emitter.go emits them. */
export const EVENTS = {
  settingsChanged: 'settings:changed',
  statusChanged: 'status:changed',
} as const;

function connected(): boolean {
  return typeof window !== 'undefined' && typeof (window as unknown as { runtime?: unknown }).runtime === 'object';
}

/** onSettingsChanged subscribes to saved settings; returns the unsubscribe. */
export function onSettingsChanged(fn: (s: SettingsData) => void): () => void {
  return connected() ? EventsOn(EVENTS.settingsChanged, fn) : () => {};
}

/** onStatusChanged subscribes to the core reopening; returns the unsubscribe. */
export function onStatusChanged(fn: (s: Status) => void): () => void {
  return connected() ? EventsOn(EVENTS.statusChanged, fn) : () => {};
}

/** quit closes Ferry as the window's close button does. */
export function quit(): void {
  if (connected()) Quit();
}

/** copyText puts text on the system clipboard; resolves false when it could not. */
export async function copyText(text: string): Promise<boolean> {
  if (!connected()) return false;
  try {
    return await ClipboardSetText(text);
  } catch {
    return false;
  }
}
