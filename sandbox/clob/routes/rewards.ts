// The CLOB's liquidity-rewards and order-scoring routes, in Polymarket's shapes: the markets that pay and their
// terms (reward-programme.ts), whether an order scores on the live book (reward-scoring.ts; the sandbox adds the
// rule that fails as `reason`, which Polymarket does not send), and what the caller's makers were paid
// (reward-journal.ts, paid by reward-payout.ts). Amounts are decimal numbers of collateral, as Polymarket's.
import { formatUnits } from 'ethers';
import type { CatalogMarket } from '../../market/catalog';
import { dailyRateNumber, rewardProgramme, type RewardProgramme } from '../../market/reward-programme';
import { fundsHolder } from '../accounts';
import { HttpError, parseJson, type Query } from '../http';
import type { Caller } from '../records';
import { NOT_FOUND, pathId, type ClobRequest, type PrivateRoutes } from '../routing';
import type { ClobState } from '../state';

/** Programmes run from the sandbox's epoch to a far end date, as Polymarket's open-ended ones. */
const PROGRAMME_START = '2026-01-01';
const PROGRAMME_END = '2500-12-31';

const money = (baseUnits: bigint) => Number(formatUnits(baseUnits, 6));

function rewardsConfig(state: ClobState, market: CatalogMarket, programme: RewardProgramme) {
  return [
    {
      id: Number(market.id),
      asset_address: state.options.deployment.contracts.collateral,
      start_date: PROGRAMME_START,
      end_date: PROGRAMME_END,
      rate_per_day: dailyRateNumber(programme),
      total_rewards: 0,
    },
  ];
}

/** The `rewards` object of GET /markets: the daily rate per asset, or no rates and zeros when the market pays none. */
export function clobRewardsJson(state: ClobState, market: CatalogMarket) {
  const programme = rewardProgramme(market);
  if (!programme) return { rates: null, min_size: 0, max_spread: 0 };
  return {
    rates: [
      {
        asset_address: state.options.deployment.contracts.collateral,
        rewards_daily_rate: dailyRateNumber(programme),
      },
    ],
    min_size: programme.minSize,
    max_spread: programme.maxSpreadCents,
  };
}

function currentRewardJson(state: ClobState, market: CatalogMarket, programme: RewardProgramme) {
  return {
    condition_id: market.conditionId,
    rewards_max_spread: programme.maxSpreadCents,
    rewards_min_size: programme.minSize,
    rewards_config: rewardsConfig(state, market, programme),
    sponsored_daily_rate: 0,
    sponsors_count: 0,
    native_daily_rate: dailyRateNumber(programme),
    total_daily_rate: dailyRateNumber(programme),
  };
}

function marketRewardJson(state: ClobState, market: CatalogMarket, programme: RewardProgramme) {
  const event = state.options.catalog.events.find((e) => e.id === market.eventId);
  return {
    condition_id: market.conditionId,
    question: market.question,
    market_slug: market.slug,
    event_slug: event?.slug ?? '',
    image: '',
    rewards_max_spread: programme.maxSpreadCents,
    rewards_min_size: programme.minSize,
    market_competitiveness: 0,
    tokens: market.tokens.map((t) => ({
      token_id: t.tokenId,
      outcome: t.name,
      price: state.options.marketData.displayPrice(t.tokenId) ?? 0.5,
    })),
    rewards_config: rewardsConfig(state, market, programme),
  };
}

function paying(state: ClobState): [CatalogMarket, RewardProgramme][] {
  return state
    .allMarkets()
    .map((m) => [m, rewardProgramme(m)] as const)
    .filter((pair): pair is [CatalogMarket, RewardProgramme] => pair[1] !== undefined);
}

/** GET /rewards/markets/current and /rewards/markets/{condition_id}: public, no authentication. */
export function marketRewardRoutes(state: ClobState, { key, path, q }: ClobRequest): unknown {
  if (key === 'GET /rewards/markets/current')
    return state.page(
      paying(state).map(([m, p]) => currentRewardJson(state, m, p)),
      q,
    );
  const conditionId = key.startsWith('GET ') ? pathId(path, '/rewards/markets/') : undefined;
  if (conditionId === undefined) return NOT_FOUND;
  // A market that pays nothing (or is unknown) has no configs: an empty page, as Polymarket answers.
  const market = state.options.catalog.marketByCondition(conditionId);
  const programme = market && rewardProgramme(market);
  return state.page(market && programme ? [marketRewardJson(state, market, programme)] : [], q);
}

