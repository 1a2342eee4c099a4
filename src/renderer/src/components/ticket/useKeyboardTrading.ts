// Keyboard trading on the chosen market and outcome (the selection: the focused tile follows it): buy at the
// best ask or sell at the best bid with the preset size, the price a tick up or down, a size preset, flatten the
// position, cancel the market's orders — each on the key the settings bind. An order key fills the ticket and
// goes through the ticket's own path: its checks, then its confirmation (or, when the trader opted out of it,
// placeOrder at once, where main's pre-trade checks still run). Flatten is the Positions table's Close.
import { useEffect, useRef, useState } from 'react';
import {
  PRESET_ACTIONS,
  TRADING_ACTIONS,
  TRADING_ACTION_NAMES,
  type TradingAction,
} from '../../../../shared/key-bindings';
import { registerShortcut } from '../../keys/keyboard';
import { ask } from '../../bridge/terminal';
import { useAccount } from '../../store/account';
import { marketStoreFor } from '../../store/market';
import { focusedTileId } from '../../store/workspaces';
import { useSelection } from '../../store/selection';
import { useSession } from '../../store/session';
import { useTicket } from '../../store/ticket';
import { liveQuote } from '../../model/live-quote';
import { cancelWith } from '../account/OpenOrders';
import { bestPriceOrder, presetFields, stepPrice } from './keyboard-trading';
import type { Drafted, OrderIntent, Side } from './order-math';
import type { TradedMarket, TradedOutcome } from './useTradedMarket';

export interface KeyboardTradingInput {
  market: TradedMarket | null;
  outcome: TradedOutcome | null;
  drafted: Drafted | null;
  whyNot: string | null;
  blocking: string | undefined;
  /** The ticket's confirmation, opened on this order. */
  openConfirm(drafted: Drafted & { ok: true }): void;
  /** The ticket's placeOrder, without the confirmation (only when the trader opted out of it). */
  placeNow(intent: OrderIntent): void;
}

const say = (message: string, tone: 'info' | 'error' = 'info') => useSession.getState().notify(tone, message);

