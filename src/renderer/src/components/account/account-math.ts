// The account panel's pure parts, unit-tested: a position's profit and loss, and CSV files of positions and
// trades quoted so a comma, a quote or a line break in a market's name never shifts a column.
import type { PositionInfo, TradeInfo } from '../../../../shared/contract';

/** Value now minus what the shares cost (size × average price); null when the average price is unknown. */
export function positionPnl(position: Pick<PositionInfo, 'size' | 'averagePrice' | 'currentValue'>): number | null {
  if (position.averagePrice === null || !Number.isFinite(position.averagePrice)) return null;
  return Math.round((position.currentValue - position.size * position.averagePrice) * 100) / 100;
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

export function positionsCsv(positions: readonly PositionInfo[]): string {
  return toCsv(
    ['market', 'condition_id', 'outcome', 'size', 'average_price', 'current_price', 'value', 'pnl'],
    positions.map((p) => [p.marketSlug, p.conditionId, p.outcome, p.size, p.averagePrice, p.currentPrice, p.currentValue, positionPnl(p)]),
  );
}

export function tradesCsv(trades: readonly TradeInfo[]): string {
  return toCsv(
    ['time_utc', 'trade_id', 'condition_id', 'token_id', 'side', 'price', 'size', 'status', 'pending'],
    trades.map((t) => [t.matchedAt ? tradeTime(t.matchedAt).toISOString() : '', t.tradeId, t.conditionId, t.tokenId, t.side, t.price, t.size, t.status, t.pending]),
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
