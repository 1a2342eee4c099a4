// Follow or unfollow a trader on this network, wherever a trader is shown (the leaderboard, their profile), and
// the hook that keeps the followed list and its tape current while such a view is open.
import { useEffect } from 'react';
import { useSession } from '../../store/session';
import { followTheFollowed, followTrader, isFollowed, unfollowTrader, useTraders } from '../../store/traders';

/** The followed traders of this network, read on mounting and again on a network switch, their trades heard live. */
export function useFollowedTraders(): void {
  const network = useSession((s) => s.network?.name ?? null);
  useEffect(() => (network === null ? undefined : followTheFollowed()), [network]);
}

export function FollowButton({ address, name }: { address: string; name?: string }) {
  const following = useTraders((s) => isFollowed(s.followed, address));
  return (
    <button
      type="button"
      data-testid="follow-trader"
      data-following={following}
      aria-pressed={following}
      title={following ? 'Stop following this trader' : 'Follow this trader: their trades appear in the Traders tab'}
      onClick={() => void (following ? unfollowTrader(address) : followTrader(address, name))}
    >
      {following ? 'Following' : 'Follow'}
    </button>
  );
}
