import { describe, expect, it } from 'vitest';
import { anyLoggedIn, loginLabel, orderSites, withOpening } from './welcome';

describe('loginLabel', () => {
  it('says each login state in the words of the card', () => {
    expect(loginLabel('logged_out')).toBe('Not logged in');
    expect(loginLabel('checking')).toBe('Checking…');
    expect(loginLabel('opening')).toBe('Checking…');
    expect(loginLabel('logged_in')).toBe('Logged in');
    expect(loginLabel('no_browser')).toBe('Browser not running');
    expect(loginLabel('not_checked')).toBe('Not checked');
  });
  it('reads an unknown state as not logged in', () => {
    expect(loginLabel('')).toBe('Not logged in');
  });
});

describe('orderSites', () => {
  it('puts the known sites first in their order and the rest by name', () => {
    const got = orderSites([
      { site: 'zed', name: 'Zed' },
      { site: 'deepseek', name: 'DeepSeek' },
      { site: 'aistudio', name: 'AI Studio' },
      { site: 'chatgpt', name: 'ChatGPT' },
      { site: 'acme', name: 'Acme' },
      { site: 'claude', name: 'Claude' },
    ]).map((s) => s.site);
    expect(got).toEqual(['chatgpt', 'claude', 'deepseek', 'aistudio', 'acme', 'zed']);
  });
});

describe('withOpening', () => {
  const sites = [
    { site: 'claude', state: 'logged_out' },
    { site: 'gemini', state: 'logged_in' },
  ];
  it('shows the site being opened as checking', () => {
    expect(withOpening(sites, 'claude')[0].state).toBe('opening');
    expect(sites[0].state).toBe('logged_out');
  });
  it('keeps a site the poll reads logged in', () => {
    expect(withOpening(sites, 'gemini')[1].state).toBe('logged_in');
  });
  it('changes nothing without a site opening', () => {
    expect(withOpening(sites, null)).toEqual(sites);
  });
});

describe('anyLoggedIn', () => {
  it('is true when one site is logged in', () => {
    expect(anyLoggedIn([{ state: 'logged_out' }, { state: 'logged_in' }])).toBe(true);
    expect(anyLoggedIn([{ state: 'no_browser' }])).toBe(false);
    expect(anyLoggedIn([])).toBe(false);
  });
});
