// The network, always visible: name, chain and where its markets are read (Polymarket or an aggregator), marked
// SANDBOX or TEST NETWORK when nothing there is real money. The network switch lives with the wallets (components/wallets) and
// opens from here.
import { useSession } from '../../store/session';
import { NetworkSwitch, moneyTag } from '../wallets/NetworkSwitch';

export function NetworkBadge() {
  const network = useSession((s) => s.network);
  if (!network)
    return (
      <span className="network-badge" data-testid="network-badge">
        No network
      </span>
    );
  const marketsFrom =
    network.source === 'aggregator'
      ? `markets from the aggregator ${network.aggregatorUrl}`
      : `markets from Polymarket ${network.gammaUrl}`;
  return (
    <span
      className={`network-badge ${network.sandbox ? 'sandbox' : 'real'}`}
      data-testid="network-badge"
      title={`Exchange ${network.clobUrl || 'none'} · ${marketsFrom}`}
    >
      <NetworkSwitch />
      <span className="chain">chain {network.chainId}</span>
      <span className="source" data-testid="network-source">
        {network.source === 'aggregator' ? 'aggregator' : 'Polymarket'}
      </span>
      {moneyTag(network)}
    </span>
  );
}
