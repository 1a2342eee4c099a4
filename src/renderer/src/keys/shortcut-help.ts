// How the keyboard help prints the shortcut table (keyboard.ts), which press is which key, and which key may become
// the cancel-all key. No DOM here: the pure part, tested on its own.
import { RESERVED_KEYS } from '../../../shared/key-bindings';

/** What the help needs of a shortcut. */
export interface KeyUse {
  key: string;
  description: string;
}

const KEY_NAMES: Record<string, string> = {
  Escape: 'Esc',
  ' ': 'Space',
  ArrowUp: '↑',
  ArrowDown: '↓',
  ArrowLeft: '←',
  ArrowRight: '→',
};

/** A key as printed on the keyboard; a capital letter is typed with Shift. */
export function keyName(key: string): string {
  if (KEY_NAMES[key]) return KEY_NAMES[key];
  if (key.startsWith('Alt+') && key.length > 4) return `Alt+${keyName(key.slice(4))}`;
  if (key.length === 1 && key >= 'A' && key <= 'Z') return `Shift+${key}`;
  return key;
}

/** What matching needs of a key press (a KeyboardEvent has it). */
export interface KeyPress {
  key: string;
  code: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey?: boolean;
}

/**
 * Whether a press is a shortcut's key: single letters case-insensitively unless upper case is asked for; no
 * Ctrl or Cmd. "Alt+1" is Alt with that key, read by its place on the keyboard too (macOS types "¡" for Alt+1).
 */
export function keyMatches(key: string, event: KeyPress): boolean {
  if (event.ctrlKey || event.metaKey) return false;
  const withAlt = key.startsWith('Alt+') && key.length > 4;
  if (withAlt !== event.altKey) return false;
  if (withAlt) {
    const bare = key.slice(4);
    return event.key === bare || event.code === (/^[0-9]$/.test(bare) ? `Digit${bare}` : bare);
  }
  // A capital letter is Shift and the letter: the same capital typed with Caps Lock on is not it, so a trader
  // who left Caps Lock on does not buy (B) or flatten (F) by typing.
  if (key.length === 1 && key >= 'A' && key <= 'Z') return event.key === key && event.shiftKey === true;
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

/** Why `key` cannot be the cancel-all key (in use, or reserved), or null when it can. */
export function cancelAllKeyProblem(key: string, current: string, shortcuts: readonly KeyUse[]): string | null {
  if (RESERVED_KEYS.has(key) || !(key.length === 1 || /^F\d{1,2}$/.test(key)))
    return `${keyName(key)} cannot be the cancel-all key: choose a letter, a digit, a sign or F1–F12.`;
  if (key === current) return null;
  const taken = shortcuts.find((s) => s.key === key);
  return taken ? `${keyName(key)} already does “${taken.description}”: choose another key.` : null;
}
