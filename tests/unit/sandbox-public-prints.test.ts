// The sandbox's public tape (Data API /trades, the real-time activity feed, the CLOB's live activity): a taker
// order that took several price levels prints once per level at that level's price, never once at its average.
import { describe, expect, it } from 'vitest';
import { ClobPublicTrades, publicPrints, type ClobTradeView } from '../../sandbox/clob/public-trades';
import type { CatalogMarket } from '../../sandbox/market/catalog';
import type { PublicTrade } from '../../sandbox/market/public-trades';

// Only what the public view reads of a market: its condition and its two tokens.
const market = {
  conditionId: `0x${'ab'.repeat(32)}`,
  tokens: [
    { tokenId: '111', name: 'Yes', index: 0 },
    { tokenId: '222', name: 'No', index: 1 },
  ],
} as unknown as CatalogMarket;

const shares = (n: number) => BigInt(Math.round(n * 1e6));

/** A taker BUY of Yes that took 50 at 94¢ (a Yes seller), then 55.26 at 95¢ (a No bid at 5¢, and a Yes seller). */
function sweep(id = 'trade-1'): ClobTradeView {
  const makers: ClobTradeView['makers'] = [
    { makerAddress: '0xm1', shares: shares(50), price: 9400, tokenId: '111', outcome: 0, side: 'SELL' },
    { makerAddress: '0xm2', shares: shares(30), price: 500, tokenId: '222', outcome: 1, side: 'BUY' },
    { makerAddress: '0xm3', shares: shares(25.26), price: 9500, tokenId: '111', outcome: 0, side: 'SELL' },
  ];
  const total = shares(105.26);
  // The CLOB's own record keeps the taker's average (its business: what its order paid on the whole).
  const average = Number((shares(50) * 9400n + shares(55.26) * 9500n) / total);
  return {
    id,
    market,
    tokenId: '111',
    outcome: 0,
    side: 'BUY',
    shares: total,
    price: average,
    status: 'MINED',
    matchTime: 1_800_000_000,
    makerAddress: '0xtaker',
    makers,
    transactionHash: '0xhash',
  };
}

describe('public prints of a taker trade', () => {
  it('one print per level taken, each at a price on the tick, in the order matched', () => {
    const prints = publicPrints(sweep());
    expect(prints.map((p) => [p.id, p.price, p.size, p.side, p.outcome])).toEqual([
      ['trade-1-1', 0.94, 50, 'BUY', 'Yes'],
      ['trade-1-2', 0.95, 55.26, 'BUY', 'Yes'],
    ]);
    expect(prints[1]!.makers.map((m) => [m.address, m.price, m.size])).toEqual([
      ['0xm2', 0.05, 30],
      ['0xm3', 0.95, 25.26],
    ]);
    expect(prints.every((p) => p.transactionHash === '0xhash' && p.taker === '0xtaker')).toBe(true);
  });

  it('a one-level trade is one print under its own id', () => {
    const one = { ...sweep('trade-2'), shares: shares(50), price: 9400, makers: sweep().makers.slice(0, 1) };
    expect(publicPrints(one).map((p) => [p.id, p.price, p.size])).toEqual([['trade-2', 0.94, 50]]);
  });

  it('the feed lists and announces the prints, never the average', () => {
    const feed = new ClobPublicTrades();
    const heard: PublicTrade[] = [];
    feed.onTrade((t) => heard.push(t));
    const trade = sweep();
    feed.recorded(trade);
    feed.settled(trade);
    feed.settled(trade);
    expect(heard.map((t) => t.price)).toEqual([0.94, 0.95]);
    expect(feed.trades().map((t) => t.price)).toEqual([0.94, 0.95]);
    expect(feed.trades().some((t) => t.price === trade.price / 10_000)).toBe(false);
  });
});
