// The terminal's one screen: the top bar (network, feeds, wallet) over three columns — markets on the left,
// the chosen market in the middle (chart, ladder, tape), the ticket on the right — and the account below.
import { useEffect, useState } from 'react';
import { useSession } from '../store/session';
import { listShortcuts, registerShortcut, type Shortcut } from '../keyboard';
import { TopBar } from './shell/TopBar';
import { Notices } from './shell/Notices';
import { ShortcutsHelp } from './shell/ShortcutsHelp';
import { MarketsPanel } from './markets/MarketsPanel';
import { MarketView } from './market/MarketView';
import { OrderTicket } from './ticket/OrderTicket';
import { AccountPanel } from './account/AccountPanel';

export function App() {
  const theme = useSession((s) => s.settings.theme);
  // The shortcuts as they stood when `?` was pressed (the help's own Esc is not one to learn).
  const [help, setHelp] = useState<readonly Shortcut[] | null>(null);
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
      <main className="columns">
        <section className="column markets-column" aria-label="Markets">
          <MarketsPanel />
        </section>
        <section className="column market-column" aria-label="Market">
          <MarketView />
        </section>
        <section className="column ticket-column" aria-label="Order ticket">
          <OrderTicket />
        </section>
      </main>
      <section className="account-row" aria-label="Account">
        <AccountPanel />
      </section>
      <Notices />
      {help ? <ShortcutsHelp shortcuts={help} onClose={() => setHelp(null)} /> : null}
    </div>
  );
}
