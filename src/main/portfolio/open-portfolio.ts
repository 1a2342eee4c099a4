// Puts the Portfolio view's service together for one network: the ledger over the network's market source, each
// trade's fee from the chain (else the wallet's own exchange trades), Polymarket's own figures where the source
// is Polymarket's, and the trading account each wallet trades from.
import {
  PolymarketSource,
  readMarketTags,
  readTheirFigures,
  type MarketSource,
  type ReceiptReader,
} from '@pmdesk/toolkit';
import type { TradeInfo } from '../../shared/contract';
import type { EventHub } from '../ipc/event-hub';
import { rememberedChainFees } from './chain-fee-memo';
import { ledgerFigures } from './ledger-figures';
import { PortfolioService } from './portfolio-service';

export interface OpenPortfolioOptions {
  source: MarketSource;
  hub?: EventHub;
  /** A chain node and the exchanges whose OrderFilled events record each trade's fee; absent: no chain to read. */
  chain?: { reader: ReceiptReader; exchanges: string[] };
  /** The wallets on this machine, by label. */
  wallets(): Promise<{ label: string }[]>;
  /** The address a wallet trades from on this network (its proxy, Safe, deposit wallet or key). */
  accountOf(wallet: string): Promise<string>;
  /** A wallet's trades on the exchange, with the fee of each; absent without the order flow. */
  trades?(wallet: string): Promise<TradeInfo[]>;
  keepMs?: number;
}

export function openPortfolio(options: OpenPortfolioOptions): PortfolioService {
  /** The trades of whichever of our wallets trades from the address; undefined for anyone else's (or when unreadable). */
  const ownTrades = async (address: string): Promise<TradeInfo[] | undefined> => {
    if (!options.trades) return undefined;
    for (const { label } of await options.wallets()) {
      const account = await options.accountOf(label).catch(() => null);
      if (account?.toLowerCase() !== address.toLowerCase()) continue;
      // A locked wallet without kept credentials cannot read its trades: its fees are then said to be unknown.
      return options.trades(label).catch(() => undefined);
    }
    return undefined;
  };
  const { chain, source } = options;
  const chainFees = chain ? rememberedChainFees(chain) : undefined;
  return new PortfolioService({
    ledger: ledgerFigures({
      source,
      ownTrades,
      chainFees,
      theirs: source instanceof PolymarketSource ? (address) => readTheirFigures(source.data, address) : undefined,
      tagsOf: source instanceof PolymarketSource ? (rows) => readMarketTags(source.gamma, rows) : undefined,
    }),
    accountOf: options.accountOf,
    snapshot:
      source instanceof PolymarketSource ? (address) => source.data.downloadAccountingSnapshot(address) : undefined,
    hub: options.hub,
    keepMs: options.keepMs,
  });
}
