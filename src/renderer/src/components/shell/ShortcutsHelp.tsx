// The keyboard help (`?`): every shortcut registered when it was opened, one line per key, so a trader can
// learn the terminal without the mouse, and the place to choose the cancel-all key and the keyboard trading keys
// (TradingKeys). Esc closes it.
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { listShortcuts, type Shortcut } from '../../keys/keyboard';
import { cancelAllKeyProblem, keyName, shortcutLines } from '../../keys/shortcut-help';
import { useSession } from '../../store/session';
import { Dialog, ErrorLine } from '../wallets/Dialog';
import { TradingKeys } from './TradingKeys';

export function ShortcutsHelp({ shortcuts: openedWith, onClose }: { shortcuts: readonly Shortcut[]; onClose(): void }) {
  const cancelAllKey = useSession((s) => s.settings.cancelAllKey);
  const [shortcuts, setShortcuts] = useState(openedWith);
  const [problem, setProblem] = useState<string | null>(null);
  // The key box only while asked for: a key pressed in it changes the setting, so it never has the focus by surprise.
  const [choosing, setChoosing] = useState(false);
  const keyBox = useRef<HTMLInputElement>(null);
  const keyBindings = useSession((s) => s.settings.keyBindings);
  const opened = useRef({ cancelAllKey, keyBindings });
  // A new cancel-all or trading key is registered by its panel once the setting changed: list it then.
  useEffect(() => {
    if (cancelAllKey === opened.current.cancelAllKey && keyBindings === opened.current.keyBindings) return;
    const later = setTimeout(() => setShortcuts([...listShortcuts()]), 0);
    return () => clearTimeout(later);
  }, [cancelAllKey, keyBindings]);
  useEffect(() => {
    if (choosing) keyBox.current?.focus();
  }, [choosing]);
  // The help opens on Close, not on the first field the dialog would pick (a size preset): a key pressed by habit
  // changes nothing. It is read from its top: focusing Close (the last control) must not scroll the list away.
  const closeButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    closeButton.current?.focus({ preventScroll: true });
    const dialog = closeButton.current?.closest('.dialog');
    if (dialog) dialog.scrollTop = 0;
  }, []);

  function chooseKey(event: KeyboardEvent<HTMLInputElement>) {
    // Tab still moves on, Esc still closes: every other key is the one asked for.
    if (event.key === 'Tab' || event.key === 'Escape' || event.key === 'Shift') return;
    event.preventDefault();
    const why = cancelAllKeyProblem(event.key, cancelAllKey, listShortcuts());
    setProblem(why);
    if (why) return;
    if (event.key !== cancelAllKey) void useSession.getState().saveSettings({ cancelAllKey: event.key });
    setChoosing(false);
  }

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
      {/* Before the cancel-all key: from Close, Shift+Tab reaches that key's button first, as it always has. */}
      <TradingKeys />
      <div className="field">
        {choosing ? (
          <>
            <label htmlFor="cancel-all-key">Press the new cancel-all key</label>
            <input
              id="cancel-all-key"
              ref={keyBox}
              data-testid="cancel-all-key"
              readOnly
              value={keyName(cancelAllKey)}
              title="Press the key that should cancel every open order of the wallet (always after a confirmation)"
              onKeyDown={chooseKey}
              onBlur={() => setChoosing(false)}
            />
          </>
        ) : (
          <button type="button" data-testid="change-cancel-all-key" onClick={() => setChoosing(true)}>
            Change the cancel-all key ({keyName(cancelAllKey)})…
          </button>
        )}
        <ErrorLine message={problem} />
      </div>
      <p className="muted">
        Tab and Shift+Tab move between controls, Enter or Space presses the one in focus, ↑ and ↓ move inside an open
        menu. Keys typed into a field go to the field, except Esc, which leaves it.
      </p>
      <div className="row dialog-actions">
        <button type="button" className="primary" ref={closeButton} onClick={onClose}>
          Close (Esc)
        </button>
      </div>
    </Dialog>
  );
}
