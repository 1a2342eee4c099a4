// The ticket's side of Close and Limit sell (Positions table): once the position's market is the one loaded,
// the ticket is filled with a SELL of the whole position — a market order whose confirmation opens at once
// (the same dialog Review opens, with the book's estimate), or a limit at the best bid left focused for review.
import { useEffect, useState } from 'react';
import { useSelection } from '../../store/selection';
import { useSession } from '../../store/session';
import { useTicket } from '../../store/ticket';
import type { Drafted } from './order-math';
import type { TradedMarket } from './useTradedMarket';
import { positionSellFields, requestedOutcome } from './position-sell';

/** The ticket's sentences for what is still loading (the market, or the live book a market order is priced from). */
const stillComing = (reason: string): boolean => /^(Loading|Waiting for the live book)/.test(reason);

/** Applies a position's sell to the ticket; `openConfirm` is the ticket's own review (its confirmation dialog). */
export function usePositionSell(
  market: TradedMarket | null,
  drafted: Drafted | null,
  whyNot: string | null,
  blocking: string | undefined,
  openConfirm: (drafted: Drafted & { ok: true }) => void,
): void {
  const request = useTicket((s) => s.sellRequest);
  const selected = useSelection((s) => s.market?.marketId);
  const [confirmFor, setConfirmFor] = useState<string | null>(null);

  // The trader went to another market before this one loaded: the sell is not carried there, or back later.
  useEffect(() => {
    if (request && selected !== request.marketId) useTicket.setState({ sellRequest: null });
  }, [request, selected]);

  useEffect(() => {
    if (!request || !market) return;
    const outcome = requestedOutcome(request, market);
    if (outcome === undefined) return;
    useTicket.setState({ sellRequest: null });
    if (outcome === null)
      return useSession
        .getState()
        .notify('error', `This market has no outcome ${request.outcome}: the position cannot be sold from the ticket.`);
    useSelection.getState().selectToken(outcome.tokenId);
    useTicket.getState().set(positionSellFields(request));
    if (request.kind === 'market') setConfirmFor(outcome.tokenId);
    // A limit sell is the trader's to review: the price is where the eye goes first.
    else setTimeout(() => document.getElementById('ticket-price')?.focus(), 0);
  }, [request, market]);

  useEffect(() => {
    if (confirmFor === null) return;
    // Not drafted yet (the outcome, the wallet or the live book that prices a market sell is still on its way):
    // wait, unless the ticket says why it cannot.
    if (!drafted || (!drafted.ok && stillComing(drafted.reason))) {
      if (whyNot && !stillComing(whyNot)) setConfirmFor(null);
      return;
    }
    setConfirmFor(null);
    // A SELL of this very outcome, and nothing the ticket refuses (a blocking check shows in the dialog, which disables Confirm).
    if (
      drafted.ok &&
      drafted.intent.side === 'SELL' &&
      drafted.intent.tokenId === confirmFor &&
      (!whyNot || whyNot === blocking)
    )
      openConfirm(drafted);
  }, [confirmFor, drafted, whyNot, blocking, openConfirm]);
}
