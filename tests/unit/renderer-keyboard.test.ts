// The keyboard table's pure parts: how a key is printed in the help, one help line per key, and which keys may
// become the cancel-all key (not one another shortcut uses, not one that moves around or closes things).
import { describe, expect, it } from 'vitest';
import {
  cancelAllKeyProblem,
  keyMatches,
  keyName,
  shortcutLines,
  type KeyUse,
} from '../../src/renderer/src/keys/shortcut-help';

const shortcut = (key: string, description: string): KeyUse => ({ key, description });

describe('the keyboard help', () => {
  it('prints keys as on the keyboard', () => {
    expect(keyName('Escape')).toBe('Esc');
    expect(keyName('X')).toBe('Shift+X');
    expect(keyName('x')).toBe('x');
    expect(keyName('/')).toBe('/');
  });

  it('gives one line per key, each use of a shared key once, in the order first registered', () => {
    const lines = shortcutLines([
      shortcut('Escape', 'Leave the field'),
      shortcut('j', 'Next market'),
      shortcut('Escape', 'Close the dialog'),
      shortcut('Escape', 'Leave the field'),
    ]);
    expect(lines).toEqual([
      { key: 'Escape', descriptions: ['Leave the field', 'Close the dialog'] },
      { key: 'j', descriptions: ['Next market'] },
    ]);
  });
});

describe('choosing the cancel-all key', () => {
  const inUse = [shortcut('j', 'Next market'), shortcut('X', 'Cancel all open orders (asks first)')];

  it('refuses a key another shortcut uses, naming what it does', () => {
    expect(cancelAllKeyProblem('j', 'X', inUse)).toBe('j already does “Next market”: choose another key.');
  });

  it('refuses keys that move around or close things', () => {
    for (const key of ['Escape', 'Tab', 'Enter', ' ', 'ArrowDown', 'Shift', 'PageDown'])
      expect(cancelAllKeyProblem(key, 'X', inUse)).toMatch(/cannot be the cancel-all key/);
  });

  it('takes a free letter, sign or function key, and the current key itself', () => {
    expect(cancelAllKeyProblem('Z', 'X', inUse)).toBeNull();
    expect(cancelAllKeyProblem('!', 'X', inUse)).toBeNull();
    expect(cancelAllKeyProblem('F9', 'X', inUse)).toBeNull();
    expect(cancelAllKeyProblem('X', 'X', inUse)).toBeNull();
  });
});

describe('matching a key press', () => {
  const press = (
    key: string,
    mods: Partial<{ shiftKey: boolean; ctrlKey: boolean; altKey: boolean; metaKey: boolean }> = {},
  ) => ({ key, code: '', shiftKey: false, ctrlKey: false, altKey: false, metaKey: false, ...mods });

  it('a capital letter is Shift and the letter; the same capital from Caps Lock is not it', () => {
    expect(keyMatches('B', press('B', { shiftKey: true }))).toBe(true);
    expect(keyMatches('B', press('B'))).toBe(false);
    expect(keyMatches('B', press('b', { shiftKey: true }))).toBe(false);
    expect(keyMatches('b', press('b'))).toBe(true);
    expect(keyMatches('b', press('B', { shiftKey: true }))).toBe(false);
  });

  it('signs and function keys match as typed; Ctrl, Alt or Meta never match', () => {
    expect(keyMatches('+', press('+', { shiftKey: true }))).toBe(true);
    expect(keyMatches('F1', press('F1'))).toBe(true);
    expect(keyMatches('F1', press('F1', { ctrlKey: true }))).toBe(false);
    expect(keyMatches('B', press('B', { shiftKey: true, metaKey: true }))).toBe(false);
  });
});
