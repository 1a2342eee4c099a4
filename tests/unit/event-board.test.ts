// The event board's model (src/shared/event-board.ts): rows sorted by price, the sums of the best Yes asks and
// bids exact to the tick, and their words, incomplete sums and positions included.
import { describe, expect, it } from 'vitest';
import {
  boardPrice,
  changeCents,
  eventBoard,
  unitsInMoney,
  withLastTrade,
  type BoardOutcomeInput,
} from '../../src/shared/event-board';

const outcome = (
  name: string,
  bid: number | null,
  ask: number | null,
  extra: Partial<BoardOutcomeInput> = {},
): BoardOutcomeInput => ({
  marketId: `m-${name}`,
  name,
  yesTokenId: `yes-${name}`,
  noTokenId: `no-${name}`,
  book: {
    bids: bid === null ? [] : [{ price: bid, size: 10 }],
    asks: ask === null ? [] : [{ price: ask, size: 10 }],
  },
  last: null,
  listed: null,
  change24h: null,
  ...extra,
});

describe('the event board', () => {
  it('sorts outcomes by price, highest Yes first; an outcome with no price last', () => {
    const board = eventBoard(
      [
        outcome('25 bps cut', 0.34, 0.36),
        outcome('Nothing known', null, null),
        outcome('No change', 0.54, 0.56),
        outcome('50+ bps cut', 0.06, 0.08),
      ],
      true,
    );
    expect(board.rows.map((r) => r.name)).toEqual(['No change', '25 bps cut', '50+ bps cut', 'Nothing known']);
    expect(board.rows[0]).toMatchObject({ bestBid: 0.54, bestAsk: 0.56, spread: 0.02, price: 0.55 });
  });

  it('sorts by the last trade when the spread is wider than 10¢, by the listed price with no book', () => {
    expect(boardPrice(0.2, 0.5, 0.45, null)).toBe(0.45);
    expect(boardPrice(0.2, 0.5, null, null)).toBe(0.35);
    expect(boardPrice(null, 0.5, 0.3, 0.4)).toBe(0.3);
    expect(boardPrice(null, null, null, 0.4)).toBe(0.4);
    const board = eventBoard(
      [
        outcome('Wide', 0.1, 0.9, { last: 0.8 }),
        outcome('Tight', 0.6, 0.62),
        outcome('Listed', null, null, { listed: 0.7 }),
      ],
      true,
    );
    expect(board.rows.map((r) => r.name)).toEqual(['Wide', 'Listed', 'Tight']);
  });

  it('adds the asks exactly to the tick and says a sum under a dollar in words', () => {
    // 0.56 + 0.36 + 0.05 in floating point is 0.9700000000000001: the sum is kept in ten-thousandths.
    const board = eventBoard([outcome('A', 0.54, 0.56), outcome('B', 0.34, 0.36), outcome('C', 0.03, 0.05)], true);
    expect(board.asks).toEqual({ units: 9700, quoted: 3, of: 3, missing: [] });
    expect(board.asksWords).toBe(
      'The Yes asks add up to 97¢: buying one Yes of every outcome costs 97¢ and pays $1 — 3¢ under a dollar before fees.',
    );
    expect(board.bids.units).toBe(9100);
    expect(board.bidsWords).toBe(
      'The Yes bids add up to 91¢: selling one Yes of every outcome brings 91¢ for a set that pays $1 — 9¢ under a dollar, nothing to gain.',
    );
  });

  it('says bids over a dollar as the mirror, and asks over a dollar as nothing to gain', () => {
    const board = eventBoard([outcome('A', 0.6, 0.62), outcome('B', 0.425, 0.45)], true);
    expect(board.bids.units).toBe(10250);
    expect(board.bidsWords).toBe(
      'The Yes bids add up to 102.5¢: selling one Yes of every outcome brings $1.025 for a set that pays $1 — 2.5¢ over a dollar before fees.',
    );
    expect(board.asksWords).toBe(
      'The Yes asks add up to 107¢: buying one Yes of every outcome costs $1.07 and pays $1 — 7¢ over a dollar, nothing to gain.',
    );
  });

  it('says which outcomes have no ask or bid, so the sum is incomplete', () => {
    const board = eventBoard([outcome('A', 0.5, 0.55), outcome('B', null, 0.3), outcome('C', null, null)], true);
    expect(board.asks).toEqual({ units: 8500, quoted: 2, of: 3, missing: ['C'] });
    expect(board.asksWords).toBe(
      'The Yes asks add up to 85¢ over 2 of 3 outcomes: C has no ask, so the sum is incomplete and says nothing about a dollar.',
    );
    expect(board.bidsWords).toBe(
      'The Yes bids add up to 50¢ over 1 of 3 outcomes: B and C have no bid, so the sum is incomplete and says nothing about a dollar.',
    );
  });

  it('promises no dollar for outcomes that are not exclusive', () => {
    const board = eventBoard([outcome('A', 0.5, 0.55), outcome('B', 0.3, 0.35)], false);
    expect(board.asksWords).toBe(
      'The Yes asks add up to 90¢; the outcomes are not exclusive (not a negative-risk event), so the sum promises no dollar.',
    );
  });

  it("keeps the trader's position in each outcome with its side, the 24 h change in signed cents", () => {
    const board = eventBoard(
      [
        outcome('A', 0.5, 0.55, { yesShares: 12, change24h: 0.03 }),
        outcome('B', 0.3, 0.35, { noShares: 5.5, change24h: -0.015 }),
      ],
      true,
    );
    expect(board.rows[0]!.positions).toEqual([{ side: 'Yes', shares: 12 }]);
    expect(board.rows[1]!.positions).toEqual([{ side: 'No', shares: 5.5 }]);
    expect(changeCents(board.rows[0]!.change24h)).toBe('+3¢');
    expect(changeCents(board.rows[1]!.change24h)).toBe('−1.5¢');
    expect(changeCents(null)).toBe('—');
  });

  it('writes money from a dollar up in dollars, exact', () => {
    expect(unitsInMoney(9700)).toBe('97¢');
    expect(unitsInMoney(10000)).toBe('$1.00');
    expect(unitsInMoney(10400)).toBe('$1.04');
    expect(unitsInMoney(10450)).toBe('$1.045');
  });

  it('has rows still loading (no book read) and says so', () => {
    const board = eventBoard([{ ...outcome('A', null, null), book: undefined }], true);
    expect(board.rows[0]!.hasBook).toBe(false);
  });
});

