// The column chooser: which columns the markets grid shows, saved with the settings so the choice survives a
// restart. The market name cannot be hidden: a row without it could not be told apart.
import { useEffect, useRef, useState } from 'react';
import { registerShortcut } from '../../keys/keyboard';
import { useSession } from '../../store/session';
import { chosenColumns, MARKET_COLUMNS, toggleColumn } from '../../model/market-rows';

export function ColumnChooser() {
  const saved = useSession((s) => s.settings.marketColumns);
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const chosen = chosenColumns(saved);

  useEffect(() => {
    if (!open) return;
    // A click anywhere else closes it, as a menu does.
    const close = (event: MouseEvent) => {
      if (!box.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    // Esc closes it too; registered while open, so it comes before the page's own Esc.
    const offEscape = registerShortcut({
      key: 'Escape',
      description: 'Close the column chooser',
      inFields: true,
      run: () => setOpen(false),
    });
    return () => {
      document.removeEventListener('mousedown', close);
      offEscape();
    };
  }, [open]);

  return (
    <div className="column-chooser" ref={box}>
      <button
        type="button"
        className="ghost"
        data-testid="column-chooser"
        aria-expanded={open}
        title="Choose the grid's columns"
        onClick={() => setOpen(!open)}
      >
        Columns
      </button>
      {open ? (
        <div className="column-menu" role="menu" data-testid="column-menu">
          {MARKET_COLUMNS.map((c) => (
            <label key={c.id} title={c.id === 'title' ? 'The market name is always shown' : undefined}>
              <input
                type="checkbox"
                data-testid={`column-${c.id}`}
                checked={chosen.includes(c.id)}
                disabled={c.id === 'title'}
                onChange={() => void useSession.getState().saveSettings({ marketColumns: toggleColumn(saved, c.id) })}
              />{' '}
              {c.label}
            </label>
          ))}
        </div>
      ) : null}
    </div>
  );
}
