// The bar that is always visible: which network this is (real money or not), how the live feeds are, and
// the wallet menu, with the trading-access banner under it and the diagnostics view a click away. A trader
// must never wonder where an order would go.
import { NetworkBadge } from './NetworkBadge';
import { FeedStatus } from './FeedStatus';
import { WalletMenu } from '../wallets/WalletMenu';
import { TradingAccessBanner } from './TradingAccessBanner';
import { useSession } from '../../store/session';
import { useState } from 'react';
import { DiagnosticsDialog } from './Diagnostics';

export function TopBar() {
  const theme = useSession((s) => s.settings.theme);
  const saveSettings = useSession((s) => s.saveSettings);
  const [diagnostics, setDiagnostics] = useState(false);
  return (
    <div className="top-area">
      <header className="top-bar">
        <span className="brand">PM Desk</span>
        <NetworkBadge />
        <FeedStatus />
        <span className="spacer" />
        <button
          type="button"
          className="ghost"
          data-testid="diagnostics-open"
          title="What Polymarket's APIs said this session: deprecated endpoints, fallbacks, rate limits"
          onClick={() => setDiagnostics(true)}
        >
          Diagnostics
        </button>
        <button
          type="button"
          className="ghost"
          data-testid="theme-toggle"
          title="Switch between the dark and the light theme"
          onClick={() => void saveSettings({ theme: theme === 'dark' ? 'light' : 'dark' })}
        >
          {theme === 'dark' ? 'Light' : 'Dark'} theme
        </button>
        <WalletMenu />
      </header>
      <TradingAccessBanner />
      {diagnostics ? <DiagnosticsDialog onClose={() => setDiagnostics(false)} /> : null}
    </div>
  );
}
