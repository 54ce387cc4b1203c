import { describe, expect, it } from 'vitest';
import { argsToText, browserMode, DURATION, fieldMessage, fieldOf, offsetAt, sitesMarker, sitesToText, textToArgs } from './settingsform';
import type { Envelope } from './envelope';

const env = (code: string, evidence: Record<string, string>): Envelope => ({ stage: 'input', code, message: 'm', retryable: false, evidence });

describe('settings form helpers', () => {
  it('derives the browser mode from the attach URL', () => {
    expect(browserMode('')).toBe('launch');
    expect(browserMode('  ')).toBe('launch');
    expect(browserMode('http://127.0.0.1:9222')).toBe('attach');
  });
  it('edits extra flags one per line and drops blank lines', () => {
    expect(textToArgs(' --a \n\n--b=1\n')).toEqual(['--a', '--b=1']);
    expect(argsToText(['--a', '--b'])).toBe('--a\n--b');
    expect(argsToText(undefined)).toBe('');
  });
  it('sends a rejected value to the editor of its field', () => {
    expect(fieldOf(env('config_invalid', { field: 'browser.extraArgs[1]' }))).toBe('browser.extraArgs');
    expect(fieldOf(env('config_invalid', { field: 'run.answerTimeout' }))).toBe('run.answerTimeout');
    expect(fieldOf(env('store_io', { field: 'x' }))).toBeNull();
    expect(fieldOf(null)).toBeNull();
  });
  it('words a refusal for the editor: the problem, and the line of a list', () => {
    const quoted = env('config_invalid', { field: 'browser.extraArgs[1]', problem: 'has shell quotes: remove the quotes' });
    expect(fieldMessage(quoted)).toBe('Line 2: has shell quotes: remove the quotes');
    expect(fieldMessage(env('config_invalid', { field: 'run.answerTimeout', problem: 'must be at least 10s' }))).toBe('Must be at least 10s');
    expect(fieldMessage(env('config_invalid', { field: 'theme' }))).toBe('m');
  });
  it('places a sites problem at its line, column and entry', () => {
    expect(sitesMarker(env('config_invalid', { field: 'sites', line: '3', column: '5', entry: '2' }))).toEqual({
      line: 3, column: 5, entry: 2, message: 'm',
    });
    expect(sitesMarker(env('config_invalid', { field: 'theme', line: '3', column: '5' }))).toBeNull();
    expect(sitesMarker(env('config_invalid', { field: 'sites', line: 'x', column: '5' }))).toBeNull();
  });
  it('turns a line and column into an offset, clamped to the line', () => {
    const t = 'ab\ncdef\ng';
    expect(offsetAt(t, 1, 1)).toBe(0);
    expect(offsetAt(t, 2, 3)).toBe(5);
    expect(offsetAt(t, 2, 99)).toBe(7);
    expect(offsetAt(t, 9, 1)).toBe(t.length);
  });
  it('shows no sites as an empty editor and some as indented JSON', () => {
    expect(sitesToText([])).toBe('');
    expect(sitesToText([{ id: 'x' }])).toBe('[\n  {\n    "id": "x"\n  }\n]');
  });
  it('recognises Go durations', () => {
    for (const ok of ['20m', '1h30m', '90s', '1.5h']) expect(DURATION.test(ok)).toBe(true);
    for (const bad of ['20', 'm', '20 m', '']) expect(DURATION.test(bad)).toBe(false);
  });
});
