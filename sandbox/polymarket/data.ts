// The sandbox's Data API (docs/protocol.md#data-api): positions from the chain's outcome-token balances, trades and
// activity from the exchange's public trade feed, portfolio value and holders, with the Data API's parameter
// names, bounds (the official SDK's validators) and `{error}` answers. Rows are plain arrays, newest first.
import { getAddress } from 'ethers';
import type { Catalog, CatalogEvent, CatalogMarket } from '../market/catalog';
import { snapshotFiles, zipFiles } from './accounting-snapshot';
import type { ChainActivity, ChainActivityRow } from './chain-activity';
import type { PublicTrade, PublicTradeSource } from '../market/public-trades';
import { DataAnalytics } from './data-analytics';
import { DataV2Routes } from './data-v2';
import type { GammaShapeContext } from './gamma-shapes';
import { HttpError, requireAddress, round, type Query } from './http';
import type { Holding, WalletDirectory } from './wallets';

const POSITION_SORTS = [
  'CURRENT',
  'INITIAL',
  'TOKENS',
  'CASHPNL',
  'PERCENTPNL',
  'TITLE',
  'RESOLVING',
  'PRICE',
  'AVGPRICE',
] as const;
const ACTIVITY_SORTS = ['TIMESTAMP', 'TOKENS', 'CASH'] as const;
const ACTIVITY_TYPES = ['TRADE', 'SPLIT', 'MERGE', 'REDEEM', 'REWARD', 'CONVERSION', 'MAKER_REBATE'] as const;
const DIRECTIONS = ['ASC', 'DESC'] as const;
const SIDES = ['BUY', 'SELL'] as const;

export interface DataRoutesOptions {
  catalog: Catalog;
  trades: PublicTradeSource;
  wallets: WalletDirectory;
  /** The books, fills and clock Gamma's numbers come from (live volume is Gamma's volume). */
  shapes: GammaShapeContext;
  /** Splits, merges and redemptions from the chain's logs; without it /activity has trades only. */
  chain?: ChainActivity;
}

/** One side of a trade as a Data API row: the taker's, or a maker's in its own outcome and price. */
interface TradeSide {
  trade: PublicTrade;
  wallet: string;
  side: 'BUY' | 'SELL';
  tokenId: string;
  outcomeIndex: 0 | 1;
  price: number;
  size: number;
  /** Order of recording, so rows of one second stay newest first. */
  seq: number;
}

export class DataRoutes {
  private readonly analytics: DataAnalytics;
  private readonly v2: DataV2Routes;

  constructor(private readonly options: DataRoutesOptions) {
    const entries = () =>
      this.sides(false).map((s) => ({
        wallet: s.wallet,
        side: s.side,
        tokenId: s.tokenId,
        conditionId: s.trade.conditionId,
        price: s.price,
        size: s.size,
        timestamp: s.trade.timestamp,
      }));
    this.analytics = new DataAnalytics({
      catalog: options.catalog,
      wallets: options.wallets,
      shapes: options.shapes,
      entries,
      chainRows: options.chain ? (user) => options.chain!.rows(user) : undefined,
    });
    this.v2 = new DataV2Routes({
      catalog: options.catalog,
      wallets: options.wallets,
      sides: (takerOnly) =>
        this.sides(takerOnly).map((s) => ({
          wallet: s.wallet,
          side: s.side,
          tokenId: s.tokenId,
          conditionId: s.trade.conditionId,
          outcomeIndex: s.outcomeIndex,
          price: s.price,
          size: s.size,
          timestamp: s.trade.timestamp,
          transactionHash: s.trade.transactionHash,
        })),
      closedLots: (user) => this.analytics.closedLots(user),
      activityRows: (user, filters) => this.activityRows(user, filters),
    });
  }

