// Fees against @polymarket/clob-client-v2 1.1.0: its adjustBuyAmountForFees over a grid of prices, amounts,
// balances, rates, exponents, builder rates and slippage (expectations computed by the official code at test
// time); the official client's createOrder/createMarketOrder with `userUSDCBalance` against our shrink fed to our
// rounding; and the vectors of docs/protocol.md#fees and the official fee tables.
import { afterEach, describe, expect, it } from 'vitest';
import { ClobClient, Side, adjustBuyAmountForFees as officialAdjust } from '@polymarket/clob-client-v2';
import {
  adjustBuyAmountForFees,
  adjustBuySizeForFees,
  checkFeeSlippage,
  decimalFraction,
  fillFee,
  unitsToAmount,
  type FeeTerms,
} from '../../packages/toolkit/src/orders/fees';
import {
  ROUNDING,
  limitOrderRawAmounts,
  marketOrderRawAmounts,
  roundNormal,
  toBaseUnits,
  type TickSize,
} from '../../packages/toolkit/src/orders/rounding';
import { TOKEN_ID, pinClock, referenceSigner, unpinClock } from './reference';

afterEach(() => unpinClock());

const $ = (dollars: number) => BigInt(toBaseUnits(dollars));
/** The exact fee the shrink counts, as a fraction of base units (for the "never above the balance" check). */
function exactFeesTimesD(
  amount: bigint,
  price: number,
  terms: FeeTerms,
  bps: number,
  slip: number,
): { n: bigint; d: bigint } {
  const p = decimalFraction(price, 'p');
  const r = decimalFraction(terms.rate, 'r');
  const e = BigInt(terms.exponent);
  const s = decimalFraction(slip, 's');
  // amount/p × r × (p(1−p))^e × (1 + s/100) + amount × bps/10000
  const platN = amount * p.d * r.n * (p.n * (p.d - p.n)) ** e * (100n * s.d + s.n);
  const platD = p.n * r.d * (p.d * p.d) ** e * 100n * s.d;
  return { n: platN * 10_000n + amount * BigInt(bps) * platD, d: platD * 10_000n };
}

