// The toast stack's rules, free of Svelte so they can be tested: newest last,
// a repeat of a toast already shown bumps its count instead of stacking a
// copy, and the oldest go first when the stack is full.

import type { Envelope } from './envelope';

export type ToastKind = 'error' | 'success' | 'info';

export interface Toast {
  id: number;
  kind: ToastKind;
  title: string;
  message: string;
  /** Set for errors: the envelope the toast shows. */
  envelope?: Envelope;
  /** How many times this toast was raised while shown. */
  count: number;
}

/** MAX_TOASTS is how many toasts are shown at once. */
export const MAX_TOASTS = 4;

/** sameToast reports whether b repeats a (same kind, code and message). */
export function sameToast(a: Omit<Toast, 'id' | 'count'>, b: Omit<Toast, 'id' | 'count'>): boolean {
  return a.kind === b.kind && a.title === b.title && a.message === b.message && a.envelope?.code === b.envelope?.code;
}

/**
 * pushToast returns the list with t added: a repeat moves to the end with its
 * count raised; the oldest are dropped beyond max.
 */
export function pushToast(list: readonly Toast[], t: Toast, max = MAX_TOASTS): Toast[] {
  const existing = list.find((x) => sameToast(x, t));
  let next: Toast[];
  if (existing) {
    next = [...list.filter((x) => x !== existing), { ...existing, count: existing.count + 1, envelope: t.envelope ?? existing.envelope }];
  } else {
    next = [...list, t];
  }
  return next.length > max ? next.slice(next.length - max) : next;
}
