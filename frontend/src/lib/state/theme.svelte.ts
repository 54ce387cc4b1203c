// The painted theme: the settings' choice, or the OS preference for "system".

import { resolveTheme, type Theme } from '../theme';

export class ThemeState {
  /** The settings' value ("system", "light" or "dark"); anything else follows the OS. */
  setting = $state<string>('system');
  systemDark = $state(false);
  resolved: Theme = $derived(resolveTheme(this.setting, this.systemDark));

  /** watchSystem follows the OS preference; returns the unsubscribe. */
  watchSystem(): () => void {
    if (typeof matchMedia !== 'function') return () => {};
    const mq = matchMedia('(prefers-color-scheme: dark)');
    this.systemDark = mq.matches;
    const onChange = (e: MediaQueryListEvent) => {
      this.systemDark = e.matches;
    };
    mq.addEventListener('change', onChange);
    return () => mq.removeEventListener('change', onChange);
  }
}

export const theme = new ThemeState();
