// The pure part of keyboard trading: the ticket's fields for a buy at the best ask or a sell at the best bid
// with the preset size, the price one tick up or down within the market's bounds, and a preset as a size.
// Nothing here places an order: the ticket's own review, confirmation and placeOrder do (useKeyboardTrading).
import type { SizePresets } from '../../../../shared/key-bindings';
import type { TicketState } from '../../store/ticket';
import { centsToPrice, priceBounds, snapToTick, type Side, type TickSize } from './order-math';
import { priceToCents } from '../../format/numbers';

type TicketFields = Partial<
  Pick<TicketState, 'side' | 'kind' | 'priceCents' | 'amount' | 'sizeUnit' | 'orderType' | 'postOnly' | 'expiry'>
>;

/** A preset as the ticket's size: "50" shares or dollars. */
export function presetFields(presets: SizePresets, index: number): TicketFields | null {
  const size = presets.sizes[index];
  return size === undefined ? null : { amount: String(size), sizeUnit: presets.unit };
}

/**
 * A marketable limit at the best price of the other side: BUY at the best ask, SELL at the best bid, GTC, not
 * post-only (it is meant to take), with the preset size. Null best price: a sentence saying there is none.
 */
export function bestPriceOrder(
  side: Side,
  top: { bestBid: number | null; bestAsk: number | null },
  tick: TickSize,
  presets: SizePresets,
  presetIndex: number,
  outcome: string,
): { ok: true; fields: TicketFields } | { ok: false; reason: string } {
  const best = side === 'BUY' ? top.bestAsk : top.bestBid;
  if (best === null || !(best > 0 && best < 1)) {
    return {
      ok: false,
      reason:
        side === 'BUY'
          ? `Nobody is selling ${outcome}: there is no best ask to buy at.`
          : `Nobody is bidding for ${outcome}: there is no best bid to sell at.`,
    };
  }
  const size = presetFields(presets, presetIndex) ?? presetFields(presets, 0)!;
  return {
    ok: true,
    fields: {
      side,
      kind: 'limit',
      orderType: 'GTC',
      postOnly: false,
      expiry: '',
      priceCents: priceToCents(snapToTick(best, tick), tick),
      ...size,
    },
  };
}

/**
 * The ticket's price one tick up (+1) or down (−1), kept within the exchange's bounds (one tick, one minus one
 * tick). A price not on the tick moves to the next tick in that direction; no price yet starts from `start` (the
 * best price of the side the ticket would rest on), snapped to the tick. Null: nothing to start from.
 */
export function stepPrice(priceCents: string, tick: TickSize, step: 1 | -1, start: number | null): string | null {
  const typed = priceCents.trim() ? centsToPrice(priceCents) : null;
  const { lowest, highest } = priceBounds(tick);
  if (typed === null) return start === null ? null : priceToCents(snapToTick(start, tick), tick);
  const unit = Number(tick);
  // Whole ticks, rounded toward the direction of the step when between two.
  const ticks = Number((typed / unit).toFixed(6));
  const next = (step > 0 ? Math.floor(ticks) + 1 : Math.ceil(ticks) - 1) * unit;
  const bounded = Math.min(highest, Math.max(lowest, next));
  return priceToCents(snapToTick(bounded, tick), tick);
}
