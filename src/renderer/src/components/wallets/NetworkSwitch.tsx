// The network switch (owned by the wallets work); shows the network's name.
import { useSession } from '../../store/session';

export function NetworkSwitch() {
  const name = useSession((s) => s.network?.name ?? '');
  return <span className="network-name">{name}</span>;
}
