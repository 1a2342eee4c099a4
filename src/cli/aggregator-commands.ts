// `pmdesk` commands over the aggregator API (spec §7's table, in its order), the live fill stream and candles.
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { Comment, Market, MarketOrderBooks, PredictionEvent, SearchMatch, Trader, TraderPosition } from '../shared/aggregator';
import { ErrorCode, PmDeskError, invalidParameter } from '../shared/errors';
import { toPolyOrder, type AggregatorClient } from '../main/toolkit/aggregator/client';
import { candleIntervalMillis, generateCandles, type Candle } from '../main/toolkit/aggregator/candles';
import { errorJson, fields, isoSeconds, table, type Output } from './output';

/** What every command gets: the client built from the global flags, and where to print. */
export interface CliContext {
  aggregator(): AggregatorClient;
  out: Output;
}

/** Parses a number flag without judging it: the toolkit's validation gives the spec's message. */
export const numberFlag = (value: string): number => (value.trim() === '' ? Number.NaN : Number(value));

type Action = (ctx: CliContext, ...args: never[]) => Promise<void>;

export function registerAggregatorCommands(program: Command, run: (action: Action) => (...args: unknown[]) => Promise<void>): void {
  const events = program.command('events').description('events (groups of markets) from the aggregator');
  const markets = program.command('markets').description('markets (one question each) from the aggregator');
  const traders = program.command('traders').description('trader profiles and positions');
  const slugs = program.command('slugs').description('slugs across providers');
  const oracle = program.command('oracle').description("the aggregator's price oracle");
  const fills = program.command('fills').description('live fills');

  const PROTOCOL_HELP = 'polymarket, limitless or truemarket';
  /** A read of one resource by id with `--protocol`, the shape of six commands. */
  const byId = <T>(
    group: Command,
    usage: string,
    description: string,
    call: (agg: AggregatorClient, protocol: string, id: string) => Promise<T>,
    text: (value: T) => string,
  ) =>
    group
      .command(usage)
      .description(description)
      .option('--protocol <protocol>', PROTOCOL_HELP)
      .action(
        run(async (ctx: CliContext, id: string, opts: { protocol?: string }) => {
          show(ctx, await call(ctx.aggregator(), opts.protocol as string, id), text);
        }),
      );

  byId(events, 'get <id>', 'GET /v1/events/{id}: one event with its markets', (a, p, id) => a.getEvent(p, id), eventText);
  byId(markets, 'get <id>', 'GET /v1/markets/{id}: one market with its outcome tokens', (a, p, id) => a.getMarket(p, id), marketText);

  events
    .command('ongoing')
    .description('GET /v1/ongoing-events: live events, one page')
    .option('--protocol <protocol>', PROTOCOL_HELP)
    .option('--page <n>', 'page number, from 1', numberFlag)
    .option('--limit <n>', 'events per page (default 50)', numberFlag)
    .action(
      run(async (ctx: CliContext, opts: { protocol?: string; page?: number; limit?: number }) => {
        const list = await ctx.aggregator().listOngoingEvents(opts.protocol as string, { page: opts.page, limit: opts.limit });
        show(ctx, list, eventsTable);
      }),
    );

  byId(events, 'comments <id>', "GET /v1/events/{id}/comments: the event's discussion", (a, p, id) => a.getEventComments(p, id), commentsTable);
  byId(markets, 'book <id>', 'GET /v1/markets/{id}/orderbook: the order book of each outcome', (a, p, id) => a.getOrderBooks(p, id), booksText);
  byId(
    markets,
    'history <id>',
    'GET /v1/markets/{id}/orderbook/filledevents: past fills of each outcome',
    (a, p, id) => a.getFillHistory(p, id),
    (history) =>
      history.map((fillsOfOutcome, i) => `outcome #${i}: ${fillsOfOutcome.length} fills\n${fillsTable(fillsOfOutcome.slice(-20))}`).join('\n'),
  );
  byId(traders, 'get <address>', "GET /v1/trader/{address}: a trader's profile and stats", (a, p, id) => a.getTrader(p, id), traderText);
  byId(traders, 'positions <address>', "GET /v1/trader/{address}/positions: a trader's positions", (a, p, id) => a.getTraderPositions(p, id), positionsTable);

  slugs
    .command('list')
    .description('GET /v1/agg/sluglist: slugs across providers, one page')
    .option('--page <n>', 'page number, from 1', numberFlag)
    .option('--limit <n>', 'slugs per page (default 100)', numberFlag)
    .action(
      run(async (ctx: CliContext, opts: { page?: number; limit?: number }) => {
        show(ctx, await ctx.aggregator().listSlugs({ page: opts.page, limit: opts.limit }), (list) => `${list.join('\n')}\n`);
      }),
    );

  slugs
    .command('events <slug>')
    .description('GET /v1/agg: the events with this slug on every provider')
    .action(
      run(async (ctx: CliContext, slug: string) => {
        show(ctx, await ctx.aggregator().getEventsBySlug(slug), eventsTable);
      }),
    );

  slugs
    .command('markets <slug>')
    .description('GET /v1/agg/market: the markets with this slug on every provider')
    .action(
      run(async (ctx: CliContext, slug: string) => {
        show(ctx, await ctx.aggregator().getMarketsBySlug(slug), (list) => list.map(marketText).join('\n'));
      }),
    );

  program
    .command('search <query...>')
    .description('GET /v1/agg/retrieve: free-text market search, best match first')
    .option('--top-k <n>', 'how many matches at most', numberFlag)
    .option('--protocols <list>', 'comma-separated providers, e.g. polymarket,limitless')
    .option('--include-comments', 'match against discussions too')
    .option('--threshold <x>', 'minimum similarity, 0..1', numberFlag)
    .action(
      run(async (ctx: CliContext, words: string[], opts: { topK?: number; protocols?: string; includeComments?: boolean; threshold?: number }) => {
        const matches = await ctx.aggregator().search(words.join(' '), {
          topK: opts.topK,
          protocols: opts.protocols?.split(','),
          isIncludeComment: opts.includeComments ? true : undefined,
          threshold: opts.threshold,
        });
        show(ctx, matches, searchTable);
      }),
    );

  oracle
    .command('propose')
    .description('POST /v1/proposePrice: offer a signed order to the price oracle (prints null on failure)')
    .requiredOption('--order-file <file>', 'a JSON file holding the signed order (or {"order": …})')
    .action(
      run(async (ctx: CliContext, opts: { orderFile: string }) => {
        const order = toPolyOrder(await readOrderFile(opts.orderFile));
        ctx.out.stdout(`${JSON.stringify(await ctx.aggregator().proposePrice(order))}\n`);
      }),
    );

  oracle
    .command('verify')
    .description('POST /v1/verifyPrice: ask the oracle to verify pending prices (prints null on failure)')
    .action(
      run(async (ctx: CliContext) => {
        ctx.out.stdout(`${JSON.stringify(await ctx.aggregator().verifyPrice())}\n`);
      }),
    );

  oracle
    .command('scan')
    .description('GET /v1/scanPendingPriceData: whether a pending price can be verified (false on failure)')
    .action(
      run(async (ctx: CliContext) => {
        ctx.out.stdout(`${JSON.stringify(await ctx.aggregator().scanPendingPriceData())}\n`);
      }),
    );

  fills
    .command('watch <id>')
    .description('GET /sse/fillevent: one JSON line per live fill; exits 1 when the stream ends')
    .option('--protocol <protocol>', PROTOCOL_HELP)
    .option('--count <n>', 'exit 0 after this many fills', numberFlag)
    .action(run(async (ctx: CliContext, id: string, opts: { protocol?: string; count?: number }) => watchFills(ctx, id, opts)));

  program
    .command('candles <id>')
    .description("candles of a market's price history, from its fills")
    .option('--protocol <protocol>', PROTOCOL_HELP)
    .option('--interval <interval>', '1h, 6h, 1d, 1w or milliseconds', '1h')
    .option('--from <ms>', 'first time included (Unix ms)', numberFlag)
    .option('--to <ms>', 'first time excluded (Unix ms)', numberFlag)
    .option('--outcome <name>', 'outcome token by name (default: the first)')
    .action(run(async (ctx: CliContext, id: string, opts: CandleOptions) => candles(ctx, id, opts)));
}

