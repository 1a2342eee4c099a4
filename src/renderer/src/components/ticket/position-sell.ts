// The pure part of Close and Limit sell: the ticket's fields for a sell of a whole position, and whether the
// market the ticket has loaded is the position's (and on which outcome).
import type { PositionSellRequest, TicketState } from '../../store/ticket';

/** What of the ticket's loaded market a request is matched against. */
export interface LoadedMarket<O extends { tokenId: string; name: string }> {
  marketId: string;
  conditionId: string | null;
  outcomes: readonly O[];
}

/** The ticket's fields for a sell of the whole position. */
export function positionSellFields(request: PositionSellRequest): Partial<TicketState> {
  return {
    side: 'SELL',
    kind: request.kind,
    orderType: request.kind === 'market' ? 'FOK' : 'GTC',
    sizeUnit: 'shares',
    amount: String(request.size),
    priceCents: request.kind === 'limit' ? (request.priceCents ?? '') : '',
    postOnly: false,
    expiry: '',
  };
}

/** The outcome of the loaded market the request names, or null when it is not that market's (or not loaded yet). */
export function requestedOutcome<O extends { tokenId: string; name: string }>(
  request: PositionSellRequest,
  market: LoadedMarket<O>,
): O | null | undefined {
  const same =
    market.marketId === request.marketId ||
    (request.conditionId !== null && market.conditionId === request.conditionId);
  if (!same) return undefined;
  return (
    market.outcomes.find((o) => o.tokenId === request.tokenId) ??
    market.outcomes.find((o) => o.name.toLowerCase() === request.outcome.toLowerCase()) ??
    null
  );
}
