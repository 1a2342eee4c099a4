// The accounting export: one row per trade, split, merge, redemption, conversion and reward in a date range,
// with signed collateral and the fee in exact dollars, as an RFC 4180 CSV with one header row a tax tool reads.
import { unitsText } from './entries';
import type { AccountingExportOptions, AccountingRow, LedgerEntry } from './types';

export const ACCOUNTING_HEADER = [
  'Date (UTC)',
  'Type',
  'Market',
  'Outcome',
  'Shares',
  'Price',
  'Amount (USD)',
  'Fee (USD)',
  'Transaction hash',
] as const;

/** Collateral into the wallet is positive, out of it negative (the fee is its own column, never netted in). */
function signedAmount(e: LedgerEntry): bigint {
  switch (e.kind) {
    case 'TRADE':
      return e.side === 'BUY' ? -e.amount : e.amount;
    case 'SPLIT':
      return -e.amount;
    default:
      return e.amount;
  }
}

/** The rows of the entries dated within the range (inclusive), oldest first. */
export function accountingRows(
  entries: readonly LedgerEntry[],
  options: AccountingExportOptions = {},
): AccountingRow[] {
  return entries
    .filter(
      (e) =>
        (options.from === undefined || e.timestamp >= options.from) &&
        (options.to === undefined || e.timestamp <= options.to),
    )
    .map((e) => ({
      date: new Date(e.timestamp * 1000).toISOString(),
      type: e.kind === 'TRADE' ? `${e.kind} ${e.side ?? ''}`.trim() : e.kind,
      market: e.title,
      outcome: e.outcome,
      shares: e.shares > 0n ? unitsText(e.shares) : '',
      price: e.price === null ? '' : String(e.price),
      amount: unitsText(signedAmount(e)),
      fee: unitsText(e.fee),
      transactionHash: e.transactionHash,
    }));
}

/** One field quoted as RFC 4180 says: in double quotes when it holds a comma, quote or line break. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The CSV text: the header and one CRLF-ended line per row. */
export function accountingCsv(rows: readonly AccountingRow[]): string {
  const lines = [
    ACCOUNTING_HEADER.join(','),
    ...rows.map((r) =>
      [r.date, r.type, r.market, r.outcome, r.shares, r.price, r.amount, r.fee, r.transactionHash]
        .map(csvField)
        .join(','),
    ),
  ];
  return `${lines.join('\r\n')}\r\n`;
}
