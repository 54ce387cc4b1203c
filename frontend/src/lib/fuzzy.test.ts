import { describe, expect, it } from 'vitest';
import { fuzzyFilter, fuzzyScore } from './fuzzy';

const names = ['build-project', 'fix-bug', 'review', 'feedback-loop'];

describe('fuzzyScore', () => {
  it('matches characters in order and reports their positions', () => {
    expect(fuzzyScore('fix-bug', 'fb')?.positions).toEqual([0, 4]);
  });
  it('refuses characters out of order', () => {
    expect(fuzzyScore('fix-bug', 'bf')).toBeNull();
  });
  it('ignores case and spaces in the query', () => {
    expect(fuzzyScore('Build-Project', 'b p')).not.toBeNull();
  });
});

describe('fuzzyFilter', () => {
  it('keeps every item in order for an empty query', () => {
    expect(fuzzyFilter(names, '  ', (s) => s).map((h) => h.item)).toEqual(names);
  });
  it('ranks word starts and runs above scattered matches', () => {
    expect(fuzzyFilter(names, 'fb', (s) => s).map((h) => h.item)).toEqual(['fix-bug', 'feedback-loop']);
  });
  it('drops what does not match', () => {
    expect(fuzzyFilter(names, 'zz', (s) => s)).toEqual([]);
  });
  it('prefers a consecutive run', () => {
    expect(fuzzyFilter(['r-e-v', 'review'], 'rev', (s) => s)[0].item).toBe('review');
  });
});
