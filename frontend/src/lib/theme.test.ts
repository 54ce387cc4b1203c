import { describe, expect, it } from 'vitest';
import { isThemeSetting, resolveTheme } from './theme';

describe('resolveTheme', () => {
  const cases: Array<{ name: string; setting: unknown; dark: boolean; want: 'light' | 'dark' }> = [
    { name: 'system follows a light OS', setting: 'system', dark: false, want: 'light' },
    { name: 'system follows a dark OS', setting: 'system', dark: true, want: 'dark' },
    { name: 'light wins over a dark OS', setting: 'light', dark: true, want: 'light' },
    { name: 'dark wins over a light OS', setting: 'dark', dark: false, want: 'dark' },
    { name: 'an unknown value follows the OS', setting: 'purple', dark: true, want: 'dark' },
    { name: 'no settings yet follows the OS', setting: undefined, dark: false, want: 'light' },
  ];
  for (const c of cases) {
    it(c.name, () => expect(resolveTheme(c.setting, c.dark)).toBe(c.want));
  }
});

describe('isThemeSetting', () => {
  it('accepts the three settings values and nothing else', () => {
    expect(['system', 'light', 'dark'].every(isThemeSetting)).toBe(true);
    expect(['', 'Dark', 'auto', 1, null].some(isThemeSetting)).toBe(false);
  });
});