describe('adjustBuyAmountForFees against the official function', () => {
  const PRICES = [0.01, 0.05, 0.1, 0.25, 0.3, 0.333, 0.5, 0.505, 0.51, 0.7, 0.9, 0.95, 0.99, 0.0025, 0.9975, 0.1237];
  const TERMS: FeeTerms[] = [
    { rate: 0, exponent: 0 },
    { rate: 0.03, exponent: 1 },
    { rate: 0.04, exponent: 1 },
    { rate: 0.05, exponent: 1 },
    { rate: 0.072, exponent: 1 },
    { rate: 0.25, exponent: 2 },
    { rate: 0.0175, exponent: 1 },
  ];
  const BPS = [0, 1, 50, 100];
  const SLIPPAGE = [0, 1, 1.5, 20, 100];
  const AMOUNTS = [0.01, 1, 5, 12.34, 49.99, 50, 100, 1234.567891];
  const BALANCES = [0, 0.5, 10, 48.4375, 50, 50.01, 101, 5000];

  it('agrees within one base unit everywhere, and never leaves amount + fees above the balance', () => {
    let n = 0;
    const mismatches: string[] = [];
    for (const price of PRICES)
      for (const terms of TERMS)
        for (const bps of BPS)
          for (const slip of SLIPPAGE)
            for (const amount of AMOUNTS)
              for (const balance of BALANCES) {
                n++;
                const official = officialAdjust(
                  amount,
                  price,
                  balance,
                  terms.rate as number,
                  terms.exponent,
                  bps / 10_000,
                  slip,
                );
                const ours = adjustBuyAmountForFees({
                  amount: $(amount),
                  price,
                  balance: $(balance),
                  terms,
                  builderTakerFeeBps: bps,
                  feeSlippagePercent: slip,
                });
                const officialUnits = official * 1e6;
                if (Math.abs(Number(ours) - officialUnits) > 1.000001)
                  mismatches.push(
                    `p ${price} r ${terms.rate}^${terms.exponent} bps ${bps} slip ${slip} amount ${amount} balance ${balance}: ours ${ours}, official ${official}`,
                  );
                if (ours !== $(amount)) {
                  const fees = exactFeesTimesD(ours, price, terms, bps, slip);
                  if (ours * fees.d + fees.n > $(balance) * fees.d)
                    mismatches.push(`over balance: p ${price} amount ${amount} balance ${balance}: ours ${ours}`);
                }
              }
    expect(mismatches.slice(0, 10)).toEqual([]);
    expect(n).toBeGreaterThan(50_000);
  });

  it('reproduces the official vectors F01–F04 exactly (rate 0.25, exponent 2, price 0.5, amount = balance = 50)', () => {
    const terms = { rate: 0.25, exponent: 2 };
    const shrink = (bps: number, slip: number, t: FeeTerms = terms) =>
      adjustBuyAmountForFees({
        amount: 50_000_000n,
        price: 0.5,
        balance: 50_000_000n,
        terms: t,
        builderTakerFeeBps: bps,
        feeSlippagePercent: slip,
      });
    expect(shrink(0, 0)).toBe(48_437_500n);
    expect(shrink(100, 0, { rate: 0, exponent: 0 })).toBe(49_500_000n);
    expect(shrink(100, 0)).toBe(47_937_500n);
    expect(shrink(100, 20)).toBe(47_625_000n);
    expect(officialAdjust(50, 0.5, 50, 0.25, 2, 0.01, 20)).toBe(47.625);
    // Balance above amount + fees: unchanged.
    expect(adjustBuyAmountForFees({ amount: 50_000_000n, price: 0.5, balance: 60_000_000n, terms })).toBe(50_000_000n);
    // Fees larger than the balance: nothing left, not a negative amount.
    expect(
      adjustBuyAmountForFees({ amount: 50_000_000n, price: 0.01, balance: 1n, terms: { rate: 100, exponent: 0 } }),
    ).toBe(0n);
  });

  it('refuses the slippage values the official client refuses, with its sentence', () => {
    for (const bad of [0.5, 101, Number.NaN, -1]) {
      expect(() => officialAdjust(50, 0.5, 50, 0.25, 2, 0, bad)).toThrow(
        'feeSlippage must be 0 or a percentage between 1 and 100',
      );
      expect(() => checkFeeSlippage(bad)).toThrow('feeSlippage must be 0 or a percentage between 1 and 100');
    }
    expect(() =>
      adjustBuyAmountForFees({ amount: 1n, price: 0.5, balance: 1n, terms: { rate: 0.1, exponent: 1.5 } }),
    ).toThrow(/whole number/);
  });
});

