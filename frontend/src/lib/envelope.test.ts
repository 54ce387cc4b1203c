import { describe as group, expect, it } from 'vitest';
import { describe, EnvelopeError, isEnvelope, segments, titleFor, toEnvelope, type Envelope } from './envelope';

const configInvalid: Envelope = {
  stage: 'input',
  code: 'config_invalid',
  message: 'settings file /tmp/x/settings.json line 3: theme "purple" is not one of system, light, dark',
  retryHint: 'fix the settings file at the line shown, or run `ferry settings reset` to keep it as .bak and start from defaults',
  retryable: false,
  evidence: { line: '3', file: '/tmp/x/settings.json' },
};

group('toEnvelope', () => {
  const cases: Array<{ name: string; input: unknown; code: string; message: string; hasHint: boolean }> = [
    { name: 'keeps an envelope object from the error formatter', input: configInvalid, code: 'config_invalid', message: configInvalid.message, hasHint: true },
    { name: 'parses an envelope sent as a JSON string', input: JSON.stringify(configInvalid), code: 'config_invalid', message: configInvalid.message, hasHint: true },
    { name: 'turns a plain Wails string error into internal with its text', input: 'error parsing arguments: json: cannot unmarshal', code: 'internal', message: 'error parsing arguments: json: cannot unmarshal', hasHint: true },
    { name: 'turns a thrown Error into internal with its message', input: new TypeError('x is undefined'), code: 'internal', message: 'x is undefined', hasHint: true },
    { name: 'turns a string that only looks like JSON into internal', input: '{not json', code: 'internal', message: '{not json', hasHint: true },
    { name: 'survives undefined', input: undefined, code: 'internal', message: 'an unknown error occurred', hasHint: true },
    { name: 'unwraps an EnvelopeError', input: new EnvelopeError(configInvalid), code: 'config_invalid', message: configInvalid.message, hasHint: true },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const env = toEnvelope(c.input);
      expect(env.code).toBe(c.code);
      expect(env.message).toBe(c.message);
      expect(Boolean(env.retryHint)).toBe(c.hasHint);
      expect(isEnvelope(env)).toBe(true);
    });
  }

  it('fills a missing stage and evidence so the UI never reads undefined', () => {
    const env = toEnvelope({ code: 'store_busy', message: 'held by pid 42' });
    expect(env.stage).toBe('internal');
    expect(env.evidence).toEqual({});
    expect(env.retryable).toBe(false);
  });

  it('stringifies evidence values that are not strings', () => {
    const env = toEnvelope({ code: 'store_busy', message: 'm', evidence: { pid: 42 } });
    expect(env.evidence).toEqual({ pid: '42' });
  });
});

group('describe', () => {
  it('gives a title, capitalised message and hint, and evidence sorted by key', () => {
    const d = describe(configInvalid);
    expect(d.title).toBe('Settings file is invalid');
    expect(d.code).toBe('config_invalid');
    expect(d.message.startsWith('Settings file /tmp/x')).toBe(true);
    expect(d.hint.startsWith('Fix the settings file')).toBe(true);
    expect(d.evidence).toEqual([
      ['file', '/tmp/x/settings.json'],
      ['line', '3'],
    ]);
  });

  it('titles a rejected value differently from a broken file', () => {
    const rejected = { ...configInvalid, evidence: { field: 'theme' } };
    expect(describe(rejected).title).toBe('Setting not saved');
  });

  it('leaves the hint empty when the envelope has none', () => {
    expect(describe({ ...configInvalid, retryHint: '' }).hint).toBe('');
  });
});

group('titleFor', () => {
  const cases: Array<[string, string]> = [
    ['config_invalid', 'Settings file is invalid'],
    ['rate_limited', 'Rate limited'],
    ['artifact_too_large', 'Artifact too large'],
    ['', 'Error'],
  ];
  for (const [code, title] of cases) {
    it(`titles ${code || 'an empty code'} as "${title}"`, () => expect(titleFor(code)).toBe(title));
  }
});

group('segments', () => {
  it('marks text between backticks as code', () => {
    expect(segments('run `ferry doctor` and retry')).toEqual([
      { text: 'run ', code: false },
      { text: 'ferry doctor', code: true },
      { text: ' and retry', code: false },
    ]);
  });
  it('keeps an unpaired backtick as text', () => {
    expect(segments('a `b')).toEqual([{ text: 'a `b', code: false }]);
  });
  it('handles text without commands', () => {
    expect(segments('plain')).toEqual([{ text: 'plain', code: false }]);
  });
});
