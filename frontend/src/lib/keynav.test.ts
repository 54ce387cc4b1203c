import { describe, expect, it } from 'vitest';
import { isActivation, moveIndex, shortcutIndex } from './keynav';

describe('moveIndex', () => {
  const cases: Array<[string, number, string, number | null]> = [
    ['ArrowDown moves to the next item', 1, 'ArrowDown', 2],
    ['ArrowDown on the last item wraps to the first', 4, 'ArrowDown', 0],
    ['ArrowUp moves to the previous item', 2, 'ArrowUp', 1],
    ['ArrowUp on the first item wraps to the last', 0, 'ArrowUp', 4],
    ['Home jumps to the first item', 3, 'Home', 0],
    ['End jumps to the last item', 1, 'End', 4],
    ['a letter is not a movement', 1, 'a', null],
    ['Enter is not a movement', 1, 'Enter', null],
    ['an out-of-range start counts as the first item', 9, 'ArrowDown', 1],
  ];
  for (const [name, from, key, want] of cases) {
    it(name, () => expect(moveIndex(from, key, 5)).toBe(want));
  }
  it('does nothing in an empty list', () => expect(moveIndex(0, 'ArrowDown', 0)).toBeNull());
});

describe('shortcutIndex', () => {
  const cases: Array<[string, Parameters<typeof shortcutIndex>[0], number | null]> = [
    ['Ctrl+1 opens the first view', { key: '1', ctrlKey: true }, 0],
    ['Ctrl+5 opens the fifth view', { key: '5', ctrlKey: true }, 4],
    ['Cmd+3 opens the third view on macOS', { key: '3', metaKey: true }, 2],
    ['Ctrl+6 is beyond the views', { key: '6', ctrlKey: true }, null],
    ['a bare digit is typing, not a shortcut', { key: '2' }, null],
    ['Ctrl+Shift+2 is left alone', { key: '2', ctrlKey: true, shiftKey: true }, null],
    ['Ctrl+Alt+2 is left alone', { key: '2', ctrlKey: true, altKey: true }, null],
    ['Ctrl+0 is not a view', { key: '0', ctrlKey: true }, null],
  ];
  for (const [name, e, want] of cases) {
    it(name, () => expect(shortcutIndex(e, 5)).toBe(want));
  }
});

describe('isActivation', () => {
  it('Enter and Space activate, other keys do not', () => {
    expect(isActivation('Enter')).toBe(true);
    expect(isActivation(' ')).toBe(true);
    expect(isActivation('ArrowDown')).toBe(false);
  });
});
