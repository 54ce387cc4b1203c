// Where a run's chat went, in the words History's detail shows: its
// temporary chat, the project or custom GPT it opened in, archived after
// (record.Run's temporary, place and archived).

export interface RunPlace {
  temporary?: boolean;
  archived?: boolean;
  place?: { kind: string; name?: string; address: string; filed: boolean };
}

/** placeWords lists where run's chat went, [] for a plain chat. */
export function placeWords(run: RunPlace): string[] {
  const out: string[] = [];
  if (run.temporary) out.push('Temporary chat');
  if (run.place) out.push(`${run.place.kind === 'gpt' ? 'Custom GPT' : 'Project'} ${run.place.name || run.place.address}`);
  if (run.archived) out.push('Archived on the site');
  return out;
}
