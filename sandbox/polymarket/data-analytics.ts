// The Data API's reads about markets and traders as a whole (open interest, live volume, the trader
// leaderboard, a market's positions) and a wallet's closed positions, computed from the exchange's public
// trades, the chain's outcome-token balances and the fills Gamma's volumes come from: the reads Polymarket's
// own client makes beyond positions, trades and activity (data.ts).
import type { Catalog, CatalogEvent, CatalogMarket, CatalogToken } from '../market/catalog';
import { marketVolume, type GammaShapeContext } from './gamma-shapes';
import type { ChainActivityRow } from './chain-activity';
import type { V2ClosedLot } from './data-v2';
import { HttpError, requireAddress, round, type Query } from './http';
import type { WalletDirectory } from './wallets';

const DAY = 86_400;
const PERIODS = ['DAY', 'WEEK', 'MONTH', 'ALL'] as const;
const PERIOD_SECONDS: Record<(typeof PERIODS)[number], number> = {
  DAY,
  WEEK: 7 * DAY,
  MONTH: 30 * DAY,
  ALL: Number.POSITIVE_INFINITY,
};
const CATEGORIES = [
  'OVERALL',
  'POLITICS',
  'SPORTS',
  'CRYPTO',
  'CULTURE',
  'MENTIONS',
  'WEATHER',
  'ECONOMICS',
  'TECH',
  'FINANCE',
] as const;
/** The sandbox's tags each leaderboard category covers (none for topics the catalog has no events in). */
const CATEGORY_TAGS: Record<(typeof CATEGORIES)[number], string[] | undefined> = {
  OVERALL: undefined,
  POLITICS: [],
  SPORTS: ['sports'],
  CRYPTO: ['crypto'],
  CULTURE: [],
  MENTIONS: [],
  WEATHER: ['weather'],
  ECONOMICS: ['economy'],
  TECH: ['tech'],
  FINANCE: [],
};
const CLOSED_SORTS = ['REALIZEDPNL', 'TITLE', 'PRICE', 'AVGPRICE', 'TIMESTAMP'] as const;
const MARKET_POSITION_SORTS = ['TOKENS', 'CASH_PNL', 'REALIZED_PNL', 'TOTAL_PNL'] as const;
const DIRECTIONS = ['ASC', 'DESC'] as const;

/** One wallet's side of one trade (the taker's or a maker's), in its own outcome and price. */
export interface LedgerEntry {
  wallet: string;
  side: 'BUY' | 'SELL';
  tokenId: string;
  conditionId: string;
  price: number;
  size: number;
  /** Unix seconds. */
  timestamp: number;
}

/** What one wallet did in one outcome token: shares bought and sold, and the cash each way. */
interface Ledger {
  wallet: string;
  event: CatalogEvent;
  market: CatalogMarket;
  token: CatalogToken;
  bought: number;
  cost: number;
  sold: number;
  proceeds: number;
  lastAt: number;
}

export interface DataAnalyticsOptions {
  catalog: Catalog;
  wallets: WalletDirectory;
  shapes: GammaShapeContext;
  /** Every side of every settled trade (taker and makers). */
  entries: () => LedgerEntry[];
  /** A wallet's splits, merges and redemptions from the chain (closed positions count them). */
  chainRows?: (user: string) => Promise<ChainActivityRow[]>;
}

export class DataAnalytics {
  constructor(private readonly options: DataAnalyticsOptions) {}

  /** `/oi`: per market, the complete sets outstanding (shares of the first outcome held by anyone), in collateral. */
  async openInterest(q: Query) {
    const markets = this.marketsAsked(q, 'market', false);
    const holdings = await this.options.wallets.holdingsOf(this.options.wallets.wallets());
    return markets.map((m) => ({
      market: m.conditionId,
      value: round(holdings.filter((h) => h.token.tokenId === m.tokens[0].tokenId).reduce((s, h) => s + h.size, 0)),
    }));
  }

  /** `/live-volume?id=`: an event's traded volume, in total and per market (Gamma's `volume`). */
  liveVolume(q: Query) {
    const id = q.required('id');
    if (!/^\d+$/.test(id)) throw new HttpError(400, 'id must be an integer');
    const event = this.options.catalog.events.find((e) => e.id === id);
    if (!event) return [];
    const markets = event.markets.map((m) => ({
      market: m.conditionId,
      value: round(marketVolume(this.options.shapes, m, 0)),
    }));
    return [{ total: round(markets.reduce((s, m) => s + m.value, 0)), markets }];
  }