  /** The answer of a Data API path, or undefined when the path is not the Data API's. */
  async route(segments: string[], q: Query): Promise<{ body: unknown } | undefined> {
    if (segments.length === 0) return { body: { data: 'OK' } };
    // The v2 feeds beside the v1 paths, from the same state (data-v2.ts).
    if (segments.length === 2 && segments[0] === 'v2') return this.v2.route(segments[1]!, q);
    if (segments.length === 2 && segments[0] === 'v1') {
      if (segments[1] === 'leaderboard') return { body: await this.analytics.leaderboard(q) };
      if (segments[1] === 'market-positions') return { body: await this.analytics.marketPositions(q) };
      return undefined;
    }
    if (segments.length !== 1) return undefined;
    switch (segments[0]) {
      case 'closed-positions':
        return { body: await this.analytics.closedPositions(q) };
      case 'oi':
        return { body: await this.analytics.openInterest(q) };
      case 'live-volume':
        return { body: this.analytics.liveVolume(q) };
      case 'positions':
        return { body: await this.positions(q) };
      case 'trades':
        return { body: this.trades(q) };
      case 'activity':
        return { body: await this.activity(q) };
      case 'value':
        return { body: await this.value(q) };
      case 'holders':
        return { body: await this.holders(q) };
      case 'traded':
        return { body: this.traded(q) };
      default:
        return undefined;
    }
  }

  /**
   * A wallet's activity rows, newest first: its trades (maker and taker sides) and, from the chain's logs, its
   * splits, merges and redemptions. Rows of one second are told apart by their blocks.
   */
  async activityRows(
    user: string,
    f: {
      inMarket?: (conditionId: string) => boolean;
      types?: string[];
      start?: number;
      end?: number;
      side?: 'BUY' | 'SELL';
    } = {},
  ) {
    const within = (t: number) => (f.start === undefined || t >= f.start) && (f.end === undefined || t <= f.end);
    const wanted = (type: string) => !f.types || f.types.includes(type);
    const tradeRows = !wanted('TRADE')
      ? []
      : this.sides(false)
          .filter((s) => s.wallet.toLowerCase() === user.toLowerCase())
          .filter((s) => !f.inMarket || f.inMarket(s.trade.conditionId))
          .filter((s) => !f.side || s.side === f.side)
          .filter((s) => within(s.trade.timestamp))
          .map((s) => ({ ...this.tradeRow(s), type: 'TRADE', usdcSize: round(s.size * s.price) }));
    // Splits, merges and redemptions have no side: a side filter leaves them out.
    const chainRows =
      f.side || !this.options.chain
        ? []
        : (await this.options.chain.rows(user))
            .filter((r) => wanted(r.type) && within(r.timestamp))
            .filter((r) => !f.inMarket || f.inMarket(r.market.conditionId))
            .map((r) => this.chainRow(user, r));
    const blocks = new Map<string, number>();
    if (this.options.chain && chainRows.length)
      for (const r of [...tradeRows, ...chainRows])
        blocks.set(r.transactionHash, await this.options.chain.blockOf(r.transactionHash));
    return [...tradeRows, ...chainRows].sort(
      (a, b) =>
        b.timestamp - a.timestamp || (blocks.get(b.transactionHash) ?? 0) - (blocks.get(a.transactionHash) ?? 0),
    );
  }

  /** GET /v1/accounting/snapshot: the wallet's positions and equity as a ZIP of two CSV files. */
  async accountingSnapshot(q: Query): Promise<Buffer> {
    const user = requireAddress(q, 'user');
    const nowS = Math.floor(this.options.shapes.now() / 1000);
    const [holdings, closed] = await Promise.all([
      this.options.wallets.holdings(user),
      this.analytics.closedLots(user),
    ]);
    return zipFiles(snapshotFiles(holdings, closed, nowS), nowS);
  }

