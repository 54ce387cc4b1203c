// The Artifacts view's state: the library of zips and the actions on one.

import * as api from '../api/artifacts';
import { toEnvelope, type Envelope } from '../envelope';
import { fileURL } from '../highlight';
import { toasts } from './toasts.svelte';
import { pagePlatform, trashWords } from '../trashwords';

export class ArtifactsState {
  dir = $state('');
  items = $state.raw<api.ArtifactItem[]>([]);
  loaded = $state(false);
  loading = $state(false);
  problem = $state.raw<Envelope | null>(null);
  /** drag is how a verified zip leaves the window; 'none' when it cannot (Show in folder then). */
  drag = $state.raw<DragSourceLike>({ kind: 'uri-list' });
  #list: typeof api.list;
  #dragSource: typeof api.dragSource;
  #dragAsked = false;

  constructor(list: typeof api.list = api.list, dragSource: typeof api.dragSource = api.dragSource) {
    this.#list = list;
    this.#dragSource = dragSource;
  }

  async load(): Promise<void> {
    this.loading = true;
    if (!this.#dragAsked) {
      this.#dragAsked = true;
      try {
        this.drag = await this.#dragSource();
      } catch {
        this.drag = { kind: 'none' };
      }
    }
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
      const trash = trashWords(pagePlatform());
      toasts.success(`${item.name} moved to the ${trash.name}`, trash.restore);
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

/** DragSourceLike is how a drag-out hands a zip to the desktop (app.DragSource, or 'none'). */
export interface DragSourceLike {
  kind: string;
  base?: string;
}

/** canDrag reports whether an item can be dragged out with source: a verified zip, where a drag can carry it. */
export function canDrag(item: Pick<api.ArtifactItem, 'status'>, source: DragSourceLike): boolean {
  return draggable(item) && (source.kind === 'uri-list' || (source.kind === 'download-url' && !!source.base));
}

/**
 * downloadURL is Chromium's DownloadURL drag data for the zip at path, served
 * under base: "application/zip:NAME:BASE/NAME?path=PATH". The name is the
 * path's last segment (either slash), a colon in it (which would end the
 * name field) made an underscore there.
 */
export function downloadURL(path: string, base: string): string {
  const name = path.split(/[\\/]/).pop() ?? '';
  return `application/zip:${name.replace(/:/g, '_')}:${base}${encodeURIComponent(name)}?path=${encodeURIComponent(path)}`;
}

/** DataTransferLike is the part of DataTransfer a drag-out writes. */
export interface DataTransferLike {
  effectAllowed: string;
  setData(type: string, data: string): void;
}

/**
 * startDrag fills a dragstart's DataTransfer for a verified zip and returns
 * true: with a uri-list source (WebKitGTK) text/uri-list with its file URL
 * and text/plain with its path, as WebKitGTK hands to a file manager; with a
 * download-url source (WebView2) Chromium's DownloadURL, whose bytes
 * Windows fetches when the drop lands in Explorer, and the path as text.
 * For any other item, or a source that cannot carry a file, it writes
 * nothing and returns false, so the caller cancels the drag.
 */
export function startDrag(item: Pick<api.ArtifactItem, 'status' | 'path'>, dt: DataTransferLike | null, source: DragSourceLike = { kind: 'uri-list' }): boolean {
  if (!dt || !canDrag(item, source)) return false;
  dt.effectAllowed = 'copy';
  if (source.kind === 'download-url' && source.base) {
    dt.setData('DownloadURL', downloadURL(item.path, source.base));
  } else {
    dt.setData('text/uri-list', fileURL(item.path));
  }
  dt.setData('text/plain', item.path);
  return true;
}
