// Live feeds at a glance: one dot for the worst of them, the list on hover. Stale and closed feeds are
// named, so a trader knows which book not to trust.
import { overallFeedState, useSession } from '../../store/session';

const LABEL = {
  idle: 'No live feeds',
  open: 'Live',
  connecting: 'Connecting',
  stale: 'Stale',
  closed: 'Disconnected',
} as const;

export function FeedStatus() {
  const feeds = useSession((s) => s.feeds);
  const connected = useSession((s) => s.connected);
  const state = connected ? overallFeedState(feeds) : 'closed';
  const list = Object.values(feeds);
  const polling = list.some((f) => f.source === 'polling');
  const detail = connected
    ? list
        .map(
          (f) =>
            `${f.feed} ${f.marketId}: ${f.state}${f.source === 'polling' ? ' (polling)' : ''}${f.error ? ` — ${f.error.message}` : ''}`,
        )
        .join('\n') || 'Nothing followed yet.'
    : 'Not connected to PM Desk’s main process.';
  return (
    <span className={`feed-status state-${state}`} data-testid="feed-status" data-state={state} title={detail}>
      <span className="dot" aria-hidden="true" />
      {connected ? LABEL[state] : 'Not connected'}
      {polling ? ' (polling)' : ''}
    </span>
  );
}
