// The event's discussion and the market's rules (its resolution text), each a tab of the market view. An
// author with a known wallet opens their trader profile.
import { useMarket, useShownMarket } from '../../store/market';
import { TraderLink } from '../profile/TraderLink';

function ago(iso: string): string {
  const ms = Date.now() - new Date(iso).getTime();
  if (!Number.isFinite(ms)) return '';
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${Math.max(minutes, 0)} min ago`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h ago` : `${Math.round(hours / 24)} days ago`;
}

export function Discussion() {
  const comments = useMarket((s) => s.comments);
  const error = useMarket((s) => s.commentsError);
  const eventId = useShownMarket().market?.eventId;
  if (!eventId)
    return (
      <div className="empty">
        The discussion belongs to the market’s event: open the market from its event to read it.
      </div>
    );
  if (error) return <div className="empty error-text">{error}</div>;
  if (!comments) return <div className="empty">Loading the discussion…</div>;
  if (comments.length === 0) return <div className="empty">Nobody has commented on this event yet.</div>;
  return (
    <ul className="discussion" data-testid="discussion">
      {comments.map((c) => (
        <li key={c.id}>
          <div className="comment-meta">
            <strong className="comment-author">
              {/^0x[0-9a-fA-F]{40}$/.test(c.baseAddress) ? (
                <TraderLink address={c.baseAddress} name={c.pseudonym || c.name || null} />
              ) : (
                c.pseudonym || c.name || 'Anonymous'
              )}
            </strong>{' '}
            <span className="muted">{ago(c.createdAt)}</span>
          </div>
          <div className="comment-text">{c.content}</div>
        </li>
      ))}
    </ul>
  );
}

export function Rules() {
  const market = useMarket((s) => s.market);
  const event = useMarket((s) => s.event);
  const rules = market?.description || event?.description;
  return (
    <div className="rules" data-testid="market-rules">
      {rules || 'This market publishes no rules text.'}
    </div>
  );
}
