// Keyboard shortcuts, one table: panels register what a key does while they are mounted, the shell listens
// once. Keys typed into a field go to the field (except Esc), so `b` in the size box types a `b`.
import { useLayoutEffect, useRef } from 'react';
import { keyMatches } from './shortcut-help';

export interface Shortcut {
  key: string;
  description: string;
  run(event: KeyboardEvent): void;
  /** Also while typing in a field (Esc). */
  inFields?: boolean;
}

const shortcuts: Shortcut[] = [];

/** Adds a shortcut until the function returned is called. */
export function registerShortcut(shortcut: Shortcut): () => void {
  shortcuts.push(shortcut);
  return () => {
    const at = shortcuts.indexOf(shortcut);
    if (at >= 0) shortcuts.splice(at, 1);
  };
}

/**
 * A dialog's Esc (also while typing in its fields), calling the latest `close` it was rendered with. Registered in a
 * layout effect, so the key closes the dialog from the moment it is on screen: a passive effect runs only after the
 * paint, in a task of its own when the dialog opened from anything but a key or click (the keyboard's Buy at best
 * opens the confirmation from the ticket's effect), and an Esc pressed in between went to the page's own Esc and
 * left the dialog open.
 */
export function useDialogEscape(description: string, close: () => void): void {
  const latest = useRef(close);
  latest.current = close;
  useLayoutEffect(
    () => registerShortcut({ key: 'Escape', description, inFields: true, run: () => latest.current() }),
    [description],
  );
}

export function listShortcuts(): readonly Shortcut[] {
  return shortcuts;
}

function typingIn(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || typeof el.tagName !== 'string') return false;
  return el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable;
}

/** Matches `key` against a shortcut's key (see keyMatches). */
function matches(shortcut: Shortcut, event: KeyboardEvent): boolean {
  return keyMatches(shortcut.key, event);
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
