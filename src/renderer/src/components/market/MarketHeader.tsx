// The market's header (event title, question, end date, status) and its outcomes with their prices: picking
// one points the ladder, tape and chart at it.
import type { Market } from '@pmdesk/toolkit/model';
import { useMarket } from '../../store/market';
import { useSelection } from '../../store/selection';
import { bookAsOf, formatCents } from './model';

/** Open, paused (not taking orders) or closed, from the market's flags as its source states them. */
function statusOf(market: Market, eventActive: boolean | undefined): { label: string; tone: 'open' | 'paused' | 'closed' } {
  if (market.closed === true) return { label: 'Closed', tone: 'closed' };
  if (market.active === false || eventActive === false) return { label: 'Inactive', tone: 'closed' };
  if (market.accepting_orders === false) return { label: 'Not taking orders', tone: 'paused' };
  return { label: 'Open', tone: 'open' };
}

function endText(iso: string): string {
  const when = new Date(iso);
  if (!iso || Number.isNaN(when.getTime())) return 'No end date';
  const text = when.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
  return when.getTime() < Date.now() ? `Ended ${text}` : `Ends ${text}`;
}

export function MarketHeader() {
  const market = useMarket((s) => s.market);
  const event = useMarket((s) => s.event);
  const error = useMarket((s) => s.marketError);
  if (error) return <div className="market-header error-text" role="alert">{error}</div>;
  if (!market) return <div className="market-header muted">Loading the market…</div>;
  const status = statusOf(market, event?.active);
  const question = market.question || market.name;
  const title = event?.title && event.title !== question ? event.title : null;
  return (
    <div className="market-header" data-testid="market-header">
      {title && <div className="market-event-title muted">{title}</div>}
      <h2 className="market-question">{question}</h2>
      <div className="market-facts">
        <span className={`market-status status-${status.tone}`} data-testid="market-status">{status.label}</span>
        <span className="muted">{endText(market.end || event?.endDate || '')}</span>
      </div>
    </div>
  );
}

/** What an outcome's button shows: its book's midpoint when both sides quote, else the market record's price. */
function outcomePrice(book: { bids: { price: number }[]; asks: { price: number }[] } | undefined, recorded: string | number): string {
  const bestBid = book?.bids.reduce((best, l) => Math.max(best, l.price), 0);
  const bestAsk = book?.asks.reduce((best, l) => Math.min(best, l.price), 1);
  const price = book && book.bids.length && book.asks.length ? (bestBid! + bestAsk!) / 2 : Number(recorded);
  return Number.isFinite(price) ? formatCents(price, 0) : '—';
}

export function Outcomes() {
  const market = useMarket((s) => s.market);
  // The prices as one string: a book update that leaves every shown price as it was renders nothing here.
  const prices = useMarket((s) => s.market?.position_tokens.map((token) => outcomePrice(s.books[token.token_id], token.price)).join('\n'));
  // Prices from books that may no longer be the exchange's are dimmed and say since when.
  const unknown = useMarket((s) => s.bookUnknown);
  const tokenId = useSelection((s) => s.tokenId);
  const selectToken = useSelection((s) => s.selectToken);
  if (!market) return null;
  const shown = prices?.split('\n') ?? [];
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
          <span className={`num outcome-price${unknown ? ' stale' : ''}`} title={unknown ? bookAsOf(unknown) : undefined} data-stale={unknown ? 'true' : undefined}>
            <span>{shown[i] ?? '—'}</span>
          </span>
        </button>
      ))}
    </div>
  );
}
