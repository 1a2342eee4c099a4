// The account panel's pure parts, unit-tested: a position's profit and loss, a balance as a trader reads it, and
// CSV files of positions and trades quoted so a comma, a quote or a line break in a market's name never shifts a
// column.
import type { PositionInfo, TradeInfo } from '../../../shared/contract';

/**
 * A balance of 6-decimal dollars (pUSD, USDC.e) as a trader reads it: to the cent, rounded down (never more than
 * can be spent), thousands grouped — "$99,895.39" for 99895399918 base units. The exact amount is the tooltip.
 */
export function balanceText(units: string): string {
  if (!/^-?\d+$/.test(units)) return '–';
  const value = BigInt(units);
  const negative = value < 0n;
  const cents = (negative ? -value : value) / 10_000n;
  const dollars = (cents / 100n).toLocaleString('en-US');
  return `${negative ? '−' : ''}$${dollars}.${(cents % 100n).toString().padStart(2, '0')}`;
}

/** Value now minus what the shares cost (size × average price); null when the average price is unknown. */
export function positionPnl(position: Pick<PositionInfo, 'size' | 'averagePrice' | 'currentValue'>): number | null {
  if (position.averagePrice === null || !Number.isFinite(position.averagePrice)) return null;
  return Math.round((position.currentValue - position.size * position.averagePrice) * 100) / 100;
}

/** A position's money at the price shown: value, what it cost, PnL in dollars and as a share of the cost. */
export interface PositionFigures {
  /** Size × the current price (the source's value when no price is shown). */
  value: number;
  /** Size × average price; null when the average is unknown. */
  cost: number | null;
  pnl: number | null;
  /** PnL over cost, in percent; null when the cost is unknown or nothing. */
  pnlPercent: number | null;
}

const cents2 = (x: number) => Math.round(x * 100) / 100;

/** The figures at `current` (the shown quote's price), or at the source's value when there is none. */
export function positionFigures(
  p: Pick<PositionInfo, 'size' | 'averagePrice' | 'currentValue'>,
  current: number | null,
): PositionFigures {
  const value = current === null || !Number.isFinite(current) ? p.currentValue : cents2(p.size * current);
  const known = p.averagePrice !== null && Number.isFinite(p.averagePrice);
  const cost = known ? cents2(p.size * p.averagePrice!) : null;
  const pnl = cost === null ? null : cents2(value - cost);
  return { value, cost, pnl, pnlPercent: pnl === null || !cost ? null : Math.round((pnl / cost) * 10_000) / 100 };
}

/** The Positions table's totals row: value of all; cost, PnL and PnL % of those whose cost is known. */
export interface PositionTotals extends PositionFigures {
  /** Positions left out of cost and PnL (no average price). */
  unknownCost: number;
}

export function positionTotals(figures: readonly PositionFigures[]): PositionTotals {
  let value = 0;
  let cost = 0;
  let valueOfKnown = 0;
  let unknownCost = 0;
  for (const f of figures) {
    value += f.value;
    if (f.cost === null) unknownCost++;
    else {
      cost += f.cost;
      valueOfKnown += f.value;
    }
  }
  const anyKnown = figures.length > unknownCost;
  const pnl = anyKnown ? cents2(valueOfKnown - cost) : null;
  return {
    value: cents2(value),
    cost: anyKnown ? cents2(cost) : null,
    pnl,
    pnlPercent: pnl === null || !cost ? null : Math.round((pnl / cost) * 10_000) / 100,
    unknownCost,
  };
}

export type CsvCell = string | number | boolean | null | undefined;

/** One CSV field (RFC 4180): quoted when it holds a comma, a quote, a line break or edge spaces; quotes doubled. */
export function csvField(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  // A leading =, +, - or @ would run as a formula in a spreadsheet: a name from the market must stay text.
  const safe = /^[=+\-@]/.test(text) && typeof value === 'string' ? `'${text}` : text;
  return /[",\r\n]|^\s|\s$/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Rows to CSV text: CRLF line ends (what spreadsheets expect), the header first. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** A position as exported: its names and the figures at the price the table shows. */
export interface PositionExport {
  position: PositionInfo;
  current: number | null;
  figures: PositionFigures;
}

export function positionsCsv(rows: readonly PositionExport[]): string {
  return toCsv(
    [
      'market',
      'outcome',
      'size',
      'average_price',
      'current_price',
      'value',
      'pnl_usd',
      'pnl_percent',
      'condition_id',
      'token_id',
    ],
    rows.map(({ position: p, current, figures: f }) => [
      p.question || p.marketSlug || p.conditionId,
      p.outcome,
      p.size,
      p.averagePrice,
      current,
      f.value,
      f.pnl,
      f.pnlPercent,
      p.conditionId,
      p.tokenId,
    ]),
  );
}

/** How a trade's market and outcome are named when the trade itself does not say (the markets the terminal loaded). */
export type TradeNames = (trade: TradeInfo) => { question?: string; outcome?: string } | undefined;

export function tradesCsv(trades: readonly TradeInfo[], names: TradeNames = () => undefined): string {
  return toCsv(
    [
      'time_utc',
      'market',
      'outcome',
      'side',
      'price',
      'size',
      'fee_usd',
      'status',
      'tx_hash',
      'trade_id',
      'condition_id',
      'token_id',
    ],
    trades.map((t) => {
      const named = names(t);
      return [
        t.matchedAt ? tradeTime(t.matchedAt).toISOString() : '',
        t.question ?? named?.question,
        t.outcome ?? named?.outcome,
        t.side,
        t.price,
        t.size,
        t.fee,
        t.status,
        t.txHash,
        t.tradeId,
        t.conditionId,
        t.tokenId,
      ];
    }),
  );
}

/** `matchedAt` arrives in seconds from the exchange; tolerate milliseconds too. */
export function tradeTime(matchedAt: number): Date {
  return new Date(matchedAt > 1e12 ? matchedAt : matchedAt * 1000);
}

/** What changed in the trades that should make positions and balances be read again (a new trade, a status). */
export function tradesSignature(trades: readonly TradeInfo[]): string {
  return trades
    .map((t) => `${t.tradeId}:${t.status}`)
    .sort()
    .join('|');
}
