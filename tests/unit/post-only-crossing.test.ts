// The post-only rule the ticket applies from the live book, and the sentence for the exchange's own refusal.
import { describe, expect, it } from 'vitest';
import { isPostOnlyRefusal, postOnlyCrossing, postOnlyRefusedSentence } from '../../src/shared/post-only';

const book = {
  bids: [
    { price: '0.92', size: '10' },
    { price: '0.93', size: '5' },
    { price: '0.95', size: '0' },
  ],
  asks: [
    { price: '0.96', size: '3' },
    { price: '0.94', size: '7' },
  ],
};

describe('postOnlyCrossing', () => {
  it('a buy at or above the best ask crosses; below it rests', () => {
    expect(postOnlyCrossing({ side: 'BUY', price: 0.95 }, book)).toBe(
      'Post-only: this buy at 95¢ would take the best ask (94¢) — lower the price or turn post-only off.',
    );
    expect(postOnlyCrossing({ side: 'BUY', price: 0.94 }, book)).toMatch(/would take the best ask \(94¢\)/);
    expect(postOnlyCrossing({ side: 'BUY', price: 0.93 }, book)).toBeNull();
  });

  it('a sell at or below the best bid crosses (an empty level is no bid); above it rests', () => {
    expect(postOnlyCrossing({ side: 'SELL', price: 0.93 }, book)).toBe(
      'Post-only: this sell at 93¢ would take the best bid (93¢) — raise the price or turn post-only off.',
    );
    expect(postOnlyCrossing({ side: 'SELL', price: 0.9 }, book)).toMatch(
      /this sell at 90¢ would take the best bid \(93¢\)/,
    );
    expect(postOnlyCrossing({ side: 'SELL', price: 0.94 }, book)).toBeNull();
  });

  it('an empty side, no book or no price: nothing to cross', () => {
    expect(postOnlyCrossing({ side: 'BUY', price: 0.99 }, { bids: book.bids, asks: [] })).toBeNull();
    expect(postOnlyCrossing({ side: 'SELL', price: 0.01 }, { asks: book.asks })).toBeNull();
    expect(postOnlyCrossing({ side: 'BUY', price: 0.5 }, undefined)).toBeNull();
    expect(postOnlyCrossing({ side: 'BUY', price: 0 }, book)).toBeNull();
  });

  it('sub-cent ticks are written as the ticket writes them', () => {
    expect(postOnlyCrossing({ side: 'BUY', price: 0.945 }, { asks: [{ price: 0.944, size: 1 }] })).toMatch(
      /this buy at 94\.5¢ would take the best ask \(94\.4¢\)/,
    );
  });
});

describe('the exchange’s refusal', () => {
  it('is recognised in Polymarket’s wording and translated, with the book now when known', () => {
    expect(isPostOnlyRefusal('[ERR_API_REQUEST] invalid post-only order: order crosses book (Status: 400)')).toBe(true);
    expect(isPostOnlyRefusal("order couldn't be fully filled. FOK orders are fully filled or killed.")).toBe(false);
    expect(postOnlyRefusedSentence({ side: 'BUY', price: 0.95 }, book)).toBe(
      'Post-only: the book moved and this buy at 95¢ would have taken the best ask (the best ask is now 94¢), so the exchange refused it and nothing was placed — lower the price or turn post-only off.',
    );
    expect(postOnlyRefusedSentence({ side: 'SELL', price: 0.9 }, undefined)).toMatch(
      /^Post-only: the book moved and this sell at 90¢ would have taken the best bid, so .* raise the price/,
    );
  });
});
