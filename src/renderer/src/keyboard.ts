// Keyboard shortcuts, one table: panels register what a key does while they are mounted, the shell listens
// once. Keys typed into a field go to the field (except Esc), so `b` in the size box types a `b`.
export interface Shortcut {
  key: string;
  description: string;
  run(event: KeyboardEvent): void;
  /** Also while typing in a field (Esc). */
  inFields?: boolean;
}

const shortcuts: Shortcut[] = [];

export function registerShortcut(shortcut: Shortcut): () => void {
  shortcuts.push(shortcut);
  return () => {
    const at = shortcuts.indexOf(shortcut);
    if (at >= 0) shortcuts.splice(at, 1);
  };
}

export function listShortcuts(): readonly Shortcut[] {
  return shortcuts;
}

function typingIn(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || typeof el.tagName !== 'string') return false;
  return el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable;
}

/**
 * Matches `key` against a shortcut's key: single letters case-insensitively unless upper case is asked for.
 * "Alt+1" is Alt with that key, read by its place on the keyboard too (macOS types "¡" for Alt+1).
 */
function matches(shortcut: Shortcut, event: KeyboardEvent): boolean {
  if (event.ctrlKey || event.metaKey) return false;
  const withAlt = shortcut.key.startsWith('Alt+') && shortcut.key.length > 4;
  if (withAlt !== event.altKey) return false;
  if (withAlt) {
    const key = shortcut.key.slice(4);
    return event.key === key || event.code === (/^[0-9]$/.test(key) ? `Digit${key}` : key);
  }
  if (shortcut.key.length === 1 && shortcut.key >= 'A' && shortcut.key <= 'Z') return event.key === shortcut.key;
  return event.key === shortcut.key;
}

export function installKeyboard(target: Window = window): () => void {
  const onKey = (event: KeyboardEvent) => {
    const inField = typingIn(event.target);
    // The latest registered wins: a dialog's Esc before the page's.
    for (let i = shortcuts.length - 1; i >= 0; i -= 1) {
      const shortcut = shortcuts[i]!;
      if (inField && !shortcut.inFields) continue;
      if (!matches(shortcut, event)) continue;
      event.preventDefault();
      shortcut.run(event);
      return;
    }
  };
  target.addEventListener('keydown', onKey);
  return () => target.removeEventListener('keydown', onKey);
}
