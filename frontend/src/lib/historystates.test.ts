import { describe, expect, it } from 'vitest';
import { STATE_GROUPS, statesOf } from './historystates';

// The pipeline's states, as backend/job/state.go lists them.
const PIPELINE = [
  'resolved', 'preflighted', 'composed', 'submitting', 'submitted', 'streaming', 'completed', 'extracted',
  'artifacts_retrieved', 'artifacts_verified', 'done', 'failed', 'cancelled', 'stale',
];

describe('the History state filter', () => {
  it('offers the five states a user knows', () => {
    expect(STATE_GROUPS.map((g) => g.id)).toEqual(['running', 'done', 'failed', 'cancelled', 'waiting']);
  });
  it('puts every pipeline state in exactly one of them', () => {
    const all = STATE_GROUPS.flatMap((g) => g.states);
    expect([...all].sort()).toEqual([...PIPELINE].sort());
  });
  it('maps running to the states of a run on its way, and all states to no filter', () => {
    expect(statesOf('running')).toContain('streaming');
    expect(statesOf('running')).not.toContain('done');
    expect(statesOf('waiting')).toEqual(['stale']);
    expect(statesOf('')).toEqual([]);
  });
});
