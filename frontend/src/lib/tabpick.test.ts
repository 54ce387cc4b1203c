import { describe, expect, it } from 'vitest';
import { stateWords, tabChoices } from './tabpick';

describe('tabChoices', () => {
  const candidates = [
    { targetId: 'A', url: 'https://chatgpt.com/', title: 'ChatGPT' },
    { targetId: 'B', url: 'https://chatgpt.com/c/abc', title: 'Old title' },
    { targetId: 'C', url: 'https://chatgpt.com/c/zzz', title: 'Closed since' },
  ];
  it('takes title, conversation and state from the open tabs, and marks a closed one', () => {
    const got = tabChoices(candidates, [
      { targetId: 'A', title: 'ChatGPT', url: 'https://chatgpt.com/', state: 'ready' },
      { targetId: 'B', title: 'Ferry schedules', url: 'https://chatgpt.com/c/abc', conversation: 'c/abc', state: 'login' },
    ]);
    expect(got).toEqual([
      { targetId: 'A', title: 'ChatGPT', conversation: '', state: 'ready', gone: false },
      { targetId: 'B', title: 'Ferry schedules', conversation: 'c/abc', state: 'login', gone: false },
      { targetId: 'C', title: 'Closed since', conversation: 'c/zzz', state: '', gone: true },
    ]);
  });
  it('shows the candidates as the envelope names them when the tabs cannot be read', () => {
    expect(tabChoices(candidates.slice(1, 2), null)).toEqual([{ targetId: 'B', title: 'Old title', conversation: 'c/abc', state: '', gone: false }]);
  });
  it('says states in words', () => {
    expect(stateWords('login')).toBe('Not logged in');
    expect(stateWords('')).toBe('Unknown');
  });
});
