// The market's header (event title, question, end date, status) and its outcomes with their prices: picking
// one points the ladder, tape and chart at it.
import type { Market } from '@pmdesk/toolkit/model';
import { useMarket, useShownMarket } from '../../store/market';
import { statusOf } from './market-status';
import { QuotePrice, useQuote, type QuoteFallback } from '../../prices/useQuote';
import { basisSentence, quoteCents } from '../../model/quote';
import { bookAsOf } from '../../model/market';
import { activeWalletInfo, useSession } from '../../store/session';
import { useConvertDialog } from '../convert/useConvertDialog';

import { openEventBoard } from '../../store/workspaces';

function endText(iso: string): string {
  const when = new Date(iso);
  if (!iso || Number.isNaN(when.getTime())) return 'No end date';
  const text = when.toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
  return when.getTime() < Date.now() ? `Ended ${text}` : `Ends ${text}`;
}

export function MarketHeader() {
  const market = useMarket((s) => s.market);
  const event = useMarket((s) => s.event);
  const error = useMarket((s) => s.marketError);
  const state = useMarket((s) => s.state);
  const wallet = useSession((s) => activeWalletInfo(s)?.label ?? null);
  const convert = useConvertDialog(wallet);

  const shown = useShownMarket();
  if (error)
    return (
      <div className="market-header error-text" role="alert">
        {error}
      </div>
    );
  if (!market) return <div className="market-header muted">Loading the market…</div>;
  const status = statusOf(market, state);
  const question = market.question || market.name;
  const title = event?.title && event.title !== question ? event.title : null;
  return (
    <div className="market-header" data-testid="market-header">
      {/* Both in full: they wrap rather than cut, and say themselves again on hover. */}
      {title && (
        <div className="market-event-title muted" data-testid="market-event-title" title={title}>
          {title}
        </div>
      )}
      <h2 className="market-question" data-testid="market-question" title={title ? `${question}\n${title}` : question}>
        {question}
      </h2>
      <div className="market-facts">
        <span className={`market-status status-${status.tone}`} data-testid="market-status">
          {status.words}
        </span>
        <span className="muted">{endText(market.end || event?.endDate || '')}</span>
        {/* A negative-risk event's No shares convert into the other outcomes' Yes shares and pUSD. */}
        {market.neg_risk && event?.id ? (
          <button
            type="button"
            data-testid="market-convert"
            disabled={!wallet}
            title={
              wallet
                ? "Give No shares of some of this event's outcomes for Yes shares of the others and pUSD"
                : 'Unlock a wallet to convert'
            }
            onClick={() => convert.open(event.id, market.id)}
          >
            Convert…
          </button>
        ) : null}

        {shown.market?.eventId && (event?.markets.length ?? 0) > 1 && (
          <OpenBoardButton market={{ ...shown.market, eventId: shown.market.eventId }} tokenId={shown.tokenId} />
        )}
      </div>
      {convert.dialog}
    </div>
  );
}

/** A market of a multi-outcome event: its whole event side by side, in a board tile next to this one. */
function OpenBoardButton({
  market,
  tokenId,
}: {
  market: { protocol: 'polymarket' | 'limitless' | 'truemarket'; marketId: string; eventId: string };
  tokenId: string | null;
}) {
  return (
    <button
      type="button"
      className="ghost open-board"
      data-testid="open-event-board"
      title="Every outcome of this event side by side, with the sums of their asks and bids (key: e)"
      onClick={() => openEventBoard({ protocol: market.protocol, eventId: market.eventId }, { market, tokenId })}
    >
      Open event board
    </button>
  );
}

export function Outcomes() {
  const market = useMarket((s) => s.market);
  // Prices from books that may no longer be the exchange's are dimmed and say since when.
  const unknown = useMarket((s) => s.bookUnknown);
  const { tokenId, selectToken } = useShownMarket();
  if (!market) return null;
  return (
    <div className="outcomes" role="radiogroup" aria-label="Outcome" data-testid="outcomes">
      {market.position_tokens.map((token, i) => (
        <button
          key={token.token_id}
          type="button"
          role="radio"
          aria-checked={token.token_id === tokenId}
          className="outcome"
          data-token={token.token_id}
          onClick={() => selectToken(token.token_id)}
        >
          <span>{token.name}</span>
          <span
            className={`num outcome-price${unknown ? ' stale' : ''}`}
            title={unknown ? bookAsOf(unknown) : undefined}
            data-stale={unknown ? 'true' : undefined}
          >
            <QuotePrice tokenId={token.token_id} fallback={{ market, outcomeIndex: i }} />
          </span>
        </button>
      ))}
      <QuoteFacts tokenId={tokenId} fallback={fallbackOf(market, tokenId)} />
    </div>
  );
}

function fallbackOf(market: Market, tokenId: string | null) {
  const outcomeIndex = market.position_tokens.findIndex((t) => t.token_id === tokenId);
  return outcomeIndex < 0 ? undefined : { market, outcomeIndex };
}

/** The chosen outcome's quote in parts, each named: what the shown price is made of. */
function QuoteFacts({ tokenId, fallback }: { tokenId: string | null; fallback: QuoteFallback | undefined }) {
  const quote = useQuote(tokenId, fallback);
  const fact = (label: string, value: number | null, testId: string) => (
    <span data-testid={testId}>
      <span className="muted">{label} </span>
      {/* A fixed box whose inner box contains itself (market.css): the number changes with the book, the page around it does not lay out. */}
      <span className="num">
        <span>{quoteCents(value)}</span>
      </span>
    </span>
  );
  return (
    <div className="quote-facts" data-testid="quote-facts" title={basisSentence(quote)}>
      {fact('Bid', quote.bestBid, 'quote-bid')}
      {fact('Ask', quote.bestAsk, 'quote-ask')}
      {fact('Spread', quote.spread, 'quote-spread')}
      {fact('Last', quote.last, 'quote-last')}
      {!quote.live ? <span className="muted">(listed, not live)</span> : null}
    </div>
  );
}
