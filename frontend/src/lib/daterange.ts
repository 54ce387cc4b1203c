// The History view's date filter: quick ranges and a custom from/to, turned
// into the instants the backend filters on. Days are the user's local days:
// "today" starts at local midnight, and a custom "to" day is included whole.

export type RangePreset = 'any' | 'today' | '7d' | '30d' | 'custom';

export const RANGE_PRESETS: readonly { id: RangePreset; label: string }[] = [
  { id: 'any', label: 'Any time' },
  { id: 'today', label: 'Today' },
  { id: '7d', label: 'Last 7 days' },
  { id: '30d', label: 'Last 30 days' },
  { id: 'custom', label: 'Dates…' },
];

/** DateBounds are RFC 3339 instants ("" for no bound): from inclusive, to exclusive. */
export interface DateBounds {
  from: string;
  to: string;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** localMidnight parses "YYYY-MM-DD" as the start of that local day, or null. */
export function localMidnight(day: string): Date | null {
  const m = DAY.exec(day.trim());
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  // Reject 2026-02-31 and friends, which Date rolls over.
  if (d.getFullYear() !== Number(m[1]) || d.getMonth() !== Number(m[2]) - 1 || d.getDate() !== Number(m[3])) return null;
  return d;
}

function daysBefore(now: Date, n: number): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() - n);
}

/** rangeProblem says what is wrong with a custom range, or null. */
export function rangeProblem(preset: RangePreset, fromDay: string, toDay: string): string | null {
  if (preset !== 'custom') return null;
  const from = fromDay ? localMidnight(fromDay) : null;
  const to = toDay ? localMidnight(toDay) : null;
  if (fromDay && !from) return `“${fromDay}” is not a date`;
  if (toDay && !to) return `“${toDay}” is not a date`;
  if (from && to && from > to) return 'the start date is after the end date';
  return null;
}

/** rangeBounds turns a preset (or a custom from/to day) into instants; a bad custom range gives no bounds. */
export function rangeBounds(preset: RangePreset, fromDay: string, toDay: string, now: Date): DateBounds {
  switch (preset) {
    case 'today':
      return { from: daysBefore(now, 0).toISOString(), to: '' };
    case '7d':
      return { from: daysBefore(now, 6).toISOString(), to: '' };
    case '30d':
      return { from: daysBefore(now, 29).toISOString(), to: '' };
    case 'custom': {
      if (rangeProblem(preset, fromDay, toDay)) return { from: '', to: '' };
      const from = fromDay ? localMidnight(fromDay) : null;
      const to = toDay ? localMidnight(toDay) : null;
      return {
        from: from ? from.toISOString() : '',
        // The end day is included: the bound is the next local midnight.
        to: to ? new Date(to.getFullYear(), to.getMonth(), to.getDate() + 1).toISOString() : '',
      };
    }
    default:
      return { from: '', to: '' };
  }
}
