// `pmdesk` reads of markets, events, traders and live fills, through whichever market-data source the global
// flags pick (the aggregator or Polymarket direct): the same commands, the same --json shapes (the market
// model's types) and the same exit codes on both.
import type { Command } from 'commander';
import { ErrorCode, PmDeskError, invalidParameter } from '@pmdesk/toolkit/model';
import type { Market } from '@pmdesk/toolkit/model';
import {
  CHART_INTERVALS,
  type ChartInterval,
  type EventListOptions,
  type EventListPage,
  type MarketSource,
  type TradePageOptions,
} from '@pmdesk/toolkit';
import { candleIntervalMillis, generateCandles, POLYMARKET_MAX_COMMENTS } from '@pmdesk/toolkit';
import { errorJson, feedModeNotices } from './output';
import { numberFlag, type CliContext } from './aggregator-commands';
import {
  activityTable,
  booksText,
  candlesTable,
  commentsTable,
  eventText,
  eventsTable,
  fillHistoryText,
  marketText,
  marketsText,
  searchTable,
  traderText,
  tradesTable,
} from './market-tables';

type Action = (ctx: CliContext, ...args: never[]) => Promise<void>;
type Run = (action: Action) => (...args: unknown[]) => Promise<void>;

const PROTOCOL_HELP =
  'polymarket, limitless or truemarket on the aggregator; polymarket (the default) on Polymarket direct';