  /** `market` (condition ids) or `eventId` (event ids), never both: the markets a request is about, or all. */
  private marketFilter(q: Query): ((conditionId: string) => boolean) | undefined {
    const markets = q.list('market')?.map((m) => m.toLowerCase());
    const eventIds = q.list('eventId');
    if (markets && eventIds) throw new HttpError(400, 'market and eventId are mutually exclusive');
    if (markets) {
      for (const m of markets)
        if (!/^0x[0-9a-f]{64}$/.test(m))
          throw new HttpError(400, 'market must be a comma-separated list of 0x-prefixed 64-hex-digit condition ids');
      return (c) => markets.includes(c.toLowerCase());
    }
    if (eventIds) {
      for (const id of eventIds)
        if (!/^\d+$/.test(id)) throw new HttpError(400, 'eventId must be a comma-separated list of integers');
      const conditions = new Set(
        this.options.catalog.events
          .filter((e) => eventIds.includes(e.id))
          .flatMap((e) => e.markets.map((m) => m.conditionId.toLowerCase())),
      );
      return (c) => conditions.has(c.toLowerCase());
    }
    return undefined;
  }

  private async positions(q: Query) {
    const user = requireAddress(q, 'user');
    const inMarket = this.marketFilter(q);
    const threshold = q.number('sizeThreshold', 0, Number.MAX_SAFE_INTEGER) ?? 1;
    const redeemable = q.bool('redeemable');
    const mergeable = q.bool('mergeable');
    const limit = q.int('limit', 100, 0, 500)!;
    const offset = q.int('offset', 0, 0, 10_000)!;
    const sortBy = q.choice('sortBy', POSITION_SORTS, 'TOKENS');
    const direction = q.choice('sortDirection', DIRECTIONS, 'DESC');
    const title = q.string('title');
    if (title && title.length > 100) throw new HttpError(400, 'title must be at most 100 characters');
    const rows = (await this.options.wallets.holdings(user))
      .filter((h) => !inMarket || inMarket(h.market.conditionId))
      .filter((h) => h.size >= threshold)
      .filter((h) => mergeable === undefined || h.mergeable === mergeable)
      // A position is redeemable once its market has resolved (sandbox.resolveMarket).
      .filter((h) => redeemable === undefined || (h.market.resolution !== undefined) === redeemable)
      .filter((h) => !title || h.market.question.toLowerCase().includes(title.toLowerCase()))
      .map((h) => positionRow(h));
    const key: Record<(typeof POSITION_SORTS)[number], (r: ReturnType<typeof positionRow>) => number | string> = {
      CURRENT: (r) => r.currentValue,
      INITIAL: (r) => r.initialValue,
      TOKENS: (r) => r.size,
      CASHPNL: (r) => r.cashPnl,
      PERCENTPNL: (r) => r.percentPnl,
      TITLE: (r) => r.title,
      RESOLVING: (r) => r.endDate,
      PRICE: (r) => r.curPrice,
      AVGPRICE: (r) => r.avgPrice,
    };
    return sortAndPage(rows, key[sortBy], direction, offset, limit);
  }

  /** Every side of every on-chain trade, newest first (a match shows once its settlement is mined). */
  private sides(takerOnly: boolean): TradeSide[] {
    const out: TradeSide[] = [];
    this.options.trades.trades().forEach((trade, seq) => {
      if (!trade.transactionHash) return;
      out.push({
        trade,
        wallet: trade.taker,
        side: trade.side,
        tokenId: trade.tokenId,
        outcomeIndex: trade.outcomeIndex,
        price: trade.price,
        size: trade.size,
        seq,
      });
      if (takerOnly) return;
      for (const m of trade.makers)
        out.push({
          trade,
          wallet: m.address,
          side: m.side,
          tokenId: m.tokenId,
          outcomeIndex: m.outcomeIndex,
          price: m.price,
          size: m.size,
          seq,
        });
    });
    return out.sort((a, b) => b.trade.timestamp - a.trade.timestamp || b.seq - a.seq);
  }

