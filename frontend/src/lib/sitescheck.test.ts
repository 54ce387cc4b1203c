import { describe, expect, it } from 'vitest';
import { fixes, shownRoles, verdict, type SiteLike } from './sitescheck';

const drifted: SiteLike = {
  site: 'claude',
  name: 'Claude',
  ok: false,
  loggedIn: true,
  roles: [
    { role: 'composer', status: 'ok', selectors: ['a', 'b'], matched: 1, matchedSelector: 'b' },
    { role: 'stop', status: 'not_shown', selectors: ['s'], matched: -1, note: 'shown only while an answer is generated' },
    { role: 'thoughts', status: 'undefined', selectors: [], matched: -1 },
    {
      role: 'send',
      status: 'missing',
      selectors: ['x'],
      matched: -1,
      candidates: [
        { selector: 'button[data-testid="composer-send"]', matches: 1, override: '{"id":"claude","selectors":{"send":["button[data-testid=\\"composer-send\\"]","x"]}}' },
        { selector: 'button.send', matches: 2, override: '{"id":"claude","selectors":{"send":["button.send","x"]}}' },
      ],
    },
  ],
  stream: { status: 'missed', detail: 'stream not captured on the last turn', override: '{"id":"claude","stream":{"pathPattern":"^/x$"}}' },
};

describe('a site of the live check', () => {
  it('reads as the roles that resolve nowhere and the missed stream', () => {
    expect(verdict(drifted)).toBe('1 role resolves nowhere; stream not captured on the last turn');
  });

  it('offers each candidate of a missing role, then the stream, as fixes', () => {
    const f = fixes(drifted);
    expect(f.map((x) => x.key)).toEqual(['send:0', 'send:1', 'stream']);
    expect(JSON.parse(f[0].override).selectors.send[0]).toBe('button[data-testid="composer-send"]');
  });

  it('lists the missing roles first and leaves out the ones the site does not define', () => {
    expect(shownRoles(drifted).map((r) => r.role)).toEqual(['send', 'composer', 'stop']);
  });

  it('says a logged-out site is not logged in, whatever its roles', () => {
    expect(verdict({ ...drifted, loggedIn: false, roles: [], login: 'log in' })).toBe('Not logged in');
    expect(fixes({ ...drifted, loggedIn: false, roles: [], stream: undefined })).toEqual([]);
  });

  it('is OK for plain asks, in words without flags, when only an optional role is missing', () => {
    const noPicker: SiteLike = {
      site: 'deepseek',
      name: 'DeepSeek',
      ok: true,
      loggedIn: true,
      roles: [
        { role: 'composer', status: 'ok', selectors: ['t'], matched: 0, matchedSelector: 't' },
        { role: 'model_picker', status: 'missing', selectors: ['div[data-model-type]'], matched: -1, blocks: 'model_selection' },
      ],
    };
    expect(verdict(noPicker)).toBe('OK for plain asks; not for choosing a model (this page lacks it)');
    expect(verdict(noPicker)).not.toContain('--');
    expect(verdict({ ...noPicker, ok: false, roles: [...noPicker.roles!, drifted.roles![3]] })).toBe('1 role resolves nowhere');
  });

  it('is OK when the check says so', () => {
    expect(verdict({ site: 'kimi', name: 'Kimi', ok: true, loggedIn: true })).toBe('OK');
  });
});
