import { describe, expect, it } from 'vitest';
import { stateWords, tabChoices } from './tabpick';

describe('tabChoices', () => {
  const candidates = [
    { targetId: 'A', url: 'https://chatgpt.com/', title: 'New chat' },
    { targetId: 'B', url: 'https://chatgpt.com/c/abc', title: 'Ferry schedules' },
    { targetId: 'C', url: 'https://chatgpt.com/c/zzz', title: 'Closed since' },
    { targetId: 'D', url: 'https://chatgpt.com/c/ddd' },
  ];
  it('names each tab as the envelope does, takes conversation and state from the open tabs, and marks a closed one', () => {
    const got = tabChoices(candidates, [
      { targetId: 'A', title: 'ChatGPT', url: 'https://chatgpt.com/', state: 'ready' },
      { targetId: 'B', title: 'ChatGPT', url: 'https://chatgpt.com/c/abc', conversation: 'c/abc', state: 'login' },
      { targetId: 'D', title: 'Tides', url: 'https://chatgpt.com/c/ddd', conversation: 'c/ddd', state: 'ready' },
    ]);
    expect(got).toEqual([
      { targetId: 'A', title: 'New chat', conversation: '', state: 'ready', gone: false },
      { targetId: 'B', title: 'Ferry schedules', conversation: 'c/abc', state: 'login', gone: false },
      { targetId: 'C', title: 'Closed since', conversation: 'c/zzz', state: '', gone: true },
      { targetId: 'D', title: 'Tides', conversation: 'c/ddd', state: 'ready', gone: false },
    ]);
  });
  it('shows the candidates as the envelope names them when the tabs cannot be read', () => {
    expect(tabChoices(candidates.slice(1, 2), null)).toEqual([{ targetId: 'B', title: 'Ferry schedules', conversation: 'c/abc', state: '', gone: false }]);
  });
  it('says states in words', () => {
    expect(stateWords('login')).toBe('Not logged in');
    expect(stateWords('')).toBe('Unknown');
  });
});
