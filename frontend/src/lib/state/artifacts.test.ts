import { describe, expect, it, vi } from 'vitest';
import { ArtifactsState, startDrag, thumbKey, type DataTransferLike } from './artifacts.svelte';

const image = { path: '/data/artifacts/ferry.png', sha256: 'aa11', kind: 'image', status: 'verified' };
const noDrag = async () => ({ kind: 'uri-list' });
const noList = async () => ({ dir: '', items: [] }) as never;

describe('image previews', () => {
  it('a verified image is asked for once, and its preview kept', async () => {
    const thumbnail = vi.fn(async () => 'data:image/png;base64,iVBORw0K');
    const a = new ArtifactsState(noList, noDrag, thumbnail);
    await Promise.all([a.preview(image), a.preview(image)]);
    await a.preview(image);
    expect(thumbnail).toHaveBeenCalledTimes(1);
    expect(thumbnail).toHaveBeenCalledWith(image.path);
    expect(a.thumbOf(image)).toEqual({ state: 'ready', url: 'data:image/png;base64,iVBORw0K' });
  });

  it('a file whose bytes changed is asked for again', async () => {
    const thumbnail = vi.fn(async () => 'data:image/png;base64,AAAA');
    const a = new ArtifactsState(noList, noDrag, thumbnail);
    await a.preview(image);
    await a.preview({ ...image, sha256: 'bb22' });
    expect(thumbnail).toHaveBeenCalledTimes(2);
    expect(thumbKey(image)).not.toBe(thumbKey({ ...image, sha256: 'bb22' }));
  });

  it('a refused preview is none, with why, and not asked for again', async () => {
    const thumbnail = vi.fn(async () => Promise.reject({ code: 'artifact_too_large', message: 'no preview: the webp image is 9 MiB' }));
    const a = new ArtifactsState(noList, noDrag, thumbnail);
    await a.preview(image);
    await a.preview(image);
    expect(thumbnail).toHaveBeenCalledTimes(1);
    expect(a.thumbOf(image)).toEqual({ state: 'none', why: 'no preview: the webp image is 9 MiB' });
  });

  it('an answer that is no image data URL is shown as no preview', async () => {
    const a = new ArtifactsState(noList, noDrag, async () => 'javascript:alert(1)');
    await a.preview(image);
    expect(a.thumbOf(image)?.state).toBe('none');
  });

  it.each([
    ['an unverified image', { ...image, status: 'unverified' }],
    ['a quarantined file', { ...image, status: 'quarantined' }],
    ['a zip', { ...image, kind: '', path: '/data/artifacts/p.zip' }],
  ])('%s is never asked for', async (_, item) => {
    const thumbnail = vi.fn(async () => 'data:image/png;base64,AAAA');
    const a = new ArtifactsState(noList, noDrag, thumbnail);
    await a.preview(item);
    expect(thumbnail).not.toHaveBeenCalled();
    expect(a.thumbOf(item)).toBeUndefined();
  });
});

describe('drag-out of an image', () => {
  function recorder(): DataTransferLike & { data: Record<string, string> } {
    return { effectAllowed: 'none', data: {}, setData(t: string, d: string) { this.data[t] = d; } };
  }

  it('on WebKitGTK it carries its file URL and path, as a zip does', () => {
    const dt = recorder();
    expect(startDrag({ ...image, mime: 'image/png' }, dt)).toBe(true);
    expect(dt.data['text/uri-list']).toBe('file:///data/artifacts/ferry.png');
    expect(dt.data['text/plain']).toBe(image.path);
  });

  it('on WebView2 its DownloadURL names its own type', () => {
    const dt = recorder();
    const path = 'C:\\Users\\Ann\\AppData\\Local\\Ferry\\artifacts\\ferry.jpg';
    expect(startDrag({ ...image, path, mime: 'image/jpeg' }, dt, { kind: 'download-url', base: 'http://127.0.0.1:5/drag/t/' })).toBe(true);
    expect(dt.data['DownloadURL']).toBe(`image/jpeg:ferry.jpg:http://127.0.0.1:5/drag/t/ferry.jpg?path=${encodeURIComponent(path)}`);
  });

  it('an unverified image writes nothing', () => {
    const dt = recorder();
    expect(startDrag({ ...image, status: 'unverified', mime: 'image/png' }, dt)).toBe(false);
    expect(dt.data).toEqual({});
  });
});
