import { describe, expect, it } from 'vitest';
import { trashWords } from './trashwords';

describe('trashWords', () => {
  it('names the Recycle Bin on Windows (WebView2 reports Win32)', () => {
    const w = trashWords('Win32');
    expect(w.name).toBe('Recycle Bin');
    expect(w.restore).toContain('Recycle Bin');
    expect(w.restore).not.toContain('file manager');
  });
  it('names the trash a file manager restores from on Linux and macOS', () => {
    for (const p of ['Linux x86_64', 'MacIntel']) {
      const w = trashWords(p);
      expect(w.name).toBe('trash');
      expect(w.restore).toContain('file manager');
    }
  });
});