export function registerMarketCommands(program: Command, run: Run): void {
  const events = program.command('events').description('events (groups of markets)');
  const markets = program.command('markets').description('markets (one question each)');
  const traders = program.command('traders').description("traders' profiles, positions, activity and trades");
  const slugs = program.command('slugs').description('events and markets by slug (across providers on the aggregator)');
  const fills = program.command('fills').description('live fills');

  /** A read of one resource by id with `--protocol`, the shape of eight commands. */
  const byId = <T>(
    group: Command,
    usage: string,
    description: string,
    call: (source: MarketSource, protocol: string, id: string) => Promise<T>,
    text: (value: T) => string,
  ) =>
    group
      .command(usage)
      .description(description)
      .option('--protocol <protocol>', PROTOCOL_HELP)
      .action(
        run(async (ctx: CliContext, id: string, opts: { protocol?: string }) => {
          const source = ctx.markets();
          show(ctx, await call(source, protocolOf(source, opts.protocol), id), text);
        }),
      );

  byId(events, 'get <id>', 'one event with its markets', (s, p, id) => s.getEvent(p, id), eventText);
  events
    .command('comments <id>')
    .description("the event's discussion, newest first")
    .option('--protocol <protocol>', PROTOCOL_HELP)
    .action(run(async (ctx: CliContext, id: string, opts: { protocol?: string }) => showComments(ctx, id, opts)));

  events
    .command('list')
    .description(
      'listed events, largest first (Polymarket direct: open events by --order; the aggregator: its ongoing events)',
    )
    .option('--protocol <protocol>', PROTOCOL_HELP)
    .option('--tag <slug>', 'only events with this tag, e.g. politics (where the source has tags)')
    .option(
      '--order <field>',
      'sort field, largest first: volume24hr (the default on Polymarket direct), volume, liquidity, endDate …',
    )
    .option('--limit <n>', 'events at most', numberFlag)
    .option('--offset <n>', 'events to skip, from 0 (the aggregator takes whole pages only)', numberFlag)
    .option(
      '--cursor <cursor>',
      `Polymarket direct: continue after the next cursor a previous page printed (${FIRST_PAGE} for the first page); prints the next one (--json: {"events", "nextCursor"})`,
    )
    .action(
      run(
        async (
          ctx: CliContext,
          opts: { protocol?: string; tag?: string; order?: string; limit?: number; offset?: number; cursor?: string },
        ) => {
          checkPage(opts, 'listEvents');
          const source = ctx.markets();
          const options = {
            protocol: protocolOf(source, opts.protocol),
            tag: opts.tag,
            order: opts.order,
            limit: opts.limit,
          };
          if (opts.cursor !== undefined) {
            show(ctx, await eventsAfter(source, options, opts.cursor, opts.offset), eventPageText);
            return;
          }
          show(ctx, await source.listEvents({ ...options, offset: opts.offset }), eventsTable);
        },
      ),
    );

  events
    .command('ongoing')
    .description('live events, one page (the aggregator: GET /v1/ongoing-events)')
    .option('--protocol <protocol>', PROTOCOL_HELP)
    .option('--page <n>', 'page number, from 1', numberFlag)
    .option('--limit <n>', 'events per page (default 50 on the aggregator)', numberFlag)
    .action(
      run(async (ctx: CliContext, opts: { protocol?: string; page?: number; limit?: number }) => {
        checkPage(opts, 'listEvents');
        const source = ctx.markets();
        show(
          ctx,
          await source.listEvents({ protocol: protocolOf(source, opts.protocol), page: opts.page, limit: opts.limit }),
          eventsTable,
        );
      }),
    );

  byId(markets, 'get <id>', 'one market with its outcome tokens', (s, p, id) => s.getMarket(p, id), marketText);
  markets
    .command('book <id>')
    .description('the order book of each outcome')
    .option('--protocol <protocol>', PROTOCOL_HELP)
    .action(run(async (ctx: CliContext, id: string, opts: { protocol?: string }) => showBooks(ctx, id, opts)));
  byId(
    markets,
    'fills <id>',
    'past fills of each outcome, oldest first',
    (s, p, id) => s.getFillHistory(p, id),
    fillHistoryText,
  ).alias('history');

  markets
    .command('candles <id>')
    .description("candles of one outcome for a chart range, as the terminal's chart shows them")
    .option('--protocol <protocol>', PROTOCOL_HELP)
    .option('--interval <interval>', CHART_INTERVALS.join(', '), '1h')
    .option('--outcome <name>', 'outcome token by name (default: the first)')
    .action(
      run(async (ctx: CliContext, id: string, opts: { protocol?: string; interval: string; outcome?: string }) => {
        const interval = chartInterval(opts.interval);
        const source = ctx.markets();
        const protocol = protocolOf(source, opts.protocol);
        const index = opts.outcome === undefined ? 0 : outcomeIndex(await source.getMarket(protocol, id), opts.outcome);
        show(ctx, await source.getCandles(protocol, id, index, interval), candlesTable);
      }),
    );

  byId(traders, 'get <address>', "a trader's profile and stats", (s, p, a) => s.getTrader(p, a), traderText);
  // `traders positions <address> [--closed]` is in ledger-commands.ts.

  /** A trader's rows a page at a time, by wallet address: activity and trades. */
  const traderPages = <T>(
    usage: string,
    description: string,
    methodName: string,
    read: (source: MarketSource, address: string, page: TradePageOptions) => Promise<T[]>,
    text: (rows: T[]) => string,
  ) =>
    traders
      .command(usage)
      .description(description)
      .option('--limit <n>', 'rows at most', numberFlag)
      .option('--offset <n>', 'rows to skip, from 0', numberFlag)
      .action(
        run(async (ctx: CliContext, address: string, opts: TradePageOptions) => {
          checkAddress(address, methodName);
          checkPage(opts, methodName);
          show(ctx, await read(ctx.markets(), address, { limit: opts.limit, offset: opts.offset }), text);
        }),
      );
  traderPages(
    'activity <address>',
    "a trader's on-chain activity, newest first: trades, splits, merges, redeems … (Polymarket direct)",
    'getTraderActivity',
    (s, address, page) => s.getTraderActivity(address, page),
    activityTable,
  );
  traderPages(
    'trades <address>',
    "a trader's trades, newest first (Polymarket direct)",
    'getTraderTrades',
    (s, address, page) => s.getTraderTrades(address, page),
    tradesTable,
  );

  slugs
    .command('list')
    .description('slugs of listed events, one page')
    .option('--page <n>', 'page number, from 1', numberFlag)
    .option('--limit <n>', 'slugs per page (default 100 on the aggregator)', numberFlag)
    .action(
      run(async (ctx: CliContext, opts: { page?: number; limit?: number }) => {
        checkPage(opts, 'listSlugs');
        show(
          ctx,
          await ctx.markets().listSlugs({ page: opts.page, limit: opts.limit }),
          (list) => `${list.join('\n')}\n`,
        );
      }),
    );

  slugs
    .command('events <slug>')
    .description('the events with this slug (on every provider, on the aggregator)')
    .action(
      run(async (ctx: CliContext, slug: string) => show(ctx, await ctx.markets().getEventsBySlug(slug), eventsTable)),
    );

  slugs
    .command('markets <slug>')
    .description('the markets with this slug (on every provider, on the aggregator)')
    .action(
      run(async (ctx: CliContext, slug: string) => show(ctx, await ctx.markets().getMarketsBySlug(slug), marketsText)),
    );

  program
    .command('search <text...>')
    .description('free-text search for events, best match first')
    .option('--top-k <n>', 'how many matches at most', numberFlag)
    .option('--protocols <list>', 'comma-separated providers, e.g. polymarket,limitless (the aggregator)')
    .option('--include-comments', 'match against discussions too (the aggregator)')
    .option('--threshold <x>', 'minimum similarity, 0..1 (the aggregator)', numberFlag)
    .action(
      run(
        async (
          ctx: CliContext,
          words: string[],
          opts: { topK?: number; protocols?: string; includeComments?: boolean; threshold?: number },
        ) => {
          const text = words.join(' ');
          if (text.trim() === '') throw invalidParameter("Missing required parameter 'query'.", 'search');
          const matches = await ctx.markets().search(text, {
            topK: opts.topK,
            protocols: opts.protocols?.split(','),
            isIncludeComment: opts.includeComments ? true : undefined,
            threshold: opts.threshold,
          });
          show(ctx, matches, searchTable);
        },
      ),
    );

  fills
    .command('watch <id>')
    .description('one JSON line per live fill; exits 1 when the stream ends')
    .option('--protocol <protocol>', PROTOCOL_HELP)
    .option('--count <n>', 'exit 0 after this many fills', numberFlag)
    .action(
      run(async (ctx: CliContext, id: string, opts: { protocol?: string; count?: number }) =>
        watchFills(ctx, id, opts),
      ),
    );

  program
    .command('candles <id>')
    .description("candles of a market's price history, from its fills (as far back as the source's fill history goes)")
    .option('--protocol <protocol>', PROTOCOL_HELP)
    .option('--interval <interval>', '1h, 6h, 1d, 1w or milliseconds', '1h')
    .option('--from <ms>', 'first time included (Unix ms)', numberFlag)
    .option('--to <ms>', 'first time excluded (Unix ms)', numberFlag)
    .option('--outcome <name>', 'outcome token by name (default: the first)')
    .action(run(async (ctx: CliContext, id: string, opts: CandleOptions) => candlesFromFills(ctx, id, opts)));
}

