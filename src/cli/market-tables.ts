// How `pmdesk` shows the market model without --json: one compact table or key/value block per read, the
// same whichever source answered.
import type {
  Candle,
  Comment,
  FillHistory,
  Market,
  MarketOrderBooks,
  MarketTrade,
  PredictionEvent,
  SearchMatch,
  Trader,
  TraderActivity,
  TraderPosition,
  TradeRecord,
} from '@pmdesk/toolkit/model';
import { marketState } from '@pmdesk/toolkit/model';
import { fields, isoSeconds, table } from './output';

const outcomes = (m: Market) => m.position_tokens.map((t) => `${t.name} ${t.price}`).join(' / ');

export function eventText(e: PredictionEvent): string {
  return (
    fields([
      ['id', e.id],
      ['title', e.title],
      ['slug', e.slug],
      ['protocol', e.protocol],
      ['state', e.closed === true ? 'Closed' : 'Open'],
      ['ends', e.endDate],
      ['volume', e.volume],
      ['liquidity', e.liquidity],
    ]) +
    `\n${table(e.markets, [
      { header: 'market', value: (m) => m.id },
      { header: 'question', value: (m) => m.question || m.name, max: 70 },
      { header: 'state', value: (m) => marketState(m).words },
      { header: 'outcomes', value: outcomes },
    ])}`
  );
}

/** A market's fee terms in words; a market whose source states none reads "fee unknown", never a guessed rate. */
export function feeText(fees: Market['fees']): string {
  if (!fees) return 'fee unknown';
  if (fees.rate === 0) return 'none';
  const curve = fees.exponent === 0 ? '' : fees.exponent === 1 ? '·p(1−p)' : `·(p(1−p))^${fees.exponent}`;
  return `${fees.takerOnly ? 'taker fee' : 'fee'} ${Number((fees.rate * 100).toFixed(4))} %${curve}`;
}

export function marketText(m: Market): string {
  return (
    fields([
      ['id', m.id],
      ['question', m.question],
      ['slug', m.slug],
      ['state', marketState(m).words],
      ['ends', m.end],
      ['spread', m.spread],
      ['fee', feeText(m.fees)],
    ]) +
    `\n${table(m.position_tokens, [
      { header: 'outcome', value: (t) => t.name },
      { header: 'price', value: (t) => t.price, right: true },
      { header: 'token id', value: (t) => t.token_id, max: 80 },
    ])}`
  );
}

export const marketsText = (list: Market[]): string => list.map(marketText).join('\n');

export const eventsTable = (list: PredictionEvent[]): string =>
  table(list, [
    { header: 'id', value: (e) => e.id },
    { header: 'title', value: (e) => e.title, max: 60 },
    { header: 'slug', value: (e) => e.slug, max: 40 },
    { header: 'markets', value: (e) => e.markets.length, right: true },
    { header: 'volume', value: (e) => e.volume, right: true },
  ]);

export const commentsTable = (list: Comment[]): string =>
  table(list, [
    { header: 'when', value: (c) => c.createdAt },
    { header: 'who', value: (c) => c.name || c.pseudonym },
    { header: 'comment', value: (c) => c.content, max: 80 },
  ]);

export function booksText(books: MarketOrderBooks): string {
  return Object.entries(books)
    .map(([token, book]) => {
      // Best first on both sides, whatever order the source listed its levels in.
      const bids = [...book.bids].sort((a, b) => b.price - a.price);
      const asks = [...book.asks].sort((a, b) => a.price - b.price);
      const rows = Array.from({ length: Math.min(Math.max(bids.length, asks.length), 10) }, (_, i) => ({
        bid: bids[i],
        ask: asks[i],
      }));
      return `token ${token}\n${table(rows, [
        { header: 'bid size', value: (r) => r.bid?.size, right: true },
        { header: 'bid', value: (r) => r.bid?.price, right: true },
        { header: 'ask', value: (r) => r.ask?.price, right: true },
        { header: 'ask size', value: (r) => r.ask?.size, right: true },
      ])}`;
    })
    .join('\n');
}

const fillsTable = (list: TradeRecord[]): string =>
  table(list, [
    { header: 'time (UTC)', value: (f) => isoSeconds(f.timestamp) },
    { header: 'price', value: (f) => f.price, right: true },
    { header: 'size', value: (f) => f.volumeBase, right: true },
    { header: 'side', value: (f) => f.side },
  ]);

/** The last 20 fills of each outcome. */
export const fillHistoryText = (history: FillHistory): string =>
  history
    .map(
      (fillsOfOutcome, i) => `outcome #${i}: ${fillsOfOutcome.length} fills\n${fillsTable(fillsOfOutcome.slice(-20))}`,
    )
    .join('\n');

export const candlesTable = (list: Candle[]): string =>
  table(list, [
    { header: 'time (UTC)', value: (c) => isoSeconds(c.time) },
    { header: 'open', value: (c) => c.open, right: true },
    { header: 'high', value: (c) => c.high, right: true },
    { header: 'low', value: (c) => c.low, right: true },
    { header: 'close', value: (c) => c.close, right: true },
    { header: 'volume', value: (c) => c.volume, right: true },
  ]);

export const traderText = (t: Trader): string =>
  fields([
    ['wallet', t.user.tradingWallet],
    ['owner', t.user.proxyOwner],
    ['name', t.user.name || t.user.pseudonym],
    ['since', t.user.createdAt],
    ['portfolio value', t.stats.portfolioValue],
    ['volume', t.stats.cumulativeVolume],
    ['profit', t.stats.cumulativeProfit],
    ['trades', t.stats.totalTrades],
  ]);

export const positionsTable = (list: TraderPosition[]): string =>
  table(list, [
    { header: 'market', value: (p) => p.marketSlug, max: 40 },
    { header: 'outcome', value: (p) => p.outcome },
    { header: 'size', value: (p) => p.size, right: true },
    { header: 'avg', value: (p) => p.averagePrice, right: true },
    { header: 'price', value: (p) => p.currentPrice, right: true },
    { header: 'value', value: (p) => p.currentValue, right: true },
    { header: 'pnl', value: (p) => p.cashPnl, right: true },
  ]);

export const activityTable = (list: TraderActivity[]): string =>
  table(list, [
    { header: 'time (UTC)', value: (a) => isoSeconds(a.timestamp) },
    { header: 'type', value: (a) => a.type },
    { header: 'side', value: (a) => a.side },
    { header: 'outcome', value: (a) => a.outcome },
    { header: 'size', value: (a) => a.size, right: true },
    { header: 'price', value: (a) => a.price, right: true },
    { header: 'usdc', value: (a) => a.usdcSize, right: true },
    { header: 'market', value: (a) => a.title || a.slug, max: 50 },
  ]);

export const tradesTable = (list: MarketTrade[]): string =>
  table(list, [
    { header: 'time (UTC)', value: (t) => isoSeconds(t.timestamp) },
    { header: 'side', value: (t) => t.side },
    { header: 'outcome', value: (t) => t.outcome },
    { header: 'size', value: (t) => t.size, right: true },
    { header: 'price', value: (t) => t.price, right: true },
    { header: 'market', value: (t) => t.title || t.slug, max: 50 },
  ]);

export const searchTable = (list: SearchMatch[]): string =>
  table(list, [
    { header: 'score', value: (m) => m.cosineSimilarity.toFixed(3), right: true },
    { header: 'id', value: (m) => m.event.id },
    { header: 'protocol', value: (m) => m.event.protocol },
    { header: 'title', value: (m) => m.event.title, max: 70 },
  ]);
