// The Get started view's pure logic: the words of a site's login, the
// machine checks it shows, and the order of its site cards.

/** The login states app/welcome.go reports (service.Login*), plus the view's own "opening". */
export type LoginState = 'logged_out' | 'not_checked' | 'checking' | 'logged_in' | 'no_browser' | 'opening';

/** The doctor's checks that decide whether Ferry can work at all on this machine. */
export const WELCOME_CHECKS: readonly string[] = ['browser', 'display', 'datadir'];

/** The poll of the sites' logins while the view is open. */
export const LOGIN_POLL_MS = 2000;

/** loginLabel is what a site card says of its login. */
export function loginLabel(state: string): string {
  switch (state) {
    case 'logged_in':
      return 'Logged in';
    case 'checking':
    case 'opening':
      return 'Checking…';
    case 'no_browser':
      return 'Browser not running';
    case 'not_checked':
      return 'Not checked';
    default:
      return 'Not logged in';
  }
}

/** The sites of the issue, in the order people know them; others follow by name. */
const ORDER = ['chatgpt', 'gemini', 'claude', 'grok', 'kimi', 'deepseek', 'aistudio'];

/** orderSites sorts site logins: the known sites first in their order, then the rest by name. */
export function orderSites<T extends { site: string; name: string }>(sites: readonly T[]): T[] {
  const rank = (id: string) => {
    const i = ORDER.indexOf(id);
    return i < 0 ? ORDER.length : i;
  };
  return [...sites].sort((a, b) => rank(a.site) - rank(b.site) || a.name.localeCompare(b.name));
}

/**
 * withOpening marks the site whose "Log in" is on its way as opening, unless
 * the poll already reads it logged in.
 */
export function withOpening<T extends { site: string; state: string }>(sites: readonly T[], opening: string | null): T[] {
  if (!opening) return [...sites];
  return sites.map((s) => (s.site === opening && s.state !== 'logged_in' ? { ...s, state: 'opening' } : s));
}

/** anyLoggedIn reports whether a site is logged in. */
export function anyLoggedIn(sites: readonly { state: string }[]): boolean {
  return sites.some((s) => s.state === 'logged_in');
}
