// An outcome named the way the trader knows it ("Yes · Bitcoin above $120k?") when the terminal knows its market
// (loaded, or named by a position or a trade), else the ids the exchange gave (shortened, whole on hover).
import { useAccount } from '../../store/account';

const short = (id: string) => (id.length > 14 ? `${id.slice(0, 6)}…${id.slice(-4)}` : id);

/** `question`/`outcome`: what the row itself says (a trade's own names), used when the terminal has no better. */
export function OutcomeLabel({
  tokenId,
  conditionId,
  question,
  outcome,
}: {
  tokenId: string;
  conditionId?: string;
  question?: string;
  outcome?: string;
}) {
  const known = useAccount((s) => s.outcomeNames[tokenId]);
  const name = known ?? (question && outcome ? { market: question, outcome } : undefined);
  if (name) {
    return (
      <span title={`${name.market} (token ${tokenId})`}>
        <b>{name.outcome}</b> <span className="muted">· {name.market}</span>
      </span>
    );
  }
  return (
    <span className="muted" title={`market ${conditionId ?? '?'}, token ${tokenId}`}>
      {outcome ? <b>{outcome} </b> : null}
      {conditionId ? `${short(conditionId)} · ` : ''}token {short(tokenId)}
    </span>
  );
}
