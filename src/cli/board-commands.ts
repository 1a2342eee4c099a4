// `pmdesk events board <event>`: every outcome of an event side by side (best Yes bid and ask, last trade, spread,
// 24 h change), highest Yes first, with the sums of the best asks and bids in words — the board tile's model
// (src/shared/event-board.ts) printed once, or again whenever a book moves with --watch.
import type { Command } from 'commander';
import { ErrorCode, PmDeskError, invalidParameter } from '@pmdesk/toolkit/model';
import type { Market, MarketOrderBooks, PredictionEvent } from '@pmdesk/toolkit/model';
import type { MarketSource } from '@pmdesk/toolkit';
import {
  boardCents,
  changeCents,
  eventBoard,
  outcomeNameOf,
  type BoardOutcomeInput,
  type EventBoard,
} from '../shared/event-board';
import { numberFlag, type CliContext } from './aggregator-commands';
import { table } from './output';

type Action = (ctx: CliContext, ...args: never[]) => Promise<void>;
type Run = (action: Action) => (...args: unknown[]) => Promise<void>;

/** How often --watch reads the books again, unless told. */
export const WATCH_EVERY_MS = 2_000;
/** The fastest --every-ms allowed: a 30-outcome event is 31 reads a round. */
const WATCH_EVERY_MIN_MS = 500;
/** Books read at once (a 30-outcome event is read six at a time, not thirty). */
const BOOKS_AT_ONCE = 6;
/** The most outcomes one board reads (Polymarket's largest events have a few dozen). */
const OUTCOMES_MAX = 100;

interface BoardOptions {
  protocol?: string;
  watch?: boolean;
  everyMs?: number;
}

/** What the board prints, and --json answers. */
export interface BoardAnswer {
  event: { id: string; slug: string; title: string; negRisk: boolean };
  board: EventBoard;
}

/** Attaches `board` to the `events` group `registerMarketCommands` made. */
export function registerBoardCommands(program: Command, run: Run): void {
  const events = program.commands.find((c) => c.name() === 'events');
  if (!events) throw new Error('the events group is registered before the board');
  events
    .command('board <event>')
    .description('every outcome of an event side by side, with the sums of the Yes asks and bids (event id or slug)')
    .option('--protocol <protocol>', 'polymarket (the default on Polymarket direct), limitless or truemarket')
    .option('--watch', 'print the board again whenever a book changes, until Ctrl-C')
    .option('--every-ms <ms>', `with --watch: how often the books are read (default ${WATCH_EVERY_MS})`, numberFlag)
    .action(run(async (ctx: CliContext, event: string, opts: BoardOptions) => printBoard(ctx, event, opts)));
}

const protocolOf = (source: MarketSource, flag: string | undefined): string =>
  (flag ?? (source.kind === 'polymarket' ? 'polymarket' : undefined)) as string;

/** The event by id (all digits) or by slug. */
async function readEvent(source: MarketSource, protocol: string, idOrSlug: string): Promise<PredictionEvent> {
  if (/^\d+$/.test(idOrSlug)) return source.getEvent(protocol, idOrSlug);
  const found = await source.getEventsBySlug(idOrSlug);
  const event = found.find((e) => e.protocol === protocol) ?? found[0];
  if (!event)
    throw new PmDeskError(ErrorCode.NOT_FOUND, `No event has the slug '${idOrSlug}'.`, { methodName: 'eventsBoard' });
  // A slug's answer may list markets without their books' tokens in full: the event read by id is the whole one.
  return source.getEvent(event.protocol || protocol, event.id);
}

/** Every outcome's books, a few markets at a time; a market whose books cannot be read shows as unread. */
async function readBooks(
  source: MarketSource,
  protocol: string,
  markets: readonly Market[],
): Promise<Map<string, MarketOrderBooks>> {
  const books = new Map<string, MarketOrderBooks>();
  for (let i = 0; i < markets.length; i += BOOKS_AT_ONCE) {
    const batch = markets.slice(i, i + BOOKS_AT_ONCE);
    const read = await Promise.all(batch.map((m) => source.getOrderBooks(protocol, m.id).catch(() => null)));
    batch.forEach((m, j) => read[j] && books.set(m.id, read[j]));
  }
  return books;
}

