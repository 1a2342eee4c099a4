// The open market's live quote of one of its tokens: its book from the feed and the tape's last trade, read
// from the market view's store state (pure, so unit tests call it with a state of their own).
import type { Market } from '@pmdesk/toolkit/model';
import type { Book } from '../../../shared/book';
import type { TapeEntry } from './market';
import { finalQuote, inOutcome, quoteFromBook, quoteFromRecord, quoteOf, type Quote } from './quote';

/**
 * The live quote of a token of the open market, or null when the token is not the open market's. A resolved
 * market's outcome is its payout (100¢ or 0¢), whatever its book or last trade said.
 */
export function liveQuote(
  state: {
    market: Market | null;
    books: Record<string, Book>;
    tape: readonly TapeEntry[];
    state?: { finalPrices: Record<string, number> | null } | null;
    key?: string | null;
    event?: { markets: readonly Market[] } | null;
  },
  tokenId: string | null | undefined,
): Quote | null {
  if (!tokenId) return null;
  // An event board's store (key `event:…`) follows the books of every market of its event and has no market of its
  // own: the token's market is found in its event (its tape is empty, so the last trade is the record's).
  const market =
    state.market ??
    (state.key?.startsWith('event:')
      ? state.event?.markets.find((m) => m.position_tokens.some((t) => t.token_id === tokenId))
      : undefined);
  if (!market) return null;
  const index = market.position_tokens.findIndex((t) => t.token_id === tokenId);
  if (index < 0) return null;
  const payout = state.state?.finalPrices?.[tokenId];
  if (payout !== undefined) return finalQuote(payout);
  const book = state.books[tokenId];
  const record = quoteFromRecord(market, index);
  // The tape is newest first and priced in the first outcome.
  const fill = state.tape.find((e) => e.kind === 'fill');
  const last = fill && fill.kind === 'fill' ? inOutcome(fill.price, index) : record.last;
  if (!book)
    return quoteOf({ bestBid: record.bestBid, bestAsk: record.bestAsk, last, listed: record.price, live: false });
  return quoteFromBook(book, last, record.price);
}
