// Other traders in the page: the leaderboard as last asked (by profit or volume, over a period), and the
// traders followed on this network with the tape of their trades, which main pushes as `followedTrade` events
// (each trade once: a key main gives it). Follow, unfollow and the alert switch go to main, which keeps the list.
import { create } from 'zustand';
import type {
  FollowedFeedMode,
  FollowedTradeInfo,
  FollowedTraderInfo,
  FollowedTraders,
  LeaderboardRow,
} from '../../../shared/contract/index';
import { ask, listen, messageOf } from '../bridge/terminal';

export type LeaderboardBy = 'pnl' | 'volume';
export type LeaderboardPeriod = 'day' | 'week' | 'month' | 'all';
/** The tape keeps this session's newest trades, as main does. */
export const TAPE_MAX = 200;

export interface TradersState {
  by: LeaderboardBy;
  period: LeaderboardPeriod;
  board: { state: 'loading' } | { state: 'done'; rows: LeaderboardRow[] } | { state: 'failed'; message: string } | null;
  /** The by/period the board shows (an answer for another is dropped). */
  boardFor: string;
  followed: FollowedTraderInfo[];
  tape: FollowedTradeInfo[];
  mode: FollowedFeedMode;
  /** Why the followed traders could not be read or changed, in main's words; null when fine. */
  error: string | null;
}

export const useTraders = create<TradersState>()(() => ({
  by: 'pnl',
  period: 'day',
  board: null,
  boardFor: '',
  followed: [],
  tape: [],
  mode: 'idle',
  error: null,
}));

/** Reads the leaderboard for a metric and period (the ones shown unless told). */
export function loadLeaderboard(by = useTraders.getState().by, period = useTraders.getState().period): void {
  const key = `${by}:${period}`;
  useTraders.setState({ by, period, boardFor: key, board: { state: 'loading' } });
  ask('getLeaderboard', { by, period, limit: 25 }).then(
    (rows) => useTraders.getState().boardFor === key && useTraders.setState({ board: { state: 'done', rows } }),
    (error: unknown) =>
      useTraders.getState().boardFor === key &&
      useTraders.setState({ board: { state: 'failed', message: messageOf(error) } }),
  );
}

/** main's list and tape as they stand, merged with what events already brought. */
function take(answer: FollowedTraders): void {
  useTraders.setState((s) => ({
    followed: answer.traders,
    tape: merge(answer.tape, s.tape),
    mode: answer.mode,
    error: null,
  }));
}

/** Newest first, each trade once. */
function merge(a: FollowedTradeInfo[], b: FollowedTradeInfo[]): FollowedTradeInfo[] {
  const seen = new Set<string>();
  return [...a, ...b]
    .filter((t) => !seen.has(t.key) && (seen.add(t.key), true))
    .sort((x, y) => y.timestamp - x.timestamp)
    .slice(0, TAPE_MAX);
}

const failed = (error: unknown) => useTraders.setState({ error: messageOf(error) });

/** Follows the followed traders' trades while the page is open (and reads the list again on a network switch). */
export function followTheFollowed(): () => void {
  const off = listen('followedTrade', ({ trade, mode }) =>
    useTraders.setState((s) => ({ mode, tape: trade ? merge([trade], s.tape) : s.tape })),
  );
  useTraders.setState({ followed: [], tape: [], mode: 'idle', error: null });
  ask('listFollowedTraders', {}).then(take, failed);
  return off;
}

export function followTrader(address: string, name = ''): Promise<void> {
  return ask('followTrader', { address, name: name.slice(0, 64) }).then(take, failed);
}

export function unfollowTrader(address: string): Promise<void> {
  return ask('unfollowTrader', { address }).then(take, failed);
}

export function setFollowedAlert(address: string, alert: boolean): Promise<void> {
  return ask('setFollowedTraderAlert', { address, alert }).then(take, failed);
}

export const isFollowed = (followed: FollowedTraderInfo[], address: string) =>
  followed.some((t) => t.address.toLowerCase() === address.toLowerCase());

/** Base units (6 decimals) as dollars and cents, exact, rounded half away from zero: "$1,234.50", "−$0.40". */
export function unitsUsd(units: string): string {
  const value = BigInt(units);
  const negative = value < 0n;
  const cents = ((negative ? -value : value) + 5_000n) / 10_000n;
  const dollars = (cents / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const text = `$${dollars}.${(cents % 100n).toString().padStart(2, '0')}`;
  return negative && cents > 0n ? `−${text}` : text;
}

/** Base units of shares as a trader reads them: "12.5", "1,000". */
export function unitsShares(units: string): string {
  const value = BigInt(units);
  const whole = (value / 1_000_000n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = (value % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}