/** The `date` every earnings read needs (YYYY-MM-DD). */
function dayParam(q: Query): string {
  const date = q.get('date') ?? '';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(date)))
    throw new HttpError(400, 'Invalid date: YYYY-MM-DD is required');
  return date;
}

/** Which makers' earnings the caller sees: the account of its signature type, or every address its key controls. */
function makersOf(state: ClobState, caller: Caller, q: Query): (address: string) => boolean {
  const signatureType = q.get('signature_type');
  if (signatureType !== null && signatureType !== '') {
    const holder = fundsHolder(state.options.deployment.wallets, caller.address, signatureType).toLowerCase();
    return (address) => address.toLowerCase() === holder;
  }
  return (address) => state.controls(caller.address, address);
}

/** The caller's payments of one day, summed per (market, maker). */
function earningsOfDay(state: ClobState, caller: Caller, q: Query) {
  const day = dayParam(q);
  const sums = new Map<string, { conditionId: string; maker: string; amount: bigint }>();
  for (const p of state.rewards.journal.paymentsTo(makersOf(state, caller, q)).filter((p) => p.day === day)) {
    const k = `${p.conditionId}|${p.maker}`;
    const sum = sums.get(k) ?? { conditionId: p.conditionId, maker: p.maker, amount: 0n };
    sum.amount += p.amount;
    sums.set(k, sum);
  }
  return { day, rows: [...sums.values()] };
}

function orderScoringJson(state: ClobState, caller: Caller, orderId: string) {
  const record = state.orders.get(orderId);
  // Another owner's order is not the caller's to ask about: it scores for nobody the caller knows.
  if (!record || record.owner !== caller.apiKey) return { scoring: false, reason: 'NOT_RESTING' };
  const { scoring, reason } = state.rewards.verdict(orderId);
  return reason ? { scoring, reason } : { scoring };
}

export const REWARD_ROUTES: PrivateRoutes = {
  'GET /rewards/user': (state, caller, { q }) => {
    const { day, rows } = earningsOfDay(state, caller, q);
    const collateral = state.options.deployment.contracts.collateral;
    return state.page(
      rows.map((r) => ({
        date: day,
        condition_id: r.conditionId,
        asset_address: collateral,
        maker_address: r.maker,
        earnings: money(r.amount),
        asset_rate: 1,
      })),
      q,
    );
  },
  'GET /rewards/user/total': (state, caller, { q }) => {
    const { day, rows } = earningsOfDay(state, caller, q);
    const byMaker = new Map<string, bigint>();
    for (const r of rows) byMaker.set(r.maker, (byMaker.get(r.maker) ?? 0n) + r.amount);
    return [...byMaker].map(([maker, amount]) => ({
      date: day,
      asset_address: state.options.deployment.contracts.collateral,
      maker_address: maker,
      earnings: money(amount),
      asset_rate: 1,
    }));
  },
  'GET /rewards/user/markets': (state, caller, { q }) => {
    const { rows } = earningsOfDay(state, caller, q);
    const shares = state.rewards.shares(makersOf(state, caller, q));
    const collateral = state.options.deployment.contracts.collateral;
    return state.page(
      paying(state).map(([market, programme]) => {
        const mine = rows.filter((r) => r.conditionId === market.conditionId);
        const amount = mine.reduce((sum, r) => sum + r.amount, 0n);
        return {
          ...marketRewardJson(state, market, programme),
          maker_address: mine[0]?.maker ?? caller.address,
          earning_percentage: shares[market.conditionId] ?? 0,
          earnings: [{ asset_address: collateral, earnings: money(amount), asset_rate: 1 }],
        };
      }),
      q,
    );
  },
  'GET /rewards/user/percentages': (state, caller, { q }) => state.rewards.shares(makersOf(state, caller, q)),
  'GET /order-scoring': (state, caller, { q }) => {
    const orderId = q.get('order_id');
    if (!orderId) throw new HttpError(400, 'Invalid payload: order_id is required');
    return orderScoringJson(state, caller, orderId);
  },
  'POST /orders-scoring': (state, caller, { raw }) => {
    const ids = parseJson(raw);
    if (!Array.isArray(ids) || ids.length > 1000 || !ids.every((id) => typeof id === 'string'))
      throw new HttpError(400, 'Invalid payload: a list of order ids');
    return Object.fromEntries(ids.map((id) => [id, orderScoringJson(state, caller, id).scoring]));
  },
};
