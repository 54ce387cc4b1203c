// The files a prompt carries, as the composer's chips show them: pure logic
// (sizes, adding without doubles, merging the Service's check, a run's
// refusal) so that it can be table-tested. The state and the calls are in
// state/attachments.svelte.ts.

import type { Envelope } from './envelope';

/** The Service's verdict on one file (service.FileCheck). */
export interface FileVerdict {
  path: string;
  name: string;
  bytes: number;
  sha256: string;
  renamedFrom?: string;
  error?: Envelope | null;
}

/** The Service's verdict on the files for one site (service.FilesCheck). */
export interface FilesVerdict {
  ok: boolean;
  site: string;
  siteName: string;
  files: FileVerdict[] | null;
  error?: Envelope | null;
}

/** Chip is one file in the composer. */
export interface Chip {
  /** path is the absolute local path: what the run is given. */
  path: string;
  /** name is the name the site will see (a visible rename when two base names clash). */
  name: string;
  /** renamedFrom is the path the rename shows ("a/util.go"), "" when not renamed. */
  renamedFrom: string;
  /** bytes is the size once checked, null before. */
  bytes: number | null;
  sha256: string;
  /** state: checking until the Service answered, then ok or refused. */
  state: 'checking' | 'ok' | 'refused';
  /** words is why the file is refused: the site's words where it gave them. */
  words: string;
}

/** baseName is the last element of a path ("/w/a/util.go" → "util.go"). */
export function baseName(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, '');
  const i = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  return i >= 0 ? trimmed.slice(i + 1) : trimmed;
}

/** formatSize prints a size as the CLI does (attach.Size): "512 B", "1.5 KiB", "20.0 MiB". */
export function formatSize(n: number): string {
  const k = 1024;
  if (n < k) return `${n} B`;
  if (n < k * k) return `${(n / k).toFixed(1)} KiB`;
  if (n < k * k * k) return `${(n / (k * k)).toFixed(1)} MiB`;
  return `${(n / (k * k * k)).toFixed(1)} GiB`;
}

/** addPaths adds the paths not already on a chip (nor twice in paths), in order, each to be checked. */
export function addPaths(chips: Chip[], paths: string[]): Chip[] {
  const have = new Set(chips.map((c) => c.path));
  const out = [...chips];
  for (const raw of paths) {
    const path = raw.trim();
    if (!path || have.has(path)) continue;
    have.add(path);
    out.push({ path, name: baseName(path), renamedFrom: '', bytes: null, sha256: '', state: 'checking', words: '' });
  }
  return out;
}

/** removePath drops the chip of path. The other chips keep their verdicts until the next check, which may undo a rename. */
export function removePath(chips: Chip[], path: string): Chip[] {
  return chips.filter((c) => c.path !== path);
}

/**
 * applyChecks merges the Service's verdicts (one per target site) into the
 * chips: a file refused by any site is refused, in that site's words (named
 * when there are several sites); otherwise it takes the name, size and
 * sha256 the first site's check gave. A chip the checks do not mention stays
 * as it was (it was added after the check began).
 */
export function applyChecks(chips: Chip[], checks: FilesVerdict[]): Chip[] {
  return chips.map((c) => {
    const found = checks.map((v) => ({ v, f: (v.files ?? []).find((f) => f.path === c.path) })).filter((x) => x.f);
    if (found.length === 0) return c;
    const first = found[0].f!;
    const refusals = found.filter((x) => x.f!.error).map((x) => (checks.length > 1 ? `${x.v.siteName}: ` : '') + refusalWords(x.f!.error!));
    return {
      ...c,
      name: first.name || c.name,
      renamedFrom: first.renamedFrom ?? '',
      bytes: first.sha256 ? first.bytes : c.bytes,
      sha256: first.sha256 || '',
      state: refusals.length ? 'refused' : 'ok',
      words: refusals.join(' · '),
    };
  });
}

/** refusalWords is what a chip says of a refusal: the site's own words where the envelope carries them, else its message. */
export function refusalWords(e: Envelope): string {
  return e.evidence?.site_words || e.message;
}

/**
 * applyRefusal marks the chip a run's refusal names (attachment_rejected or
 * attachment_unconfirmed, its evidence "file" being the name as sent) with
 * the site's words. It returns the chips unchanged for any other envelope,
 * or when no chip has that name.
 */
export function applyRefusal(chips: Chip[], e: Envelope | null | undefined): Chip[] {
  if (!e || (e.code !== 'attachment_rejected' && e.code !== 'attachment_unconfirmed')) return chips;
  const file = e.evidence?.file ?? '';
  // The name as sent first; a base name for a chip the check had not renamed yet.
  const byName = chips.some((c) => c.name === file);
  if (!byName && !chips.some((c) => baseName(c.path) === file)) return chips;
  return chips.map((c) => ((byName ? c.name === file : baseName(c.path) === file) ? { ...c, state: 'refused', words: refusalWords(e) } : c));
}

/**
 * sendBlock says why the files stop the send, "" when they do not: a file
 * being checked, a refused file, or the refusal of the files as a whole
 * (too many, a site that takes none).
 */
export function sendBlock(chips: Chip[], checks: FilesVerdict[]): string {
  if (chips.length === 0) return '';
  const whole = checks.filter((v) => v.error);
  if (whole.length) return whole.map((v) => `${v.error!.message}`).join(' · ') + '. Nothing was sent.';
  const refused = chips.filter((c) => c.state === 'refused');
  if (refused.length === 1) return `${refused[0].name} cannot be sent: ${refused[0].words}. Remove it to send the rest.`;
  if (refused.length > 1) return `${refused.length} files cannot be sent (${refused.map((c) => c.name).join(', ')}). Remove them to send the rest.`;
  if (chips.some((c) => c.state === 'checking')) return 'Checking the files…';
  return '';
}

/** totalBytes is the checked files' size together. */
export function totalBytes(chips: { bytes: number | null }[]): number {
  return chips.reduce((n, c) => n + (c.bytes ?? 0), 0);
}
