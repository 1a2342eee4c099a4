// The sandbox's Data API v2 feeds (/v2/positions, /v2/trades, /v2/activity) as Polymarket's own SDK reads them
// (Polymarket/ts-sdk `bindings/src/data/{envelope,activity,portfolio}.ts`, `client/src/actions/{activity,portfolio}.ts`):
// strict snake_case rows with absence as '' (an unknown outcome index as 999), a `{data, pagination}` envelope with
// an exact `has_more` and a server-minted opaque `next_cursor`, no offsets, `limit` at most 1000 (refused, not
// clamped), at most 20 distinct condition ids per request, and closed positions folded into positions by `status`.
// The rows come from the same trades and chain balances as the v1 paths beside them (data.ts).
import { createHash } from 'node:crypto';
import type { Catalog, CatalogEvent, CatalogMarket } from '../market/catalog';
import { HttpError, requireAddress, round, type Query } from './http';
import type { Holding, WalletDirectory } from './wallets';

/** The service's shared selector cap: at most this many distinct condition ids per request. */
export const V2_MAX_CONDITION_IDS = 20;
export const V2_MAX_LIMIT = 1000;
const V2_DEFAULT_LIMIT = 100;
const STATUSES = ['OPEN', 'REDEEMABLE', 'CLOSED'] as const;
const SIDES = ['BUY', 'SELL'] as const;
/** The activity types the v2 feed names (ts-sdk `bindings/src/data/common.ts` ActivityType). */
const ACTIVITY_TYPES = [
  'TRADE',
  'SPLIT',
  'MERGE',
  'REDEEM',
  'CONVERSION',
  'MIGRATION',
  'REWARD',
  'MAKER_REBATE',
  'TAKER_REBATE',
  'REFERRAL_REWARD',
  'YIELD',
  'DEPOSIT',
  'WITHDRAWAL',
  'TIP',
];
/** Polymarket's "not applicable" outcome index. */
const NO_OUTCOME = 999;

/** One side of one settled trade, as data.ts reads it from the exchange's public trades. */
export interface V2TradeSide {
  wallet: string;
  side: 'BUY' | 'SELL';
  tokenId: string;
  conditionId: string;
  outcomeIndex: number;
  price: number;
  size: number;
  timestamp: number;
  transactionHash: string;
}

/** An outcome the wallet traded and no longer holds, as data-analytics.ts works it out. */
export interface V2ClosedLot {
  event: CatalogEvent;
  market: CatalogMarket;
  tokenIndex: number;
  avgPrice: number;
  totalBought: number;
  realizedPnl: number;
  curPrice: number;
  lastAt: number;
}

export interface DataV2Context {
  catalog: Catalog;
  wallets: WalletDirectory;
  /** Every side of every settled trade, newest first; makers too unless `takerOnly`. */
  sides(takerOnly: boolean): V2TradeSide[];
  closedLots(user: string): Promise<V2ClosedLot[]>;
  /** A wallet's v1 activity rows, newest first (data.ts). */
  activityRows(user: string, filters: V1ActivityFilters): Promise<V1ActivityRow[]>;
}

export interface V1ActivityFilters {
  inMarket?: (conditionId: string) => boolean;
  types?: string[];
  side?: 'BUY' | 'SELL';
}

/** The fields of a v1 /activity row the v2 feed renames. */
export interface V1ActivityRow {
  proxyWallet: string;
  timestamp: number;
  conditionId: string;
  type: string;
  size: number;
  usdcSize: number;
  transactionHash: string;
  price: number;
  asset: string;
  side: string;
  outcomeIndex: number;
  title: string;
  slug: string;
  icon: string;
  eventSlug: string;
  outcome: string;
  name: string;
  pseudonym: string;
  bio: string;
  profileImage: string;
  profileImageOptimized: string;
}

export class DataV2Routes {
  constructor(private readonly context: DataV2Context) {}

  async route(feed: string, q: Query): Promise<{ body: unknown } | undefined> {
    switch (feed) {
      case 'positions':
        return { body: await this.positions(q) };
      case 'trades':
        return { body: this.trades(q) };
      case 'activity':
        return { body: await this.activity(q) };
      default:
        return undefined;
    }
  }

  private async positions(q: Query) {
    const user = requireAddress(q, 'user');
    const conditions = conditionIds(q);
    const status = q.choice('status', STATUSES, 'OPEN');
    const inMarket = (c: string) => !conditions || conditions.has(c.toLowerCase());
    if (status === 'CLOSED') {
      const lots = (await this.context.closedLots(user)).filter((l) => inMarket(l.market.conditionId));
      return page(
        q,
        'positions',
        lots.sort((a, b) => b.realizedPnl - a.realizedPnl).map((l) => this.closedRow(user, l)),
      );
    }
    const rows = (await this.context.wallets.holdings(user))
      .filter((h) => inMarket(h.market.conditionId))
      // OPEN is the superset (it includes settled-but-unredeemed winners); REDEEMABLE narrows to those.
      .filter((h) => status === 'OPEN' || h.market.resolution !== undefined)
      .map((h) => this.openRow(h))
      .sort((a, b) => b.current_value - a.current_value);
    return page(q, 'positions', rows);
  }