describe('shrunk BUY orders against the official client', () => {
  /** An official client with the market's terms cached, so it asks nothing of any server. */
  function officialClient(tick: TickSize, terms: FeeTerms, slip: number): ClobClient {
    const client = new ClobClient({
      host: 'http://127.0.0.1:9',
      chain: 80002 as never,
      signer: referenceSigner,
      feeSlippage: slip,
    });
    client.tickSizes[TOKEN_ID] = tick as never;
    client.negRisk[TOKEN_ID] = false;
    client.feeInfos[TOKEN_ID] = { rate: terms.rate as number, exponent: terms.exponent };
    (client as unknown as { cachedVersion: number }).cachedVersion = 2;
    return client;
  }

  it('the official client tests’ cases: 48125000/96250000 (limit), 48159300/94430000 (price rounds up), 48120000/96240000 (market)', async () => {
    pinClock(1_780_000_000_000, 0.5);
    const terms = { rate: 0.25, exponent: 2 };
    const client = officialClient('0.01', terms, 20);
    const limit = await client.createOrder(
      { tokenID: TOKEN_ID, price: 0.5, size: 100, side: Side.BUY, userUSDCBalance: 50 },
      { tickSize: '0.01' },
    );
    const rounded = await client.createOrder(
      { tokenID: TOKEN_ID, price: 0.505, size: 100, side: Side.BUY, userUSDCBalance: 50 },
      { tickSize: '0.01' },
    );
    const market = await client.createMarketOrder(
      { tokenID: TOKEN_ID, price: 0.5, amount: 50, side: Side.BUY, userUSDCBalance: 50 },
      { tickSize: '0.01' },
    );
    expect([
      limit.makerAmount,
      limit.takerAmount,
      rounded.makerAmount,
      rounded.takerAmount,
      market.makerAmount,
      market.takerAmount,
    ]).toEqual(['48125000', '96250000', '48159300', '94430000', '48120000', '96240000']);
    expect(ourLimit('0.01', 0.5, 100, 50, terms, 20)).toEqual(['48125000', '96250000']);
    expect(ourLimit('0.01', 0.505, 100, 50, terms, 20)).toEqual(['48159300', '94430000']);
    expect(ourMarket('0.01', 0.5, 50, 50, terms, 20)).toEqual(['48120000', '96240000']);
  });

  /** Our pipeline for a limit BUY: notional in base units, the exact shrink, then the size back through the rounding table. */
  function ourLimit(
    tick: TickSize,
    price: number,
    size: number,
    balance: number,
    terms: FeeTerms,
    slip: number,
  ): [string, string] {
    const p = roundNormal(price, ROUNDING[tick].price);
    const raw = limitOrderRawAmounts(
      'BUY',
      adjustBuySizeForFees({ size, price: p, balance: $(balance), terms, feeSlippagePercent: slip }),
      p,
      ROUNDING[tick],
    );
    return [toBaseUnits(raw.maker), toBaseUnits(raw.taker)];
  }
  function ourMarket(
    tick: TickSize,
    price: number,
    amount: number,
    balance: number,
    terms: FeeTerms,
    slip: number,
  ): [string, string] {
    const adjusted = adjustBuyAmountForFees({
      amount: $(amount),
      price,
      balance: $(balance),
      terms,
      feeSlippagePercent: slip,
    });
    const raw = marketOrderRawAmounts('BUY', unitsToAmount(adjusted), price, ROUNDING[tick]);
    return [toBaseUnits(raw.maker), toBaseUnits(raw.taker)];
  }

  it('signs the same amounts as the official client over a grid of limit and market BUYs with a balance', async () => {
    pinClock(1_780_000_000_000, 0.5);
    const mismatches: string[] = [];
    let n = 0;
    for (const terms of [
      { rate: 0.072, exponent: 1 },
      { rate: 0.25, exponent: 2 },
      { rate: 0.03, exponent: 1 },
    ])
      for (const slip of [0, 20])
        for (const tick of ['0.01', '0.001'] as TickSize[]) {
          const client = officialClient(tick, terms, slip);
          for (const price of [0.05, 0.23, 0.5, 0.61, 0.87])
            for (const [size, balance] of [
              [100, 50],
              [37.5, 20],
              [1000, 333.33],
              [10, 100],
            ] as const) {
              n++;
              const limit = await client.createOrder(
                { tokenID: TOKEN_ID, price, size, side: Side.BUY, userUSDCBalance: balance },
                { tickSize: tick },
              );
              const ours = ourLimit(tick, price, size, balance, terms, slip);
              if (ours.join('/') !== `${limit.makerAmount}/${limit.takerAmount}`)
                mismatches.push(
                  `limit ${tick} ${price}x${size} bal ${balance} r ${terms.rate}: ours ${ours.join('/')}, official ${limit.makerAmount}/${limit.takerAmount}`,
                );
              const market = await client.createMarketOrder(
                { tokenID: TOKEN_ID, price, amount: size, side: Side.BUY, userUSDCBalance: balance },
                { tickSize: tick },
              );
              const oursMarket = ourMarket(tick, price, size, balance, terms, slip);
              if (oursMarket.join('/') !== `${market.makerAmount}/${market.takerAmount}`)
                mismatches.push(
                  `market ${tick} ${price} ${size} bal ${balance} r ${terms.rate}: ours ${oursMarket.join('/')}, official ${market.makerAmount}/${market.takerAmount}`,
                );
            }
        }
    expect(mismatches).toEqual([]);
    expect(n).toBe(240);
  });
});

