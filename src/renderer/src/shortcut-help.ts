// How the keyboard help prints the shortcut table (keyboard.ts), whether a key press is a shortcut's key, and which
// key may become the cancel-all key. No DOM here: the pure part, tested on its own.
import { keyLabel } from '../../shared/key-bindings';

/** What the help needs of a shortcut. */
export interface KeyUse {
  key: string;
  description: string;
}

/** A key as printed on the keyboard; a capital letter is typed with Shift (one spelling with the trading keys'). */
export const keyName = keyLabel;

/**
 * Whether a key press is a shortcut's key, exactly. A capital letter is Shift and the letter: the same capital
 * typed with Caps Lock on is not it, so a trader who left Caps Lock on does not buy (B) or flatten (F) by typing.
 */
export function keyMatches(key: string, event: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean }): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey) return false;
  if (key.length === 1 && key >= 'A' && key <= 'Z') return event.key === key && event.shiftKey;
  return event.key === key;
}

/** One line per key, in the order first registered; a key several panels use lists each of their uses. */
export function shortcutLines(shortcuts: readonly KeyUse[]): { key: string; descriptions: string[] }[] {
  const lines = new Map<string, string[]>();
  for (const s of shortcuts) {
    const descriptions = lines.get(s.key) ?? [];
    if (!descriptions.includes(s.description)) descriptions.push(s.description);
    lines.set(s.key, descriptions);
  }
  return [...lines].map(([key, descriptions]) => ({ key, descriptions }));
}

/** Keys that move around or close things (or type nothing): never the cancel-all key. */
const RESERVED = new Set(['Escape', 'Tab', 'Enter', ' ', 'Shift', 'Control', 'Alt', 'Meta', 'CapsLock', 'Backspace', 'Delete', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight']);

/** Why `key` cannot be the cancel-all key (in use, or reserved), or null when it can. */
export function cancelAllKeyProblem(key: string, current: string, shortcuts: readonly KeyUse[]): string | null {
  if (RESERVED.has(key) || !(key.length === 1 || /^F\d{1,2}$/.test(key))) return `${keyName(key)} cannot be the cancel-all key: choose a letter, a digit, a sign or F1–F12.`;
  if (key === current) return null;
  const taken = shortcuts.find((s) => s.key === key);
  return taken ? `${keyName(key)} already does “${taken.description}”: choose another key.` : null;
}
