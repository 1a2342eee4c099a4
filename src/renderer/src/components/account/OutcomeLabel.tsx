// An outcome named the way the trader knows it ("Yes · Bitcoin above $120k?") when the terminal has loaded
// its market, else the ids the exchange gave (shortened, with the whole id on hover).
import { useAccount } from '../../store/account';

const short = (id: string) => (id.length > 14 ? `${id.slice(0, 6)}…${id.slice(-4)}` : id);

export function OutcomeLabel({ tokenId, conditionId }: { tokenId: string; conditionId?: string }) {
  const name = useAccount((s) => s.outcomeNames[tokenId]);
  if (name) {
    return (
      <span title={`${name.market} (token ${tokenId})`}>
        <b>{name.outcome}</b> <span className="muted">· {name.market}</span>
      </span>
    );
  }
  return (
    <span className="muted" title={`market ${conditionId ?? '?'}, token ${tokenId}`}>
      {conditionId ? `${short(conditionId)} · ` : ''}token {short(tokenId)}
    </span>
  );
}
