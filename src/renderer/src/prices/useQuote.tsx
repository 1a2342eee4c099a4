// The price model's hooks and its one rendering: `useQuote(tokenId)` is the outcome's live quote while its
// market is open in a tile (its book and tape: the panel's own tile, else the focused tile, else any tile
// showing it), else the quote of the listed snapshot the caller has; `QuotePrice`
// draws a shown price with its basis tag and the sentence on hover, and marks itself with data-quote-* so a test
// can read every price on the screen at one instant.
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { Market } from '@pmdesk/toolkit/model';
import { useQuoteStore } from '../store/market';
import { liveQuote } from '../model/live-quote';
import { ageTag, basisSentence, basisTag, quoteCents, quoteFromRecord, quoteOf, type Quote } from '../model/quote';
import { useRefreshedQuotes } from '../store/quotes';

/** What a panel knows of an outcome's price without the live book: a market record, or a listed price. */
export type QuoteFallback =
  | { market: Pick<Market, 'position_tokens' | 'bestBid' | 'bestAsk' | 'lastTradePrice'>; outcomeIndex: number }
  | { listed: number | null };

const NONE: Quote = quoteOf({ bestBid: null, bestAsk: null, live: false });

function fallbackQuote(fallback: QuoteFallback | undefined): Quote {
  if (!fallback) return NONE;
  if ('market' in fallback) return quoteFromRecord(fallback.market, fallback.outcomeIndex);
  return quoteOf({ bestBid: null, bestAsk: null, listed: fallback.listed, live: false });
}

/**
 * The outcome's quote: live when its market is open in a tile, else as last read on the shown markets' schedule
 * (store/quotes.ts), else from the fallback the panel has.
 */
export function useQuote(tokenId: string | null | undefined, fallback?: QuoteFallback): Quote {
  // Only primitives come out of the selector, compared shallowly: a book update that moves nothing shown renders nothing.
  const live = useStore(
    useQuoteStore(tokenId),
    useShallow((s) => liveQuote(s, tokenId) ?? NONE),
  );
  const refreshed = useRefreshedQuotes((s) => (tokenId ? s[tokenId] : undefined));
  if (live.basis !== null || live.live) return live;
  return refreshed && refreshed.basis !== null ? refreshed : fallbackQuote(fallback);
}

/** A shown price: "52.5¢ mid", its basis in words on hover, data-quote-* for tests and for reading at a glance. */
export function QuotePrice({
  tokenId,
  fallback,
  tag = true,
  className,
}: {
  tokenId: string | null | undefined;
  fallback?: QuoteFallback;
  tag?: boolean;
  className?: string;
}) {
  const quote = useQuote(tokenId, fallback);
  return <QuoteText quote={quote} tokenId={tokenId} tag={tag} className={className} />;
}

/** A quote already read (a table that reads many at once) drawn the same way. */
export function QuoteText({
  quote,
  tokenId,
  tag = true,
  className,
}: {
  quote: Quote;
  tokenId?: string | null;
  tag?: boolean;
  className?: string;
}) {
  return (
    <span
      className={`num quote${className ? ` ${className}` : ''}`}
      title={basisSentence(quote)}
      data-quote-token={tokenId ?? undefined}
      data-quote-basis={quote.basis ?? 'none'}
      data-quote-value={quote.price === null ? '' : String(quote.price)}
    >
      {/* The number in a box of its own width (styles.css): a price that gains or loses a digit moves no text
          around it, which would make the browser re-layer the whole page on every such change of a busy book. */}
      <span className="quote-value">{quoteCents(quote.price)}</span>
      {tag && quote.basis ? (
        <small className="quote-basis muted">
          {' '}
          {basisTag(quote.basis)}
          {ageTag(quote.asOf)}
        </small>
      ) : null}
    </span>
  );
}
