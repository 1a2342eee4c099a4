// The keyboard help (`?`): every shortcut registered when it was opened, one line per key, so a trader can
// learn the terminal without the mouse. Esc closes it.
import type { Shortcut } from '../../keyboard';
import { Dialog } from '../wallets/Dialog';

const KEY_NAMES: Record<string, string> = { Escape: 'Esc', ' ': 'Space', ArrowUp: '↑', ArrowDown: '↓' };

/** A key as printed on the keyboard; a capital letter is typed with Shift. */
export function keyName(key: string): string {
  if (KEY_NAMES[key]) return KEY_NAMES[key];
  if (key.length === 1 && key >= 'A' && key <= 'Z') return `Shift+${key}`;
  return key;
}

/** One line per key, in the order first registered; a key several panels use lists each of their uses. */
export function shortcutLines(shortcuts: readonly Shortcut[]): { key: string; descriptions: string[] }[] {
  const lines = new Map<string, string[]>();
  for (const s of shortcuts) {
    const descriptions = lines.get(s.key) ?? [];
    if (!descriptions.includes(s.description)) descriptions.push(s.description);
    lines.set(s.key, descriptions);
  }
  return [...lines].map(([key, descriptions]) => ({ key, descriptions }));
}

export function ShortcutsHelp({ shortcuts, onClose }: { shortcuts: readonly Shortcut[]; onClose(): void }) {
  return (
    <Dialog title="Keyboard shortcuts" testId="shortcuts-help" onClose={onClose}>
      <table className="dense shortcuts-table">
        <tbody>
          {shortcutLines(shortcuts).map((line) => (
            <tr key={line.key} data-testid="shortcut" data-key={line.key}>
              <td>
                <kbd>{keyName(line.key)}</kbd>
              </td>
              <td>{line.descriptions.join(' · ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">
        Tab and Shift+Tab move between controls, Enter or Space presses the one in focus, ↑ and ↓ move inside an open menu. Keys typed into a field go to the field,
        except Esc, which leaves it.
      </p>
      <div className="row dialog-actions">
        <button type="button" className="primary" onClick={onClose}>
          Close (Esc)
        </button>
      </div>
    </Dialog>
  );
}
