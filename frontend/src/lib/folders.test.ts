import { describe, expect, it } from 'vitest';
import { withFolder, withoutFolder } from './folders';

describe('withFolder', () => {
  it('appends a new folder after the others', () => {
    expect(withFolder(['/home/me/logs'], '/home/me/docs')).toEqual(['/home/me/logs', '/home/me/docs']);
  });
  it('keeps a folder that is already allowed once, with or without a trailing slash', () => {
    expect(withFolder(['/home/me/logs'], '/home/me/logs/')).toEqual(['/home/me/logs']);
  });
  it('does not change the list it was given', () => {
    const roots = ['/a'];
    withFolder(roots, '/b');
    expect(roots).toEqual(['/a']);
  });
});

describe('withoutFolder', () => {
  it('removes only that folder', () => {
    expect(withoutFolder(['/a', '/b', '/c'], '/b')).toEqual(['/a', '/c']);
  });
  it('does not mistake a folder for another that starts like it', () => {
    expect(withoutFolder(['/a/logs', '/a/logs-old'], '/a/logs')).toEqual(['/a/logs-old']);
  });
  it('leaves the list as it was for a folder not in it', () => {
    expect(withoutFolder(['/a'], '/z')).toEqual(['/a']);
  });
});
