// The sandbox CLOB's pure order rules: it reads the POST /order bodies the official clients write (v1 and
// v2), accepts every amount pair their builders make for prices on the grid (limit and market), refuses what
// breaks Polymarket's rules, and plans settlements whose arithmetic is the exchange contract's.
import { describe, expect, it } from 'vitest';
import { parseUnits } from 'viem';
import {
  getOrderRawAmounts as v1Limit,
  getMarketOrderRawAmounts as v1Market,
} from '@polymarket/clob-client/dist/order-builder/helpers.js';
import { orderToJson as orderToJsonV1 } from '@polymarket/clob-client/dist/utilities.js';
import { orderToJsonV2, OrderType as OrderTypeV2 } from '@polymarket/clob-client-v2';
import {
  OrderRejected,
  orderTerms,
  parseOrderBody,
  reservedAmount,
  settlementPlan,
  type PlanOrder,
} from '../../sandbox/clob/order-rules';
import type { Fill } from '../../sandbox/clob/engine';

const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const SIGNATURE = `0x${'11'.repeat(65)}`;
const ROUNDING = {
  '0.1': { price: 1, size: 2, amount: 3 },
  '0.01': { price: 2, size: 2, amount: 4 },
  '0.001': { price: 3, size: 2, amount: 5 },
  '0.0001': { price: 4, size: 2, amount: 6 },
} as const;
type Tick = keyof typeof ROUNDING;
const units = (raw: number): bigint => parseUnits(raw.toString(), 6);

function rejection(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof OrderRejected) return error.message;
    throw error;
  }
  return 'accepted';
}

describe('parseOrderBody', () => {
  const v2Order = {
    salt: 479249096354,
    maker: ADDRESS,
    signer: ADDRESS,
    tokenId: '1234',
    makerAmount: '5600000',
    takerAmount: '10000000',
    side: 'BUY',
    signatureType: 0,
    timestamp: '1780449126930',
    expiration: '0',
    metadata: `0x${'0'.repeat(64)}`,
    builder: `0x${'0'.repeat(64)}`,
    signature: SIGNATURE,
  };
  const v1Order = {
    salt: 479249096354,
    maker: ADDRESS,
    signer: ADDRESS,
    taker: '0x0000000000000000000000000000000000000000',
    tokenId: '1234',
    makerAmount: '5600000',
    takerAmount: '10000000',
    expiration: '0',
    nonce: '0',
    feeRateBps: '0',
    side: 0,
    signatureType: 0,
    signature: SIGNATURE,
  };

  it('reads the official v2 client body for versions 2 and 3, and refuses it on a version-1 server', () => {
    const body = JSON.parse(JSON.stringify(orderToJsonV2(v2Order as never, 'owner-key', OrderTypeV2.GTD, true, false)));
    for (const version of [2, 3] as const) {
      const parsed = parseOrderBody(body, version);
      expect(parsed).toMatchObject({ owner: 'owner-key', orderType: 'GTD', postOnly: true, deferExec: false });
      expect(parsed.order).toMatchObject({
        salt: 479249096354n,
        side: 0,
        timestamp: 1780449126930n,
        makerAmount: 5600000n,
        nonce: 0n,
      });
    }
    expect(rejection(() => parseOrderBody(body, 1))).toMatch(/^order_version_mismatch/);
  });

  it('reads the official v1 client body on a version-1 server, and refuses it on versions 2 and 3', () => {
    const body = JSON.parse(JSON.stringify(orderToJsonV1(v1Order as never, 'owner-key', 'FOK' as never, false, false)));
    const parsed = parseOrderBody(body, 1);
    expect(parsed).toMatchObject({ owner: 'owner-key', orderType: 'FOK', postOnly: false });
    expect(parsed.order).toMatchObject({ side: 0, nonce: 0n, feeRateBps: 0n, taker: v1Order.taker });
    expect(rejection(() => parseOrderBody(body, 2))).toMatch(/^order_version_mismatch/);
    expect(rejection(() => parseOrderBody(body, 3))).toMatch(/^order_version_mismatch/);
  });

  it('refuses malformed fields with a message naming them', () => {
    const body = (order: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
      order: { ...v2Order, ...order },
      owner: 'k',
      orderType: 'GTC',
      ...extra,
    });
    expect(rejection(() => parseOrderBody(body({ makerAmount: '-1' }), 2))).toBe(
      'invalid order: makerAmount must be an unsigned integer',
    );
    expect(rejection(() => parseOrderBody(body({ salt: 1.5 }), 2))).toBe(
      'invalid order: salt must be an unsigned integer',
    );
    expect(rejection(() => parseOrderBody(body({ metadata: '0x12' }), 2))).toBe('invalid order: metadata is malformed');
    expect(rejection(() => parseOrderBody(body({}, { orderType: 'IOC' }), 2))).toMatch(
      /^Invalid order payload: orderType/,
    );
    expect(rejection(() => parseOrderBody(body({}, { postOnly: 'yes' }), 2))).toBe('Invalid order payload: postOnly');
    expect(rejection(() => parseOrderBody(body({}, { owner: 5 }), 2))).toBe('Invalid order payload: owner');
  });
});

