// A small fuzzy filter for short lists (templates, sites): the query's
// characters must appear in order; consecutive matches and matches at word
// starts score higher, so "fb" finds "fix-bug" before "feedback-loop".

export interface FuzzyHit<T> {
  item: T;
  score: number;
  /** Code-point positions of the matched characters in the key. */
  positions: number[];
}

const WORD_BREAK = /[\s\-_./:]/;

/** fuzzyScore scores key against query, or returns null when it does not match. */
export function fuzzyScore(key: string, query: string): { score: number; positions: number[] } | null {
  const q = Array.from(query.trim().toLowerCase()).filter((c) => c !== ' ');
  if (q.length === 0) return { score: 0, positions: [] };
  const chars = Array.from(key);
  const lower = chars.map((c) => c.toLowerCase());
  const positions: number[] = [];
  let score = 0;
  let qi = 0;
  let prev = -2;
  for (let i = 0; i < lower.length && qi < q.length; i++) {
    if (lower[i] !== q[qi]) continue;
    let s = 1;
    if (i === prev + 1) s += 4; // a run of matches
    if (i === 0 || WORD_BREAK.test(chars[i - 1])) s += 3; // a word start
    score += s;
    positions.push(i);
    prev = i;
    qi++;
  }
  if (qi < q.length) return null;
  // Among equal matches, the shorter key is the closer one.
  return { score: score - chars.length * 0.01, positions };
}

/** fuzzyFilter keeps the items whose key matches query, best first (stable for ties). */
export function fuzzyFilter<T>(items: readonly T[], query: string, key: (t: T) => string): FuzzyHit<T>[] {
  const hits: (FuzzyHit<T> & { i: number })[] = [];
  items.forEach((item, i) => {
    const r = fuzzyScore(key(item), query);
    if (r) hits.push({ item, score: r.score, positions: r.positions, i });
  });
  if (query.trim() !== '') hits.sort((a, b) => b.score - a.score || a.i - b.i);
  return hits.map(({ item, score, positions }) => ({ item, score, positions }));
}
