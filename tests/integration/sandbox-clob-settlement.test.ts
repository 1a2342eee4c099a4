// Settlement over a grid: on two tick sizes, prices from the lowest to the highest tick and awkward sizes, the
// four match shapes (MINT, MERGE and NORMAL with price improvement for the taker, partial fills) and market
// orders with inexact price ratios all settle on the chain without a revert, and every wallet's collateral and
// shares change by exactly the amounts the makers' prices say. Orders go in through the server's in-process
// path, which runs the same checks and settlement as HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Wallet } from 'ethers';
import type { CatalogMarket } from '../../sandbox/market/catalog';
import { signedOrderJson, startClobSandbox, type ClobSandbox, type OrderFields } from '../helpers/sandbox-clob';

const ONE = 10_000n;
/** shares × price in base units, for a price in 1e-4 units and shares in base units (exact for whole lots). */
const cost = (shares: bigint, price: bigint) => (shares * price) / ONE;

describe('settlement grid (order version 2)', () => {
  let sb: ClobSandbox;
  let alice: Wallet;
  let bob: Wallet;
  let carol: Wallet;
  const keys = new Map<string, string>();

  beforeAll(async () => {
    sb = await startClobSandbox({ orderVersion: 2 });
    [alice, bob, carol] = sb.wallets as [Wallet, Wallet, Wallet];
    for (const w of [alice, bob, carol]) keys.set(w.address, sb.server.apiKeyFor(w.address).apiKey);
  });
  afterAll(async () => sb?.stop());

  /** Exact amounts for `shares` base units at `price` 1e-4 units. */
  const order = (
    tokenId: string,
    side: 'BUY' | 'SELL',
    price: bigint,
    shares: bigint,
    negRisk: boolean,
  ): OrderFields =>
    side === 'BUY'
      ? { tokenId, side, makerAmount: cost(shares, price), takerAmount: shares, negRisk }
      : { tokenId, side, makerAmount: shares, takerAmount: cost(shares, price), negRisk };

  const place = async (wallet: Wallet, fields: OrderFields, orderType = 'GTC') => {
    const json = await signedOrderJson(sb, wallet, fields);
    return sb.server.placeOrder(
      { deferExec: false, postOnly: false, order: json, owner: keys.get(wallet.address), orderType },
      keys.get(wallet.address)!,
    );
  };

  const snapshot = async (market: CatalogMarket) => {
    const rows = await Promise.all(
      [alice, bob, carol].map(async (w) => ({
        c: await sb.collateralOf(w.address),
        y: await sb.sharesOf(w.address, market.tokens[0].tokenId),
        n: await sb.sharesOf(w.address, market.tokens[1].tokenId),
      })),
    );
    return { a: rows[0]!, b: rows[1]!, c: rows[2]! };
  };

  const markets = () => {
    const all = sb.catalog.events.flatMap((e) => e.markets);
    return [
      all.find((m) => !m.negRisk && m.tickSize === '0.01')!,
      all.find((m) => !m.negRisk && m.tickSize === '0.001')!,
      all.find((m) => m.negRisk)!,
    ];
  };

  it('settles MINT, MERGE and NORMAL fills with improvement and partial fills at every grid point, to the unit', async () => {
    let trades = 0;
    for (const market of markets()) {
      const tick = BigInt(Math.round(Number(market.tickSize) * 10_000));
      const [yes, no] = [market.tokens[0].tokenId, market.tokens[1].tokenId];
      const prices = [tick, ONE / 2n - tick * 3n, ONE / 2n, ONE - tick * 2n, ONE - tick];
      for (const p of prices) {
        for (const shares of [5_000_000n, 7_770_000n, 12_340_000n]) {
          const neg = market.negRisk;
          // MINT: alice bids YES at p; bob buys twice as much NO at 1 − p + tick (improvement); he pays the
          // maker's complement 1 − p, not his limit, and the rest of his order rests until he cancels it.
          const improved = p > tick ? ONE - p + tick : ONE - p;
          const s0 = await snapshot(market);
          expect((await place(alice, order(yes, 'BUY', p, shares, neg))).status).toBe('live');
          const mint = await place(
            bob,
            order(no, 'BUY', improved > ONE - tick ? ONE - p : improved, shares * 2n, neg),
            'GTC',
          );
          expect(mint, mint.errorMsg).toMatchObject({ success: true, status: 'matched' });
          await sb.server.cancelOrders(keys.get(bob.address)!, sb.server.openOrderIds(keys.get(bob.address)!));
          const s1 = await snapshot(market);
          expect(s1.a.c - s0.a.c).toBe(-cost(shares, p));
          expect(s1.b.c - s0.b.c).toBe(-cost(shares, ONE - p));
          expect(s1.a.y - s0.a.y).toBe(shares);
          expect(s1.b.n - s0.b.n).toBe(shares);

          // MERGE: alice offers her YES at p; bob sells his NO at 1 − p − tick (improvement): both get their maker's prices.
          expect((await place(alice, order(yes, 'SELL', p, shares, neg))).status).toBe('live');
          const lower = ONE - p - tick >= tick ? ONE - p - tick : ONE - p;
          const merge = await place(bob, order(no, 'SELL', lower, shares, neg), 'GTC');
          expect(merge, JSON.stringify(merge)).toMatchObject({ success: true, status: 'matched' });
          const s2 = await snapshot(market);
          expect(s2.a.c - s1.a.c).toBe(cost(shares, p));
          expect(s2.b.c - s1.b.c).toBe(shares - cost(shares, p));
          expect([s2.a.y, s2.b.n]).toEqual([s0.a.y, s0.b.n]);

          // NORMAL with a partial fill: mint 2 × shares, alice offers them all at p, carol takes half at a
          // higher limit and pays p.
          await place(alice, order(yes, 'BUY', p, shares * 2n, neg));
          const again = await place(bob, order(no, 'BUY', ONE - p, shares * 2n, neg), 'GTC');
          expect(again.status, again.errorMsg).toBe('matched');
          expect((await place(alice, order(yes, 'SELL', p, shares * 2n, neg))).status).toBe('live');
          const s3 = await snapshot(market);
          const normal = await place(
            carol,
            order(yes, 'BUY', p + tick <= ONE - tick ? p + tick : p, shares, neg),
            'GTC',
          );
          expect(normal).toMatchObject({ success: true, status: 'matched' });
          const s4 = await snapshot(market);
          expect(s4.c.c - s3.c.c).toBe(-cost(shares, p));
          expect(s4.a.c - s3.a.c).toBe(cost(shares, p));
          expect(s4.c.y - s3.c.y).toBe(shares);
          // Alice's rest is withdrawn; carol sells her shares into a fresh bid from bob with a FOK.
          await sb.server.cancelOrders(keys.get(alice.address)!, sb.server.openOrderIds(keys.get(alice.address)!));
          expect((await place(bob, order(yes, 'BUY', p, shares, neg))).status).toBe('live');
          const back = await place(carol, order(yes, 'SELL', p, shares, neg), 'FOK');
          expect(back).toMatchObject({ success: true, status: 'matched' });
          const s5 = await snapshot(market);
          expect(s5.c.c - s4.c.c).toBe(cost(shares, p));
          expect(s5.c.y).toBe(s3.c.y);
          // Every order of this point is filled or cancelled: nothing carries over to the next.
          expect(sb.server.openOrderIds(keys.get(alice.address)!)).toEqual([]);
          expect(sb.server.openOrderIds(keys.get(bob.address)!)).toEqual([]);
          trades += 5;
        }
      }
    }
    expect(trades).toBe(3 * 5 * 3 * 5);
    expect(sb.server.failedTrades()).toEqual([]);
  }, 180_000);

  it('settles market orders whose amounts are not an exact price (official market BUY rounding), giving the taker its improvement', async () => {
    const market = markets()[1]!; // tick 0.001: amounts with 5 decimals
    const [yes, no] = [market.tokens[0].tokenId, market.tokens[1].tokenId];
    for (const [amount, price] of [
      [1_000_000n, 560n],
      [9_990_000n, 780n],
      [100_000_000n, 60n],
      [949_990_000n, 390n],
    ] as const) {
      // Carol spends `amount` collateral at worst `price`: shares = amount / price at 5 decimals, as the official client rounds.
      const wanted = (amount * ONE) / price;
      const takerAmount = (wanted / 10n) * 10n;
      // A seller with enough YES at a better price: alice mints them with bob first.
      const lots = ((takerAmount + 10_000n) / 10_000n) * 10_000n;
      const better = price - 10n;
      await place(alice, order(yes, 'BUY', better, lots, false));
      await place(bob, order(no, 'BUY', ONE - better, lots, false), 'FOK');
      const offer = await place(alice, order(yes, 'SELL', better, lots, false));
      expect(offer.status, offer.errorMsg).toBe('live');
      const before = await snapshot(market);
      const response = await place(
        carol,
        { tokenId: yes, side: 'BUY', makerAmount: amount, takerAmount, negRisk: false },
        'FOK',
      );
      expect(response).toMatchObject({ success: true, status: 'matched' });
      const after = await snapshot(market);
      const filled = (takerAmount / 10_000n) * 10_000n;
      expect(after.c.y - before.c.y).toBe(filled);
      // Carol pays the maker's better price for whole lots, never her worst price.
      expect(before.c.c - after.c.c).toBe(cost(filled, better));
      await sb.server.cancelOrders(keys.get(alice.address)!, sb.server.openOrderIds(keys.get(alice.address)!));
    }
    expect(sb.server.failedTrades()).toEqual([]);
  });

  it('settles one taker against several makers of mixed match types in one matchOrders, each at its own price', async () => {
    const market = markets()[0]!;
    const [yes, no] = [market.tokens[0].tokenId, market.tokens[1].tokenId];
    const p = (x: number) => BigInt(Math.round(x * 10_000));
    const s = (x: number) => BigInt(Math.round(x * 1e6));
    // Alice gets 10 YES to offer (minted with bob).
    await place(alice, order(yes, 'BUY', p(0.5), s(10), false));
    await place(bob, order(no, 'BUY', p(0.5), s(10), false));
    expect(await sb.sharesOf(alice.address, yes)).toBeGreaterThanOrEqual(s(10));

    // BUY taker sweeping a YES ask at 0.55 (NORMAL) and a NO bid at 0.42, i.e. a YES ask at 0.58 (MINT).
    expect((await place(alice, order(yes, 'SELL', p(0.55), s(10), false))).status).toBe('live');
    expect((await place(carol, order(no, 'BUY', p(0.42), s(20), false))).status).toBe('live');
    const before = await snapshot(market);
    const sweep = await place(bob, order(yes, 'BUY', p(0.6), s(30), false), 'FOK');
    expect(sweep).toMatchObject({
      success: true,
      status: 'matched',
      makingAmount: '17.1',
      takingAmount: '30',
      transactionsHashes: [expect.any(String)],
    });
    const after = await snapshot(market);
    expect(after.b.c - before.b.c).toBe(-s(17.1));
    expect(after.b.y - before.b.y).toBe(s(30));
    expect(after.a.c - before.a.c).toBe(s(5.5));
    expect(after.c.c - before.c.c).toBe(-s(8.4));
    expect(after.c.n - before.c.n).toBe(s(20));

    // SELL taker sweeping a YES bid at 0.45 (NORMAL) and a NO ask at 0.58, i.e. a YES bid at 0.42 (MERGE).
    expect((await place(alice, order(yes, 'BUY', p(0.45), s(10), false))).status).toBe('live');
    expect((await place(carol, order(no, 'SELL', p(0.58), s(20), false))).status).toBe('live');
    const mid = await snapshot(market);
    const dump = await place(bob, order(yes, 'SELL', p(0.4), s(30), false), 'FOK');
    expect(dump).toMatchObject({ success: true, status: 'matched', makingAmount: '30', takingAmount: '12.9' });
    const end = await snapshot(market);
    expect(end.b.c - mid.b.c).toBe(s(12.9));
    expect(end.b.y - mid.b.y).toBe(-s(30));
    expect(end.a.y - mid.a.y).toBe(s(10));
    expect(end.c.c - mid.c.c).toBe(s(11.6));
    expect(end.c.n - mid.c.n).toBe(-s(20));
    expect(sb.server.failedTrades()).toEqual([]);
  });

  it('sweeps twelve makers in one matchOrders within the gas bound (MINT legs, the dearest kind)', async () => {
    const market = markets()[0]!;
    const [yes, no] = [market.tokens[0].tokenId, market.tokens[1].tokenId];
    // Carol bids for NO at 0.30, 0.31, … 0.41: YES asks from 0.70 down to 0.59.
    for (let i = 0; i < 12; i++)
      expect((await place(carol, order(no, 'BUY', BigInt(3000 + 100 * i), 5_000_000n, false))).status).toBe('live');
    const before = await snapshot(market);
    const sweep = await place(bob, order(yes, 'BUY', 7000n, 60_000_000n, false), 'FOK');
    expect(sweep, sweep.errorMsg).toMatchObject({ success: true, status: 'matched', takingAmount: '60' });
    const receipt = await sb.provider.getTransactionReceipt(sweep.transactionsHashes[0]!);
    expect(receipt?.status).toBe(1);
    const after = await snapshot(market);
    // Bob pays Σ 5 × (1 − q) over q = 0.30 … 0.41 = 5 × (12 − 4.26) = 38.7.
    expect(before.b.c - after.b.c).toBe(38_700_000n);
    expect(after.c.n - before.c.n).toBe(60_000_000n);
    expect(sb.server.failedTrades()).toEqual([]);
  });
});