function show<T>(ctx: CliContext, value: T, text: (value: T) => string): void {
  ctx.out.stdout(ctx.out.json ? `${JSON.stringify(value)}\n` : text(value));
}

async function readOrderFile(file: string): Promise<Record<string, unknown>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw invalidParameter(`Cannot read the order file: ${error instanceof Error ? error.message : String(error)}`, 'proposePrice');
  }
  if (parsed && typeof parsed === 'object' && 'order' in parsed && parsed.order && typeof parsed.order === 'object') {
    parsed = parsed.order;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw invalidParameter('The order file must hold a JSON object with the signed order.', 'proposePrice');
  }
  return parsed as Record<string, unknown>;
}

async function watchFills(ctx: CliContext, id: string, opts: { protocol?: string; count?: number }): Promise<void> {
  if (opts.count !== undefined && !(Number.isInteger(opts.count) && opts.count >= 1)) {
    throw invalidParameter("Parameter 'count' must be 1 or greater.", 'subscribeToFills');
  }
  let seen = 0;
  const subscription = ctx.aggregator().subscribeToFills(opts.protocol as string, id, {
    onFill: (fill) => {
      ctx.out.stdout(`${JSON.stringify(fill)}\n`);
      seen += 1;
      if (opts.count !== undefined && seen >= opts.count) subscription.close();
    },
    onError: (error) => {
      // A bad message is reported and the stream goes on; the error that ends the stream is reported below.
      if (error.code === ErrorCode.SSE_MESSAGE_ERROR) ctx.out.stderr(`${errorJson(error)}\n`);
    },
  });
  const stop = () => subscription.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const error = await subscription.done;
    if (error) throw error;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

interface CandleOptions {
  protocol?: string;
  interval: string;
  from?: number;
  to?: number;
  outcome?: string;
}

async function candles(ctx: CliContext, id: string, opts: CandleOptions): Promise<void> {
  const intervalMillis = candleIntervalMillis(opts.interval);
  generateCandles([], intervalMillis); // refuses a non-positive interval before any request
  for (const [name, value] of [['from', opts.from], ['to', opts.to]] as const) {
    if (value !== undefined && Number.isNaN(value)) throw invalidParameter(`Parameter '${name}' must be a time in Unix milliseconds.`, 'generateCandles');
  }
  const client = ctx.aggregator();
  const [market, history] = await Promise.all([client.getMarket(opts.protocol as string, id), client.getFillHistory(opts.protocol as string, id)]);
  const tokens = market.position_tokens;
  const index = opts.outcome === undefined ? 0 : tokens.findIndex((t) => t.name.toLowerCase() === opts.outcome!.toLowerCase());
  if (index < 0 || index >= tokens.length) {
    throw new PmDeskError(
      ErrorCode.NOT_FOUND,
      opts.outcome === undefined
        ? 'This market has no outcome tokens.'
        : `Outcome '${opts.outcome}' not found; this market's outcomes are: ${tokens.map((t) => t.name).join(', ')}.`,
      { methodName: 'candles' },
    );
  }
  const result = generateCandles(history[index] ?? [], intervalMillis, opts.from ?? 0, opts.to ?? Number.POSITIVE_INFINITY);
  show(ctx, result, (list: Candle[]) =>
    table(list, [
      { header: 'time (UTC)', value: (c) => isoSeconds(c.time) },
      { header: 'open', value: (c) => c.open, right: true },
      { header: 'high', value: (c) => c.high, right: true },
      { header: 'low', value: (c) => c.low, right: true },
      { header: 'close', value: (c) => c.close, right: true },
      { header: 'volume', value: (c) => c.volume, right: true },
    ]),
  );
}

const outcomes = (m: Market) => m.position_tokens.map((t) => `${t.name} ${t.price}`).join(' / ');

function eventText(e: PredictionEvent): string {
  return (
    fields([
      ['id', e.id],
      ['title', e.title],
      ['slug', e.slug],
      ['protocol', e.protocol],
      ['active', e.active],
      ['ends', e.endDate],
      ['volume', e.volume],
      ['liquidity', e.liquidity],
    ]) +
    `\n${table(e.markets, [
      { header: 'market', value: (m) => m.id },
      { header: 'question', value: (m) => m.question || m.name, max: 70 },
      { header: 'outcomes', value: outcomes },
    ])}`
  );
}

function marketText(m: Market): string {
  return (
    fields([
      ['id', m.id],
      ['question', m.question],
      ['slug', m.slug],
      ['active', m.active],
      ['ends', m.end],
      ['spread', m.spread],
    ]) +
    `\n${table(m.position_tokens, [
      { header: 'outcome', value: (t) => t.name },
      { header: 'price', value: (t) => t.price, right: true },
      { header: 'token id', value: (t) => t.token_id, max: 80 },
    ])}`
  );
}

const eventsTable = (list: PredictionEvent[]) =>
  table(list, [
    { header: 'id', value: (e) => e.id },
    { header: 'title', value: (e) => e.title, max: 60 },
    { header: 'slug', value: (e) => e.slug, max: 40 },
    { header: 'markets', value: (e) => e.markets.length, right: true },
    { header: 'volume', value: (e) => e.volume, right: true },
  ]);

const commentsTable = (list: Comment[]) =>
  table(list, [
    { header: 'when', value: (c) => c.createdAt },
    { header: 'who', value: (c) => c.name || c.pseudonym },
    { header: 'comment', value: (c) => c.content, max: 80 },
  ]);

function booksText(books: MarketOrderBooks): string {
  return Object.entries(books)
    .map(([token, book]) => {
      // Best first on both sides, whatever order the server listed its levels in.
      const bids = [...book.bids].sort((a, b) => b.price - a.price);
      const asks = [...book.asks].sort((a, b) => a.price - b.price);
      const rows = Array.from({ length: Math.min(Math.max(bids.length, asks.length), 10) }, (_, i) => ({ bid: bids[i], ask: asks[i] }));
      return `token ${token}\n${table(rows, [
        { header: 'bid size', value: (r) => r.bid?.size, right: true },
        { header: 'bid', value: (r) => r.bid?.price, right: true },
        { header: 'ask', value: (r) => r.ask?.price, right: true },
        { header: 'ask size', value: (r) => r.ask?.size, right: true },
      ])}`;
    })
    .join('\n');
}

const fillsTable = (list: { price: number; volumeBase: number; timestamp: number }[]) =>
  table(list, [
    { header: 'time (UTC)', value: (f) => isoSeconds(f.timestamp) },
    { header: 'price', value: (f) => f.price, right: true },
    { header: 'size', value: (f) => f.volumeBase, right: true },
  ]);

const traderText = (t: Trader) =>
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

const positionsTable = (list: TraderPosition[]) =>
  table(list, [
    { header: 'market', value: (p) => p.marketSlug, max: 40 },
    { header: 'outcome', value: (p) => p.outcome },
    { header: 'size', value: (p) => p.size, right: true },
    { header: 'avg', value: (p) => p.averagePrice, right: true },
    { header: 'price', value: (p) => p.currentPrice, right: true },
    { header: 'value', value: (p) => p.currentValue, right: true },
    { header: 'pnl', value: (p) => p.cashPnl, right: true },
  ]);

const searchTable = (list: SearchMatch[]) =>
  table(list, [
    { header: 'score', value: (m) => m.cosineSimilarity.toFixed(3), right: true },
    { header: 'id', value: (m) => m.event.id },
    { header: 'protocol', value: (m) => m.event.protocol },
    { header: 'title', value: (m) => m.event.title, max: 70 },
  ]);
