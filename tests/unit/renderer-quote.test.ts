// The one price model: Polymarket's shown-price rule, its basis, complements and the listed fallback.
import { describe, expect, it } from 'vitest';
import {
  ageTag,
  basisSentence,
  basisTag,
  bookTop,
  finalQuote,
  inOutcome,
  quoteCents,
  quoteFromBook,
  quoteFromRecord,
  quoteOf,
} from '../../src/renderer/src/model/quote';
import { liveQuote } from '../../src/renderer/src/model/live-quote';

const book = (bids: [number, number][], asks: [number, number][]) => ({
  bids: bids.map(([price, size]) => ({ price, size })),
  asks: asks.map(([price, size]) => ({ price, size })),
});

describe('the shown price', () => {
  it('is the midpoint while the spread is at most 10¢', () => {
    const q = quoteFromBook(
      book(
        [
          [0.52, 10],
          [0.5, 5],
        ],
        [
          [0.55, 3],
          [0.6, 1],
        ],
      ),
      0.4,
    );
    expect(q).toMatchObject({
      bestBid: 0.52,
      bestAsk: 0.55,
      spread: 0.03,
      midpoint: 0.535,
      price: 0.535,
      basis: 'midpoint',
      live: true,
    });
    expect(quoteCents(q.price)).toBe('53.5¢');
    // Exactly 10¢ still shows the midpoint (0.1 is not exact in binary: the grid keeps it so).
    expect(quoteFromBook(book([[0.4, 1]], [[0.5, 1]]), 0.3)).toMatchObject({
      spread: 0.1,
      basis: 'midpoint',
      price: 0.45,
    });
  });

  it('is the last trade when the spread is wider than 10¢, or one side is empty', () => {
    const wide = quoteFromBook(book([[0.3, 1]], [[0.5, 1]]), 0.41);
    expect(wide).toMatchObject({ price: 0.41, basis: 'last', midpoint: 0.4 });
    expect(basisSentence(wide)).toMatch(/wider than 10¢/);
    expect(quoteFromBook(book([[0.3, 1]], []), 0.33)).toMatchObject({ price: 0.33, basis: 'last', midpoint: null });
  });

  it('falls back to the midpoint of a wide book with no trade, then to the listed price, and says none when nothing is known', () => {
    expect(quoteFromBook(book([[0.3, 1]], [[0.5, 1]]), null)).toMatchObject({ price: 0.4, basis: 'midpoint' });
    expect(quoteFromBook(book([], []), null, 0.61)).toMatchObject({ price: 0.61, basis: 'listed' });
    expect(quoteOf({ bestBid: null, bestAsk: null, live: false })).toMatchObject({ price: null, basis: null });
    expect(quoteCents(null)).toBe('—');
  });

  it('ignores empty levels and unordered books', () => {
    expect(
      bookTop(
        book(
          [
            [0.2, 1],
            [0.45, 0],
            [0.4, 2],
          ],
          [
            [0.7, 1],
            [0.5, 0],
            [0.6, 1],
          ],
        ),
      ),
    ).toEqual({ bestBid: 0.4, bestAsk: 0.6 });
  });

  it("reads a market record's snapshot, the second outcome as the complement", () => {
    const market = {
      position_tokens: [
        { token_id: 'y', name: 'Yes', price: '0.57' },
        { token_id: 'n', name: 'No', price: '0.43' },
      ],
      bestBid: 0.56,
      bestAsk: 0.58,
      lastTradePrice: 0.6,
    };
    expect(quoteFromRecord(market, 0)).toMatchObject({
      bestBid: 0.56,
      bestAsk: 0.58,
      price: 0.57,
      basis: 'midpoint',
      live: false,
    });
    expect(quoteFromRecord(market, 1)).toMatchObject({
      bestBid: 0.42,
      bestAsk: 0.44,
      last: 0.4,
      price: 0.43,
      basis: 'midpoint',
    });
    expect(quoteFromRecord({ ...market, bestBid: null, bestAsk: null, lastTradePrice: null }, 1)).toMatchObject({
      price: 0.43,
      basis: 'listed',
    });
    expect(inOutcome(0.37, 1)).toBe(0.63);
  });

  it("is the open market's live quote for its tokens and nothing for others", () => {
    const market = {
      position_tokens: [
        { token_id: 'y', name: 'Yes', price: '0.5' },
        { token_id: 'n', name: 'No', price: '0.5' },
      ],
    } as never;
    const state = {
      market,
      books: { y: { tokenId: 'y', market: 'm', hash: '', timestamp: 0, ...book([[0.3, 1]], [[0.6, 1]]) } },
      tape: [{ kind: 'fill' as const, seq: 1, price: 0.35, size: 2, time: 1 }],
    };
    expect(liveQuote(state, 'y')).toMatchObject({ price: 0.35, basis: 'last', live: true });
    // No book for No yet: the record's listed price, with the tape's last trade as its complement.
    expect(liveQuote(state, 'n')).toMatchObject({ last: 0.65, price: 0.65, basis: 'last', live: false });
    expect(liveQuote(state, 'other')).toBeNull();
  });
});

describe('a listed snapshot', () => {
  it("reads Gamma's empty sides (bid 0, ask 1, last 0) as unknown, not as prices", () => {
    const market = {
      position_tokens: [
        { token_id: 'y', name: 'Yes', price: '0.5' },
        { token_id: 'n', name: 'No', price: '0.5' },
      ],
      bestBid: 0,
      bestAsk: 1,
      lastTradePrice: 0,
    };
    expect(quoteFromRecord(market, 0)).toMatchObject({
      bestBid: null,
      bestAsk: null,
      last: null,
      price: 0.5,
      basis: 'listed',
    });
  });
});

describe('a price read again on a schedule, and a resolved one', () => {
  it('says its age once it is a minute old or more', () => {
    const now = 1_000_000_000;
    expect(ageTag(undefined, now)).toBe('');
    expect(ageTag(now - 59_000, now)).toBe('');
    expect(ageTag(now - 120_000, now)).toBe(' · 2 min ago');
    expect(ageTag(now - 2 * 3_600_000, now)).toBe(' · 2 h ago');
  });

  it("a resolved market's outcome is its payout, whatever its book says", () => {
    const market = {
      position_tokens: [
        { token_id: 'y', name: 'Yes', price: '0.9' },
        { token_id: 'n', name: 'No', price: '0.1' },
      ],
    } as never;
    const state = {
      market,
      books: { y: { bids: [{ price: '0.1', size: '5' }], asks: [{ price: '0.12', size: '5' }] } } as never,
      tape: [],
      state: { finalPrices: { y: 1, n: 0 } },
    };
    expect(liveQuote(state, 'y')).toMatchObject({ price: 1, basis: 'final' });
    expect(liveQuote(state, 'n')).toMatchObject({ price: 0, basis: 'final' });
    expect(basisTag(finalQuote(1).basis)).toBe('final');
  });
});
