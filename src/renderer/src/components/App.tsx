// The terminal's one screen: the top bar (network, feeds, wallet) over three columns — markets on the left,
// the markets open in tiles in the middle (chart, ladder, tape each), the ticket on the right — and the account below.
// Splitters between them let the trader shape it; the sizes are kept with the settings.
import { useEffect, useRef, useState } from 'react';
import { useSession } from '../store/session';
import { listShortcuts, registerShortcut, type Shortcut } from '../keyboard';
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
  useEffect(() => registerShortcut({ key: '?', description: 'Show the keyboard shortcuts', run: () => setHelp([...listShortcuts()]) }), []);
  return (
    <div className="app">
      <TopBar />
      <div className="workspace" ref={workspace} style={{ gridTemplateRows: `minmax(0, 1fr) ${SPLITTER_PX}px ${sizes.account}px` }}>
        <main className="columns" style={{ gridTemplateColumns: `${sizes.markets}px ${SPLITTER_PX}px minmax(0, 1fr) ${SPLITTER_PX}px ${sizes.ticket}px` }}>
          <section className="column markets-column" aria-label="Markets">
            <MarketsPanel />
          </section>
          <Splitter
            between="columns"
            size={sizes.markets}
            min={PANEL_BOUNDS.markets.min}
            max={max.markets}
            grows={1}
            label="Markets panel width"
            testId="splitter-markets"
            onResize={(size) => layout.resize('markets', size)}
            onReset={() => layout.reset('markets')}
          />
          <section className="column market-column" aria-label="Market">
            <TileArea />
          </section>
          <Splitter
            between="columns"
            size={sizes.ticket}
            min={PANEL_BOUNDS.ticket.min}
            max={max.ticket}
            grows={-1}
            label="Order ticket width"
            testId="splitter-ticket"
            onResize={(size) => layout.resize('ticket', size)}
            onReset={() => layout.reset('ticket')}
          />
          <section className="column ticket-column" aria-label="Order ticket">
            <OrderTicket />
          </section>
        </main>
        <Splitter
          between="rows"
          size={sizes.account}
          min={PANEL_BOUNDS.account.min}
          max={max.account}
          grows={-1}
          label="Account panel height"
          testId="splitter-account"
          onResize={(size) => layout.resize('account', size)}
          onReset={() => layout.reset('account')}
        />
        <section className="account-row" aria-label="Account">
          <AccountPanel />
        </section>
      </div>
      <Notices />
      {help ? <ShortcutsHelp shortcuts={help} onClose={() => setHelp(null)} /> : null}
    </div>
  );
}