  /** `/v1/leaderboard`: traders by profit or volume over a period, marked to today's prices. */
  async leaderboard(q: Query) {
    const category = q.choice('category', CATEGORIES, 'OVERALL');
    const period = q.choice('timePeriod', PERIODS, 'DAY');
    const orderBy = q.choice('orderBy', ['PNL', 'VOL'] as const, 'PNL');
    const limit = q.int('limit', 25, 1, 50)!;
    const offset = q.int('offset', 0, 0, 1000)!;
    const user = q.has('user') ? requireAddress(q, 'user').toLowerCase() : undefined;
    const userName = q.string('userName')?.toLowerCase();
    const tags = CATEGORY_TAGS[category];
    const since = this.nowS() - PERIOD_SECONDS[period];
    const rows = new Map<string, { wallet: string; vol: number; pnl: number }>();
    for (const l of this.ledgers((e) => e.timestamp >= since)) {
      if (tags && !l.event.tags?.some((t) => tags.includes(t))) continue;
      const row = rows.get(l.wallet.toLowerCase()) ?? { wallet: l.wallet, vol: 0, pnl: 0 };
      row.vol += l.cost + l.proceeds;
      // The period's cash flow plus what the period's net shares are worth now.
      row.pnl += l.proceeds - l.cost + (l.bought - l.sold) * this.priceOf(l.market, l.token);
      rows.set(l.wallet.toLowerCase(), row);
    }
    const ranked = [...rows.values()]
      .map((r) => ({ ...r, vol: round(r.vol), pnl: round(r.pnl) }))
      .sort((a, b) => (orderBy === 'VOL' ? b.vol - a.vol : b.pnl - a.pnl) || a.wallet.localeCompare(b.wallet))
      .map((r, i) => {
        const who = this.options.wallets.identity(r.wallet);
        return {
          rank: String(i + 1),
          proxyWallet: r.wallet,
          userName: who.name || who.pseudonym,
          vol: r.vol,
          pnl: r.pnl,
          profileImage: who.profileImage,
          xUsername: '',
          verifiedBadge: false,
        };
      })
      .filter((r) => !user || r.proxyWallet.toLowerCase() === user)
      .filter((r) => !userName || r.userName.toLowerCase().includes(userName));
    return ranked.slice(offset, offset + limit);
  }

  /** `/v1/market-positions?market=`: every wallet's position in each outcome of one market. */
  async marketPositions(q: Query) {
    const [market] = this.marketsAsked(q, 'market', true);
    if (!market) return [];
    const user = q.has('user') ? requireAddress(q, 'user').toLowerCase() : undefined;
    const status = q.choice('status', ['OPEN', 'CLOSED', 'ALL'] as const, 'ALL');
    const sortBy = q.choice('sortBy', MARKET_POSITION_SORTS, 'TOKENS');
    const direction = q.choice('sortDirection', DIRECTIONS, 'DESC');
    const limit = q.int('limit', 50, 0, 500)!;
    const offset = q.int('offset', 0, 0, 10_000)!;
    const holdings = await this.options.wallets.holdingsOf(this.options.wallets.wallets());
    const ledgers = this.ledgers().filter((l) => l.market === market);
    return market.tokens.map((token) => {
      const wallets = new Map<string, string>();
      for (const h of holdings) if (h.token.tokenId === token.tokenId) wallets.set(h.owner.toLowerCase(), h.owner);
      for (const l of ledgers) if (l.token.tokenId === token.tokenId) wallets.set(l.wallet.toLowerCase(), l.wallet);
      const curPrice = this.priceOf(market, token);
      const rows = [...wallets.values()]
        .filter((w) => !user || w.toLowerCase() === user)
        .map((wallet) => {
          const held = holdings.find(
            (h) => h.token.tokenId === token.tokenId && h.owner.toLowerCase() === wallet.toLowerCase(),
          );
          const l = ledgers.find(
            (x) => x.token.tokenId === token.tokenId && x.wallet.toLowerCase() === wallet.toLowerCase(),
          );
          const size = held?.size ?? 0;
          const avgPrice = l && l.bought > 0 ? l.cost / l.bought : curPrice;
          const realizedPnl = l ? l.proceeds - l.sold * avgPrice : 0;
          const cashPnl = size * (curPrice - avgPrice);
          const who = this.options.wallets.identity(wallet);
          return {
            proxyWallet: wallet,
            name: who.name || who.pseudonym,
            profileImage: who.profileImage,
            verified: false,
            asset: token.tokenId,
            conditionId: market.conditionId,
            avgPrice: round(avgPrice),
            size,
            currPrice: curPrice,
            currentValue: round(size * curPrice),
            cashPnl: round(cashPnl),
            totalBought: round(l?.bought ?? 0),
            realizedPnl: round(realizedPnl),
            totalPnl: round(cashPnl + realizedPnl),
            outcome: token.name,
            outcomeIndex: token.index,
          };
        })
        .filter((r) => status === 'ALL' || (status === 'OPEN') === r.size > 0);
      const key = {
        TOKENS: (r: (typeof rows)[number]) => r.size,
        CASH_PNL: (r: (typeof rows)[number]) => r.cashPnl,
        REALIZED_PNL: (r: (typeof rows)[number]) => r.realizedPnl,
        TOTAL_PNL: (r: (typeof rows)[number]) => r.totalPnl,
      }[sortBy];
      const sign = direction === 'ASC' ? 1 : -1;
      return {
        token: token.tokenId,
        positions: rows.sort((a, b) => sign * (key(a) - key(b))).slice(offset, offset + limit),
      };
    });
  }

