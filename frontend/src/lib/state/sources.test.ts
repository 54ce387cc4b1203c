import { describe, expect, it, vi } from 'vitest';
import { SourcesState } from './sources.svelte';
import type { AddedSources, SourcesRequest } from '../api/runs';

const harbour = { name: 'Harbour notes', address: 'https://chatgpt.com/g/g-p-1-harbour-notes/project' };
const file = (path: string, bytes: number, extra: object = {}) => ({ path, name: path.split('/').pop() ?? path, bytes, sha256: 'ab', ...extra });

function answer(req: SourcesRequest): AddedSources {
  return {
    project: harbour,
    confirmed: req.confirmed,
    files: [file('/w/notes.md', 1024, req.confirmed ? { status: 'added' } : {}), file('/w/plan.txt', 512, req.confirmed ? { status: 'refused', error: { code: 'attachment_rejected', message: 'Unable to upload plan.txt' } } : {})],
  } as AddedSources;
}

describe('SourcesState', () => {
  it('checks the picked files with nothing uploaded, asks, and adds them to the project the question named', async () => {
    const add = vi.fn(async (req: SourcesRequest) => answer(req));
    const s = new SourcesState(add, async () => ['/w/notes.md', '/w/plan.txt']);
    await s.start('chatgpt', 'harbour NOTES');
    expect(add).toHaveBeenCalledTimes(1);
    expect(add).toHaveBeenLastCalledWith({ site: 'chatgpt', project: 'harbour NOTES', files: ['/w/notes.md', '/w/plan.txt'], confirmed: false });
    expect(s.status).toBe('asking');
    expect(s.question()).toBe('Add 2 files (1.5 KiB) to the project “Harbour notes”?');
    expect(s.notAdded()).toBe(0);
    await s.confirm();
    expect(add).toHaveBeenLastCalledWith({ site: 'chatgpt', project: harbour.address, files: ['/w/notes.md', '/w/plan.txt'], confirmed: true });
    expect(s.status).toBe('done');
    expect(s.checked?.files.map((f) => f.status)).toEqual(['added', 'refused']);
    expect(s.notAdded()).toBe(1);
  });

  it('uploads nothing when the dialog is cancelled or the question is', async () => {
    const add = vi.fn(async (req: SourcesRequest) => answer(req));
    const none = new SourcesState(add, async () => []);
    await none.start('chatgpt', 'Harbour notes');
    expect(none.status).toBe('idle');
    expect(add).not.toHaveBeenCalled();

    const s = new SourcesState(add, async () => ['/w/notes.md']);
    await s.start('chatgpt', 'Harbour notes');
    s.cancel();
    await s.confirm();
    expect(s.status).toBe('idle');
    expect(add.mock.calls.every(([req]) => !req.confirmed)).toBe(true);
  });

  it('keeps a refused check (an unknown project, a bad file) for the view, nothing asked', async () => {
    const add = vi.fn().mockRejectedValue({ code: 'bad_input', message: 'no project named "Harbor"', stage: 'input', retryable: false });
    const s = new SourcesState(add, async () => ['/w/notes.md']);
    await s.start('chatgpt', 'Harbor');
    expect(s.status).toBe('error');
    expect(s.problem?.code).toBe('bad_input');
    expect(s.question()).toBe('');
    await s.confirm();
    expect(add).toHaveBeenCalledTimes(1);
  });

  it('names a project without a name by its address', async () => {
    const s = new SourcesState(async (req) => ({ ...answer(req), project: { name: '', address: harbour.address }, files: [file('/w/a.md', 10)] }) as AddedSources, async () => ['/w/a.md']);
    await s.start('chatgpt', harbour.address);
    expect(s.question()).toBe(`Add 1 file (10 B) to the project at ${harbour.address}?`);
  });
});
