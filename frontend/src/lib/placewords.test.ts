import { describe, expect, it } from 'vitest';
import { placeWords } from './placewords';

describe("a run's place", () => {
  it('says temporary chat, the project by its name (else its address), a GPT and the archive', () => {
    expect(placeWords({})).toEqual([]);
    expect(placeWords({ temporary: true })).toEqual(['Temporary chat']);
    expect(placeWords({ place: { kind: 'project', name: 'Harbour notes', address: 'https://chatgpt.com/g/g-p-1/project', filed: true }, archived: true })).toEqual([
      'Project Harbour notes',
      'Archived on the site',
    ]);
    expect(placeWords({ place: { kind: 'gpt', address: 'https://chatgpt.com/g/g-abc', filed: false } })).toEqual(['Custom GPT https://chatgpt.com/g/g-abc']);
  });
});
