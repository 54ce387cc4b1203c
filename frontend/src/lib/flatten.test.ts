import { describe, expect, it } from 'vitest';
import { flatten } from './flatten';

describe('flatten', () => {
  it('lists nested settings as sorted dotted keys', () => {
    expect(flatten({ theme: 'dark', browser: { binary: '', profile: '/p' }, limits: [1, 2] })).toEqual([
      ['browser.binary', 'default'],
      ['browser.profile', '/p'],
      ['limits[0]', '1'],
      ['limits[1]', '2'],
      ['theme', 'dark'],
    ]);
  });
  it('shows empty collections and nulls instead of hiding the key', () => {
    expect(flatten({ a: [], b: {}, c: null })).toEqual([
      ['a', 'none'],
      ['b', 'none'],
      ['c', '—'],
    ]);
  });
});
