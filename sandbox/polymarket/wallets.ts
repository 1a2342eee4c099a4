// Who trades on the sandbox, as Polymarket's public APIs show them: a wallet's display identity (the test
// wallets by name, everyone else by a stable pseudonym), its outcome-token balances read from the
// ConditionalTokens contract, and its positions valued at the live price with cost from its public trades.
import { Contract, getAddress, type JsonRpcProvider } from 'ethers';
import { pseudonymOf } from '../aggregator/pseudonym';
import type { Catalog, CatalogEvent, CatalogMarket, CatalogToken } from '../market/catalog';
import type { MarketData } from '../market/market-data';
import type { PublicTradeSource } from '../market/public-trades';
import { round } from './http';

const ERC1155_BALANCES = ['function balanceOfBatch(address[] owners, uint256[] ids) view returns (uint256[])'];

export interface WalletDirectoryOptions {
  provider: JsonRpcProvider;
  conditionalTokens: string;
  catalog: Catalog;
  marketData: MarketData;
  trades: PublicTradeSource;
  /**
   * Wallets the sandbox knows by name (its test wallets); `account`: the Polymarket account (proxy, Safe, deposit
   * wallet) the wallet's key trades from, which its profile names as `proxyWallet`, as Gamma does.
   */
  knownWallets: { address: string; name: string; account?: string }[];
  /** When the sandbox's profiles were created (ISO). */
  createdAt: string;
}

/** What a trade row or a profile says about who traded. */
export interface WalletIdentity {
  name: string;
  pseudonym: string;
  bio: string;
  profileImage: string;
}

/** One holding with what the Data API's Position row needs. */
export interface Holding {
  owner: string;
  event: CatalogEvent;
  market: CatalogMarket;
  token: CatalogToken;
  opposite: CatalogToken;
  /** Shares, exact in 1e-6 units. */
  units: bigint;
  size: number;
  avgPrice: number;
  totalBought: number;
  curPrice: number;
  /** The owner also holds the other outcome: a merge back to collateral is possible. */
  mergeable: boolean;
}

export class WalletDirectory {
  private readonly ctf: Contract;
  private readonly tokens: { event: CatalogEvent; market: CatalogMarket; token: CatalogToken }[];

  constructor(private readonly options: WalletDirectoryOptions) {
    this.ctf = new Contract(options.conditionalTokens, ERC1155_BALANCES, options.provider);
    this.tokens = options.catalog.events.flatMap((event) =>
      event.markets.flatMap((market) => market.tokens.map((token) => ({ event, market, token }))),
    );
  }

  identity(address: string): WalletIdentity {
    const known = this.options.knownWallets.find((w) => w.address.toLowerCase() === address.toLowerCase());
    return { name: known?.name ?? '', pseudonym: pseudonymOf(address), bio: '', profileImage: '' };
  }

  /** Every wallet the sandbox has seen: its named wallets and everyone in a public trade (checksummed). */
  wallets(): string[] {
    const seen = new Map<string, string>();
    const add = (a: string) => seen.set(a.toLowerCase(), getAddress(a));
    for (const w of this.options.knownWallets) add(w.address);
    for (const t of this.options.trades.trades()) {
      add(t.taker);
      for (const m of t.makers) add(m.address);
    }
    return [...seen.values()];
  }

  /** Gamma's public profile of a wallet: for the named wallets and anyone who traded or holds shares, else undefined. */
  async publicProfile(address: string) {
    const owner = getAddress(address);
    const same = (a: string | undefined) => a?.toLowerCase() === owner.toLowerCase();
    const known = this.options.knownWallets.find((w) => same(w.address) || same(w.account));
    if (!known && !this.wallets().includes(owner) && (await this.holdings(owner)).length === 0) return undefined;
    const who = this.identity(known?.address ?? owner);
    return {
      createdAt: this.options.createdAt,
      // The profile wallet is where the trader's funds sit: the owner's account when it has one (asked by the
      // owner's key or by the account), else the address itself (signature type 0).
      proxyWallet: known?.account ? getAddress(known.account) : owner,
      profileImage: who.profileImage,
      displayUsernamePublic: who.name !== '',
      bio: who.bio,
      pseudonym: who.pseudonym,
      name: who.name || who.pseudonym,
      users: [{ id: String(Number.parseInt(owner.slice(2, 8), 16)), creator: false, mod: false }],
      xUsername: null,
      verifiedBadge: false,
    };
  }

  /** The outcome-token balances of several wallets at once, as holdings with a price and cost basis. */
  async holdingsOf(owners: readonly string[]): Promise<Holding[]> {
    if (owners.length === 0) return [];
    const pairs = owners.flatMap((owner) => this.tokens.map((t) => ({ owner: getAddress(owner), ...t })));
    const balances: bigint[] = await this.ctf.getFunction('balanceOfBatch')(
      pairs.map((p) => p.owner),
      pairs.map((p) => p.token.tokenId),
    );
    const held = new Set(pairs.filter((_, i) => balances[i]! > 0n).map((p) => `${p.owner}:${p.token.tokenId}`));
    const bought = this.boughtByOwnerAndToken();
    const out: Holding[] = [];
    pairs.forEach((p, i) => {
      const units = balances[i]!;
      if (units === 0n) return;
      const opposite = p.market.tokens[1 - p.token.index]!;
      // A resolved market's shares are worth their payout: 1 for the winner, 0 for the loser.
      const resolution = p.market.resolution;
      const curPrice = resolution
        ? resolution.winner === p.token.index
          ? 1
          : 0
        : round(this.options.marketData.displayPrice(p.token.tokenId) ?? 0, 4);
      const buys = bought.get(`${p.owner.toLowerCase()}:${p.token.tokenId}`);
      out.push({
        owner: p.owner,
        event: p.event,
        market: p.market,
        token: p.token,
        opposite,
        units,
        size: Number(units) / 1e6,
        // Shares that came from a split rather than a trade cost what they are worth now.
        avgPrice: buys && buys.shares > 0 ? round(buys.cost / buys.shares, 6) : curPrice,
        totalBought: buys ? round(buys.shares) : 0,
        curPrice,
        mergeable: held.has(`${p.owner}:${opposite.tokenId}`),
      });
    });
    return out;
  }

  holdings(owner: string): Promise<Holding[]> {
    return this.holdingsOf([owner]);
  }

  /** Shares bought and what they cost, per wallet and token, from every public trade (taker and maker sides). */
  private boughtByOwnerAndToken(): Map<string, { shares: number; cost: number }> {
    const out = new Map<string, { shares: number; cost: number }>();
    const add = (owner: string, tokenId: string, shares: number, price: number) => {
      const key = `${owner.toLowerCase()}:${tokenId}`;
      const sum = out.get(key) ?? { shares: 0, cost: 0 };
      sum.shares += shares;
      sum.cost += shares * price;
      out.set(key, sum);
    };
    for (const t of this.options.trades.trades()) {
      if (t.side === 'BUY') add(t.taker, t.tokenId, t.size, t.price);
      for (const m of t.makers) if (m.side === 'BUY') add(m.address, m.tokenId, m.size, m.price);
    }
    return out;
  }
}
