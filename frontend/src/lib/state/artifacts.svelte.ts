// The Artifacts view's state: the library of zips and generated images, the
// actions on one, and the previews of the images.

import * as api from '../api/artifacts';
import { toEnvelope, type Envelope } from '../envelope';
import { fileURL } from '../highlight';
import { dragType, mayPreview, noun } from '../artifactimage';
import { toasts } from './toasts.svelte';
import { pagePlatform, trashWords } from '../trashwords';

export class ArtifactsState {
  dir = $state('');
  items = $state.raw<api.ArtifactItem[]>([]);
  loaded = $state(false);
  loading = $state(false);
  problem = $state.raw<Envelope | null>(null);
  /** drag is how a verified file leaves the window; 'none' when it cannot (Show in folder then). */
  drag = $state.raw<DragSourceLike>({ kind: 'uri-list' });
  /** thumbs holds each image's preview by thumbKey, once asked for. */
  thumbs = $state.raw<Record<string, Thumb>>({});
  #list: typeof api.list;
  #dragSource: typeof api.dragSource;
  #thumbnail: typeof api.thumbnail;
  #dragAsked = false;

  constructor(list: typeof api.list = api.list, dragSource: typeof api.dragSource = api.dragSource, thumbnail: typeof api.thumbnail = api.thumbnail) {
    this.#list = list;
    this.#dragSource = dragSource;
    this.#thumbnail = thumbnail;
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

  /** saveAs asks where to copy a verified file and says where it went. */
  async saveAs(item: api.ArtifactItem): Promise<string> {
    try {
      const path = await api.saveAs(item.path);
      if (path) toasts.success(noun(item) === 'image' ? 'Image saved' : 'Zip saved', path);
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

  /** remove moves the file to the trash and drops it from the list. */
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

  /**
   * preview asks once for the preview of a verified image (the view asks
   * when its card comes into sight) and keeps it under thumbKey; a file
   * whose bytes changed has another key, so it is asked for again. An item
   * that may have none (a zip, an unverified image) is never asked for.
   */
  async preview(item: Pick<api.ArtifactItem, 'path' | 'sha256' | 'kind' | 'status'>): Promise<void> {
    if (!mayPreview(item)) return;
    const key = thumbKey(item);
    if (this.thumbs[key]) return;
    this.thumbs = { ...this.thumbs, [key]: { state: 'loading' } };
    let thumb: Thumb;
    try {
      const url = await this.#thumbnail(item.path);
      thumb = url.startsWith('data:image/') ? { state: 'ready', url } : { state: 'none', why: 'no preview' };
    } catch (e) {
      thumb = { state: 'none', why: toEnvelope(e).message };
    }
    this.thumbs = { ...this.thumbs, [key]: thumb };
  }

  /** thumbOf is the preview of item, if it was asked for. */
  thumbOf(item: Pick<api.ArtifactItem, 'path' | 'sha256'>): Thumb | undefined {
    return this.thumbs[thumbKey(item)];
  }
}

/** Thumb is an image's preview: being made, ready as a data: URL, or none (why). */
export type Thumb = { state: 'loading' } | { state: 'ready'; url: string } | { state: 'none'; why: string };

/** thumbKey names a preview by the file's path and its bytes' sha256. */
export const thumbKey = (item: Pick<api.ArtifactItem, 'path' | 'sha256'>): string => `${item.sha256}:${item.path}`;

/** whenOf is the time an artifact came home: its run's start, else when it was verified, else its file's time. */
export function whenOf(item: Pick<api.ArtifactItem, 'run' | 'verifiedAt' | 'modified'>): Date | null {
  const t = item.run?.created ?? item.verifiedAt ?? item.modified;
  if (!t) return null;
  const d = new Date(t as unknown as string);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** draggable reports whether an item may leave the window: verified files (zips, images) only. */
export function draggable(item: Pick<api.ArtifactItem, 'status'>): boolean {
  return item.status === 'verified';
}

/** DragSourceLike is how a drag-out hands a file to the desktop (app.DragSource, or 'none'). */
export interface DragSourceLike {
  kind: string;
  base?: string;
}

/** canDrag reports whether an item can be dragged out with source: a verified file, where a drag can carry it. */
export function canDrag(item: Pick<api.ArtifactItem, 'status'>, source: DragSourceLike): boolean {
  return draggable(item) && (source.kind === 'uri-list' || (source.kind === 'download-url' && !!source.base));
}

/**
 * downloadURL is Chromium's DownloadURL drag data for the file at path,
 * served under base: "TYPE:NAME:BASE/NAME?path=PATH" (TYPE application/zip
 * unless given, e.g. image/png). The name is the path's last segment
 * (either slash), a colon in it (which would end the name field) made an
 * underscore there.
 */
export function downloadURL(path: string, base: string, type = 'application/zip'): string {
  const name = path.split(/[\\/]/).pop() ?? '';
  return `${type}:${name.replace(/:/g, '_')}:${base}${encodeURIComponent(name)}?path=${encodeURIComponent(path)}`;
}

/** DataTransferLike is the part of DataTransfer a drag-out writes. */
export interface DataTransferLike {
  effectAllowed: string;
  setData(type: string, data: string): void;
}

/**
 * startDrag fills a dragstart's DataTransfer for a verified file (a zip or
 * an image) and returns true: with a uri-list source (WebKitGTK)
 * text/uri-list with its file URL and text/plain with its path, as
 * WebKitGTK hands to a file manager; with a download-url source (WebView2)
 * Chromium's DownloadURL naming the file's own type, whose bytes Windows
 * fetches when the drop lands in Explorer, and the path as text.
 * For any other item, or a source that cannot carry a file, it writes
 * nothing and returns false, so the caller cancels the drag.
 */
export function startDrag(
  item: Pick<api.ArtifactItem, 'status' | 'path'> & Partial<Pick<api.ArtifactItem, 'kind' | 'mime'>>,
  dt: DataTransferLike | null,
  source: DragSourceLike = { kind: 'uri-list' },
): boolean {
  if (!dt || !canDrag(item, source)) return false;
  dt.effectAllowed = 'copy';
  if (source.kind === 'download-url' && source.base) {
    dt.setData('DownloadURL', downloadURL(item.path, source.base, dragType(item)));
  } else {
    dt.setData('text/uri-list', fileURL(item.path));
  }
  dt.setData('text/plain', item.path);
  return true;
}