  private trades(q: Query) {
    const user = q.has('user') ? requireAddress(q, 'user').toLowerCase() : undefined;
    const inMarket = this.marketFilter(q);
    const limit = q.int('limit', 100, 0, 10_000)!;
    const offset = q.int('offset', 0, 0, 10_000)!;
    const takerOnly = q.bool('takerOnly') ?? true;
    const side = q.choice('side', SIDES);
    const filterType = q.choice('filterType', ['CASH', 'TOKENS'] as const);
    const filterAmount = q.number('filterAmount', 0, Number.MAX_SAFE_INTEGER);
    if ((filterType === undefined) !== (filterAmount === undefined))
      throw new HttpError(400, 'filterType and filterAmount must be given together');
    return this.sides(takerOnly)
      .filter((s) => !user || s.wallet.toLowerCase() === user)
      .filter((s) => !inMarket || inMarket(s.trade.conditionId))
      .filter((s) => !side || s.side === side)
      .filter((s) => filterAmount === undefined || (filterType === 'CASH' ? s.size * s.price : s.size) >= filterAmount)
      .slice(offset, offset + limit)
      .map((s) => this.tradeRow(s));
  }

  private async activity(q: Query) {
    const user = requireAddress(q, 'user').toLowerCase();
    const inMarket = this.marketFilter(q);
    const types = q.list('type')?.map((t) => t.toUpperCase());
    for (const t of types ?? [])
      if (!(ACTIVITY_TYPES as readonly string[]).includes(t))
        throw new HttpError(400, `type must be a list of ${ACTIVITY_TYPES.join(', ')}`);
    const limit = q.int('limit', 100, 0, 500)!;
    const offset = q.int('offset', 0, 0, 10_000)!;
    const start = q.int('start', undefined, 0, Number.MAX_SAFE_INTEGER);
    const end = q.int('end', undefined, 0, Number.MAX_SAFE_INTEGER);
    const sortBy = q.choice('sortBy', ACTIVITY_SORTS, 'TIMESTAMP');
    const direction = q.choice('sortDirection', DIRECTIONS, 'DESC');
    const side = q.choice('side', SIDES);
    const rows = await this.activityRows(user, { inMarket, types, start, end, side });
    if (direction === 'ASC') rows.reverse();
    const key = {
      TIMESTAMP: (r: (typeof rows)[number]) => r.timestamp,
      TOKENS: (r: (typeof rows)[number]) => r.size,
      CASH: (r: (typeof rows)[number]) => r.usdcSize,
    }[sortBy];
    return sortAndPage(rows, key, direction, offset, limit);
  }

  private async value(q: Query) {
    const user = requireAddress(q, 'user');
    const inMarket = this.marketFilter(q);
    const holdings = (await this.options.wallets.holdings(user)).filter(
      (h) => !inMarket || inMarket(h.market.conditionId),
    );
    return [{ user: user.toLowerCase(), value: round(holdings.reduce((sum, h) => sum + h.size * h.curPrice, 0)) }];
  }

  /** `{user, traded}`: how many markets the wallet has traded in (as taker or maker), as Polymarket counts it. */
  private traded(q: Query) {
    const user = requireAddress(q, 'user').toLowerCase();
    const markets = new Set(
      this.sides(false)
        .filter((s) => s.wallet.toLowerCase() === user)
        .map((s) => s.trade.conditionId),
    );
    return { user, traded: markets.size };
  }

  private async holders(q: Query) {
    const markets = q.list('market');
    if (!markets?.length) throw new HttpError(400, 'market is required');
    const inMarket = this.marketFilter(q)!;
    const limit = q.int('limit', 20, 0, 20)!;
    const minBalance = q.int('minBalance', 1, 0, 999_999)!;
    const holdings = await this.options.wallets.holdingsOf(this.options.wallets.wallets());
    const out: { token: string; holders: unknown[] }[] = [];
    for (const market of this.allMarkets().filter((m) => inMarket(m.conditionId))) {
      for (const token of market.tokens) {
        const holders = holdings
          .filter((h) => h.token.tokenId === token.tokenId && h.size >= minBalance)
          .sort((a, b) => b.size - a.size)
          .slice(0, limit)
          .map((h) => {
            const who = this.options.wallets.identity(h.owner);
            return {
              proxyWallet: h.owner,
              bio: who.bio,
              asset: token.tokenId,
              pseudonym: who.pseudonym,
              amount: h.size,
              displayUsernamePublic: who.name !== '',
              outcomeIndex: token.index,
              name: who.name || who.pseudonym,
              profileImage: who.profileImage,
              profileImageOptimized: '',
              verified: false,
            };
          });
        out.push({ token: token.tokenId, holders });
      }
    }
    return out;
  }