/** The `--cursor` value that asks for the first page (a cursor Gamma hands out is never this word). */
const FIRST_PAGE = 'start';

/** One page by cursor: only where the source lists by cursor, and never mixed with an offset. */
function eventsAfter(
  source: MarketSource,
  options: EventListOptions,
  cursor: string,
  offset: number | undefined,
): Promise<EventListPage> {
  if (offset !== undefined)
    throw invalidParameter(
      'Give --cursor or --offset, not both: a cursor already says where the page starts.',
      'listEvents',
    );
  if (cursor.trim() === '')
    throw invalidParameter(
      `Parameter 'cursor' must be a next cursor a previous page printed, or '${FIRST_PAGE}'.`,
      'listEvents',
    );
  if (!source.listEventsPage) {
    throw new PmDeskError(
      ErrorCode.NOT_AVAILABLE,
      'The aggregator lists events by page, not by cursor: use --offset (or events ongoing --page).',
      { methodName: 'listEvents' },
    );
  }
  return source.listEventsPage(options, cursor === FIRST_PAGE ? undefined : cursor);
}

/** The events table, then where to continue ("next: --cursor …") or that this was the last page. */
function eventPageText(page: EventListPage): string {
  return `${eventsTable(page.events)}${page.nextCursor === undefined ? '(last page)\n' : `next: --cursor ${page.nextCursor}\n`}`;
}

