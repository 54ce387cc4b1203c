import { describe, expect, it, vi } from 'vitest';
import { AttachmentsState, type AttachmentsApi } from './attachments.svelte';
import type { FilesCheck, FilesCheckRequest } from '../api/attachments';

const LIMIT = 1024;

// fakeApi checks as the Service would: files named by their base name (the
// two util.go renamed), sizes from sizes, a file over LIMIT refused.
function fakeApi(sizes: Record<string, number>, picked: string[] = []): AttachmentsApi & { check: ReturnType<typeof vi.fn> } {
  const check = vi.fn(async (req: FilesCheckRequest) => {
    const base = (p: string) => p.split('/').pop()!;
    const files = req.files.map((p) => {
      const clash = req.files.filter((q) => base(q) === base(p)).length > 1;
      const dir = p.split('/').slice(-2, -1)[0];
      const over = sizes[p] > LIMIT;
      return {
        path: p,
        name: clash ? `${dir}__${base(p)}` : base(p),
        renamedFrom: clash ? `${dir}/${base(p)}` : '',
        bytes: over ? 0 : sizes[p],
        sha256: over ? '' : 'f'.repeat(64),
        error: over ? { stage: 'composer', code: 'attachment_rejected', message: `${base(p)} is over the ${req.site} limit`, retryable: false, evidence: { file: base(p) } } : undefined,
      };
    });
    return { ok: files.every((f) => !f.error), site: req.site, siteName: req.site, files } as unknown as FilesCheck;
  });
  return { check, pick: vi.fn(async () => picked) } as never;
}

async function settle(): Promise<void> {
  await new Promise((r) => setTimeout(r, 0));
}

describe('AttachmentsState', () => {
  it('checks dropped files for the target site and names them as they will be sent', async () => {
    const a = fakeApi({ '/w/a/util.go': 12, '/w/b/util.go': 34 });
    const s = new AttachmentsState(a);
    s.target(['claude'], 'default');
    s.add(['/w/a/util.go', '/w/b/util.go', '/w/a/util.go']);
    await settle();
    expect(a.check).toHaveBeenLastCalledWith({ site: 'claude', model: '', files: ['/w/a/util.go', '/w/b/util.go'] });
    expect(s.chips.map((c) => [c.name, c.bytes, c.state])).toEqual([
      ['a__util.go', 12, 'ok'],
      ['b__util.go', 34, 'ok'],
    ]);
    expect(s.block).toBe('');
    expect(s.paths).toEqual(['/w/a/util.go', '/w/b/util.go']);
  });

  it('removing one of two files with a base name checks again and the rename goes', async () => {
    const a = fakeApi({ '/w/a/util.go': 12, '/w/b/util.go': 34 });
    const s = new AttachmentsState(a);
    s.target(['claude'], '');
    s.add(['/w/a/util.go', '/w/b/util.go']);
    await settle();
    s.remove('/w/a/util.go');
    await settle();
    expect(s.chips.map((c) => c.name)).toEqual(['util.go']);
  });

  it('a file over the limit is refused on its chip and holds the send', async () => {
    const a = fakeApi({ '/w/notes.txt': 5, '/w/big.log': 4096 });
    const s = new AttachmentsState(a);
    s.target(['claude'], '');
    s.add(['/w/notes.txt', '/w/big.log']);
    expect(await s.verify()).toBe(false);
    expect(s.chips[1]).toMatchObject({ state: 'refused', words: 'big.log is over the claude limit' });
    expect(s.block).toBe('big.log cannot be sent: big.log is over the claude limit. Remove it to send the rest.');
    s.remove('/w/big.log');
    expect(await s.verify()).toBe(true);
  });

  it("a run's refusal in the site's words stays on the chip through the next check, for that site only", async () => {
    const a = fakeApi({ '/w/notes.txt': 5, '/w/big.log': 900 });
    const s = new AttachmentsState(a);
    s.target(['claude'], '');
    s.add(['/w/notes.txt', '/w/big.log']);
    expect(await s.verify()).toBe(true);
    s.sent(['job-1']);
    const refusal = { stage: 'composer', code: 'attachment_rejected', message: 'Claude refused big.log', retryable: false, evidence: { file: 'big.log', site_words: 'big.log exceeds the 512 B limit' } };
    s.runEnded('job-other', 'claude', refusal);
    expect(s.chips).toEqual([]);
    s.runEnded('job-1', 'claude', refusal);
    expect(s.chips.map((c) => c.path)).toEqual(['/w/notes.txt', '/w/big.log']);
    expect(s.chips[1]).toMatchObject({ state: 'refused', words: 'big.log exceeds the 512 B limit' });
    expect(await s.verify()).toBe(false);
    expect(s.chips[1].words).toBe('big.log exceeds the 512 B limit');
    s.target(['chatgpt'], '');
    await settle();
    expect(s.chips[1].state).toBe('ok');
  });

  it('a sent prompt takes its files: the chips leave, and a run that ended well or failed otherwise brings none back', async () => {
    const a = fakeApi({ '/w/fruit.csv': 5, '/w/notes.txt': 6 });
    const s = new AttachmentsState(a);
    s.target(['chatgpt'], '');
    s.add(['/w/fruit.csv', '/w/notes.txt']);
    expect(await s.verify()).toBe(true);
    s.sent(['job-1']);
    expect(s.chips).toEqual([]);
    expect(s.paths).toEqual([]);
    expect(s.block).toBe('');
    s.runEnded('job-1', 'chatgpt', { stage: 'wait', code: 'timeout', message: 'no answer', retryable: true, evidence: {} });
    expect(s.chips).toEqual([]);
    s.add(['/w/notes.txt']);
    await settle();
    expect(s.paths).toEqual(['/w/notes.txt']);
  });

  it('files going to several sites are checked for each', async () => {
    const a = fakeApi({ '/w/notes.txt': 5 });
    const s = new AttachmentsState(a);
    s.target(['chatgpt', 'claude'], 'gpt-5');
    s.add(['/w/notes.txt']);
    await settle();
    expect(a.check.mock.calls.map((c) => [c[0].site, c[0].model])).toEqual([
      ['chatgpt', ''],
      ['claude', ''],
    ]);
  });

  it('holds the send without a site, and lets an empty list through', async () => {
    const s = new AttachmentsState(fakeApi({ '/w/notes.txt': 5 }));
    expect(await s.verify()).toBe(true);
    s.target([undefined], '');
    s.add(['/w/notes.txt']);
    expect(s.block).toBe('Choose a site to send the files to.');
  });

  it('adds the files picked in the dialog', async () => {
    const s = new AttachmentsState(fakeApi({ '/w/x.txt': 1 }, ['/w/x.txt']));
    s.target(['claude'], '');
    await s.pick();
    await settle();
    expect(s.chips.map((c) => [c.name, c.bytes])).toEqual([['x.txt', 1]]);
  });
});
