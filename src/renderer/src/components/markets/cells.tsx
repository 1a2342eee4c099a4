// The markets grid's cells: the market (or event) title with its full text on hover, each outcome's price
// through the price model (live for the open market, so the grid and the market header agree), the 24 h change
// in colour, and an event row's fold toggle and market count.
import type { CustomCellRendererProps } from 'ag-grid-react';
import { useEffect } from 'react';
import { QuoteText, useQuote } from '../../prices/useQuote';
import { ageTag } from '../../model/quote';
import { showMarketPrices } from '../../store/quotes';
import { openEventBoard } from '../../store/workspaces';
import { useFolded } from './folded';
import { countOf, formatChange, outcomesText, type MarketRow, type QuoteRecord } from '../../model/market-rows';

function EventTitle({ row }: { row: MarketRow }) {
  const folded = useFolded((s) => s.folded.has(row.id));
  const count = row.event?.marketCount ?? row.childIds?.length ?? 0;
  const listed = row.childIds?.length ?? 0;
  return (
    <span className="market-title event-title" title={row.eventTitle}>
      <button
        type="button"
        className="ghost event-toggle"
        data-testid="event-toggle"
        aria-expanded={!folded}
        aria-label={folded ? `Show the markets of ${row.eventTitle}` : `Hide the markets of ${row.eventTitle}`}
        onClick={(e) => {
          e.stopPropagation();
          useFolded.getState().toggle(row.id);
        }}
      >
        {folded ? '▸' : '▾'}
      </button>
      <span className="market-name">{row.eventTitle}</span>
      <span
        className="muted event-count"
        data-testid="event-count"
        title={listed < count ? `${listed} of them listed here` : undefined}
      >
        {countOf(count, 'market')}
      </span>
      {row.eventId && (
        <button
          type="button"
          className="ghost event-board-open"
          data-testid="event-board-open"
          aria-label={`Open the event board of ${row.eventTitle}`}
          title="Every outcome side by side, with the sums of their asks and bids"
          onClick={(e) => {
            e.stopPropagation();
            if (row.eventId) openEventBoard({ protocol: row.protocol, eventId: row.eventId });
          }}
        >
          Board
        </button>
      )}
    </span>
  );
}

export function TitleCell({ data }: CustomCellRendererProps<MarketRow>) {
  if (!data) return null;
  if (data.problem)
    return (
      <span className="error-text" title={data.problem}>
        {data.market}: {data.problem}
      </span>
    );
  if (data.kind === 'event') return <EventTitle row={data} />;
  // The full question and event on hover: a narrow column cuts the name, never what it means.
  const full = [
    data.question || data.market,
    data.eventTitle && data.eventTitle !== (data.question || data.market) ? data.eventTitle : '',
  ]
    .filter(Boolean)
    .join('\n');
  // Only a market that is not open says its state: an open one is what the grid lists.
  const state =
    data.state && data.state.tone !== 'open' ? (
      <span className={`market-state status-${data.state.tone}`} data-testid="grid-market-state">
        {data.state.words}
      </span>
    ) : null;
  if (data.groupId) {
    return (
      <span className="market-title grouped" title={full}>
        <span className="market-name">{data.market}</span>
        {state}
      </span>
    );
  }
  const sameAsEvent = !data.eventTitle || data.eventTitle === data.market;
  return (
    <span className="market-title" title={full}>
      <span className="market-name">{data.market}</span>
      {state}
      {sameAsEvent ? null : <span className="muted event-name">{data.eventTitle}</span>}
    </span>
  );
}

/**
 * One outcome's shown price: the live quote while its market is open in a tile, else as read again on the shown
 * rows' schedule (store/quotes.ts), else the listed record's.
 */
function OutcomeQuote({ tokenId, record, index }: { tokenId: string; record: QuoteRecord; index: number }) {
  const quote = useQuote(tokenId, { market: record, outcomeIndex: index });
  // The midpoint is the usual basis and goes untagged in this dense grid; a last trade, a listed or an old price says so.
  return <QuoteText quote={quote} tokenId={tokenId} tag={quote.basis !== 'midpoint' || ageTag(quote.asOf) !== ''} />;
}

/** A rendered row (the grid renders the rows in view, and a few either side) keeps its market's prices fresh. */
function useShownPrices(row: MarketRow | null | undefined): void {
  const protocol = row?.protocol;
  const id = row?.kind === 'event' ? undefined : row?.id;
  useEffect(() => (protocol && id ? showMarketPrices(protocol, id) : undefined), [protocol, id]);
}

export function OutcomesCell({ data }: CustomCellRendererProps<MarketRow>) {
  useShownPrices(data?.kind === 'event' ? data.leader : data);
  if (!data) return null;
  if (data.kind === 'event') {
    const leader = data.leader;
    const token = leader?.outcomes[0];
    if (!leader || !token || !leader.record) return <span className="muted">–</span>;
    return (
      <span className="outcome-prices" title={`Leading: ${leader.market} (${token.name})`}>
        <span className="outcome">
          <span className="outcome-name">{leader.market}</span>{' '}
          <OutcomeQuote tokenId={token.tokenId} record={leader.record} index={0} />
        </span>
      </span>
    );
  }
  const record = data.record;
  if (!record) return <span className="muted">–</span>;
  return (
    <span className="outcome-prices" title={outcomesText(data.outcomes)}>
      {data.outcomes.map((o, i) => (
        <span key={o.tokenId || `${o.name}-${i}`} className={i === 0 ? 'outcome bid' : 'outcome ask'}>
          <span className="outcome-name">{o.name}</span> <OutcomeQuote tokenId={o.tokenId} record={record} index={i} />
        </span>
      ))}
    </span>
  );
}

export function ChangeCell({ data }: CustomCellRendererProps<MarketRow>) {
  if (!data || data.kind === 'event') return null;
  const change = data.change24h;
  const tone = change === null || Math.round(change * 1000) === 0 ? 'muted' : change > 0 ? 'bid' : 'ask';
  return (
    <span
      className={`num ${tone}`}
      title={
        change === null
          ? 'No 24 h change known'
          : `${data.outcomes[0]?.name ?? 'First outcome'} moved ${formatChange(change)} in 24 h`
      }
    >
      {formatChange(change)}
    </span>
  );
}
