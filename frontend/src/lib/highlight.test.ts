import { describe, expect, it } from 'vitest';
import { fileURL, humanSize, segments } from './highlight';

describe('segments', () => {
  it('groups consecutive matched characters', () => {
    expect(segments('haiku', [0, 1, 4])).toEqual([
      { text: 'ha', match: true },
      { text: 'ik', match: false },
      { text: 'u', match: true },
    ]);
  });
  it('counts positions in code points, not UTF-16 units', () => {
    expect(segments('🚢ab', [1])).toEqual([
      { text: '🚢', match: false },
      { text: 'a', match: true },
      { text: 'b', match: false },
    ]);
  });
  it('ignores positions outside the text and no positions at all', () => {
    expect(segments('ab', [5, -1])).toEqual([{ text: 'ab', match: false }]);
    expect(segments('ab', undefined)).toEqual([{ text: 'ab', match: false }]);
  });
});

describe('fileURL', () => {
  it.each([
    ['/home/me/artifacts/project.zip', 'file:///home/me/artifacts/project.zip'],
    ['/tmp/a b/#1?.zip', 'file:///tmp/a%20b/%231%3F.zip'],
    ['C:\\Users\\me\\x.zip', 'file:///C:/Users/me/x.zip'],
  ])('%s becomes %s', (path, url) => {
    expect(fileURL(path)).toBe(url);
  });
});

describe('humanSize', () => {
  it.each([
    [512, '512 B'],
    [2048, '2.0 KiB'],
    [50 * 1024 * 1024, '50 MiB'],
  ])('%d bytes read %s', (n, s) => expect(humanSize(n)).toBe(s));
});
