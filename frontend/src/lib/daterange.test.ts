import { describe, expect, it } from 'vitest';
import { localMidnight, rangeBounds, rangeProblem } from './daterange';

// A fixed "now" in the afternoon, local time.
const now = new Date(2026, 2, 15, 16, 30);

describe('rangeBounds', () => {
  it('gives no bounds for any time', () => {
    expect(rangeBounds('any', '', '', now)).toEqual({ from: '', to: '' });
  });
  it('starts today at local midnight', () => {
    const b = rangeBounds('today', '', '', now);
    expect(new Date(b.from).getTime()).toBe(new Date(2026, 2, 15).getTime());
    expect(b.to).toBe('');
  });
  it('counts the last 7 days with today as the seventh', () => {
    expect(new Date(rangeBounds('7d', '', '', now).from).getTime()).toBe(new Date(2026, 2, 9).getTime());
  });
  it('counts the last 30 days across a month boundary', () => {
    expect(new Date(rangeBounds('30d', '', '', now).from).getTime()).toBe(new Date(2026, 1, 14).getTime());
  });
  it('includes the whole end day of a custom range', () => {
    const b = rangeBounds('custom', '2026-03-01', '2026-03-02', now);
    expect(new Date(b.from).getTime()).toBe(new Date(2026, 2, 1).getTime());
    expect(new Date(b.to).getTime()).toBe(new Date(2026, 2, 3).getTime());
  });
  it('leaves an open end open', () => {
    expect(rangeBounds('custom', '', '2026-03-02', now).from).toBe('');
    expect(rangeBounds('custom', '2026-03-02', '', now).to).toBe('');
  });
  it('gives no bounds for a reversed range rather than an empty list', () => {
    expect(rangeBounds('custom', '2026-03-05', '2026-03-01', now)).toEqual({ from: '', to: '' });
  });
  it('produces RFC 3339 instants the backend parses', () => {
    expect(rangeBounds('today', '', '', now).from).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });
});

describe('rangeProblem', () => {
  it('names a reversed range', () => {
    expect(rangeProblem('custom', '2026-03-05', '2026-03-01')).toMatch(/after the end/);
  });
  it('names a day that does not exist', () => {
    expect(rangeProblem('custom', '2026-02-31', '')).toMatch(/not a date/);
  });
  it('has nothing to say about presets', () => {
    expect(rangeProblem('7d', 'junk', 'junk')).toBeNull();
  });
});

describe('localMidnight', () => {
  it('refuses text that is not a day', () => {
    expect(localMidnight('March 3')).toBeNull();
  });
});