  private allMarkets(): CatalogMarket[] {
    return this.options.catalog.events.flatMap((e) => e.markets);
  }

  private eventOf(market: CatalogMarket): CatalogEvent {
    return this.options.catalog.events.find((e) => e.id === market.eventId)!;
  }

  private tradeRow(s: TradeSide) {
    const market = this.options.catalog.marketByCondition(s.trade.conditionId)!;
    const who = this.options.wallets.identity(s.wallet);
    return {
      proxyWallet: s.wallet,
      side: s.side,
      asset: s.tokenId,
      conditionId: s.trade.conditionId,
      size: s.size,
      price: s.price,
      timestamp: s.trade.timestamp,
      title: market.question,
      slug: market.slug,
      icon: '',
      eventSlug: this.eventOf(market).slug,
      outcome: market.tokens[s.outcomeIndex].name,
      outcomeIndex: s.outcomeIndex,
      name: who.name,
      pseudonym: who.pseudonym,
      bio: who.bio,
      profileImage: who.profileImage,
      profileImageOptimized: '',
      transactionHash: s.trade.transactionHash,
    };
  }

  /**
   * A split, merge or redemption as the Data API's activity row: no side, no outcome (index 999), price 0. A
   * conversion's row names its outcome: the No given (SELL) or the Yes received (BUY).
   */
  private chainRow(user: string, r: ChainActivityRow) {
    const who = this.options.wallets.identity(user);
    const token = r.conversion ? r.market.tokens[r.conversion.outcomeIndex] : undefined;
    return {
      proxyWallet: getAddress(user),
      timestamp: r.timestamp,
      conditionId: r.market.conditionId,
      type: r.type,
      size: Number(r.shares) / 1e6,
      usdcSize: Number(r.amount) / 1e6,
      transactionHash: r.transactionHash,
      price: 0,
      asset: token?.tokenId ?? '',
      side: r.conversion?.side ?? '',
      outcomeIndex: token?.index ?? 999,
      title: r.market.question,
      slug: r.market.slug,
      icon: '',
      eventSlug: this.eventOf(r.market).slug,
      outcome: token?.name ?? '',
      name: who.name,
      pseudonym: who.pseudonym,
      bio: who.bio,
      profileImage: who.profileImage,
      profileImageOptimized: '',
    };
  }
}

/** A holding as the Data API's Position row. */
function positionRow(h: Holding) {
  const initialValue = round(h.size * h.avgPrice);
  const currentValue = round(h.size * h.curPrice);
  const cashPnl = round(currentValue - initialValue);
  return {
    proxyWallet: h.owner,
    asset: h.token.tokenId,
    conditionId: h.market.conditionId,
    size: h.size,
    avgPrice: h.avgPrice,
    initialValue,
    currentValue,
    cashPnl,
    percentPnl: initialValue > 0 ? round((cashPnl / initialValue) * 100, 4) : 0,
    totalBought: h.totalBought,
    realizedPnl: 0,
    percentRealizedPnl: 0,
    curPrice: h.curPrice,
    redeemable: h.market.resolution !== undefined,
    mergeable: h.mergeable,
    title: h.market.question,
    slug: h.market.slug,
    icon: '',
    eventId: h.event.id,
    eventSlug: h.event.slug,
    outcome: h.token.name,
    outcomeIndex: h.token.index,
    oppositeOutcome: h.opposite.name,
    oppositeAsset: h.opposite.tokenId,
    endDate: h.market.end,
    negativeRisk: h.market.negRisk,
  };
}

function sortAndPage<T>(
  rows: T[],
  key: (row: T) => number | string,
  direction: 'ASC' | 'DESC',
  offset: number,
  limit: number,
): T[] {
  const sign = direction === 'ASC' ? 1 : -1;
  const sorted = [...rows].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    return sign * (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y)));
  });
  return sorted.slice(offset, offset + limit);
}
