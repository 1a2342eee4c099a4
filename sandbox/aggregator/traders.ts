// Traders and their positions for the sandbox aggregator, read from the chain: outcome-token balances on the
// ConditionalTokens contract, valued at the market's current price; cost basis and volume from the trades
// the sandbox CLOB settled, when it is told about them.
import { Contract, getAddress, isAddress, type JsonRpcProvider } from 'ethers';
import type { Trader, TraderPosition } from '@pmdesk/toolkit/aggregator-wire';
import type { Catalog } from '../market/catalog';
import type { MarketData } from '../market/market-data';
import { pseudonymOf } from './pseudonym';

/**
 * Traders and their positions, from the chain and the CLOB, for the aggregator's /v1/trader routes. The server
 * checks the address first (a checksummed one arrives here); `trader` answers undefined for an address with no
 * activity, and the server makes that an empty profile.
 */
export interface TraderDirectory {
  trader(address: string): Promise<Trader | undefined>;
  positions(address: string): Promise<TraderPosition[]>;
}

const ERC1155_BALANCES = ['function balanceOfBatch(address[] owners, uint256[] ids) view returns (uint256[])'];
const ERC20_BALANCE = ['function balanceOf(address owner) view returns (uint256)'];

/** One fill of a trader, as the CLOB settled it (shares and price in the trader's outcome token). */
export interface TraderFill {
  address: string;
  tokenId: string;
  side: 'BUY' | 'SELL';
  shares: number;
  price: number;
  timestamp: number;
}

export interface ChainTraderOptions {
  provider: JsonRpcProvider;
  conditionalTokens: string;
  collateral: string;
  catalog: Catalog;
  marketData: MarketData;
  /** Wallets the sandbox knows by name (its test wallets). */
  knownWallets: { address: string; name: string }[];
  /** Every settled fill, for average prices, volume and trade counts. */
  fills?: () => readonly TraderFill[];
  /** When the sandbox's profiles were created. */
  createdAt: string;
}

export class ChainTraderDirectory implements TraderDirectory {
  private readonly ctf: Contract;
  private readonly collateral: Contract;
  private readonly tokens: { tokenId: string; marketId: string }[];

  constructor(private readonly options: ChainTraderOptions) {
    this.ctf = new Contract(options.conditionalTokens, ERC1155_BALANCES, options.provider);
    this.collateral = new Contract(options.collateral, ERC20_BALANCE, options.provider);
    this.tokens = options.catalog.events.flatMap((e) =>
      e.markets.flatMap((m) => m.tokens.map((t) => ({ tokenId: t.tokenId, marketId: m.id }))),
    );
  }

  async positions(address: string): Promise<TraderPosition[]> {
    if (!isAddress(address)) return [];
    const owner = getAddress(address);
    const balances: bigint[] = await this.ctf.balanceOfBatch!(
      this.tokens.map(() => owner),
      this.tokens.map((t) => t.tokenId),
    );
    const positions: TraderPosition[] = [];
    balances.forEach((balance, i) => {
      if (balance === 0n) return;
      const { tokenId } = this.tokens[i]!;
      const found = this.options.catalog.token(tokenId)!;
      const size = Number(balance) / 1e6;
      const currentPrice = this.options.marketData.displayPrice(tokenId) ?? 0;
      const averagePrice = this.averagePrice(owner, tokenId);
      const initialValue = averagePrice === undefined ? size * currentPrice : size * averagePrice;
      const currentValue = size * currentPrice;
      positions.push({
        conditionId: found.market.conditionId,
        marketSlug: found.market.slug,
        outcome: found.token.name,
        outcomeIndex: found.token.index,
        size,
        averagePrice: averagePrice ?? null,
        currentPrice,
        currentValue: round(currentValue),
        initialValue: round(initialValue),
        cashPnl: round(currentValue - initialValue),
        percentPnl: initialValue > 0 ? round(((currentValue - initialValue) / initialValue) * 100) : 0,
        icon: '',
        endsOn: found.market.end,
        asset: tokenId,
        title: found.market.question,
      } as TraderPosition);
    });
    return positions;
  }

  async trader(address: string): Promise<Trader | undefined> {
    if (!isAddress(address)) return undefined;
    const owner = getAddress(address);
    const known = this.options.knownWallets.find((w) => w.address.toLowerCase() === owner.toLowerCase());
    const fills = this.fillsOf(owner);
    const positions = await this.positions(owner);
    if (!known && fills.length === 0 && positions.length === 0) return undefined;
    const cash = Number(await this.collateral.balanceOf!(owner)) / 1e6;
    return {
      user: {
        tradingWallet: owner,
        proxyOwner: null,
        name: known?.name ?? '',
        pseudonym: pseudonymOf(owner),
        bio: '',
        avatar: '',
        createdAt: this.options.createdAt,
      },
      stats: {
        portfolioValue: round(positions.reduce((sum, p) => sum + p.currentValue, 0)),
        cumulativeVolume: round(fills.reduce((sum, f) => sum + f.shares * f.price, 0)),
        cumulativeProfit: fills.length ? round(positions.reduce((sum, p) => sum + (p.cashPnl ?? 0), 0)) : null,
        totalTrades: fills.length,
        balanceInProtocol: round(cash),
      },
    };
  }

  private fillsOf(owner: string): readonly TraderFill[] {
    return (this.options.fills?.() ?? []).filter((f) => f.address.toLowerCase() === owner.toLowerCase());
  }

  /** Volume-weighted price of the shares bought, or undefined when none were bought through the CLOB. */
  private averagePrice(owner: string, tokenId: string): number | undefined {
    let shares = 0;
    let cost = 0;
    for (const f of this.fillsOf(owner)) {
      if (f.tokenId !== tokenId || f.side !== 'BUY') continue;
      shares += f.shares;
      cost += f.shares * f.price;
    }
    return shares > 0 ? round(cost / shares, 6) : undefined;
  }
}

const round = (n: number, decimals = 4) => Number(n.toFixed(decimals));