function show<T>(ctx: CliContext, value: T, text: (value: T) => string): void {
  ctx.out.stdout(ctx.out.json ? `${JSON.stringify(value)}\n` : text(value));
}

/**
 * The protocol a read names: --protocol, else the source's own where it has only one (Polymarket direct).
 * The aggregator serves several, so there a missing --protocol is its "Missing required parameter" (exit 2).
 */
function protocolOf(source: MarketSource, flag: string | undefined): string {
  return (flag ?? (source.kind === 'polymarket' ? 'polymarket' : undefined)) as string;
}

/** Page, limit and offset are refused the same way on every source, before anything is sent. */
function checkPage(opts: { page?: number; limit?: number; offset?: number }, methodName: string): void {
  wholeAtLeast('page', opts.page, 1, methodName);
  wholeAtLeast('limit', opts.limit, 1, methodName);
  wholeAtLeast('offset', opts.offset, 0, methodName);
}

function wholeAtLeast(name: string, value: number | undefined, min: number, methodName: string): void {
  if (value === undefined) return;
  if (!(value >= min))
    throw invalidParameter(`Parameter '${name}' must be ${min} or greater.`, methodName, { [name]: value });
  if (!Number.isInteger(value))
    throw invalidParameter(`Parameter '${name}' must be a whole number.`, methodName, { [name]: value });
}

const WALLET_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

function checkAddress(address: string, methodName: string): void {
  if (!WALLET_ADDRESS.test(address)) {
    throw invalidParameter(`Parameter 'address' must be a wallet address: 0x and 40 hex digits.`, methodName);
  }
}

function chartInterval(value: string): ChartInterval {
  if (!(CHART_INTERVALS as readonly string[]).includes(value)) {
    throw invalidParameter(`Unknown chart interval '${value}': use ${CHART_INTERVALS.join(', ')}.`, 'getCandles');
  }
  return value as ChartInterval;
}

/** The index of the outcome a trader named, case-insensitively; a name the market lacks is ERR_NOT_FOUND listing its outcomes. */
function outcomeIndex(market: Market, name: string | undefined): number {
  const tokens = market.position_tokens;
  const index = name === undefined ? 0 : tokens.findIndex((t) => t.name.toLowerCase() === name.toLowerCase());
  if (index < 0 || index >= tokens.length) {
    throw new PmDeskError(
      ErrorCode.NOT_FOUND,
      name === undefined
        ? 'This market has no outcome tokens.'
        : `Outcome '${name}' not found; this market's outcomes are: ${tokens.map((t) => t.name).join(', ')}.`,
      { methodName: 'candles' },
    );
  }
  return index;
}

/** Error codes of one bad message: reported, and the stream goes on. Anything else ends the stream and is reported once, at the end. */
const BAD_MESSAGE_CODES: readonly string[] = [ErrorCode.SSE_MESSAGE_ERROR, ErrorCode.VALIDATION_ERROR];

/**
 * An event's comments and how many were shown: Gamma lists no further than its offset cap, so a busy event's
 * discussion is its newest POLYMARKET_MAX_COMMENTS, and the trader is told so (on stderr with --json).
 */
