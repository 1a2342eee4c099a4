// A wallet's splits, merges, redemptions and conversions as the Data API's /activity rows, read from the sandbox
// chain's own logs: ConditionalTokens' PositionSplit, PositionsMerge and PayoutRedemption (the wallet as the
// stakeholder or redeemer), and the neg-risk adapter's events of the same names plus PositionsConverted (one
// CONVERSION row per No position given, carrying its share of the collateral released, and one per Yes received).
import { Contract, Interface, zeroPadValue, type JsonRpcProvider, type Log, type Result } from 'ethers';
import type { Catalog, CatalogMarket } from '../market/catalog';

const CTF_EVENTS = new Interface([
  'event PositionSplit(address indexed stakeholder, address collateralToken, bytes32 indexed parentCollectionId, bytes32 indexed conditionId, uint256[] partition, uint256 amount)',
  'event PositionsMerge(address indexed stakeholder, address collateralToken, bytes32 indexed parentCollectionId, bytes32 indexed conditionId, uint256[] partition, uint256 amount)',
  'event PayoutRedemption(address indexed redeemer, address indexed collateralToken, bytes32 indexed parentCollectionId, bytes32 conditionId, uint256[] indexSets, uint256 payout)',
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
]);

const ADAPTER_EVENTS = new Interface([
  'event PositionSplit(address indexed stakeholder, bytes32 indexed conditionId, uint256 amount)',
  'event PositionsMerge(address indexed stakeholder, bytes32 indexed conditionId, uint256 amount)',
  'event PayoutRedemption(address indexed redeemer, bytes32 indexed conditionId, uint256[] amounts, uint256 payout)',
  // The real adapter's (Polymarket/neg-risk-ctf-adapter): No of the index set's questions converted.
  'event PositionsConverted(address indexed stakeholder, bytes32 indexed marketId, uint256 indexed indexSet, uint256 amount)',
]);
const ADAPTER_FEES = ['function getFeeBips(bytes32 marketId) view returns (uint256)'];
const FEE_DENOMINATOR = 10_000n;

export type ChainActivityType = 'SPLIT' | 'MERGE' | 'REDEEM' | 'CONVERSION';

/** One split, merge, redemption or conversion of a wallet, amounts in base units. */
export interface ChainActivityRow {
  type: ChainActivityType;
  market: CatalogMarket;
  /** Shares: of each outcome for a split or merge, burned in all for a redemption, given or received (conversion). */
  shares: bigint;
  /** Collateral moved: put in (split), taken out (merge), paid (redemption), released (a conversion's No rows). */
  amount: bigint;
  /** A conversion's row: the No position given (SELL) or a Yes position received (BUY). */
  conversion?: { side: 'BUY' | 'SELL'; outcomeIndex: 0 | 1 };
  transactionHash: string;
  /** Unix seconds: the block's time. */
  timestamp: number;
  blockNumber: number;
  logIndex: number;
}

export interface ChainActivityOptions {
  provider: JsonRpcProvider;
  conditionalTokens: string;
  /** The neg-risk adapter, whose events name the trader where ConditionalTokens names the adapter. */
  negRiskAdapter?: string;
  catalog: Catalog;
}

export class ChainActivity {
  private readonly blockTimes = new Map<number, number>();
  private readonly txBlocks = new Map<string, number>();

  constructor(private readonly options: ChainActivityOptions) {}

  /** Every split, merge and redemption of `user`, oldest first (markets outside the catalog skipped). */
  async rows(user: string): Promise<ChainActivityRow[]> {
    const who = zeroPadValue(user.toLowerCase(), 32);
    const read = (address: string, iface: Interface, name: string) =>
      this.options.provider.getLogs({ address, topics: [iface.getEvent(name)!.topicHash, who], fromBlock: 0 });
    const ctf = this.options.conditionalTokens;
    const adapter = this.options.negRiskAdapter;
    const [ctfLogs, adapterLogs] = await Promise.all([
      Promise.all(['PositionSplit', 'PositionsMerge', 'PayoutRedemption'].map((n) => read(ctf, CTF_EVENTS, n))),
      adapter
        ? Promise.all(
            ['PositionSplit', 'PositionsMerge', 'PayoutRedemption', 'PositionsConverted'].map((n) =>
              read(adapter, ADAPTER_EVENTS, n),
            ),
          )
        : Promise.resolve([] as Log[][]),
    ]);
    const out: ChainActivityRow[] = [];
    for (const log of ctfLogs.flat()) {
      const row = await this.ctfRow(log, user);
      if (row) out.push(row);
    }
    for (const log of adapterLogs.flat()) {
      const parsed = ADAPTER_EVENTS.parseLog({ topics: [...log.topics], data: log.data });
      if (parsed?.name === 'PositionsConverted') out.push(...(await this.conversionRows(log, parsed.args)));
      else {
        const row = await this.adapterRow(log);
        if (row) out.push(row);
      }
    }
    return out.sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
  }

