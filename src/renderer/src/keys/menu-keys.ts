// Keyboard handling shared by the top bar's menus (wallets, networks): opened by a key, the first usable item
// takes the focus, ↑/↓ move between items (Tab works too), Esc closes and gives the focus back to the button.
import type { KeyboardEvent as ReactKeyboardEvent } from 'react';

const ITEMS = 'button:not(:disabled), input:not(:disabled)';

/** Focuses the checked item if there is one, else the first usable one. */
export function focusFirstItem(menu: HTMLElement | null): void {
  if (!menu) return;
  const checked = menu.querySelector<HTMLElement>('[aria-checked="true"]:not(:disabled)');
  (checked ?? menu.querySelector<HTMLElement>(ITEMS))?.focus();
}

/** ↑/↓ inside a menu: the previous or next usable item, wrapping around. */
export function onMenuArrows(event: ReactKeyboardEvent<HTMLElement>): void {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const items = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(ITEMS));
  if (items.length === 0) return;
  event.preventDefault();
  const at = items.indexOf(document.activeElement as HTMLElement);
  const next = event.key === 'ArrowDown' ? (at + 1) % items.length : (at - 1 + items.length) % items.length;
  items[next]!.focus();
}
