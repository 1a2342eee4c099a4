// The terminal's one screen: the top bar (network, feeds, wallet) over three columns — markets on the left,
// the markets open in tiles in the middle (chart, ladder, tape each), the ticket on the right — and the account below.
// Splitters between them let the trader shape it; the sizes are kept with the settings.
import { useEffect, useRef, useState } from 'react';
import { useSession } from '../store/session';
import { listShortcuts, registerShortcut, type Shortcut } from '../keys/keyboard';
import { TopBar } from './shell/TopBar';
import { Notices } from './shell/Notices';
import { ShortcutsHelp } from './shell/ShortcutsHelp';
import { Splitter } from './shell/Splitter';
import { PANEL_BOUNDS, SPLITTER_PX } from './shell/panel-sizes';
import { usePanelSizes } from './shell/usePanelSizes';
import { MarketsPanel } from './markets/MarketsPanel';
import { TileArea } from './tiles/TileArea';
import { OrderTicket } from './ticket/OrderTicket';
import { AccountPanel } from './account/AccountPanel';

export function App() {
  const theme = useSession((s) => s.settings.theme);
  // The shortcuts as they stood when `?` was pressed (the help's own Esc is not one to learn).
  const [help, setHelp] = useState<readonly Shortcut[] | null>(null);
  const workspace = useRef<HTMLDivElement>(null);
  const layout = usePanelSizes(workspace);
  const { sizes, max } = layout;
  /** The splitter that sizes one panel: `grows` 1 when dragging right/down widens it, −1 when it narrows it. */
  const panelSplitter = (
    panel: 'markets' | 'ticket' | 'account',
    between: 'columns' | 'rows',
    grows: 1 | -1,
    label: string,
  ) => (
    <Splitter
      between={between}
      size={sizes[panel]}
      min={PANEL_BOUNDS[panel].min}
      max={max[panel]}
      grows={grows}
      label={label}
      testId={`splitter-${panel}`}
      onResize={(size) => layout.resize(panel, size)}
      onReset={() => layout.reset(panel)}
    />
  );
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  useEffect(
    () =>
      registerShortcut({
        key: 'Escape',
        description: 'Leave the field or close what is open',
        inFields: true,
        run: () => (document.activeElement as HTMLElement | null)?.blur?.(),
      }),
    [],
  );
  useEffect(
    () =>
      registerShortcut({
        key: '?',
        description: 'Show the keyboard shortcuts',
        run: () => setHelp([...listShortcuts()]),
      }),
    [],
  );
  return (
    <div className="app">
      <TopBar />
      <div
        className="workspace"
        ref={workspace}
        style={{ gridTemplateRows: `minmax(0, 1fr) ${SPLITTER_PX}px ${sizes.account}px` }}
      >
        <main
          className="columns"
          style={{
            gridTemplateColumns: `${sizes.markets}px ${SPLITTER_PX}px minmax(0, 1fr) ${SPLITTER_PX}px ${sizes.ticket}px`,
          }}
        >
          <section className="column markets-column" aria-label="Markets">
            <MarketsPanel />
          </section>
          {panelSplitter('markets', 'columns', 1, 'Markets panel width')}
          <section className="column market-column" aria-label="Market">
            <TileArea />
          </section>
          {panelSplitter('ticket', 'columns', -1, 'Order ticket width')}
          <section className="column ticket-column" aria-label="Order ticket">
            <OrderTicket />
          </section>
        </main>
        {panelSplitter('account', 'rows', -1, 'Account panel height')}
        <section className="account-row" aria-label="Account">
          <AccountPanel />
        </section>
      </div>
      <Notices />
      {help ? <ShortcutsHelp shortcuts={help} onClose={() => setHelp(null)} /> : null}
    </div>
  );
}
