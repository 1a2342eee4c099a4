// The sandbox matching engine: price-time priority, complement crossing (MINT/MERGE), order types.
import { describe, expect, it } from 'vitest';
import { MarketBook, PRICE_ONE, type NewOrder } from '../../sandbox/clob/engine';

const SHARE = 1_000_000n;
const p = (price: number) => Math.round(price * PRICE_ONE);
let n = 0;
const order = (o: Partial<NewOrder> & Pick<NewOrder, 'side' | 'price'>): NewOrder => ({
  id: `o${++n}`,
  owner: 'k',
  maker: '0xm',
  outcome: 0,
  size: 10n * SHARE,
  type: 'GTC',
  ...o,
  price: p(o.price),
});

describe('matching engine', () => {
  it('rests orders that do not cross and shows both outcome books mirrored', () => {
    const book = new MarketBook();
    expect(book.submit(order({ side: 'BUY', price: 0.4 }), 0)).toMatchObject({ ok: true, status: 'live', fills: [] });
    expect(book.submit(order({ side: 'SELL', price: 0.45, size: 5n * SHARE }), 0)).toMatchObject({
      ok: true,
      status: 'live',
    });
    expect(book.submit(order({ side: 'BUY', price: 0.5, outcome: 1, size: 3n * SHARE }), 0)).toMatchObject({
      status: 'live',
    }); // an ask at 0.50 for the first outcome
    expect(book.levels(0)).toEqual({
      bids: [{ price: p(0.4), size: 10n * SHARE }],
      asks: [
        { price: p(0.45), size: 5n * SHARE },
        { price: p(0.5), size: 3n * SHARE },
      ],
    });
    expect(book.levels(1)).toEqual({
      bids: [
        { price: p(0.55), size: 5n * SHARE },
        { price: p(0.5), size: 3n * SHARE },
      ],
      asks: [{ price: p(0.6), size: 10n * SHARE }],
    });
  });

  it('fills at the maker price, best price first, then by time', () => {
    const book = new MarketBook();
    const first = order({ side: 'SELL', price: 0.45, size: 4n * SHARE });
    const second = order({ side: 'SELL', price: 0.45, size: 4n * SHARE });
    const better = order({ side: 'SELL', price: 0.44, size: 1n * SHARE });
    for (const o of [first, second, better]) book.submit(o, 0);
    const result = book.submit(order({ side: 'BUY', price: 0.5, size: 7n * SHARE }), 0);
    expect(result.ok && result.fills.map((f) => [f.makerId, f.shares, f.makerPrice, f.matchType])).toEqual([
      [better.id, 1n * SHARE, p(0.44), 'NORMAL'],
      [first.id, 4n * SHARE, p(0.45), 'NORMAL'],
      [second.id, 2n * SHARE, p(0.45), 'NORMAL'],
    ]);
    expect(result.ok && result.status).toBe('matched');
    expect(book.order(second.id)?.remaining).toBe(2n * SHARE);
    expect(book.order(first.id)).toBeUndefined();
  });

  it('rests the rest of a partly filled GTC at its own price', () => {
    const book = new MarketBook();
    book.submit(order({ side: 'SELL', price: 0.3, size: 2n * SHARE }), 0);
    const taker = order({ side: 'BUY', price: 0.35, size: 5n * SHARE });
    const result = book.submit(taker, 0);
    expect(result).toMatchObject({ ok: true, status: 'matched', resting: { id: taker.id, remaining: 3n * SHARE } });
    expect(book.levels(0).bids).toEqual([{ price: p(0.35), size: 3n * SHARE }]);
  });

  it('MINTs two BUYs of complementary outcomes whose prices add up to at least 1', () => {
    const book = new MarketBook();
    const buyNo = order({ side: 'BUY', outcome: 1, price: 0.45 });
    book.submit(buyNo, 0);
    const result = book.submit(order({ side: 'BUY', outcome: 0, price: 0.6 }), 0);
    expect(result.ok && result.fills[0]).toMatchObject({
      makerId: buyNo.id,
      matchType: 'MINT',
      makerPrice: p(0.45),
      takerPrice: p(0.55),
      shares: 10n * SHARE,
    });
    // 0.54 + 0.45 < 1: no cross
    const book2 = new MarketBook();
    book2.submit(order({ side: 'BUY', outcome: 1, price: 0.45 }), 0);
    expect(book2.submit(order({ side: 'BUY', outcome: 0, price: 0.54 }), 0)).toMatchObject({
      status: 'live',
      fills: [],
    });
  });

  it('MERGEs two SELLs of complementary outcomes whose prices add up to at most 1', () => {
    const book = new MarketBook();
    const sellNo = order({ side: 'SELL', outcome: 1, price: 0.3 });
    book.submit(sellNo, 0);
    const result = book.submit(order({ side: 'SELL', outcome: 0, price: 0.65 }), 0);
    expect(result.ok && result.fills[0]).toMatchObject({ matchType: 'MERGE', makerPrice: p(0.3), takerPrice: p(0.7) });
  });

  it('crosses a second-outcome taker against a first-outcome maker', () => {
    const book = new MarketBook();
    const sellYes = order({ side: 'SELL', outcome: 0, price: 0.7 });
    book.submit(sellYes, 0);
    // SELL NO at 0.3 equals BUY YES at 0.7: a MERGE against SELL YES
    const result = book.submit(order({ side: 'SELL', outcome: 1, price: 0.3 }), 0);
    expect(result.ok && result.fills[0]).toMatchObject({ matchType: 'MERGE', makerPrice: p(0.7), takerPrice: p(0.3) });
  });

  it('FOK fills completely or not at all', () => {
    const book = new MarketBook();
    book.submit(order({ side: 'SELL', price: 0.5, size: 3n * SHARE }), 0);
    const killed = book.submit(order({ side: 'BUY', price: 0.5, size: 4n * SHARE, type: 'FOK' }), 0);
    expect(killed).toEqual({
      ok: false,
      reason: 'FOK_NOT_FILLED',
      message: "order couldn't be fully filled. FOK orders are fully filled or killed.",
    });
    expect(book.levels(0).asks).toEqual([{ price: p(0.5), size: 3n * SHARE }]);
    const filled = book.submit(order({ side: 'BUY', price: 0.5, size: 3n * SHARE, type: 'FOK' }), 0);
    expect(filled).toMatchObject({ ok: true, status: 'matched' });
    expect(book.size).toBe(0);
  });

  it('FAK fills what it can and drops the rest; with nothing to match it is refused', () => {
    const book = new MarketBook();
    book.submit(order({ side: 'SELL', price: 0.5, size: 3n * SHARE }), 0);
    const partial = book.submit(order({ side: 'BUY', price: 0.5, size: 5n * SHARE, type: 'FAK' }), 0);
    expect(partial.ok && partial.fills[0]!.shares).toBe(3n * SHARE);
    expect(book.size).toBe(0);
    expect(book.submit(order({ side: 'BUY', price: 0.5, type: 'FAK' }), 0)).toMatchObject({
      ok: false,
      reason: 'FAK_NO_MATCH',
    });
  });

  it('refuses a post-only order that would cross, and rests one that would not', () => {
    const book = new MarketBook();
    book.submit(order({ side: 'SELL', price: 0.5 }), 0);
    expect(book.submit(order({ side: 'BUY', price: 0.5, postOnly: true }), 0)).toMatchObject({
      ok: false,
      reason: 'POST_ONLY_CROSSES',
    });
    expect(book.submit(order({ side: 'BUY', price: 0.49, postOnly: true }), 0)).toMatchObject({
      ok: true,
      status: 'live',
    });
  });

  it('expires GTD orders and cancels on request', () => {
    const book = new MarketBook();
    const gtd = order({ side: 'BUY', price: 0.4, type: 'GTD', expiration: 100 });
    const gtc = order({ side: 'BUY', price: 0.41 });
    book.submit(gtd, 0);
    book.submit(gtc, 0);
    expect(book.expire(99)).toEqual([]);
    expect(book.expire(100).map((o) => o.id)).toEqual([gtd.id]);
    expect(book.cancel(gtc.id)?.id).toBe(gtc.id);
    expect(book.cancel(gtc.id)).toBeUndefined();
    expect(book.size).toBe(0);
  });

  it('refuses a duplicate id and a price outside (0, 1)', () => {
    const book = new MarketBook();
    const o = order({ side: 'BUY', price: 0.4 });
    book.submit(o, 0);
    expect(book.submit({ ...o }, 0)).toMatchObject({ ok: false, reason: 'DUPLICATE' });
    expect(book.submit(order({ side: 'BUY', price: 1 }), 0)).toMatchObject({ ok: false, reason: 'INVALID' });
    expect(book.submit(order({ side: 'BUY', price: 0.5, size: 0n }), 0)).toMatchObject({
      ok: false,
      reason: 'INVALID',
    });
  });

  it('keeps price-time order across many inserts (binary search)', () => {
    const book = new MarketBook();
    const prices = [0.31, 0.35, 0.33, 0.35, 0.3, 0.34, 0.32, 0.35];
    const ids = prices.map((price) => {
      const o = order({ side: 'BUY', price, size: SHARE });
      book.submit(o, 0);
      return { id: o.id, price };
    });
    const result = book.submit(order({ side: 'SELL', price: 0.01, size: 8n * SHARE }), 0);
    const expected = [...ids].sort((a, b) => b.price - a.price).map((x) => x.id); // stable: ties keep arrival order
    expect(result.ok && result.fills.map((f) => f.makerId)).toEqual(expected);
  });
});
