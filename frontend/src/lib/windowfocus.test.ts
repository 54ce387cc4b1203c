import { describe, expect, it } from 'vitest';
import { watchWindowFocus } from './windowfocus';

// A window whose focus the test sets, with the events a real one fires.
function fakeWindow() {
  let focused = true;
  const target = new EventTarget();
  const win = {
    document: { hasFocus: () => focused },
    addEventListener: target.addEventListener.bind(target),
    removeEventListener: target.removeEventListener.bind(target),
  } as unknown as Window;
  return {
    win,
    set(on: boolean) {
      focused = on;
      target.dispatchEvent(new Event(on ? 'focus' : 'blur'));
    },
  };
}

describe('watchWindowFocus', () => {
  it('reports the focus at once and each change once', () => {
    const w = fakeWindow();
    const got: boolean[] = [];
    const off = watchWindowFocus((f) => got.push(f), w.win);
    w.set(false);
    w.set(false);
    w.set(true);
    off();
    w.set(false);
    expect(got).toEqual([true, false, true]);
  });
});
