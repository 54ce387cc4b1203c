// The run states the History view's filter offers: the few a user knows,
// each standing for the pipeline states behind it (backend/job/state.go).

export interface StateGroup {
  id: string;
  /** label is the option's text. */
  label: string;
  /** title says what the option holds. */
  title: string;
  /** states are the pipeline states a run of this group is in. */
  states: readonly string[];
}

export const STATE_GROUPS: readonly StateGroup[] = [
  {
    id: 'running',
    label: 'Running',
    title: 'Runs still on their way: finding the tab, sending, answering, saving files',
    states: ['resolved', 'preflighted', 'composed', 'submitting', 'submitted', 'streaming', 'completed', 'extracted', 'artifacts_retrieved', 'artifacts_verified'],
  },
  { id: 'done', label: 'Done', title: 'Runs that ended with their answer', states: ['done'] },
  { id: 'failed', label: 'Failed', title: 'Runs that stopped on a problem', states: ['failed'] },
  { id: 'cancelled', label: 'Cancelled', title: 'Runs you cancelled', states: ['cancelled'] },
  { id: 'waiting', label: 'Waiting', title: 'Interrupted runs, waiting for you to collect the rest or send again', states: ['stale'] },
];

/** statesOf is the pipeline states of group id ([] for "all states" or an unknown id). */
export function statesOf(id: string): string[] {
  return [...(STATE_GROUPS.find((g) => g.id === id)?.states ?? [])];
}