  private trades(q: Query) {
    const user = q.has('user') ? requireAddress(q, 'user').toLowerCase() : undefined;
    const conditions = conditionIds(q);
    const takerOnly = q.bool('taker_only') ?? true;
    const side = q.choice('side', SIDES);
    const rows = this.context
      .sides(takerOnly)
      .filter((s) => !user || s.wallet.toLowerCase() === user)
      .filter((s) => !conditions || conditions.has(s.conditionId.toLowerCase()))
      .filter((s) => !side || s.side === side)
      .map((s) => this.tradeRow(s));
    return page(q, 'trades', rows);
  }

  private async activity(q: Query) {
    const user = requireAddress(q, 'user').toLowerCase();
    const conditions = conditionIds(q);
    const types = q.list('type')?.map((t) => t.toUpperCase());
    for (const t of types ?? [])
      if (!ACTIVITY_TYPES.includes(t)) throw new HttpError(400, `type must be a list of ${ACTIVITY_TYPES.join(', ')}`);
    const side = q.choice('side', SIDES);
    const direction = q.choice('sort_direction', ['ASC', 'DESC'] as const, 'DESC');
    // The v1 feed's rows (trades, and the chain's splits, merges and redemptions) in the v2 feed's names.
    const rows = (
      await this.context.activityRows(user, {
        inMarket: conditions ? (c) => conditions.has(c.toLowerCase()) : undefined,
        types,
        side,
      })
    ).map((r) => ({
      proxy_wallet: r.proxyWallet,
      timestamp: r.timestamp,
      condition_id: r.conditionId,
      type: r.type,
      size: r.size,
      usdc_size: r.usdcSize,
      transaction_hash: r.transactionHash,
      price: r.price,
      token_id: r.asset,
      side: r.side,
      outcome_index: r.outcomeIndex,
      title: r.title,
      slug: r.slug,
      icon: r.icon,
      event_slug: r.eventSlug,
      outcome: r.outcome,
      name: r.name,
      pseudonym: r.pseudonym,
      bio: r.bio,
      profile_image: r.profileImage,
      profile_image_optimized: r.profileImageOptimized,
    }));
    if (direction === 'ASC') rows.reverse();
    return page(q, 'activity', rows);
  }

  private tradeRow(s: V2TradeSide) {
    const market = this.context.catalog.marketByCondition(s.conditionId)!;
    const event = this.eventOf(market);
    const who = this.context.wallets.identity(s.wallet);
    return {
      proxy_wallet: s.wallet,
      side: s.side,
      token_id: s.tokenId,
      condition_id: s.conditionId,
      size: s.size,
      price: s.price,
      timestamp: s.timestamp,
      title: market.question,
      slug: market.slug,
      icon: '',
      event_slug: event.slug,
      outcome: market.tokens[s.outcomeIndex]?.name ?? '',
      outcome_index: market.tokens[s.outcomeIndex] ? s.outcomeIndex : NO_OUTCOME,
      name: who.name,
      pseudonym: who.pseudonym,
      bio: who.bio,
      profile_image: who.profileImage,
      profile_image_optimized: '',
      transaction_hash: s.transactionHash,
    };
  }

  private openRow(h: Holding) {
    const entryCost = round(h.size * h.avgPrice);
    const currentValue = round(h.size * h.curPrice);
    const unrealized = round(currentValue - entryCost);
    const who = this.context.wallets.identity(h.owner);
    const redeemable = h.market.resolution !== undefined;
    return {
      ...this.marketFields(h.event, h.market, h.token.index),
      proxy_wallet: h.owner,
      token_id: h.token.tokenId,
      current_size: h.size,
      avg_price: h.avgPrice,
      entry_cost_usdc: entryCost,
      // Fees are charged at match time and are not attributed to positions here.
      entry_fees_usdc: 0,
      total_cost_usdc: entryCost,
      current_price: h.curPrice,
      current_value: currentValue,
      total_size: h.totalBought,
      realized_pnl: 0,
      unrealized_pnl: unrealized,
      total_pnl: unrealized,
      percent_pnl: entryCost > 0 ? round((unrealized / entryCost) * 100, 4) : 0,
      percent_realized_pnl: 0,
      status: redeemable ? 'REDEEMABLE' : 'OPEN',
      redeemable,
      mergeable: h.mergeable,
      last_event_at: 0,
      name: who.name,
      profile_image: who.profileImage,
      verified: false,
    };
  }

