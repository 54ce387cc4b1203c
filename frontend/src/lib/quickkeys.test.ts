import { describe, expect, it } from 'vitest';
import { quickKey } from './quickkeys';

const k = (key: string, mods: Partial<{ shiftKey: boolean; ctrlKey: boolean; altKey: boolean; metaKey: boolean; isComposing: boolean }> = {}) => ({
  key, shiftKey: false, ctrlKey: false, altKey: false, metaKey: false, ...mods,
});

describe('quickKey', () => {
  it('sends on Enter and on Ctrl+Enter', () => {
    expect(quickKey(k('Enter'))).toBe('send');
    expect(quickKey(k('Enter', { ctrlKey: true }))).toBe('send');
  });
  it('keeps Shift+Enter for a new line', () => {
    expect(quickKey(k('Enter', { shiftKey: true }))).toBeNull();
  });
  it('leaves on Escape', () => {
    expect(quickKey(k('Escape'))).toBe('close');
  });
  it('ignores keys while an input method composes', () => {
    expect(quickKey(k('Enter', { isComposing: true }))).toBeNull();
  });
  it('ignores ordinary typing', () => {
    expect(quickKey(k('a'))).toBeNull();
  });
});