describe('fillFee', () => {
  const shares = (n: number) => $(n);
  it('reproduces the official fee tables (rate 0.25, exponent 2, 100 shares) in base units', () => {
    const terms = { rate: 0.25, exponent: 2 };
    const table: [number, bigint][] = [
      [0.5, 1_562_500n],
      [0.3, 1_102_500n],
      [0.1, 202_500n],
      [0.7, 1_102_500n],
      [0.9, 202_500n],
    ];
    for (const [price, fee] of table) expect(fillFee({ price, shares: shares(100), terms }).platform).toBe(fee);
    // 0.05640625 and 0.00245025 keep 5 decimals, rounded down as charged.
    expect(fillFee({ price: 0.05, shares: shares(100), terms }).platform).toBe(56_400n);
    expect(fillFee({ price: 0.99, shares: shares(100), terms }).platform).toBe(2_450n);
    expect(fillFee({ price: 0.5, shares: shares(125.5), terms }).platform).toBe(1_960_930n);
  });

  it('the production rates: $100 at 0.5 in sports is $1.50, $100 at 0.3 in crypto $5.04', () => {
    expect(fillFee({ price: 0.5, shares: shares(200), terms: { rate: 0.03, exponent: 1 } }).total).toBe(1_500_000n);
    expect(fillFee({ price: 0.3, shares: 333_333_334n, terms: { rate: 0.072, exponent: 1 } }).platform).toBe(
      5_040_000n,
    );
  });

  it('adds a builder fee on the notional, and charges a maker nothing on a taker-only market', () => {
    expect(
      fillFee({ price: 0.5, shares: shares(100), terms: { rate: 0.25, exponent: 2 }, builderFeeBps: 100 }),
    ).toEqual({ platform: 1_562_500n, builder: 500_000n, total: 2_062_500n });
    expect(
      fillFee({ price: 0.75, shares: shares(200), terms: { rate: 0, exponent: 0 }, builderFeeBps: 500 }).builder,
    ).toBe(7_500_000n);
    expect(
      fillFee({ price: 0.5, shares: shares(100), terms: { rate: 0.03, exponent: 1, takerOnly: true }, role: 'maker' })
        .platform,
    ).toBe(0n);
    expect(
      fillFee({ price: 0.5, shares: shares(100), terms: { rate: 0.03, exponent: 1 }, role: 'maker' }).platform,
    ).toBe(0n);
    expect(
      fillFee({ price: 0.5, shares: shares(100), terms: { rate: 0.03, exponent: 1, takerOnly: false }, role: 'maker' })
        .platform,
    ).toBe(750_000n);
  });

  it('refuses prices outside (0, 1), negative shares and fractional builder bps', () => {
    expect(() => fillFee({ price: 1, shares: 1n, terms: { rate: 0.03, exponent: 1 } })).toThrow(
      /strictly between 0 and 1/,
    );
    expect(() => fillFee({ price: 0, shares: 1n, terms: { rate: 0.03, exponent: 1 } })).toThrow(
      /strictly between 0 and 1/,
    );
    expect(() => fillFee({ price: 0.5, shares: -1n, terms: { rate: 0.03, exponent: 1 } })).toThrow(/base units/);
    expect(() => fillFee({ price: 0.5, shares: 1n, terms: { rate: 0.03, exponent: 1 }, builderFeeBps: 0.5 })).toThrow(
      /basis points/,
    );
  });

  it('reads decimals exactly, exponent forms included', () => {
    expect(decimalFraction(0.072, 'r')).toEqual({ n: 72n, d: 1000n });
    expect(decimalFraction(1e-7, 'r')).toEqual({ n: 1n, d: 10_000_000n });
    expect(decimalFraction('2.5e3', 'r')).toEqual({ n: 2500n, d: 1n });
    expect(() => decimalFraction(-1, 'r')).toThrow(/non-negative decimal/);
  });
});