  private closedRow(user: string, l: V2ClosedLot) {
    const who = this.context.wallets.identity(user);
    const cost = round(l.totalBought * l.avgPrice);
    return {
      ...this.marketFields(l.event, l.market, l.tokenIndex),
      proxy_wallet: user,
      token_id: l.market.tokens[l.tokenIndex]!.tokenId,
      current_size: 0,
      avg_price: round(l.avgPrice),
      entry_cost_usdc: cost,
      entry_fees_usdc: 0,
      total_cost_usdc: cost,
      current_price: l.curPrice,
      current_value: 0,
      total_size: round(l.totalBought),
      realized_pnl: l.realizedPnl,
      unrealized_pnl: 0,
      total_pnl: l.realizedPnl,
      percent_pnl: cost > 0 ? round((l.realizedPnl / cost) * 100, 4) : 0,
      percent_realized_pnl: cost > 0 ? round((l.realizedPnl / cost) * 100, 4) : 0,
      status: 'CLOSED',
      redeemable: false,
      mergeable: false,
      last_event_at: l.lastAt,
      name: who.name,
      profile_image: who.profileImage,
      verified: false,
    };
  }

  /** The fields a position row takes from its market and outcome. */
  private marketFields(event: CatalogEvent, market: CatalogMarket, index: number) {
    const opposite = market.tokens[1 - index];
    return {
      condition_id: market.conditionId,
      negative_risk: market.negRisk,
      archived: false,
      title: market.question,
      slug: market.slug,
      icon: '',
      event_id: event.id,
      event_slug: event.slug,
      outcome: market.tokens[index]?.name ?? '',
      outcome_index: index,
      opposite_outcome: opposite?.name ?? '',
      opposite_token_id: opposite?.tokenId ?? '',
      end_date: market.end.slice(0, 10),
    };
  }

  private eventOf(market: CatalogMarket): CatalogEvent {
    return this.context.catalog.events.find((e) => e.id === market.eventId)!;
  }
}

/**
 * `condition_id` (or its canonical alias `condition`): a comma list of condition ids, deduplicated without
 * regard to case, at most 20 distinct; undefined when absent.
 */
function conditionIds(q: Query): Set<string> | undefined {
  const asked = q.list('condition_id') ?? q.list('condition');
  if (!asked) return undefined;
  for (const c of asked)
    if (!/^0x[0-9a-fA-F]{64}$/.test(c))
      throw new HttpError(400, 'condition_id must be a comma-separated list of 0x-prefixed 64-hex-digit condition ids');
  const distinct = new Set(asked.map((c) => c.toLowerCase()));
  if (distinct.size > V2_MAX_CONDITION_IDS)
    throw new HttpError(400, `condition_id accepts at most ${V2_MAX_CONDITION_IDS} distinct condition ids`);
  return distinct;
}

/**
 * One page of `rows` in the v2 envelope. The cursor is opaque to clients: it carries the next row's place and a
 * digest of the request's filters, so a cursor sent with other filters is refused rather than silently widened.
 */
function page<T>(q: Query, feed: string, rows: T[]) {
  const limit = q.int('limit', V2_DEFAULT_LIMIT, 1, V2_MAX_LIMIT)!;
  if (q.has('offset')) throw new HttpError(400, 'offset is not supported on /v2 feeds: continue with cursor');
  const filters = filterDigest(q, feed);
  const raw = q.string('cursor');
  let start = 0;
  if (raw !== undefined) {
    const cursor = readCursor(raw);
    if (cursor.f !== filters) throw new HttpError(400, 'cursor does not belong to these filters');
    start = cursor.o;
  }
  const data = rows.slice(start, start + limit);
  const hasMore = start + limit < rows.length;
  const next = hasMore ? Buffer.from(JSON.stringify({ o: start + limit, f: filters })).toString('base64url') : null;
  return { data, pagination: { limit, offset: start, has_more: hasMore, next_cursor: next } };
}

function readCursor(raw: string): { o: number; f: string } {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (
      parsed &&
      typeof parsed === 'object' &&
      'o' in parsed &&
      'f' in parsed &&
      Number.isInteger(parsed.o) &&
      typeof parsed.f === 'string' &&
      (parsed.o as number) >= 0
    ) {
      return { o: parsed.o as number, f: parsed.f };
    }
  } catch {
    // falls through to the refusal
  }
  throw new HttpError(400, 'cursor is not valid');
}

function filterDigest(q: Query, feed: string): string {
  const kept = [...q.params.entries()]
    .filter(([k]) => k !== 'cursor' && k !== 'limit')
    .sort(([a], [b]) => a.localeCompare(b));
  return createHash('sha256')
    .update(`${feed}?${new URLSearchParams(kept).toString()}`)
    .digest('hex')
    .slice(0, 16);
}