export function useKeyboardTrading(input: KeyboardTradingInput): void {
  // The keys run outside React's render: they read the ticket's latest market and outcome from here.
  const live = useRef(input);
  live.current = input;
  const bindings = useSession((s) => s.settings.keyBindings);
  const [pending, setPending] = useState<{ side: Side; tokenId: string; confirm: boolean } | null>(null);
  const cancelling = useRef(false);

  useEffect(() => {
    /** The chosen market and outcome as the ticket has them loaded, or null after saying what is missing. */
    const focused = (): { market: TradedMarket; outcome: TradedOutcome } | null => {
      const { market, outcome } = live.current;
      const missing = !useSelection.getState().market
        ? 'Choose a market first.'
        : !market
          ? 'The market is still loading: try again in a moment.'
          : !outcome
            ? 'Choose an outcome first.'
            : null;
      if (missing || !market || !outcome) {
        say(missing ?? 'Choose an outcome first.');
        return null;
      }
      return { market, outcome };
    };
    const topOf = (tokenId: string) =>
      liveQuote(marketStoreFor(focusedTileId()).getState(), tokenId) ?? { bestBid: null, bestAsk: null, price: null };

    const atBest = (side: Side) => {
      const chosen = focused();
      if (!chosen) return;
      const { sizePresets, keyboardOrdersWithoutConfirm } = useSession.getState().settings;
      const order = bestPriceOrder(
        side,
        topOf(chosen.outcome.tokenId),
        chosen.market.tickSize,
        sizePresets,
        useTicket.getState().presetIndex,
        chosen.outcome.name,
      );
      if (!order.ok) return say(order.reason);
      useTicket.getState().set(order.fields);
      setPending({ side, tokenId: chosen.outcome.tokenId, confirm: !keyboardOrdersWithoutConfirm });
    };

    const step = (direction: 1 | -1) => {
      const chosen = focused();
      if (!chosen) return;
      const ticket = useTicket.getState();
      const top = topOf(chosen.outcome.tokenId);
      // No price yet: start where this side's order would rest (a buy at the best bid, a sell at the best ask).
      const start = (ticket.side === 'BUY' ? top.bestBid : top.bestAsk) ?? top.price;
      const next = stepPrice(ticket.priceCents, chosen.market.tickSize, direction, start);
      if (next === null) return say('There is no price to start from: type a price first.');
      ticket.set({ priceCents: next });
    };

    const preset = (index: number) => {
      const fields = presetFields(useSession.getState().settings.sizePresets, index);
      if (fields) useTicket.getState().set({ ...fields, presetIndex: index });
    };

    const flatten = () => {
      const chosen = focused();
      const marketId = useSelection.getState().market?.marketId;
      if (!chosen || !marketId) return;
      const { balances, positions } = useAccount.getState();
      const { tokenId, name } = chosen.outcome;
      // The chain's balance of the token (read for the chosen market), else the positions' size.
      const size = balances?.outcomes[tokenId] ?? positions.find((p) => p.tokenId === tokenId)?.size ?? 0;
      if (!(size > 0)) return say(`You hold no ${name} shares in this market: there is nothing to flatten.`);
      useTicket.getState().sellPosition({
        marketId,
        conditionId: chosen.market.conditionId,
        tokenId,
        outcome: name,
        size,
        kind: 'market',
      });
    };

    const cancelMarket = () => {
      const chosen = focused();
      const marketId = useSelection.getState().market?.marketId;
      const { wallet, openOrders } = useAccount.getState();
      if (!chosen || !marketId) return;
      if (!wallet) return say('Choose a wallet first.');
      if (cancelling.current) return say('A cancel is on its way.');
      const tokens = new Set(chosen.market.outcomes.map((o) => o.tokenId));
      const here = openOrders.filter(
        (o) =>
          tokens.has(o.tokenId) ||
          (chosen.market.conditionId !== null &&
            o.conditionId.toLowerCase() === chosen.market.conditionId.toLowerCase()),
      );
      // Nothing to cancel: said, no request sent.
      if (here.length === 0) return say('No open orders in this market to cancel.');
      cancelling.current = true;
      void cancelWith(() => ask('cancelMarket', { wallet, marketId }), 'market').finally(() => {
        cancelling.current = false;
      });
    };

    const run: Record<TradingAction, () => void> = {
      buyBest: () => atBest('BUY'),
      sellBest: () => atBest('SELL'),
      priceUp: () => step(1),
      priceDown: () => step(-1),
      ...(Object.fromEntries(PRESET_ACTIONS.map((action, i) => [action, () => preset(i)])) as Record<
        (typeof PRESET_ACTIONS)[number],
        () => void
      >),
      flatten,
      cancelMarket,
    };
    const offs = TRADING_ACTIONS.map((action) =>
      registerShortcut({ key: bindings[action], description: TRADING_ACTION_NAMES[action], run: run[action] }),
    );
    return () => offs.forEach((off) => off());
  }, [bindings]);

  // The order key's ticket, once drafted: refused with the ticket's sentence, else confirmed (or placed).
  const { drafted, whyNot, blocking, openConfirm, placeNow } = input;
  useEffect(() => {
    if (!pending) return;
    if (!drafted) {
      if (whyNot && !/^Loading/.test(whyNot)) {
        setPending(null);
        say(whyNot, 'error');
      }
      return;
    }
    setPending(null);
    if (!drafted.ok) return say(drafted.reason, 'error');
    if (drafted.intent.side !== pending.side || drafted.intent.tokenId !== pending.tokenId) return;
    // A blocking check already known shows in the confirmation, which then cannot be confirmed.
    if (whyNot && whyNot !== blocking) return say(whyNot, 'error');
    if (pending.confirm || blocking) openConfirm(drafted);
    else placeNow(drafted.intent);
  }, [pending, drafted, whyNot, blocking, openConfirm, placeNow]);
}