async function showComments(ctx: CliContext, id: string, opts: { protocol?: string }): Promise<void> {
  const source = ctx.markets();
  const comments = await source.getEventComments(protocolOf(source, opts.protocol), id);
  const capped = source.kind === 'polymarket' && comments.length >= POLYMARKET_MAX_COMMENTS;
  const note = `${comments.length} comment${comments.length === 1 ? '' : 's'} shown${capped ? ', the newest: Polymarket lists no more by page' : ''}`;
  if (ctx.out.json) {
    ctx.out.stdout(`${JSON.stringify(comments)}\n`);
    if (capped) ctx.out.stderr(`pmdesk: ${note}\n`);
    return;
  }
  ctx.out.stdout(`${commentsTable(comments)}${note}\n`);
}

/**
 * The books of a market's outcomes, and for each outcome without one a sentence saying why: the CLOB keeps no
 * book for a resolved market's side (404), so the other side is shown rather than the read failing whole.
 */
async function showBooks(ctx: CliContext, id: string, opts: { protocol?: string }): Promise<void> {
  const source = ctx.markets();
  const protocol = protocolOf(source, opts.protocol);
  const books = await source.getOrderBooks(protocol, id);
  // Every market has two outcomes: only when a book is missing is the market read, to name it and say why.
  let notes: string[] = [];
  if (Object.keys(books).length < 2) {
    try {
      const market = await source.getMarket(protocol, id);
      const why = market.closed
        ? 'the market is closed and the exchange keeps no book for it'
        : 'the exchange has no book for it (404)';
      notes = market.position_tokens
        .filter((token) => !books[token.token_id])
        .map((token) => `no order book for ${token.name || 'outcome'} (token ${token.token_id}): ${why}`);
    } catch (error) {
      // The books read are shown all the same; only the naming of the missing one failed.
      notes = [
        `one outcome has no order book; the market could not be read to say which (${error instanceof Error ? error.message : String(error)})`,
      ];
    }
  }
  if (ctx.out.json) {
    ctx.out.stdout(`${JSON.stringify(books)}\n`);
    for (const note of notes) ctx.out.stderr(`pmdesk: ${note}\n`);
    return;
  }
  ctx.out.stdout(`${booksText(books)}${notes.map((note) => `${note}\n`).join('')}`);
}

async function watchFills(ctx: CliContext, id: string, opts: { protocol?: string; count?: number }): Promise<void> {
  if (opts.count !== undefined && !(Number.isInteger(opts.count) && opts.count >= 1)) {
    throw invalidParameter("Parameter 'count' must be 1 or greater.", 'subscribeToFills');
  }
  const source = ctx.markets();
  let seen = 0;
  const subscription = source.subscribeToFills(protocolOf(source, opts.protocol), id, {
    onFill: (fill) => {
      ctx.out.stdout(`${JSON.stringify(fill)}\n`);
      seen += 1;
      if (opts.count !== undefined && seen >= opts.count) subscription.close();
    },
    onError: (error) => {
      if (BAD_MESSAGE_CODES.includes(error.code)) ctx.out.stderr(`${errorJson(error)}\n`);
    },
    onMode: feedModeNotices(ctx.out, 'for fills'),
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

async function candlesFromFills(ctx: CliContext, id: string, opts: CandleOptions): Promise<void> {
  const intervalMillis = candleIntervalMillis(opts.interval);
  generateCandles([], intervalMillis); // refuses a non-positive interval before any request
  for (const [name, value] of [
    ['from', opts.from],
    ['to', opts.to],
  ] as const) {
    if (value !== undefined && Number.isNaN(value))
      throw invalidParameter(`Parameter '${name}' must be a time in Unix milliseconds.`, 'generateCandles');
  }
  const source = ctx.markets();
  const protocol = protocolOf(source, opts.protocol);
  const [market, history] = await Promise.all([source.getMarket(protocol, id), source.getFillHistory(protocol, id)]);
  const index = outcomeIndex(market, opts.outcome);
  const fillsOfOutcome = (history[index] ?? []).map(({ price, volumeBase, timestamp }) => ({
    price,
    volumeBase,
    timestamp,
  }));
  show(
    ctx,
    generateCandles(fillsOfOutcome, intervalMillis, opts.from ?? 0, opts.to ?? Number.POSITIVE_INFINITY),
    candlesTable,
  );
}