  private async ctfRow(log: Log, user: string): Promise<ChainActivityRow | undefined> {
    const parsed = CTF_EVENTS.parseLog({ topics: [...log.topics], data: log.data });
    if (!parsed) return undefined;
    const market = this.options.catalog.marketByCondition(parsed.args.conditionId as string);
    if (!market) return undefined;
    if (parsed.name === 'PayoutRedemption') {
      // The event states the payout; the shares redeemed are what the transaction burned of the redeemer's.
      const burned = await this.burned(log.transactionHash, user);
      return this.row('REDEEM', market, burned, parsed.args.payout as bigint, log);
    }
    const amount = parsed.args.amount as bigint;
    return this.row(parsed.name === 'PositionSplit' ? 'SPLIT' : 'MERGE', market, amount, amount, log);
  }

  private async adapterRow(log: Log): Promise<ChainActivityRow | undefined> {
    const parsed = ADAPTER_EVENTS.parseLog({ topics: [...log.topics], data: log.data });
    if (!parsed) return undefined;
    const market = this.options.catalog.marketByCondition(parsed.args.conditionId as string);
    if (!market) return undefined;
    if (parsed.name === 'PayoutRedemption') {
      const shares = (parsed.args.amounts as bigint[]).reduce((s, v) => s + v, 0n);
      return this.row('REDEEM', market, shares, parsed.args.payout as bigint, log);
    }
    const amount = parsed.args.amount as bigint;
    return this.row(parsed.name === 'PositionSplit' ? 'SPLIT' : 'MERGE', market, amount, amount, log);
  }

  /**
   * A conversion of `amount` No of k questions of a neg-risk event: one row per No given, sharing the
   * (k − 1)·(amount − fee) collateral released, and one per other question's Yes received (amount − fee shares).
   */
  private async conversionRows(log: Log, args: Result) {
    const marketId = String(args.marketId).toLowerCase();
    const indexSet = args.indexSet as bigint;
    const amount = args.amount as bigint;
    const questions = this.options.catalog.events
      .flatMap((e) => e.markets)
      .filter((m) => m.negRiskEvent?.marketId.toLowerCase() === marketId)
      .sort((a, b) => a.negRiskEvent!.index - b.negRiskEvent!.index);
    const given = questions.filter((m) => (indexSet >> BigInt(m.negRiskEvent!.index)) & 1n);
    const received = questions.filter((m) => !given.includes(m));
    const adapter = new Contract(this.options.negRiskAdapter!, ADAPTER_FEES, this.options.provider);
    const feeBips = (await adapter.getFunction('getFeeBips')(marketId, { blockTag: log.blockNumber })) as bigint;
    const net = amount - (amount * feeBips) / FEE_DENOMINATOR;
    const released = BigInt(Math.max(0, given.length - 1)) * net;
    const each = given.length ? released / BigInt(given.length) : 0n;
    const rows: ChainActivityRow[] = [];
    for (const [i, m] of given.entries()) {
      const share = i === 0 ? released - each * BigInt(given.length - 1) : each;
      rows.push({
        ...(await this.row('CONVERSION', m, amount, share, log)),
        conversion: { side: 'SELL', outcomeIndex: 1 },
      });
    }
    for (const m of received)
      rows.push({ ...(await this.row('CONVERSION', m, net, 0n, log)), conversion: { side: 'BUY', outcomeIndex: 0 } });
    return rows;
  }

  private async row(
    type: ChainActivityType,
    market: CatalogMarket,
    shares: bigint,
    amount: bigint,
    log: Log,
  ): Promise<ChainActivityRow> {
    return {
      type,
      market,
      shares,
      amount,
      transactionHash: log.transactionHash,
      timestamp: await this.blockTime(log.blockNumber),
      blockNumber: log.blockNumber,
      logIndex: log.index,
    };
  }

  /** Outcome-token units the transaction burned from `user` (ConditionalTokens' transfers to the zero address). */
  private async burned(txHash: string, user: string): Promise<bigint> {
    const receipt = await this.options.provider.getTransactionReceipt(txHash);
    let sum = 0n;
    for (const log of receipt?.logs ?? []) {
      if (log.address.toLowerCase() !== this.options.conditionalTokens.toLowerCase()) continue;
      const parsed = CTF_EVENTS.parseLog({ topics: [...log.topics], data: log.data });
      if (!parsed || (parsed.name !== 'TransferSingle' && parsed.name !== 'TransferBatch')) continue;
      if ((parsed.args.from as string).toLowerCase() !== user.toLowerCase()) continue;
      if (BigInt(parsed.args.to as string) !== 0n) continue;
      if (parsed.name === 'TransferSingle') sum += parsed.args.value as bigint;
      if (parsed.name === 'TransferBatch') sum += (parsed.args[4] as bigint[]).reduce((s, v) => s + v, 0n);
    }
    return sum;
  }

  /** The block a transaction was mined in (cached: a mined transaction stays where it is), or 0 when unknown. */
  async blockOf(txHash: string): Promise<number> {
    const known = this.txBlocks.get(txHash);
    if (known !== undefined) return known;
    const receipt = txHash ? await this.options.provider.getTransactionReceipt(txHash) : null;
    const block = receipt?.blockNumber ?? 0;
    if (receipt) this.txBlocks.set(txHash, block);
    return block;
  }

  private async blockTime(blockNumber: number): Promise<number> {
    const known = this.blockTimes.get(blockNumber);
    if (known !== undefined) return known;
    const block = await this.options.provider.getBlock(blockNumber);
    const time = block?.timestamp ?? 0;
    this.blockTimes.set(blockNumber, time);
    return time;
  }
}
