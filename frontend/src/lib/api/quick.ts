// The Quick bound struct (app/quick.go): the quick-prompt mode of the window,
// and the events the tray, the hotkey and notification clicks send.

import * as Quick from '../../../wailsjs/go/app/Quick';
import { EventsOn } from '../../../wailsjs/runtime/runtime';
import type { app } from '../../../wailsjs/go/models';
import { call } from './call';

export type ExtrasStatus = app.ExtrasStatus;
export type HotkeyStatus = app.HotkeyStatus;

/** Event names, as app/internal/extras/quick.go emits them. */
export const QUICK_EVENTS = {
  open: 'quick:open',
  close: 'quick:close',
  showRun: 'window:show-run',
} as const;

/** QuickOpened mirrors app.QuickOpened. */
export interface QuickOpened {
  site: string;
}

function connected(): boolean {
  return typeof window !== 'undefined' && typeof (window as unknown as { runtime?: unknown }).runtime === 'object';
}

/** open turns the window into the quick prompt. */
export const open = (): Promise<void> => call(() => Quick.Open());

/** close leaves the quick prompt (Esc, or after sending). */
export const close = (): Promise<void> => call(() => Quick.Close());

/** send starts a run from the quick prompt (Ferry's browser, when it must start, starts minimized). */
export const send = (spec: app.RunSpec): Promise<app.RunInfo> => call(() => Quick.Send(spec));

/** grow makes the box tall enough for the answer below the prompt. */
export const grow = (): Promise<void> => call(() => Quick.Grow());

/** showRun leaves the quick prompt and shows the full window on run id. */
export const showRun = (id: string): Promise<void> => call(() => Quick.ShowRun(id));

/** status says whether the hotkey, the tray and notifications work here. */
export const status = (): Promise<ExtrasStatus> => call(() => Quick.Status());

/** onQuickOpen subscribes to the quick prompt opening (hotkey, tray, or open()). */
export function onQuickOpen(fn: (o: QuickOpened) => void): () => void {
  return connected() ? EventsOn(QUICK_EVENTS.open, fn) : () => {};
}

/** onQuickClose subscribes to the window returning to its full shell. */
export function onQuickClose(fn: () => void): () => void {
  return connected() ? EventsOn(QUICK_EVENTS.close, fn) : () => {};
}

/** onShowRun subscribes to requests to show a run ("" for just the window). */
export function onShowRun(fn: (id: string) => void): () => void {
  return connected() ? EventsOn(QUICK_EVENTS.showRun, fn) : () => {};
}
