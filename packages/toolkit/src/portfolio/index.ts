// The portfolio module's public face (docs/toolkit.md#portfolio): a trader's book from their activity.
export * from './types';
export { ledgerEntries, unitsOf, unitsText, type FeeLookup } from './entries';
export { Book, valueAt, priceMicros } from './book';
export { buildPortfolio, pnlSeries } from './build';
export { readTheirFigures, reconcile, type FiguresReader } from './reconcile';
export { accountingRows, accountingCsv, csvField, ACCOUNTING_HEADER } from './csv';
export {
  readActivity,
  readLedger,
  loadPortfolio,
  pricesFromPositions,
  nameOutcomes,
  ACTIVITY_PAGE,
  ACTIVITY_MAX_ROWS,
  type ActivityReader,
  type LedgerRead,
  type LoadPortfolioOptions,
} from './load';
export { feesFromChain, feeLookup, type ReceiptReader } from './chain-fees';
