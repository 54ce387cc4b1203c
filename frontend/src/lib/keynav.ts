// Keyboard navigation rules for lists such as the sidebar, kept free of the
// DOM so they can be tested as a table.

/** KeyLike is the part of a KeyboardEvent the rules look at. */
export interface KeyLike {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  shiftKey?: boolean;
}

/**
 * moveIndex returns the index focus moves to from `current` in a vertical list
 * of `count` items for `key`, or null when the key is not a movement key.
 * Arrows wrap around; Home and End jump to the ends.
 */
export function moveIndex(current: number, key: string, count: number): number | null {
  if (count <= 0) return null;
  const at = current < 0 || current >= count ? 0 : current;
  switch (key) {
    case 'ArrowDown':
      return (at + 1) % count;
    case 'ArrowUp':
      return (at - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/** isActivation reports whether key activates the focused item. */
export function isActivation(key: string): boolean {
  return key === 'Enter' || key === ' ';
}

/**
 * shortcutIndex maps Ctrl+1..Ctrl+N (Cmd on macOS) to a zero-based item index,
 * or null for any other combination. Alt and Shift combinations are left to
 * the system and to text fields.
 */
export function shortcutIndex(e: KeyLike, count: number): number | null {
  if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return null;
  if (!/^[1-9]$/.test(e.key)) return null;
  const i = Number(e.key) - 1;
  return i < count ? i : null;
}
