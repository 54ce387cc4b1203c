// Pure helpers of the Settings view's editors: the browser mode, list
// fields edited as text, and where a rejected value's message goes.

import type { Envelope } from './envelope';

export type BrowserMode = 'launch' | 'attach';

/** browserMode is "attach" when an attach URL is set. */
export function browserMode(attachURL: string | undefined): BrowserMode {
  return attachURL && attachURL.trim() ? 'attach' : 'launch';
}

/** argsToText shows extra browser flags one per line. */
export function argsToText(args: readonly string[] | undefined): string {
  return (args ?? []).join('\n');
}

/** textToArgs reads one flag per line, ignoring blank lines and spaces around. */
export function textToArgs(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

/**
 * fieldOf returns the settings field a config_invalid envelope blames
 * (evidence "field", e.g. "browser.extraArgs[1]"), reduced to the editor
 * that shows it ("browser.extraArgs"); null for any other envelope.
 */
export function fieldOf(env: Envelope | null | undefined): string | null {
  if (!env || (env.code !== 'config_invalid' && env.code !== 'site_incomplete' && env.code !== 'bad_input')) return null;
  const f = env.evidence?.field;
  if (!f) return null;
  return f.replace(/\[\d+\]$/, '');
}

/**
 * fieldMessage is what the editor a settings refusal blames shows under
 * itself: the problem in the user's words, without the setting's JSON path
 * (the editor's label says which setting), and for a list edited one entry
 * per line, the line. Other envelopes keep their message.
 */
export function fieldMessage(env: Envelope): string {
  const problem = env.evidence?.problem;
  if (!problem) return env.message;
  const text = problem.charAt(0).toUpperCase() + problem.slice(1);
  const index = /\[(\d+)\]$/.exec(env.evidence?.field ?? '');
  return index ? `Line ${Number(index[1]) + 1}: ${problem}` : text;
}

/** SitesMarker places a sites-editor problem. */
export interface SitesMarker {
  line: number;
  column: number;
  entry: number | null;
  message: string;
}

/** sitesMarker reads the line, column and entry of a sites problem, or null. */
export function sitesMarker(env: Envelope | null | undefined): SitesMarker | null {
  if (!env || env.evidence?.field !== 'sites') return null;
  const line = Number(env.evidence.line);
  const column = Number(env.evidence.column);
  if (!Number.isInteger(line) || line < 1 || !Number.isInteger(column) || column < 1) return null;
  const entry = env.evidence.entry ? Number(env.evidence.entry) : null;
  return { line, column, entry: Number.isInteger(entry) ? entry : null, message: env.message };
}

/** offsetAt is the character offset of a 1-based line and column in text (clamped). */
export function offsetAt(text: string, line: number, column: number): number {
  let off = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', off);
    if (nl < 0) return text.length;
    off = nl + 1;
  }
  const end = text.indexOf('\n', off);
  const lineEnd = end < 0 ? text.length : end;
  return Math.min(off + column - 1, lineEnd);
}

/** sitesToText shows the sites setting in the editor ("" when there are none). */
export function sitesToText(sites: unknown): string {
  if (!Array.isArray(sites) || sites.length === 0) return '';
  return JSON.stringify(sites, null, 2);
}

/** DURATION accepts Go durations such as 20m, 1h30m, 90s (the backend has the last word). */
export const DURATION = /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/;