describe("an outcome's last trade from the market channel", () => {
  const market = {
    id: '90012',
    position_tokens: [{ token_id: 'yes' }, { token_id: 'no' }],
    lastTradePrice: 0.4,
    oneDayPriceChange: 0.05,
  };

  it('takes a Yes trade as the last, and moves the 24 h change from the price a day ago the record implies', () => {
    expect(withLastTrade(market, 'yes', 0.42)).toEqual({ ...market, lastTradePrice: 0.42, oneDayPriceChange: 0.07 });
  });

  it("takes a No trade as the Yes last at its complement, and leaves another market's token and a bad price alone", () => {
    expect(withLastTrade(market, 'no', 0.62)).toMatchObject({ lastTradePrice: 0.38, oneDayPriceChange: 0.03 });
    expect(withLastTrade(market, 'other', 0.5)).toBe(market);
    expect(withLastTrade(market, 'yes', 0)).toBe(market);
    expect(withLastTrade(market, 'yes', 1)).toBe(market);
  });

  it('keeps no 24 h change it cannot measure: a record without one keeps none', () => {
    const bare = { position_tokens: market.position_tokens, lastTradePrice: null };
    expect(withLastTrade(bare, 'yes', 0.3)).toEqual({ ...bare, lastTradePrice: 0.3 });
  });
});