const positivePrice = (value: unknown): number | null => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) && n > 0 && n < 1 ? n : null;
};

/** The board of an event as read now. */
export async function readBoard(source: MarketSource, protocol: string, idOrSlug: string): Promise<BoardAnswer> {
  const event = await readEvent(source, protocol, idOrSlug);
  const markets = event.markets.filter((m) => m.position_tokens.length > 0).slice(0, OUTCOMES_MAX);
  const books = await readBooks(source, protocol, markets);
  const outcomes = markets.map((m): BoardOutcomeInput => {
    const yes = m.position_tokens[0]!;
    const read = books.get(m.id);
    const book = read?.[yes.token_id];
    return {
      marketId: m.id,
      name: outcomeNameOf(m),
      yesTokenId: yes.token_id,
      noTokenId: m.position_tokens[1]?.token_id ?? null,
      // A market whose books were read but list nothing for Yes has an empty Yes book.
      ...(read ? { book: book ?? { bids: [], asks: [] } } : {}),
      last: positivePrice(m.lastTradePrice),
      listed: positivePrice(yes.price),
      change24h: typeof m.oneDayPriceChange === 'number' ? m.oneDayPriceChange : null,
    };
  });
  const negRisk = event.neg_risk === true || (markets.length > 1 && markets.every((m) => m.neg_risk === true));
  return {
    event: { id: event.id, slug: event.slug, title: event.title, negRisk },
    board: eventBoard(outcomes, negRisk),
  };
}

/** The board as text: the event, one line per outcome, the two sums in words. */
export function boardText(answer: BoardAnswer): string {
  const { event, board } = answer;
  const rows = table(board.rows, [
    { header: 'outcome', value: (r) => r.name, max: 40 },
    { header: 'bid', value: (r) => (r.hasBook ? boardCents(r.bestBid) : 'unread'), right: true },
    { header: 'ask', value: (r) => (r.hasBook ? boardCents(r.bestAsk) : 'unread'), right: true },
    { header: 'last', value: (r) => boardCents(r.last), right: true },
    { header: 'spread', value: (r) => boardCents(r.spread), right: true },
    { header: '24h', value: (r) => changeCents(r.change24h), right: true },
  ]);
  const kind = event.negRisk ? 'negative risk: exactly one outcome wins' : 'outcomes not exclusive';
  return `${event.title} (event ${event.id}, ${kind})\n${rows}${board.asksWords}\n${board.bidsWords}\n`;
}

async function printBoard(ctx: CliContext, idOrSlug: string, opts: BoardOptions): Promise<void> {
  if (!idOrSlug.trim()) throw invalidParameter("Parameter 'event' must be an event id or slug.", 'eventsBoard');
  const every = opts.everyMs ?? WATCH_EVERY_MS;
  if (!(Number.isInteger(every) && every >= WATCH_EVERY_MIN_MS))
    throw invalidParameter(
      `Parameter 'every-ms' must be a whole number of at least ${WATCH_EVERY_MIN_MS}.`,
      'eventsBoard',
    );
  const source = ctx.markets();
  const protocol = protocolOf(source, opts.protocol);
  const render = (answer: BoardAnswer) => (ctx.out.json ? `${JSON.stringify(answer)}\n` : boardText(answer));
  let printed = render(await readBoard(source, protocol, idOrSlug));
  ctx.out.stdout(printed);
  if (!opts.watch) return;

  // Watching: the books read again every round; the board printed again only when what it says changed.
  let stopped = false;
  let wake: (() => void) | undefined;
  const stop = () => {
    stopped = true;
    wake?.();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    while (!stopped) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, every);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (stopped) break;
      let next: string;
      try {
        next = render(await readBoard(source, protocol, idOrSlug));
      } catch (error) {
        // One failed round is said and the watch goes on: the next round may read it again.
        ctx.out.stderr(`pmdesk: the board could not be read this round: ${(error as Error).message}\n`);
        continue;
      }
      if (next !== printed && !stopped) {
        printed = next;
        ctx.out.stdout(ctx.out.json ? next : `\n${next}`);
      }
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}
