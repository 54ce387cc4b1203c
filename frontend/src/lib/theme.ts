// Theme resolution: the settings' choice wins, "system" follows the OS.

export type ThemeSetting = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

export const THEME_SETTINGS: readonly ThemeSetting[] = ['system', 'light', 'dark'];

/** isThemeSetting reports whether s is one of the values settings accept. */
export function isThemeSetting(s: unknown): s is ThemeSetting {
  return typeof s === 'string' && (THEME_SETTINGS as readonly string[]).includes(s);
}

/**
 * resolveTheme picks the theme to paint. An unknown or missing setting (a
 * settings file from a newer Ferry, or none loaded yet) follows the OS rather
 * than guessing.
 */
export function resolveTheme(setting: unknown, systemPrefersDark: boolean): Theme {
  if (setting === 'light' || setting === 'dark') return setting;
  return systemPrefersDark ? 'dark' : 'light';
}
