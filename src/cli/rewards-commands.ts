// `pmdesk rewards markets|earnings` and `pmdesk order scoring`: Polymarket's liquidity rewards from a terminal,
// through the toolkit's validated reads (exact base units; dollars printed exactly). Earnings and scoring need
// level 2 credentials (PMDESK_PRIVATE_KEY and PMDESK_API_KEY/SECRET/PASSPHRASE), as `order open` does.
import type { Command } from 'commander';
import { invalidParameter } from '@pmdesk/toolkit/model';
import {
  NOT_SCORING_TEXT,
  formatUsd,
  readMarketRewardConfig,
  readOrdersScoring,
  readRewardEarningsForDay,
  readRewardMarkets,
  readTotalRewardEarningsForDay,
  rewardScoringVerdict,
  type ClobClient,
  type MarketRewardConfig,
  type OrderBookSummary,
} from '@pmdesk/toolkit';
import type { CliContext } from './aggregator-commands';
import { exchangeClient } from './clob-commands';
import { table } from './output';

type Action = (ctx: CliContext, ...args: never[]) => Promise<void>;
type Run = (action: Action) => (...args: unknown[]) => Promise<void>;

/** One open order as GET /data/orders lists it (only the fields read here). */
interface OpenOrderRow {
  id: string;
  market: string;
  asset_id: string;
  side: string;
  price: string;
  original_size: string;
  size_matched: string;
  outcome?: string;
}

export function registerRewardCommands(program: Command, run: Run): void {
  const rewards = program.command('rewards').description('liquidity rewards: markets that pay, your earnings');
  rewards
    .command('markets')
    .description('GET /rewards/markets/current: the markets paying liquidity rewards now')
    .action(
      run(async (ctx: CliContext) => {
        const markets = await readRewardMarkets(exchangeClient());
        if (ctx.out.json) {
          const rows = markets.map((m) => ({
            ...m,
            dailyRate: m.dailyRate.toString(),
            dailyRateUsd: usd(m.dailyRate),
          }));
          ctx.out.stdout(`${JSON.stringify(rows)}\n`);
          return;
        }
        ctx.out.stdout(
          table(markets, [
            { header: 'market (condition id)', value: (m) => m.conditionId, max: 66 },
            { header: 'daily rate', value: (m) => formatUsd(m.dailyRate), right: true },
            { header: 'max spread', value: (m) => `${m.maxSpreadCents}¢`, right: true },
            { header: 'min size', value: (m) => m.minSize, right: true },
          ]),
        );
      }),
    );
  rewards
    .command('earnings')
    .description('GET /rewards/user and /rewards/user/total: what your orders earned on a day, per market and in total')
    .option('--day <YYYY-MM-DD>', 'the UTC day (default: today)')
    .action(
      run(async (ctx: CliContext, opts: { day?: string }) => {
        const day = opts.day ?? new Date().toISOString().slice(0, 10);
        if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw invalidParameter(`--day must be YYYY-MM-DD, got ${day}`);
        const clob = exchangeClient({ creds: true });
        const [perMarket, totals] = await Promise.all([
          readRewardEarningsForDay(clob, day),
          readTotalRewardEarningsForDay(clob, day),
        ]);
        const total = totals.reduce((sum, t) => sum + t.earnings, 0n);
        if (ctx.out.json) {
          ctx.out.stdout(
            `${JSON.stringify({
              day,
              markets: perMarket.map((e) => ({ ...e, earnings: e.earnings.toString(), earningsUsd: usd(e.earnings) })),
              total: total.toString(),
              totalUsd: usd(total),
            })}\n`,
          );
          return;
        }
        ctx.out.stdout(
          table(perMarket, [
            { header: 'market (condition id)', value: (e) => e.conditionId, max: 66 },
            { header: 'maker', value: (e) => e.maker, max: 42 },
            { header: 'earned', value: (e) => formatUsd(e.earnings), right: true },
          ]) + `total on ${day}: ${formatUsd(total)}\n`,
        );
      }),
    );

  const order = program.commands.find((c) => c.name() === 'order');
  if (!order) throw new Error('register the order commands before the reward commands');
  order
    .command('scoring')
    .description('GET /data/orders and POST /orders-scoring: whether each open order earns rewards, and why not')
    .action(
      run(async (ctx: CliContext) => {
        const clob = exchangeClient({ creds: true });
        const rows = await scoringRows(clob);
        if (ctx.out.json) {
          ctx.out.stdout(`${JSON.stringify(rows)}\n`);
          return;
        }
        ctx.out.stdout(
          table(rows, [
            { header: 'order', value: (r) => r.orderId, max: 66 },
            { header: 'side', value: (r) => r.side },
            { header: 'price', value: (r) => r.price, right: true },
            { header: 'size left', value: (r) => r.sizeLeft, right: true },
            { header: 'scoring', value: (r) => (r.scoring ? 'yes' : 'no') },
            { header: 'why not', value: (r) => r.whyNot ?? '' },
          ]),
        );
      }),
    );
}

/** Dollars exactly, without the sign, for JSON ("13.043478"). */
function usd(units: bigint): string {
  return formatUsd(units).replace('$', '');
}

export interface ScoringRow {
  orderId: string;
  market: string;
  tokenId: string;
  side: string;
  price: number;
  sizeLeft: number;
  scoring: boolean;
  /** When it does not score: the rule it fails, as the toolkit reads it from the book and the market's terms. */
  reason?: string;
  whyNot?: string;
}

/** Each open order with the exchange's verdict and, when it does not score, the reason from the live book. */
async function scoringRows(clob: ClobClient): Promise<ScoringRow[]> {
  const orders = (await clob.getOpenOrders()) as OpenOrderRow[];
  if (!Array.isArray(orders)) throw invalidParameter('The exchange did not list the open orders.');
  const scoring = await readOrdersScoring(
    clob,
    orders.map((o) => o.id),
  );
  const configs = new Map<string, Promise<MarketRewardConfig | undefined>>();
  const books = new Map<string, Promise<OrderBookSummary>>();
  const rows: ScoringRow[] = [];
  for (const o of orders) {
    const sizeLeft = Number(o.original_size) - Number(o.size_matched);
    const row: ScoringRow = {
      orderId: o.id,
      market: o.market,
      tokenId: o.asset_id,
      side: o.side,
      price: Number(o.price),
      sizeLeft,
      scoring: scoring[o.id] === true,
    };
    if (!row.scoring) {
      if (!configs.has(o.market)) configs.set(o.market, readMarketRewardConfig(clob, o.market));
      if (!books.has(o.asset_id)) books.set(o.asset_id, clob.getOrderBook(o.asset_id) as Promise<OrderBookSummary>);
      const [config, book] = await Promise.all([configs.get(o.market)!, books.get(o.asset_id)!]);
      const verdict = rewardScoringVerdict({ price: row.price, size: sizeLeft }, bestOf(book), config);
      row.reason = verdict.reason ?? 'not-counted';
      row.whyNot = verdict.reason ? NOT_SCORING_TEXT[verdict.reason] : 'not counted by the exchange yet';
    }
    rows.push(row);
  }
  return rows;
}

function bestOf(book: OrderBookSummary): { bestBid?: number; bestAsk?: number } {
  const bids = (book.bids ?? []).map((l) => Number(l.price));
  const asks = (book.asks ?? []).map((l) => Number(l.price));
  return {
    bestBid: bids.length ? Math.max(...bids) : undefined,
    bestAsk: asks.length ? Math.min(...asks) : undefined,
  };
}
