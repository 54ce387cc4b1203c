import { describe, expect, it } from 'vitest';
import { pushToast, type Toast } from './toastlist';

function err(id: number, code: string, message = 'm'): Toast {
  return { id, kind: 'error', title: code, message, count: 1, envelope: { stage: 'input', code, message, retryable: false } };
}

describe('pushToast', () => {
  it('stacks different toasts newest last', () => {
    const list = pushToast(pushToast([], err(1, 'a')), err(2, 'b'));
    expect(list.map((t) => t.id)).toEqual([1, 2]);
  });

  it('raises the count of a repeat instead of stacking a copy, and moves it last', () => {
    let list = pushToast([], err(1, 'a'));
    list = pushToast(list, err(2, 'b'));
    list = pushToast(list, err(3, 'a'));
    expect(list.map((t) => [t.id, t.count])).toEqual([
      [2, 1],
      [1, 2],
    ]);
  });

  it('treats the same code with another message as a new toast', () => {
    const list = pushToast(pushToast([], err(1, 'a', 'x')), err(2, 'a', 'y'));
    expect(list).toHaveLength(2);
  });

  it('drops the oldest beyond the maximum', () => {
    let list: Toast[] = [];
    for (let i = 1; i <= 6; i++) list = pushToast(list, err(i, `c${i}`), 4);
    expect(list.map((t) => t.id)).toEqual([3, 4, 5, 6]);
  });
});
