// Other traders as Polymarket's Data API ranks and lists them: the trader leaderboard (GET /v1/leaderboard, by
// profit or volume over a day, week, month or all time, with the parameters @polymarket/client's
// listTraderLeaderboard sends) and a market's top holders (GET /holders, both outcomes). Answers are validated
// and bounded; dollars and shares come back as integer base units (6 decimals), converted once here.
import { z } from 'zod';
import { ErrorCode, PmDeskError, invalidParameter, maskId } from '../model/errors';
import { id, num, optNum, text } from '../http/wire';
import { apiHttp, wholeNumber, type ApiClientOptions } from './client-options';
import type { PolymarketHttp } from './http';

/** The leaderboard's periods, as a trader says them, and as the Data API's `timePeriod` wants them. */
export const LEADERBOARD_PERIODS = { day: 'DAY', week: 'WEEK', month: 'MONTH', all: 'ALL' } as const;
export type LeaderboardPeriod = keyof typeof LEADERBOARD_PERIODS;
/** What the leaderboard ranks by, and the Data API's `orderBy` for it. */
export const LEADERBOARD_METRICS = { pnl: 'PNL', volume: 'VOL' } as const;
export type LeaderboardMetric = keyof typeof LEADERBOARD_METRICS;
/** The Data API answers at most 50 rows a page and refuses an offset past 1000. */
export const LEADERBOARD_PAGE_MAX = 50;
export const LEADERBOARD_MAX_OFFSET = 1000;
/** /holders lists at most 20 holders an outcome. */
export const HOLDERS_MAX = 20;

export const LEADERBOARD_PATH = '/v1/leaderboard';
export const HOLDERS_PATH = '/holders';

export interface LeaderboardQuery {
  by?: LeaderboardMetric;
  period?: LeaderboardPeriod;
  /** 1 to 50; 25 by default. */
  limit?: number;
  offset?: number;
  /** The Data API's category (OVERALL by default). */
  category?: string;
}

export interface LeaderboardEntry {
  rank: number;
  /** The trader's wallet (their proxy wallet on Polymarket). */
  wallet: string;
  /** Their public name, else their pseudonym; '' when the API has neither. */
  name: string;
  /** Profit over the period, in base units of collateral (negative for a loss). */
  pnl: string;
  /** Dollars traded over the period, in base units. */
  volume: string;
}

export interface MarketHolder {
  wallet: string;
  name: string;
  pseudonym: string;
  /** Shares held, in base units. */
  amount: string;
  outcomeIndex: number | null;
}

/** One outcome token's holders, largest first. */
export interface OutcomeHolders {
  token: string;
  holders: MarketHolder[];
}

const LeaderboardRowSchema = z.looseObject({
  rank: num,
  proxyWallet: z.string().min(1).max(100),
  userName: text,
  vol: num,
  pnl: num,
});
const HolderSchema = z.looseObject({
  proxyWallet: z.string().min(1).max(100),
  name: text,
  pseudonym: text,
  amount: num,
  outcomeIndex: optNum,
});
const HoldersSchema = z
  .array(
    z.looseObject({
      token: id,
      holders: z
        .array(HolderSchema)
        .max(HOLDERS_MAX * 5)
        .nullish(),
    }),
  )
  .max(200);

/**
 * Dollars or shares (a number the API sends) as integer base units, signed: the one conversion of these
 * amounts. A value past what base units can say exactly is refused as the validation error it is.
 */
export function unitsOf(value: number, what: string, methodName: string): string {
  if (!Number.isFinite(value) || Math.abs(value) > 1e15)
    throw new PmDeskError(ErrorCode.VALIDATION_ERROR, `The Data API sent ${what} ${String(value)}, not an amount.`, {
      methodName,
    });
  // Rounded to the base unit as decimal text: a float's tail (0.1 + 0.2) is not an amount of money.
  const units = Math.abs(value)
    .toFixed(6)
    .replace('.', '')
    .replace(/^0+(?=\d)/, '');
  return value < 0 && units !== '0' ? `-${units}` : units;
}

export class TraderBoards {
  private readonly http: PolymarketHttp;

  constructor(options: ApiClientOptions) {
    this.http = apiHttp('Data API', 'data', options, 'TraderBoards');
  }

  /** The leaderboard's page: traders by profit (or volume) over the period, best first. */
  async getLeaderboard(query: LeaderboardQuery = {}): Promise<LeaderboardEntry[]> {
    const methodName = 'getLeaderboard';
    const by = query.by ?? 'pnl';
    const period = query.period ?? 'day';
    if (!Object.hasOwn(LEADERBOARD_METRICS, by))
      throw invalidParameter("Parameter 'by' must be pnl or volume.", methodName, { by: String(by) });
    if (!Object.hasOwn(LEADERBOARD_PERIODS, period))
      throw invalidParameter("Parameter 'period' must be day, week, month or all.", methodName, {
        period: String(period),
      });
    const limit = query.limit ?? 25;
    const offset = query.offset ?? 0;
    wholeNumber('limit', limit, 1, methodName);
    wholeNumber('offset', offset, 0, methodName);
    if (limit > LEADERBOARD_PAGE_MAX)
      throw invalidParameter(`Parameter 'limit' must be at most ${LEADERBOARD_PAGE_MAX}.`, methodName, { limit });
    if (offset > LEADERBOARD_MAX_OFFSET)
      throw invalidParameter(`Parameter 'offset' must be at most ${LEADERBOARD_MAX_OFFSET}.`, methodName, { offset });
    if (query.category !== undefined && !/^[A-Z]{1,20}$/.test(query.category))
      throw invalidParameter("Parameter 'category' must be a Data API category such as OVERALL.", methodName);
    const rows = await this.http.read(methodName, z.array(LeaderboardRowSchema).max(LEADERBOARD_PAGE_MAX), {
      route: LEADERBOARD_PATH,
      query: {
        category: query.category,
        timePeriod: LEADERBOARD_PERIODS[period],
        orderBy: LEADERBOARD_METRICS[by],
        limit,
        offset,
      },
      context: { by, period, limit, offset },
    });
    return rows.map((r) => ({
      rank: r.rank,
      wallet: r.proxyWallet,
      name: r.userName,
      pnl: unitsOf(r.pnl, 'a profit of', methodName),
      volume: unitsOf(r.vol, 'a volume of', methodName),
    }));
  }

  /** A market's largest holders of each outcome (GET /holders), largest first. */
  async getHolders(conditionId: string, options: { limit?: number } = {}): Promise<OutcomeHolders[]> {
    const methodName = 'getHolders';
    if (typeof conditionId !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(conditionId))
      throw invalidParameter("Parameter 'market' must be a condition id (0x and 64 hex digits).", methodName);
    const limit = options.limit ?? HOLDERS_MAX;
    wholeNumber('limit', limit, 1, methodName);
    if (limit > HOLDERS_MAX)
      throw invalidParameter(`Parameter 'limit' must be at most ${HOLDERS_MAX}.`, methodName, { limit });
    const answer = await this.http.read(methodName, HoldersSchema, {
      route: HOLDERS_PATH,
      query: { market: conditionId, limit },
      context: { market: maskId(conditionId), limit },
    });
    return answer.map((outcome) => ({
      token: outcome.token,
      holders: (outcome.holders ?? []).slice(0, limit).map((h) => ({
        wallet: h.proxyWallet,
        name: h.name || h.pseudonym,
        pseudonym: h.pseudonym,
        amount: unitsOf(h.amount, 'a holding of', methodName),
        outcomeIndex: h.outcomeIndex,
      })),
    }));
  }
}
