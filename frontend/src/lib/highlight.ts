// Splitting text into plain and matched runs for the history's highlights.
// The search reports rune (code point) offsets, so the text is walked by code
// point, never by UTF-16 unit.

export interface Segment {
  text: string;
  match: boolean;
}

/** segments splits text at the matched code-point positions; out-of-range positions are ignored. */
export function segments(text: string, positions: readonly number[] | undefined): Segment[] {
  const chars = Array.from(text);
  const hit = new Set((positions ?? []).filter((p) => p >= 0 && p < chars.length));
  const out: Segment[] = [];
  for (let i = 0; i < chars.length; i++) {
    const match = hit.has(i);
    const last = out[out.length - 1];
    if (last && last.match === match) last.text += chars[i];
    else out.push({ text: chars[i], match });
  }
  return out;
}

/** fileURL is the file:// URL of an absolute path, each segment percent-encoded. */
export function fileURL(path: string): string {
  const p = path.replace(/\\/g, '/');
  const encoded = p
    .split('/')
    .map((seg, i) => (i === 0 && /^[A-Za-z]:$/.test(seg) ? seg : encodeURIComponent(seg)))
    .join('/');
  return 'file://' + (encoded.startsWith('/') ? encoded : '/' + encoded);
}

/** humanSize formats a byte count (1 KiB = 1024 B). */
export function humanSize(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[u]}`;
}
