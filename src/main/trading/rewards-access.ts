// The contract's liquidity-reward operations on the order flow: the markets that pay (the exchange's public
// list, read at most once a minute), a wallet's open orders with the exchange's scoring verdict and, when one does
// not score, the reason the toolkit reads from the live book and the market's terms, and a day's earnings.
import {
  ClobClient,
  NOT_SCORING_TEXT,
  formatUsd,
  readMarketRewardConfig,
  readOrdersScoring,
  readRewardEarningsForDay,
  readRewardMarkets,
  readTotalRewardEarningsForDay,
  rewardScoringVerdict,
  type MarketRewardConfig,
  type RewardMarket,
} from '@pmdesk/toolkit';
import type { MoneyAmount, OrderScoringInfo, RewardEarningsInfo, RewardMarketInfo } from '../../shared/contract';
import type { TradingService as OrderFlow } from './service';
import { tradingWalletNamed, withCredentials, type TradingWallets } from './trading-access';

/** What the handlers call (src/main/ipc/services.ts names it). */
export interface RewardsService {
  markets(): Promise<RewardMarketInfo[]>;
  scoring(wallet: string): Promise<OrderScoringInfo[]>;
  earnings(wallet: string, day?: string): Promise<RewardEarningsInfo>;
}

/** The reward markets change a few times a day: one read serves every window for a minute. */
const MARKETS_TTL_MS = 60_000;

const money = (units: bigint): MoneyAmount => ({ units: units.toString(), text: formatUsd(units) });

function bestOf(book: { bids: { price: string }[]; asks: { price: string }[] }) {
  const bids = (book.bids ?? []).map((l) => Number(l.price));
  const asks = (book.asks ?? []).map((l) => Number(l.price));
  return {
    bestBid: bids.length ? Math.max(...bids) : undefined,
    bestAsk: asks.length ? Math.min(...asks) : undefined,
  };
}

export function rewardsAccess(flow: OrderFlow, wallets: TradingWallets, now: () => number = Date.now): RewardsService {
  const { network } = flow.profile;
  let publicClient: ClobClient | undefined;
  const exchange = () =>
    (publicClient ??= new ClobClient({
      host: network.clobUrl,
      chainId: network.chainId,
      networks: [network],
      throwOnError: true,
    }));
  let cached: { at: number; markets: Promise<RewardMarket[]> } | undefined;
  const rewardMarkets = () => {
    if (!cached || now() - cached.at > MARKETS_TTL_MS) {
      const markets = readRewardMarkets(exchange());
      cached = { at: now(), markets };
      // A failed read is not kept: the next ask tries again.
      markets.catch(() => {
        if (cached?.markets === markets) cached = undefined;
      });
    }
    return cached.markets;
  };
  const walletClient = async (label: string) => {
    const wallet = await tradingWalletNamed(wallets, label);
    return withCredentials(wallets, wallet, label, () => flow.exchangeClient(wallet));
  };

  return {
    markets: async () =>
      (await rewardMarkets()).map((m) => ({
        conditionId: m.conditionId,
        dailyRate: money(m.dailyRate),
        maxSpreadCents: m.maxSpreadCents,
        minSize: m.minSize,
      })),

    scoring: async (label) => {
      const clob = await walletClient(label);
      const orders = (await clob.getOpenOrders()) as Record<string, unknown>[];
      const ids = orders.map((o) => String(o.id));
      const verdicts = await readOrdersScoring(clob, ids);
      const configs = new Map<string, Promise<MarketRewardConfig | undefined>>();
      const out: OrderScoringInfo[] = [];
      for (const o of orders) {
        const orderId = String(o.id);
        if (verdicts[orderId]) {
          out.push({ orderId, scoring: true, reason: null, whyNot: null });
          continue;
        }
        const market = String(o.market ?? '');
        if (!configs.has(market))
          configs.set(
            market,
            readMarketRewardConfig(exchange(), market).catch(() => undefined),
          );
        const [config, book] = await Promise.all([configs.get(market)!, flow.exchangeBook(String(o.asset_id))]);
        const size = Number(o.original_size) - Number(o.size_matched);
        const verdict = rewardScoringVerdict({ price: Number(o.price), size }, bestOf(book), config);
        out.push({
          orderId,
          scoring: false,
          reason: verdict.reason ?? 'not-counted',
          whyNot: verdict.reason ? NOT_SCORING_TEXT[verdict.reason] : 'not counted by the exchange yet',
        });
      }
      return out;
    },

    earnings: async (label, day = new Date(now()).toISOString().slice(0, 10)) => {
      const clob = await walletClient(label);
      const [perMarket, totals] = await Promise.all([
        readRewardEarningsForDay(clob, day),
        readTotalRewardEarningsForDay(clob, day),
      ]);
      return {
        wallet: label,
        day,
        markets: perMarket.map((e) => ({ conditionId: e.conditionId, maker: e.maker, earnings: money(e.earnings) })),
        total: money(totals.reduce((sum, t) => sum + t.earnings, 0n)),
      };
    },
  };
}
