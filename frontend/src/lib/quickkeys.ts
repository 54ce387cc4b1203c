// The quick prompt's keys: Enter sends, Shift+Enter starts a new line, Esc
// leaves.

export type QuickKey = 'send' | 'close' | null;

export interface QuickKeyLike {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  isComposing?: boolean;
}

/** quickKey says what a keydown in the quick prompt's box does. */
export function quickKey(e: QuickKeyLike): QuickKey {
  if (e.isComposing) return null; // an input method is still building the text
  if (e.key === 'Escape') return 'close';
  if (e.key === 'Enter' && !e.shiftKey && !e.altKey && !e.metaKey) return 'send';
  return null;
}
