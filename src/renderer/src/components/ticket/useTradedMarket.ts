// The selected market as the ticket needs it: its outcomes, tick size and minimum order size (from
// `getMarket`), kept current by `tickSize` events. A tick change is said beside the price; a price it leaves
// off the tick is refused with the nearest valid prices (order-math), never moved for the trader.
import { useEffect, useState } from 'react';
import type { Market } from '@pmdesk/toolkit/model';
import { tradedMarket } from '@pmdesk/toolkit/model';
import type { MarketStateInfo } from '../../../../shared/contract';
import { statusOf } from '../market/market-status';
import { ask, listen, messageOf } from '../../bridge/terminal';
import { useSelection } from '../../store/selection';
import { useSession } from '../../store/session';
import { useTicket } from '../../store/ticket';
import { nameOutcomes } from '../../store/account';
import { isTickSize, tickChangeWarning, type TickSize } from './order-math';

export interface TradedOutcome {
  tokenId: string;
  name: string;
  /** The aggregator's last price for it, 0..1, when it has one. */
  price: number | null;
}

export interface TradedMarket {
  marketId: string;
  question: string;
  conditionId: string | null;
  tickSize: TickSize;
  minOrderSize: number | null;
  acceptingOrders: boolean;
  /** The market's state in words ("Closed — awaiting resolution"), said when it takes no orders. */
  stateWords: string;
  outcomes: TradedOutcome[];
}

/** The market as the ticket trades it; `pushed`, main's state of it where one came (closed or resolved since read). */
export function tradedMarketOf(
  market: Market,
  pushed?: Pick<MarketStateInfo, 'state' | 'winnerTokenId'> | null,
): TradedMarket {
  // Read as the order flow in main reads it (shared/market-rules.ts); the ticket adds the outcomes' prices.
  const traded = tradedMarket(market);
  return {
    marketId: traded.id,
    question: traded.question,
    conditionId: traded.conditionId ?? null,
    // Without a declared tick the exchange's default (a cent) is the safe reading: main checks it again.
    tickSize: traded.tickSize ?? '0.01',
    minOrderSize: traded.minimumOrderSize ?? null,
    acceptingOrders: traded.acceptingOrders && !traded.closed && (!pushed || pushed.state === 'open'),
    stateWords: statusOf(market, pushed).words,
    outcomes: traded.tokens.map((t) => {
      const price = Number(t.price);
      return {
        tokenId: t.token_id,
        name: t.name,
        price: Number.isFinite(price) && price > 0 && price < 1 ? price : null,
      };
    }),
  };
}

export interface TradedMarketState {
  market: TradedMarket | null;
  loading: boolean;
  error: string | null;
  /** The last tick change of this market, in a sentence (shown in the ticket until the market changes). */
  tickWarning: string | null;
}

export function useTradedMarket(): TradedMarketState {
  const selected = useSelection((s) => s.market);
  // The same market id on another network is another market (its tick, its outcomes): read it again there.
  const networkName = useSession((s) => s.network?.name ?? null);
  const [state, setState] = useState<TradedMarketState>({
    market: null,
    loading: false,
    error: null,
    tickWarning: null,
  });

  useEffect(() => {
    if (!selected) {
      setState({ market: null, loading: false, error: null, tickWarning: null });
      return;
    }
    let cancelled = false;
    let loaded: TradedMarket | null = null;
    let raw: Market | null = null;
    setState({ market: null, loading: true, error: null, tickWarning: null });
    ask('getMarket', { protocol: selected.protocol, marketId: selected.marketId })
      .then((read) => {
        if (cancelled) return;
        raw = read;
        const market = tradedMarketOf(read);
        loaded = market;
        setState({ market, loading: false, error: null, tickWarning: null });
        nameOutcomes(market.marketId, market.question, market.outcomes);
        // An outcome chosen nowhere else yet: the first one (Yes), so the ticket can trade at once.
        const { tokenId, selectToken } = useSelection.getState();
        if (!tokenId || !market.outcomes.some((o) => o.tokenId === tokenId))
          selectToken(market.outcomes[0]?.tokenId ?? null);
      })
      .catch(
        (error) => !cancelled && setState({ market: null, loading: false, error: messageOf(error), tickWarning: null }),
      );

    const offTick = listen('tickSize', (change) => {
      const m = loaded;
      if (cancelled || !m || !isTickSize(change.tickSize)) return;
      const ours =
        change.marketId === m.marketId ||
        change.marketId === m.conditionId ||
        m.outcomes.some((o) => o.tokenId === change.tokenId);
      if (!ours) return;
      const warning = tickChangeWarning(change.previous, change.tickSize, useTicket.getState().priceCents);
      loaded = { ...m, tickSize: change.tickSize };
      setState((s) => ({ ...s, market: loaded, tickWarning: warning }));
    });
    // The market's state as main pushes it (the tile showing it follows it): closed or resolved, it takes no orders.
    const offState = listen('marketState', (info) => {
      const m = loaded;
      if (cancelled || !m || !raw || info.marketId !== m.marketId || info.state === 'open') return;
      loaded = { ...tradedMarketOf(raw, info), tickSize: m.tickSize };
      setState((s) => ({ ...s, market: loaded }));
    });
    return () => {
      cancelled = true;
      offTick();
      offState();
    };
  }, [selected, networkName]);

  return state;
}
