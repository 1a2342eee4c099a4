// `pmdesk` reads of other traders from Polymarket's Data API, added to the existing `traders` and `markets`
// groups: the leaderboard, a market's top holders, and following traders' trades as they happen (the real-time
// feed, polled while it is away). They need Polymarket direct: the aggregator has no leaderboard.
import type { Command } from 'commander';
import { ErrorCode, PmDeskError, invalidParameter } from '@pmdesk/toolkit/model';
import {
  LEADERBOARD_METRICS,
  LEADERBOARD_PERIODS,
  PolymarketSource,
  sharesText,
  type FollowedTrade,
  type LeaderboardEntry,
  type LeaderboardMetric,
  type LeaderboardPeriod,
  type OutcomeHolders,
} from '@pmdesk/toolkit';
import { numberFlag, type CliContext } from './aggregator-commands';
import { errorJson, feedModeNotices, isoSeconds, table } from './output';

type Action = (ctx: CliContext, ...args: never[]) => Promise<void>;
type Run = (action: Action) => (...args: unknown[]) => Promise<void>;

const CONDITION_ID = /^0x[0-9a-fA-F]{64}$/;

/** Attaches to the `traders` and `markets` groups registerMarketCommands made (or makes them). */
export function registerTraderCommands(program: Command, run: Run): void {
  const group = (name: string, description: string) =>
    program.commands.find((c) => c.name() === name) ?? program.command(name).description(description);
  const traders = group('traders', "traders' profiles, positions, activity and trades");
  const markets = group('markets', 'markets (one question each)');

  traders
    .command('leaderboard')
    .description("Polymarket's trader leaderboard, best first")
    .option('--by <metric>', 'pnl (profit, the default) or volume')
    .option('--period <period>', 'day (the default), week, month or all')
    .option('--limit <n>', 'rows, 1 to 50 (default 25)', numberFlag)
    .action(
      run(async (ctx: CliContext, opts: { by?: string; period?: string; limit?: number }) => {
        if (opts.by !== undefined && !Object.hasOwn(LEADERBOARD_METRICS, opts.by))
          throw invalidParameter("Parameter 'by' must be pnl or volume.", 'getLeaderboard', { by: opts.by });
        if (opts.period !== undefined && !Object.hasOwn(LEADERBOARD_PERIODS, opts.period))
          throw invalidParameter("Parameter 'period' must be day, week, month or all.", 'getLeaderboard', {
            period: opts.period,
          });
        const rows = await polymarket(ctx, 'getLeaderboard').traders.getLeaderboard({
          by: opts.by as LeaderboardMetric | undefined,
          period: opts.period as LeaderboardPeriod | undefined,
          limit: opts.limit,
        });
        ctx.out.stdout(ctx.out.json ? `${JSON.stringify(rows)}\n` : leaderboardTable(rows));
      }),
    );

  traders
    .command('follow <address...>')
    .description("the traders' trades as they happen, until Ctrl-C (--json: one line per trade)")
    .option('--count <n>', 'exit 0 after this many trades', numberFlag)
    .action(
      run(async (ctx: CliContext, addresses: string[], opts: { count?: number }) => follow(ctx, addresses, opts)),
    );

  markets
    .command('holders <market>')
    .description("a market's largest holders of each outcome (market id or condition id)")
    .option('--limit <n>', 'holders per outcome, 1 to 20 (default 20)', numberFlag)
    .action(
      run(async (ctx: CliContext, market: string, opts: { limit?: number }) => {
        const source = polymarket(ctx, 'getHolders');
        // A market id is read for its condition id and outcome names; a condition id is asked as it is.
        const read = CONDITION_ID.test(market) ? undefined : await source.getMarket('polymarket', market);
        const conditionId = read ? read.conditionId : market;
        if (!conditionId)
          throw new PmDeskError(ErrorCode.NOT_FOUND, `Market '${market}' has no condition id to list holders by.`, {
            methodName: 'getHolders',
          });
        const holders = await source.traders.getHolders(conditionId, { limit: opts.limit });
        const names = new Map(read?.position_tokens.map((t) => [t.token_id, t.name]) ?? []);
        ctx.out.stdout(ctx.out.json ? `${JSON.stringify(holders)}\n` : holdersTable(holders, names));
      }),
    );
}

/** The Polymarket source these reads need; the aggregator has no leaderboard, holders or trader feed. */
function polymarket(ctx: CliContext, methodName: string): PolymarketSource {
  const source = ctx.markets();
  if (source instanceof PolymarketSource) return source;
  throw new PmDeskError(
    ErrorCode.NOT_AVAILABLE,
    "Other traders are read from Polymarket's Data API: use --source polymarket (the aggregator has no leaderboard, holders or trader feed).",
    { methodName },
  );
}

async function follow(ctx: CliContext, addresses: string[], opts: { count?: number }): Promise<void> {
  if (opts.count !== undefined && !(Number.isInteger(opts.count) && opts.count >= 1))
    throw invalidParameter("Parameter 'count' must be 1 or greater.", 'followTraders');
  let told = 0;
  const tellMode = feedModeNotices(ctx.out, "the traders' trades");
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const follow = polymarket(ctx, 'followTraders').followTraders(addresses, {
    onTrade: (trade) => {
      ctx.out.stdout(ctx.out.json ? `${JSON.stringify(trade)}\n` : tradeLine(trade));
      told += 1;
      if (opts.count !== undefined && told >= opts.count) follow.close();
    },
    onError: (error) => ctx.out.stderr(`${errorJson(error)}\n`),
    onMode: (mode) => {
      if (mode === 'closed') return finish();
      if (mode !== 'connecting') tellMode(mode);
    },
  });
  const stop = () => follow.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await finished;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

function tradeLine(t: FollowedTrade): string {
  const who = t.name ? `${t.name} (${t.wallet})` : t.wallet;
  return `${isoSeconds(t.timestamp)}  ${who}  ${t.side} ${sharesText(BigInt(t.size))} ${t.outcome} @ ${t.price}  ${t.market}\n`;
}

function leaderboardTable(rows: LeaderboardEntry[]): string {
  return table(rows, [
    { header: 'RANK', value: (r) => r.rank, right: true },
    { header: 'TRADER', value: (r) => r.name, max: 30 },
    { header: 'ADDRESS', value: (r) => r.wallet },
    { header: 'PNL', value: (r) => dollarsAndCents(r.pnl), right: true },
    { header: 'VOLUME', value: (r) => dollarsAndCents(r.volume), right: true },
  ]);
}

/** Base units as dollars and cents, rounded half away from zero ("$1234.50", "-$0.40"). */
export function dollarsAndCents(units: string): string {
  const value = BigInt(units);
  const cents = ((value < 0n ? -value : value) + 5_000n) / 10_000n;
  const text = `$${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;
  return value < 0n && cents > 0n ? `-${text}` : text;
}

function holdersTable(outcomes: OutcomeHolders[], names: Map<string, string>): string {
  const rows = outcomes.flatMap((o) => o.holders.map((h) => ({ outcome: names.get(o.token) ?? o.token, ...h })));
  return table(rows, [
    { header: 'OUTCOME', value: (r) => r.outcome, max: 30 },
    { header: 'HOLDER', value: (r) => r.name, max: 30 },
    { header: 'ADDRESS', value: (r) => r.wallet },
    { header: 'SHARES', value: (r) => sharesText(BigInt(r.amount)), right: true },
  ]);
}
