// The Attachments bound struct (app/attachments.go): the open dialog and
// the Service's check of the files for a site; and the window's file drop
// (the Wails runtime's OnFileDrop, on with options.DragAndDrop).

import * as Attachments from '../../../wailsjs/go/app/Attachments';
import { OnFileDrop } from '../../../wailsjs/runtime/runtime';
import type { service } from '../../../wailsjs/go/models';
import { call } from './call';

export type FilesCheck = service.FilesCheck;
export type FilesCheckRequest = service.FilesCheckRequest;

/** pick shows the open dialog (several files may be chosen); resolves [] when cancelled. */
export const pick = (): Promise<string[]> => call(() => Attachments.Pick());

/** check asks the Service about the files for one site; refusals are in the result, not thrown. */
export const check = (req: FilesCheckRequest): Promise<FilesCheck> => call(() => Attachments.Check(req));

let dropRegistered = false;
const dropListeners = new Set<(x: number, y: number, paths: string[]) => void>();

/**
 * onFileDrop calls fn with the window coordinates and absolute paths of
 * files dropped on the window; returns the unsubscribe. The runtime takes
 * one callback only, so this module registers it once (on every element,
 * not only CSS drop targets) and hands each drop to its listeners.
 */
export function onFileDrop(fn: (x: number, y: number, paths: string[]) => void): () => void {
  dropListeners.add(fn);
  if (!dropRegistered && typeof window !== 'undefined' && typeof (window as unknown as { runtime?: unknown }).runtime === 'object') {
    dropRegistered = true;
    OnFileDrop((x, y, paths) => {
      for (const l of dropListeners) l(x, y, paths ?? []);
    }, false);
  }
  return () => dropListeners.delete(fn);
}
