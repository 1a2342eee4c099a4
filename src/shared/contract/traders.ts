// Other traders: the leaderboard, a market's top holders, and the traders the trader follows (kept per network,
// their live trades pushed as `followedTrade` events, an optional alert on each), with the operations on them.
import { z } from 'zod';
import { id, noInput, op, protocol } from './inputs';

/** Money and shares are integer base units (6 decimals) as decimal strings, signed for a loss. */
export type BaseUnits = string;

export const LEADERBOARD_BY = ['pnl', 'volume'] as const;
export const LEADERBOARD_PERIOD = ['day', 'week', 'month', 'all'] as const;
/** The most traders one network follows (each is polled while the live feed is away). */
export const FOLLOWED_TRADERS_MAX = 50;
export const FOLLOWED_NAME_MAX = 64;

export interface LeaderboardRow {
  rank: number;
  wallet: string;
  /** Public name, else pseudonym; '' when the API has neither. */
  name: string;
  pnl: BaseUnits;
  volume: BaseUnits;
}

export interface HolderRow {
  wallet: string;
  name: string;
  /** Shares held. */
  amount: BaseUnits;
}

/** One outcome's largest holders, largest first. */
export interface OutcomeHolderList {
  tokenId: string;
  outcome: string;
  holders: HolderRow[];
}

/** A followed trader as kept for one network. */
export interface FollowedTraderInfo {
  address: string;
  /** The name they were followed under (their public name or pseudonym then); '' when none. */
  name: string;
  /** A desktop notification (and a notice) on each of their trades. */
  alert: boolean;
  /** Epoch ms. */
  since: number;
}

/** One trade of a followed trader: what the tape of followed traders shows. */
export interface FollowedTradeInfo {
  key: string;
  wallet: string;
  name: string;
  side: 'BUY' | 'SELL';
  outcome: string;
  /** The market's question. */
  market: string;
  conditionId: string;
  tokenId: string;
  price: number;
  /** Shares. */
  size: BaseUnits;
  /** Unix seconds. */
  timestamp: number;
  transactionHash: string;
}

/** Where the followed trades come from now: the live feed, polling while it is away, or nothing followed. */
export type FollowedFeedMode = 'live' | 'polling' | 'connecting' | 'idle';

export interface FollowedTraders {
  traders: FollowedTraderInfo[];
  /** The newest trades first (at most 200, from this session). */
  tape: FollowedTradeInfo[];
  mode: FollowedFeedMode;
}

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'an address is 0x and 40 hex digits');

export const traderOperations = {
  // Other traders: the leaderboard, top holders, followed traders
  getLeaderboard: op<LeaderboardRow[]>()(
    z.strictObject({
      by: z.enum(LEADERBOARD_BY).default('pnl'),
      period: z.enum(LEADERBOARD_PERIOD).default('day'),
      limit: z.number().int().min(1).max(50).default(25),
    }),
    { summary: "Polymarket's trader leaderboard by profit or volume over a day, week, month or all time." },
  ),
  getMarketHolders: op<OutcomeHolderList[]>()(z.strictObject({ protocol, marketId: id }), {
    summary: "A market's largest holders of each outcome.",
  }),
  listFollowedTraders: op<FollowedTraders>()(noInput, {
    summary: 'The traders followed on this network, their trades this session, and where those come from.',
  }),
  followTrader: op<FollowedTraders>()(
    z.strictObject({
      address,
      name: z.string().trim().max(FOLLOWED_NAME_MAX).default(''),
      alert: z.boolean().default(false),
    }),
    { summary: 'Follow a trader on this network: their trades appear in the tape of followed traders.' },
  ),
  unfollowTrader: op<FollowedTraders>()(z.strictObject({ address }), { summary: 'Stop following a trader.' }),
  setFollowedTraderAlert: op<FollowedTraders>()(z.strictObject({ address, alert: z.boolean() }), {
    summary: "Turn the alert on a followed trader's trades on or off.",
  }),
} as const;
