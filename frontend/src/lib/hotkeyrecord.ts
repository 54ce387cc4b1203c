// Recording a global shortcut by pressing it: a keydown becomes the
// shortcut in the form the settings take ("Ctrl+Shift+Space"), read from
// the key's position (e.code) so that a keyboard layout does not change
// the letter, with the same rule the app checks: Ctrl, Alt or Super, unless
// the key is a function key.

export interface HotkeyKeyLike {
  key: string;
  code: string;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  metaKey: boolean;
}

export type Recorded =
  | { kind: 'hotkey'; hotkey: string }
  /** Only modifiers so far: what they spell, to show while recording. */
  | { kind: 'partial'; text: string }
  /** A key the settings cannot take, or one without Ctrl/Alt/Super. */
  | { kind: 'problem'; text: string; problem: string }
  | { kind: 'cancel' }
  /** Tab: leave the field, as everywhere else. */
  | { kind: 'pass' };

const MODIFIER_KEYS = new Set(['Control', 'Shift', 'Alt', 'Meta', 'Super', 'OS', 'AltGraph', 'Hyper']);

const NAMED: Record<string, string> = {
  Space: 'Space',
  Enter: 'Return',
  NumpadEnter: 'Return',
  Delete: 'Delete',
  ArrowLeft: 'Left',
  ArrowRight: 'Right',
  ArrowUp: 'Up',
  ArrowDown: 'Down',
};

function modifiers(e: HotkeyKeyLike): string[] {
  const mods: string[] = [];
  if (e.ctrlKey) mods.push('Ctrl');
  if (e.shiftKey) mods.push('Shift');
  if (e.altKey) mods.push('Alt');
  if (e.metaKey) mods.push('Super');
  return mods;
}

/** keyName is the settings' name of the key at e.code, or null. */
export function keyName(code: string): string | null {
  let m = /^Key([A-Z])$/.exec(code);
  if (m) return m[1];
  m = /^(?:Digit|Numpad)([0-9])$/.exec(code);
  if (m) return m[1];
  m = /^F([1-9]|1[0-9]|20)$/.exec(code);
  if (m) return code;
  return NAMED[code] ?? null;
}

/** recordKey reads one keydown while the shortcut field records. */
export function recordKey(e: HotkeyKeyLike): Recorded {
  const mods = modifiers(e);
  if (MODIFIER_KEYS.has(e.key)) return { kind: 'partial', text: mods.join('+') };
  if (mods.length === 0 && e.key === 'Escape') return { kind: 'cancel' };
  if (mods.length === 0 && e.key === 'Tab') return { kind: 'pass' };
  const key = keyName(e.code);
  const text = [...mods, key ?? e.key].join('+');
  if (!key) {
    return { kind: 'problem', text, problem: 'That key cannot be a shortcut: use a letter, a digit, F1–F20, Space, Return, Delete or an arrow' };
  }
  const fn = /^F\d+$/.test(key);
  if (!fn && !e.ctrlKey && !e.altKey && !e.metaKey) {
    return { kind: 'problem', text, problem: 'Add Ctrl, Alt or Super, so the shortcut does not take over typing' };
  }
  return { kind: 'hotkey', hotkey: text };
}
