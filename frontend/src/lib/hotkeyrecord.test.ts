import { describe, expect, it } from 'vitest';
import { keyName, recordKey, type HotkeyKeyLike } from './hotkeyrecord';

const key = (k: string, code: string, mods: Partial<HotkeyKeyLike> = {}): HotkeyKeyLike => ({
  key: k, code, ctrlKey: false, shiftKey: false, altKey: false, metaKey: false, ...mods,
});

describe('recording a shortcut', () => {
  it('spells a pressed shortcut as the settings take it', () => {
    expect(recordKey(key(' ', 'Space', { ctrlKey: true, shiftKey: true }))).toEqual({ kind: 'hotkey', hotkey: 'Ctrl+Shift+Space' });
    expect(recordKey(key('k', 'KeyK', { altKey: true, ctrlKey: true }))).toEqual({ kind: 'hotkey', hotkey: 'Ctrl+Alt+K' });
    expect(recordKey(key('Enter', 'Enter', { metaKey: true }))).toEqual({ kind: 'hotkey', hotkey: 'Super+Return' });
    expect(recordKey(key('F9', 'F9'))).toEqual({ kind: 'hotkey', hotkey: 'F9' });
  });
  it('reads the key by its place, not the layout', () => {
    // AZERTY: the key at Q's place types "a"
    expect(recordKey(key('a', 'KeyQ', { ctrlKey: true }))).toEqual({ kind: 'hotkey', hotkey: 'Ctrl+Q' });
    expect(keyName('Digit7')).toBe('7');
    expect(keyName('F21')).toBeNull();
  });
  it('shows modifiers while they are held, and cancels or leaves on Esc and Tab', () => {
    expect(recordKey(key('Control', 'ControlLeft', { ctrlKey: true }))).toEqual({ kind: 'partial', text: 'Ctrl' });
    expect(recordKey(key('Shift', 'ShiftLeft', { ctrlKey: true, shiftKey: true }))).toEqual({ kind: 'partial', text: 'Ctrl+Shift' });
    expect(recordKey(key('Escape', 'Escape'))).toEqual({ kind: 'cancel' });
    expect(recordKey(key('Tab', 'Tab'))).toEqual({ kind: 'pass' });
  });
  it('refuses what would take over typing, or a key the settings lack', () => {
    expect(recordKey(key('K', 'KeyK', { shiftKey: true }))).toMatchObject({ kind: 'problem', text: 'Shift+K' });
    expect(recordKey(key('ä', 'Quote', { ctrlKey: true }))).toMatchObject({ kind: 'problem', text: 'Ctrl+ä' });
  });
});
