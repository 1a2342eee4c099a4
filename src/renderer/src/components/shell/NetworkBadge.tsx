// The network, always visible: name and chain, marked SANDBOX when nothing there is real money. The network
// switch lives with the wallets (components/wallets) and opens from here.
import { useSession } from '../../store/session';
import { NetworkSwitch } from '../wallets/NetworkSwitch';

export function NetworkBadge() {
  const network = useSession((s) => s.network);
  if (!network) return <span className="network-badge" data-testid="network-badge">No network</span>;
  return (
    <span className={`network-badge ${network.sandbox ? 'sandbox' : 'real'}`} data-testid="network-badge" title={`Exchange ${network.clobUrl || 'none'} · aggregator ${network.aggregatorUrl}`}>
      <NetworkSwitch />
      <span className="chain">chain {network.chainId}</span>
      {network.sandbox ? <span className="tag">SANDBOX</span> : <span className="tag real">REAL MONEY</span>}
    </span>
  );
}
