// A market's state in words (resolved with its winner, closed awaiting resolution, not taking orders, open), for
// the header and the ticket alike: main's pushed state first (the chain's payouts, read within seconds), else the
// market's own flags — never Gamma's `active`, which stays on after a market resolves.
import type { Market } from '@pmdesk/toolkit/model';
import { marketState, type MarketState } from '@pmdesk/toolkit/model';
import type { MarketStateInfo } from '../../../../shared/contract';

export function statusOf(market: Market, state?: Pick<MarketStateInfo, 'state' | 'winnerTokenId'> | null): MarketState {
  if (!state || state.state === 'open') return marketState(market);
  const resolved = state.state === 'resolved';
  const winnerTokenId = resolved ? (state.winnerTokenId ?? market.winnerTokenId) : market.winnerTokenId;
  return marketState({
    ...market,
    closed: true,
    resolved: market.resolved || resolved,
    ...(winnerTokenId ? { winnerTokenId } : {}),
  });
}