describe('orderTerms against the official builders', () => {
  const market = (tickSize: Tick) => ({ tickSize, minOrderSize: 5 });
  const sizes = [5, 5.01, 12.82, 21.04, 33.33, 100, 2435.89];

  it('accepts every limit order the official v1 builder makes on the tick grid, at the exact price and size', () => {
    let checked = 0;
    for (const tick of Object.keys(ROUNDING) as Tick[]) {
      const step = Number(tick);
      const steps = Math.round(1 / step);
      for (let i = 1; i < steps; i += Math.max(1, Math.floor(steps / 37))) {
        const price = Number((i * step).toFixed(4));
        for (const size of sizes)
          for (const side of ['BUY', 'SELL'] as const) {
            const raw = v1Limit(side as never, size, price, ROUNDING[tick] as never);
            const order = {
              side: side === 'BUY' ? 0 : 1,
              makerAmount: units(raw.rawMakerAmt),
              takerAmount: units(raw.rawTakerAmt),
            };
            const terms = orderTerms(order, 'GTC', market(tick));
            expect(terms.price).toBe(Math.round(price * 10_000));
            expect(terms.size).toBe(units(size));
            checked++;
          }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('accepts official market orders (FOK) whose BUY amounts are not an exact price, rounding the price to the safe side', () => {
    for (const tick of ['0.1', '0.01', '0.001'] as Tick[]) {
      const step = Number(tick);
      for (const price of [step, 0.3, 0.5, 1 - step].map((p) => Number(p.toFixed(4))))
        for (const amount of [1, 9.99, 100, 949.99]) {
          const buy = v1Market('BUY' as never, amount, price, ROUNDING[tick] as never);
          const terms = orderTerms(
            { side: 0, makerAmount: units(buy.rawMakerAmt), takerAmount: units(buy.rawTakerAmt) },
            'FOK',
            market(tick),
          );
          // Never above what the signed amounts pay per share: the contract's crossing check is on the amounts.
          expect(BigInt(terms.price) * units(buy.rawTakerAmt)).toBeLessThanOrEqual(units(buy.rawMakerAmt) * 10_000n);
          expect(terms.price).toBe(Math.round(price * 10_000));
          expect(terms.size % 10_000n).toBe(0n);
          const sell = v1Market('SELL' as never, amount, price, ROUNDING[tick] as never);
          const sellTerms = orderTerms(
            { side: 1, makerAmount: units(sell.rawMakerAmt), takerAmount: units(sell.rawTakerAmt) },
            'FAK',
            market(tick),
          );
          expect(BigInt(sellTerms.price) * units(sell.rawMakerAmt)).toBeGreaterThanOrEqual(
            units(sell.rawTakerAmt) * 10_000n,
          );
        }
    }
  });

  it('refuses what Polymarket refuses', () => {
    const m = market('0.01');
    const o = (side: number, maker: number, taker: number) => ({
      side,
      makerAmount: units(maker),
      takerAmount: units(taker),
    });
    expect(rejection(() => orderTerms(o(0, 5.55, 10), 'GTC', m))).toBe(
      'invalid price (0.555): the price must be a multiple of the tick size 0.01',
    );
    expect(rejection(() => orderTerms(o(0, 0.05, 10), 'GTC', m))).toBe(
      'invalid price (0.005): the price must be a multiple of the tick size 0.01',
    );
    expect(rejection(() => orderTerms(o(1, 10, 9.95), 'GTC', m))).toBe(
      'invalid price (0.995): the price must be a multiple of the tick size 0.01',
    );
    expect(rejection(() => orderTerms(o(0, 0.5, 1), 'FOK', m))).toBe(
      'invalid amount for a marketable BUY order ($0.5), min size: $1',
    );
    expect(rejection(() => orderTerms(o(0, 10, 10), 'FOK', m))).toBe('invalid price (1), min: 0.01 - max: 0.99');
    // A market SELL whose worst price is under a tick is matched no lower than one tick: the safe side.
    expect(orderTerms(o(1, 10, 0.05), 'FAK', m).price).toBe(100);
    expect(rejection(() => orderTerms(o(1, 10.005, 5.0025), 'GTC', m))).toBe(
      'invalid amounts, the sell orders maker amount supports a max accuracy of 2 decimals, taker amount a max of 4 decimals',
    );
    expect(rejection(() => orderTerms(o(1, 4, 2), 'GTC', m))).toBe('Size (4) lower than the minimum: 5');
    // Market orders skip the 5-share minimum: a FOK SELL of one share is fine.
    expect(orderTerms(o(1, 1, 0.5), 'FOK', m)).toMatchObject({ side: 'SELL', price: 5000, size: 1_000_000n });
  });

  it('reserves a BUY at its signed price rounded up, a SELL by its shares', () => {
    const buy = { side: 'BUY' as const, collateral: 11_782_400n, shares: 21_040_000n };
    expect(reservedAmount(buy, 21_040_000n)).toBe(11_782_400n);
    expect(reservedAmount(buy, 1n)).toBe(1n);
    expect(reservedAmount({ side: 'SELL', collateral: 1n, shares: 9n }, 7n)).toBe(7n);
  });
});

describe('settlementPlan', () => {
  const fill = (
    makerId: string,
    shares: bigint,
    makerPrice: number,
    takerPrice: number,
    matchType: Fill['matchType'],
  ): Fill => ({
    takerId: 't',
    makerId,
    shares,
    makerPrice,
    takerPrice,
    matchType,
    makerOutcome: matchType === 'NORMAL' ? 0 : 1,
    takerOutcome: 0,
  });

  it('pays each maker exactly its price and the taker the rest, for mixed NORMAL and MINT legs', () => {
    // Taker BUY 30 YES at 0.60 meets an ask of YES at 0.55 (10) and a NO bid at 0.42 (= YES ask 0.58, 20).
    const taker: PlanOrder = {
      side: 'BUY',
      makerAmount: 18_000_000n,
      takerAmount: 30_000_000n,
      makingRemaining: 18_000_000n,
    };
    const makers = new Map<string, PlanOrder>([
      ['ask', { side: 'SELL', makerAmount: 10_000_000n, takerAmount: 5_500_000n, makingRemaining: 10_000_000n }],
      ['noBid', { side: 'BUY', makerAmount: 8_400_000n, takerAmount: 20_000_000n, makingRemaining: 8_400_000n }],
    ]);
    const plan = settlementPlan(taker, makers, [
      fill('ask', 10_000_000n, 5500, 5500, 'NORMAL'),
      fill('noBid', 20_000_000n, 4200, 5800, 'MINT'),
    ]);
    expect(plan.legs.map((l) => [l.fillAmount, l.taking])).toEqual([
      [10_000_000n, 5_500_000n],
      [8_400_000n, 20_000_000n],
    ]);
    // 10 × 0.55 + 20 × 0.58 = 17.1: the taker keeps 0.9 of improvement.
    expect(plan.takerFillAmount).toBe(17_100_000n);
    expect(plan.takerReceives).toBe(30_000_000n);
    expect(makers.get('noBid')!.makingRemaining).toBe(0n);
  });

  it('gives a SELL taker its makers’ prices for NORMAL and MERGE legs', () => {
    const taker: PlanOrder = {
      side: 'SELL',
      makerAmount: 20_000_000n,
      takerAmount: 8_000_000n,
      makingRemaining: 20_000_000n,
    };
    const makers = new Map<string, PlanOrder>([
      ['bid', { side: 'BUY', makerAmount: 4_500_000n, takerAmount: 10_000_000n, makingRemaining: 4_500_000n }],
      ['noAsk', { side: 'SELL', makerAmount: 10_000_000n, takerAmount: 5_800_000n, makingRemaining: 10_000_000n }],
    ]);
    const plan = settlementPlan(taker, makers, [
      fill('bid', 10_000_000n, 4500, 4500, 'NORMAL'),
      fill('noAsk', 10_000_000n, 5800, 4200, 'MERGE'),
    ]);
    expect(plan.takerFillAmount).toBe(20_000_000n);
    expect(plan.takerReceives).toBe(8_700_000n);
  });

  it('throws rather than send a settlement the contract would revert', () => {
    const taker: PlanOrder = {
      side: 'BUY',
      makerAmount: 5_000_000n,
      takerAmount: 10_000_000n,
      makingRemaining: 5_000_000n,
    };
    const maker = (): Map<string, PlanOrder> =>
      new Map([
        ['m', { side: 'SELL', makerAmount: 10_000_000n, takerAmount: 5_000_000n, makingRemaining: 10_000_000n }],
      ]);
    expect(() => settlementPlan(taker, maker(), [fill('m', 10_000_001n, 5000, 5000, 'NORMAL')])).toThrow(
      'not a whole number of lots',
    );
    expect(() => settlementPlan(taker, maker(), [fill('m', 10_000_000n, 5100, 5100, 'NORMAL')])).toThrow(
      'not its signed price',
    );
    expect(() =>
      settlementPlan({ ...taker, makingRemaining: 4_000_000n }, maker(), [
        fill('m', 10_000_000n, 5000, 5000, 'NORMAL'),
      ]),
    ).toThrow('exceeds what remains');
    const spent = maker();
    spent.get('m')!.makingRemaining = 5_000_000n;
    expect(() => settlementPlan(taker, spent, [fill('m', 10_000_000n, 5000, 5000, 'NORMAL')])).toThrow(
      'exceeds what remains on chain',
    );
  });
});
