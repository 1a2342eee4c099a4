// A dense grid of maker/taker amounts, against the official clients' own amount helpers (no signing, so the
// grid can be large): every tick size, both sides, limit and market, prices across the whole range and
// sizes with awkward decimals. Base units are compared with viem's parseUnits, which the official clients use.
import { describe, expect, it } from 'vitest';
import { parseUnits } from 'viem';
import {
  getOrderRawAmounts as v1Limit,
  getMarketOrderRawAmounts as v1Market,
} from '@polymarket/clob-client/dist/order-builder/helpers.js';
// @ts-expect-error the v2 package exports no deep paths and ships no declarations for them; read as the reference only
import { getOrderRawAmounts as v2Limit } from '../../node_modules/@polymarket/clob-client-v2/dist/order-builder/helpers/getOrderRawAmounts.js';
// @ts-expect-error as above
import { getMarketOrderRawAmounts as v2Market } from '../../node_modules/@polymarket/clob-client-v2/dist/order-builder/helpers/getMarketOrderRawAmounts.js';
import {
  ROUNDING,
  TICK_SIZES,
  V1_TICK_SIZES,
  limitOrderRawAmounts,
  marketOrderRawAmounts,
  toBaseUnits,
  type TickSize,
} from '../../packages/toolkit/src/orders/rounding';

type RawFn = (side: never, size: number, price: number, rule: never) => { rawMakerAmt: number; rawTakerAmt: number };

/** Sizes with one to four decimals, and the ones known to trip float noise (21.04 × 0.56, 21.15 / 0.1237). */
const SIZES = [
  0.001, 0.01, 0.57, 1, 4.49, 5, 12.8205, 16.6, 21.04, 21.15, 33.33, 100, 101, 170, 949.9971, 2435.89, 9.9996,
];
for (let s = 1; s <= 3001; s += 37) SIZES.push(s / 100);

function pricesFor(tick: TickSize): number[] {
  const step = parseFloat(tick);
  const steps = Math.round(1 / step);
  const prices: number[] = [];
  const stride = Math.max(1, Math.floor(steps / 120));
  for (let i = 1; i < steps; i += stride) prices.push(Number((i * step).toFixed(6)));
  prices.push(1 - step, 0.1237, 0.5563, 0.555, 0.12345);
  return prices;
}

function units(raw: number): string {
  try {
    return parseUnits(raw.toString(), 6).toString();
  } catch {
    return 'refused';
  }
}
function ourUnits(raw: number): string {
  try {
    return toBaseUnits(raw);
  } catch {
    return 'refused';
  }
}

/** Returns the cases compared and every mismatch (asserting once keeps a 50 000-case grid quick). */
function compareGrid(
  ticks: readonly TickSize[],
  refLimit: RawFn,
  refMarket: RawFn,
): { n: number; mismatches: string[] } {
  let n = 0;
  const mismatches: string[] = [];
  const check = (
    label: string,
    ours: { maker: number; taker: number },
    ref: { rawMakerAmt: number; rawTakerAmt: number },
  ) => {
    const a = `${ours.maker}/${ours.taker} ${ourUnits(ours.maker)}/${ourUnits(ours.taker)}`;
    const b = `${ref.rawMakerAmt}/${ref.rawTakerAmt} ${units(ref.rawMakerAmt)}/${units(ref.rawTakerAmt)}`;
    if (a !== b) mismatches.push(`${label}: ours ${a}, reference ${b}`);
  };
  for (const tick of ticks) {
    const rule = ROUNDING[tick];
    for (const price of pricesFor(tick))
      for (const size of SIZES)
        for (const side of ['BUY', 'SELL'] as const) {
          check(
            `limit ${tick} ${side} ${price}x${size}`,
            limitOrderRawAmounts(side, size, price, rule),
            refLimit(side as never, size, price, rule as never),
          );
          check(
            `market ${tick} ${side} ${price} ${size}`,
            marketOrderRawAmounts(side, size, price, rule),
            refMarket(side as never, size, price, rule as never),
          );
          n++;
        }
  }
  return { n, mismatches: mismatches.slice(0, 10) };
}

describe('order amounts against the official helpers', () => {
  it('matches @polymarket/clob-client@5.8.1 on the four version-1 ticks', () => {
    const { n, mismatches } = compareGrid(V1_TICK_SIZES, v1Limit as RawFn, v1Market as RawFn);
    expect(mismatches).toEqual([]);
    expect(n).toBeGreaterThan(20_000);
  });

  it('matches @polymarket/clob-client-v2@1.1.0 on all six ticks', () => {
    const { n, mismatches } = compareGrid(TICK_SIZES, v2Limit as RawFn, v2Market as RawFn);
    expect(mismatches).toEqual([]);
    expect(n).toBeGreaterThan(30_000);
  });
});
