// The banner under the top bar when new orders may not be placed: a blocked region or a close-only account, in
// main's sentence (markets, books and charts stay readable). A check that could not be made is a quiet note.
import { useTradingAccess } from '../../store/trading-access';

export function TradingAccessBanner() {
  const access = useTradingAccess((s) => s.access);
  if (!access || (access.allowed && access.state !== 'unknown')) return null;
  const note = access.allowed;
  return (
    <div
      className={`access-banner ${note ? 'note' : 'blocked'}`}
      data-testid="trading-access-banner"
      data-state={access.state}
      role={note ? 'status' : 'alert'}
    >
      {access.reason}
    </div>
  );
}
