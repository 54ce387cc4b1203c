// flatten lists a settings object's leaves as dotted keys with printable
// values, for a read-only view of settings the UI cannot edit yet.

export type Leaf = [key: string, value: string];

export function flatten(value: unknown, prefix = ''): Leaf[] {
  if (value === null || value === undefined) return prefix ? [[prefix, '—']] : [];
  if (Array.isArray(value)) {
    if (value.length === 0) return prefix ? [[prefix, 'none']] : [];
    return value.flatMap((v, i) => flatten(v, `${prefix}[${i}]`));
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (entries.length === 0) return prefix ? [[prefix, 'none']] : [];
    return entries.flatMap(([k, v]) => flatten(v, prefix ? `${prefix}.${k}` : k));
  }
  if (typeof value === 'string') return [[prefix, value === '' ? 'default' : value]];
  return [[prefix, String(value)]];
}