  /** `/closed-positions?user=`: outcomes the wallet traded and no longer holds (sold out or redeemed). */
  async closedPositions(q: Query) {
    const user = requireAddress(q, 'user');
    const markets = q.list('market')?.map((m) => m.toLowerCase());
    const eventIds = q.list('eventId');
    if (markets && eventIds) throw new HttpError(400, 'market and eventId are mutually exclusive');
    const title = q.string('title');
    if (title && title.length > 100) throw new HttpError(400, 'title must be at most 100 characters');
    const limit = q.int('limit', 10, 0, 50)!;
    const offset = q.int('offset', 0, 0, 100_000)!;
    const sortBy = q.choice('sortBy', CLOSED_SORTS, 'REALIZEDPNL');
    const direction = q.choice('sortDirection', DIRECTIONS, 'DESC');
    const rows = (await this.closedLots(user))
      .filter((l) => !markets || markets.includes(l.market.conditionId.toLowerCase()))
      .filter((l) => !eventIds || eventIds.includes(l.event.id))
      .filter((l) => !title || l.market.question.toLowerCase().includes(title.toLowerCase()))
      .map((l) => {
        const token = l.market.tokens[l.tokenIndex]!;
        const opposite = l.market.tokens[1 - l.tokenIndex]!;
        return {
          proxyWallet: user,
          asset: token.tokenId,
          conditionId: l.market.conditionId,
          avgPrice: round(l.avgPrice),
          totalBought: round(l.totalBought),
          realizedPnl: l.realizedPnl,
          curPrice: l.curPrice,
          timestamp: l.lastAt,
          title: l.market.question,
          slug: l.market.slug,
          icon: '',
          eventSlug: l.event.slug,
          outcome: token.name,
          outcomeIndex: token.index,
          oppositeOutcome: opposite.name,
          oppositeAsset: opposite.tokenId,
          endDate: l.market.end,
        };
      });
    const key = {
      REALIZEDPNL: (r: (typeof rows)[number]) => r.realizedPnl,
      TITLE: (r: (typeof rows)[number]) => r.title,
      PRICE: (r: (typeof rows)[number]) => r.curPrice,
      AVGPRICE: (r: (typeof rows)[number]) => r.avgPrice,
      TIMESTAMP: (r: (typeof rows)[number]) => r.timestamp,
    }[sortBy];
    const sign = direction === 'ASC' ? 1 : -1;
    return rows
      .sort((a, b) => {
        const x = key(a);
        const y = key(b);
        return sign * (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y)));
      })
      .slice(offset, offset + limit);
  }

  /**
   * Outcomes the wallet held and no longer holds (sold, merged or redeemed), with what they made. Shares from a
   * split cost 0.50 each and a merge returns 0.50 a share to each outcome; a redemption pays the winner what the
   * chain paid (the PayoutRedemption event), else shares neither sold nor held count at the market's payout.
   */
  async closedLots(user: string): Promise<V2ClosedLot[]> {
    const held = new Set((await this.options.wallets.holdings(user)).map((h) => h.token.tokenId));
    const lots = new Map(
      this.ledgers()
        .filter((l) => l.wallet.toLowerCase() === user.toLowerCase())
        .map((l) => [l.token.tokenId, l]),
    );
    const paid = new Map<string, number>();
    for (const r of (await this.options.chainRows?.(user)) ?? []) {
      const event = this.options.catalog.events.find((x) => x.id === r.market.eventId)!;
      const shares = Number(r.shares) / 1e6;
      for (const token of r.market.tokens) {
        const l = lots.get(token.tokenId) ?? {
          wallet: user,
          event,
          market: r.market,
          token,
          bought: 0,
          cost: 0,
          sold: 0,
          proceeds: 0,
          lastAt: 0,
        };
        if (r.type === 'SPLIT') {
          l.bought += shares;
          l.cost += shares / 2;
        } else if (r.type === 'MERGE') {
          l.sold += shares;
          l.proceeds += shares / 2;
        }
        l.lastAt = Math.max(l.lastAt, r.timestamp);
        lots.set(token.tokenId, l);
      }
      if (r.type === 'REDEEM') {
        const winner = r.market.resolution ? r.market.tokens[r.market.resolution.winner].tokenId : undefined;
        for (const token of r.market.tokens)
          paid.set(
            token.tokenId,
            (paid.get(token.tokenId) ?? 0) + (token.tokenId === winner ? Number(r.amount) / 1e6 : 0),
          );
      }
    }
    return [...lots.values()]
      .filter((l) => !held.has(l.token.tokenId) && l.bought > 0)
      .map((l) => {
        // Shares neither sold nor still held were redeemed at the market's payout.
        const redeemed =
          paid.get(l.token.tokenId) ??
          Math.max(0, l.bought - l.sold) *
            (l.market.resolution ? (l.market.resolution.winner === l.token.index ? 1 : 0) : 0);
        return {
          event: l.event,
          market: l.market,
          tokenIndex: l.token.index,
          avgPrice: l.cost / l.bought,
          totalBought: l.bought,
          realizedPnl: round(l.proceeds + redeemed - l.cost),
          curPrice: this.priceOf(l.market, l.token),
          lastAt: l.lastAt,
        };
      });
  }

  private nowS(): number {
    return Math.floor(this.options.shapes.now() / 1000);
  }

  /** What one share is worth now: the payout once resolved, else the displayed price. */
  private priceOf(market: CatalogMarket, token: CatalogToken): number {
    if (market.resolution) return market.resolution.winner === token.index ? 1 : 0;
    return round(this.options.shapes.marketData.displayPrice(token.tokenId) ?? 0, 4);
  }

  /** Markets named by a comma list of condition ids (all markets when absent and not `required`). */
  private marketsAsked(q: Query, name: string, required: boolean): CatalogMarket[] {
    const all = this.options.catalog.events.flatMap((e) => e.markets);
    const asked = required ? [q.required(name)] : q.list(name);
    if (!asked) return all;
    for (const m of asked)
      if (!/^0x[0-9a-fA-F]{64}$/.test(m))
        throw new HttpError(400, `${name} must be 0x-prefixed 64-hex-digit condition ids`);
    const wanted = asked.map((m) => m.toLowerCase());
    return all.filter((m) => wanted.includes(m.conditionId.toLowerCase()));
  }

  /** Per wallet and outcome token, what the trades that pass `keep` add up to. */
  private ledgers(keep: (e: LedgerEntry) => boolean = () => true): Ledger[] {
    const out = new Map<string, Ledger>();
    for (const e of this.options.entries()) {
      if (!keep(e)) continue;
      const market = this.options.catalog.marketByCondition(e.conditionId);
      const token = market?.tokens.find((t) => t.tokenId === e.tokenId);
      if (!market || !token) continue;
      const key = `${e.wallet.toLowerCase()}:${e.tokenId}`;
      const event = this.options.catalog.events.find((x) => x.id === market.eventId)!;
      const l = out.get(key) ?? {
        wallet: e.wallet,
        event,
        market,
        token,
        bought: 0,
        cost: 0,
        sold: 0,
        proceeds: 0,
        lastAt: 0,
      };
      if (e.side === 'BUY') {
        l.bought += e.size;
        l.cost += e.size * e.price;
      } else {
        l.sold += e.size;
        l.proceeds += e.size * e.price;
      }
      l.lastAt = Math.max(l.lastAt, e.timestamp);
      out.set(key, l);
    }
    return [...out.values()];
  }
}
