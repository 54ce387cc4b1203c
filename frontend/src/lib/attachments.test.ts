import { describe, expect, it } from 'vitest';
import { addPaths, applyChecks, applyRefusal, baseName, formatSize, removePath, sendBlock, totalBytes, type Chip, type FilesVerdict } from './attachments';
import type { Envelope } from './envelope';

const sha = (c: string) => c.repeat(64);
const refusal = (message: string, evidence: Record<string, string> = {}): Envelope => ({ stage: 'composer', code: 'attachment_rejected', message, retryable: false, evidence });

function checked(chips: Chip[]): Chip[] {
  return chips.map((c) => ({ ...c, state: 'ok', bytes: 10, sha256: sha('a') }));
}

describe('formatSize', () => {
  it('prints sizes as the CLI does', () => {
    expect(formatSize(0)).toBe('0 B');
    expect(formatSize(1023)).toBe('1023 B');
    expect(formatSize(1536)).toBe('1.5 KiB');
    expect(formatSize(20 << 20)).toBe('20.0 MiB');
    expect(formatSize(3 * 1024 ** 3)).toBe('3.0 GiB');
  });
});

describe('baseName', () => {
  it('takes the last element of a path', () => {
    expect(baseName('/w/a/util.go')).toBe('util.go');
    expect(baseName('C:\\w\\notes.txt')).toBe('notes.txt');
    expect(baseName('notes.txt')).toBe('notes.txt');
  });
});

describe('addPaths', () => {
  it('adds each new path once, in order, to be checked', () => {
    const chips = addPaths([], ['/w/a/util.go', ' /w/b.log ', '/w/a/util.go', '']);
    expect(chips.map((c) => c.path)).toEqual(['/w/a/util.go', '/w/b.log']);
    expect(chips.every((c) => c.state === 'checking' && c.bytes === null)).toBe(true);
    expect(chips[0].name).toBe('util.go');
  });
  it('leaves a path already on a chip as it is', () => {
    const before = checked(addPaths([], ['/w/a.go']));
    const after = addPaths(before, ['/w/a.go', '/w/b.go']);
    expect(after[0]).toBe(before[0]);
    expect(after.map((c) => c.path)).toEqual(['/w/a.go', '/w/b.go']);
  });
});

describe('removePath', () => {
  it('drops only that chip', () => {
    const chips = addPaths([], ['/w/a.go', '/w/b.go']);
    expect(removePath(chips, '/w/a.go').map((c) => c.path)).toEqual(['/w/b.go']);
  });
});

describe('applyChecks', () => {
  const chips = addPaths([], ['/w/a/util.go', '/w/b/util.go', '/w/big.bin']);
  const claude: FilesVerdict = {
    ok: false,
    site: 'claude',
    siteName: 'Claude',
    files: [
      { path: '/w/a/util.go', name: 'a__util.go', renamedFrom: 'a/util.go', bytes: 12, sha256: sha('1') },
      { path: '/w/b/util.go', name: 'b__util.go', renamedFrom: 'b/util.go', bytes: 34, sha256: sha('2') },
      { path: '/w/big.bin', name: 'big.bin', bytes: 0, sha256: '', error: refusal('big.bin is 31.0 MiB, over the Claude limit of 30.0 MiB per file') },
    ],
  };

  it('names the files as they will be sent, with sizes and sha256', () => {
    const got = applyChecks(chips, [claude]);
    expect(got[0]).toMatchObject({ name: 'a__util.go', renamedFrom: 'a/util.go', bytes: 12, sha256: sha('1'), state: 'ok', words: '' });
    expect(got[1]).toMatchObject({ name: 'b__util.go', bytes: 34, state: 'ok' });
  });
  it('marks a refused file with the refusal and no size it does not know', () => {
    const got = applyChecks(chips, [claude]);
    expect(got[2]).toMatchObject({ state: 'refused', words: 'big.bin is 31.0 MiB, over the Claude limit of 30.0 MiB per file', bytes: null });
  });
  it('names the site of each refusal when the files go to several', () => {
    const chatgpt: FilesVerdict = { ...claude, site: 'chatgpt', siteName: 'ChatGPT', ok: true, files: claude.files!.map((f) => ({ ...f, error: null, bytes: 5, sha256: sha('3') })) };
    const got = applyChecks(chips, [chatgpt, claude]);
    expect(got[2]).toMatchObject({ state: 'refused', words: 'Claude: big.bin is 31.0 MiB, over the Claude limit of 30.0 MiB per file' });
    expect(got[0]).toMatchObject({ state: 'ok', bytes: 5 });
  });
  it('leaves a chip added after the check began as it was', () => {
    const more = addPaths(chips, ['/w/late.txt']);
    expect(applyChecks(more, [claude])[3]).toBe(more[3]);
  });
});

describe('applyRefusal', () => {
  const chips = checked(addPaths([], ['/w/notes.txt', '/w/big.log']));
  it("puts the site's own words on the chip the run's refusal names", () => {
    const e = refusal('Claude refused big.log: "big.log is too large"; nothing was sent', { file: 'big.log', site_words: 'big.log is too large (max 1 KB)' });
    const got = applyRefusal(chips, e);
    expect(got[1]).toMatchObject({ state: 'refused', words: 'big.log is too large (max 1 KB)' });
    expect(got[0].state).toBe('ok');
  });
  it('takes the message when the site gave no words of its own', () => {
    const got = applyRefusal(chips, { ...refusal('big.log never showed in the Claude composer', { file: 'big.log' }), code: 'attachment_unconfirmed' });
    expect(got[1].words).toBe('big.log never showed in the Claude composer');
  });
  it('ignores other envelopes and names no chip holds', () => {
    expect(applyRefusal(chips, { ...refusal('x', { file: 'big.log' }), code: 'rate_limited' })).toBe(chips);
    expect(applyRefusal(chips, refusal('x', { file: 'other.txt' }))).toBe(chips);
    expect(applyRefusal(chips, null)).toBe(chips);
  });
});

describe('sendBlock', () => {
  it('lets files through once every one is checked and accepted', () => {
    expect(sendBlock([], [])).toBe('');
    expect(sendBlock(checked(addPaths([], ['/w/a.go'])), [])).toBe('');
  });
  it('waits for a file being checked', () => {
    expect(sendBlock(addPaths([], ['/w/a.go']), [])).toBe('Checking the files…');
  });
  it('names a refused file and how to go on', () => {
    const chips = [{ ...checked(addPaths([], ['/w/big.bin']))[0], state: 'refused' as const, words: 'over the limit' }];
    expect(sendBlock(chips, [])).toBe('big.bin cannot be sent: over the limit. Remove it to send the rest.');
  });
  it("says the refusal of the files as a whole before any file's", () => {
    const chips = checked(addPaths([], ['/w/a.go']));
    const v: FilesVerdict = { ok: false, site: 'deepseek', siteName: 'DeepSeek', files: [], error: { ...refusal('DeepSeek takes no attachments in Ferry'), code: 'capability_missing' } };
    expect(sendBlock(chips, [v])).toBe('DeepSeek takes no attachments in Ferry. Nothing was sent.');
  });
});

describe('totalBytes', () => {
  it('adds the known sizes', () => {
    expect(totalBytes([...checked(addPaths([], ['/w/a', '/w/b'])), ...addPaths([], ['/w/c'])])).toBe(20);
  });
});
