// The Artifacts view's state: the library of zips and the actions on one.

import * as api from '../api/artifacts';
import { toEnvelope, type Envelope } from '../envelope';
import { fileURL } from '../highlight';
import { toasts } from './toasts.svelte';

export class ArtifactsState {
  dir = $state('');
  items = $state.raw<api.ArtifactItem[]>([]);
  loaded = $state(false);
  loading = $state(false);
  problem = $state.raw<Envelope | null>(null);
  #list: typeof api.list;

  constructor(list: typeof api.list = api.list) {
    this.#list = list;
  }

  async load(): Promise<void> {
    this.loading = true;
    try {
      const res = await this.#list();
      this.dir = res.dir;
      this.items = res.items ?? [];
      this.problem = null;
      this.loaded = true;
    } catch (e) {
      this.problem = toEnvelope(e);
    } finally {
      this.loading = false;
    }
  }

  async copyPath(item: api.ArtifactItem): Promise<void> {
    try {
      await api.copyPath(item.path);
      toasts.success('Path copied', item.path);
    } catch (e) {
      toasts.error(e);
    }
  }

  /** saveAs asks where to copy a verified zip and says where it went. */
  async saveAs(item: api.ArtifactItem): Promise<string> {
    try {
      const path = await api.saveAs(item.path);
      if (path) toasts.success('Zip saved', path);
      return path;
    } catch (e) {
      toasts.error(e);
      return '';
    }
  }

  async reveal(item: api.ArtifactItem): Promise<void> {
    try {
      await api.reveal(item.path);
    } catch (e) {
      toasts.error(e);
    }
  }

  async open(item: api.ArtifactItem): Promise<void> {
    try {
      await api.open(item.path);
    } catch (e) {
      toasts.error(e);
    }
  }

  /** remove moves the zip to the trash and drops it from the list. */
  async remove(item: api.ArtifactItem): Promise<void> {
    try {
      await api.remove(item.path);
      this.items = this.items.filter((i) => i.path !== item.path);
      toasts.success(`${item.name} moved to the trash`, 'Restore it from the trash in your file manager.');
    } catch (e) {
      toasts.error(e);
    }
  }
}

/** whenOf is the time an artifact came home: its run's start, else when it was verified, else its file's time. */
export function whenOf(item: Pick<api.ArtifactItem, 'run' | 'verifiedAt' | 'modified'>): Date | null {
  const t = item.run?.created ?? item.verifiedAt ?? item.modified;
  if (!t) return null;
  const d = new Date(t as unknown as string);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** draggable reports whether an item may leave the window: verified zips only. */
export function draggable(item: Pick<api.ArtifactItem, 'status'>): boolean {
  return item.status === 'verified';
}

/** DataTransferLike is the part of DataTransfer a drag-out writes. */
export interface DataTransferLike {
  effectAllowed: string;
  setData(type: string, data: string): void;
}

/**
 * startDrag fills a dragstart's DataTransfer for a verified zip (text/uri-list
 * with its file URL, text/plain with its path, as WebKitGTK hands to a file
 * manager) and returns true; for any other item it writes nothing and
 * returns false, so the caller cancels the drag.
 */
export function startDrag(item: Pick<api.ArtifactItem, 'status' | 'path'>, dt: DataTransferLike | null): boolean {
  if (!dt || !draggable(item)) return false;
  dt.effectAllowed = 'copy';
  dt.setData('text/uri-list', fileURL(item.path));
  dt.setData('text/plain', item.path);
  return true;
}
