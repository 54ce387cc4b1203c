// Tells the app whether its window has the focus, on every focus and blur:
// while it has, a run's end is shown in the window, not as a notification.

/** watchWindowFocus reports the focus now and on each change; it returns the unsubscribe. */
export function watchWindowFocus(report: (focused: boolean) => unknown, win: Window = window): () => void {
  let last: boolean | null = null;
  const send = () => {
    const focused = win.document.hasFocus();
    if (focused === last) return;
    last = focused;
    Promise.resolve(report(focused)).catch(() => {
      last = null; // say it again on the next change
    });
  };
  win.addEventListener('focus', send);
  win.addEventListener('blur', send);
  send();
  return () => {
    win.removeEventListener('focus', send);
    win.removeEventListener('blur', send);
  };
}
