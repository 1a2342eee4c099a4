// The sandbox's liquidity-reward payouts. Every minute (and once more when a payout runs) it samples the books of
// the markets that pay: each scoring resting order adds its weight (reward-scoring.ts) to its maker's tally for
// that market. A payout splits each market's daily rate among the makers by their share of the tally (rounded
// down to base units; the funder is minted only what it pays), pays each maker ON CHAIN with a collateral transfer
// from the rewards funder account, records it in the reward journal and starts new tallies. Payouts run when a
// UTC day ends and on demand (POST /admin/rewards, `npm run sandbox:rewards`), which stands for a day's end.
import { Contract, Wallet, getAddress, id } from 'ethers';
import { TX_OVERRIDES } from '../chain/transactions';
import type { CatalogMarket } from '../market/catalog';
import { rewardProgramme } from '../market/reward-programme';
import type { RewardJournal, RewardPayment } from '../market/reward-journal';
import { orderWeight, scoreOrder, topOfBook, type ScoringVerdict } from './reward-scoring';
import type { ClobState } from './state';

/** The funder's key is derived like the bots' keys: the same on every start, worthless outside a local chain. */
export const REWARDS_FUNDER_KEY = id('pmdesk-sandbox-rewards-funder');

export interface RewardPayoutReport {
  day: string;
  payments: RewardPayment[];
  /** Collateral paid in all, in base units (as a decimal string in JSON). */
  total: bigint;
}

export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export class SandboxRewards {
  /** Weight per market (condition id) per maker address since the last payout. */
  private tallies = new Map<string, Map<string, bigint>>();
  private timer: NodeJS.Timeout | undefined;
  private day: string;
  private readonly funder: Wallet;

  constructor(
    private readonly state: ClobState,
    readonly journal: RewardJournal,
    private readonly sampleIntervalMs = 60_000,
  ) {
    this.day = utcDay(state.now());
    this.funder = new Wallet(REWARDS_FUNDER_KEY, state.provider);
  }

  /** The account every reward transfer comes from. */
  get funderAddress(): string {
    return this.funder.address;
  }

  start(): void {
    this.timer = setInterval(() => this.tick(), this.sampleIntervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Whether the order scores now, and why not (an order that no longer rests does not). */
  verdict(orderId: string): ScoringVerdict & { market?: CatalogMarket } {
    const record = this.state.orders.get(orderId);
    if (!record) return { scoring: false, reason: 'NOT_RESTING' };
    const book = this.state.books.get(record.market.conditionId)!;
    const top = topOfBook(this.state.levels(record.market, 0));
    const resting = record.status === 'LIVE' ? book.order(orderId) : undefined;
    return { ...scoreOrder(record.market, resting, top), market: record.market };
  }

  /** Every scoring order's weight on the books now, per market (condition id) and maker address. */
  weightsNow(): Map<string, Map<string, bigint>> {
    const weights = new Map<string, Map<string, bigint>>();
    for (const market of this.state.allMarkets()) {
      const programme = rewardProgramme(market);
      if (!programme) continue;
      const top = topOfBook(this.state.levels(market, 0));
      const book = this.state.books.get(market.conditionId)!;
      for (const order of book.orders()) {
        const verdict = scoreOrder(market, order, top);
        if (!verdict.scoring) continue;
        const byMaker = weights.get(market.conditionId) ?? new Map<string, bigint>();
        const maker = getAddress(order.maker);
        byMaker.set(maker, (byMaker.get(maker) ?? 0n) + orderWeight(programme, order.remaining, verdict.distance!));
        weights.set(market.conditionId, byMaker);
      }
    }
    return weights;
  }

  /** Adds every scoring order's weight to its maker's tally. */
  sample(): void {
    for (const [conditionId, byMaker] of this.weightsNow()) {
      const tally = this.tallies.get(conditionId) ?? new Map<string, bigint>();
      for (const [maker, weight] of byMaker) tally.set(maker, (tally.get(maker) ?? 0n) + weight);
      this.tallies.set(conditionId, tally);
    }
  }

  /**
   * The makers' share of each market's weight on the books now, in percent (GET /rewards/user/percentages, and
   * `earning_percentage` of /rewards/user/markets): what they would earn of the day if the books stayed as they are.
   */
  shares(makers: (address: string) => boolean): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [conditionId, byMaker] of this.weightsNow()) {
      const total = [...byMaker.values()].reduce((a, b) => a + b, 0n);
      const mine = [...byMaker].filter(([maker]) => makers(maker)).reduce((a, [, w]) => a + w, 0n);
      if (total > 0n && mine > 0n) out[conditionId] = Number((mine * 10_000n) / total) / 100;
    }
    return out;
  }

  /** Pays the tallies out for `day` (today by default) on chain, one maker at a time, in the exchange's queue. */
  payout(day = utcDay(this.state.now())): Promise<RewardPayoutReport> {
    return this.state.exclusive(() => this.pay(day));
  }

  private tick(): void {
    if (this.state.stopped) return;
    this.sample();
    const today = utcDay(this.state.now());
    if (today === this.day) return;
    const ended = this.day;
    this.day = today;
    this.payout(ended).catch((error: unknown) => {
      this.state.options.log?.(`reward payout for ${ended} failed: ${(error as Error).message}`);
    });
  }

  private async pay(day: string): Promise<RewardPayoutReport> {
    this.sample();
    const plan: Omit<RewardPayment, 'paidAt' | 'transactionHash'>[] = [];
    for (const [conditionId, tally] of this.tallies) {
      const market = this.state.options.catalog.marketByCondition(conditionId)!;
      const programme = rewardProgramme(market);
      const total = [...tally.values()].reduce((a, b) => a + b, 0n);
      if (!programme || total === 0n) continue;
      for (const [maker, weight] of tally) {
        const amount = (programme.dailyRate * weight) / total;
        if (amount === 0n) continue;
        const share = Number((weight * 10_000n) / total) / 100;
        plan.push({ day, marketId: market.id, conditionId, maker, amount, share });
      }
    }
    this.tallies = new Map();
    const total = plan.reduce((sum, p) => sum + p.amount, 0n);
    const payments: RewardPayment[] = [];
    if (total === 0n) return { day, payments, total };
    const { provider, operator } = this.state;
    const collateralAddress = this.state.options.deployment.contracts.collateral;
    const abi = ['function mint(address,uint256)', 'function transfer(address,uint256) returns (bool)'];
    // The operator mints the day's rewards to the funder (it is the collateral's minter), then the funder pays.
    await provider.send('anvil_setBalance', [this.funder.address, '0x3635C9ADC5DEA00000']);
    const minting = await new Contract(collateralAddress, abi, operator).getFunction('mint')(
      this.funder.address,
      total,
      TX_OVERRIDES,
    );
    await minting.wait();
    const collateral = new Contract(collateralAddress, abi, this.funder);
    for (const step of plan) {
      const sent = await collateral.getFunction('transfer')(step.maker, step.amount, TX_OVERRIDES);
      const receipt = await sent.wait();
      if (!receipt || receipt.status !== 1) throw new Error(`the reward transfer to ${step.maker} reverted`);
      const block = await provider.getBlock(receipt.blockNumber);
      const payment = { ...step, paidAt: block?.timestamp ?? this.state.nowSeconds(), transactionHash: receipt.hash };
      this.journal.record(payment);
      payments.push(payment);
    }
    this.state.options.log?.(`paid ${payments.length} liquidity rewards for ${day}`);
    return { day, payments, total };
  }
}

/** The report as JSON: amounts in base units (decimal strings) and in collateral (numbers). */
export function payoutReportJson(report: RewardPayoutReport) {
  return {
    day: report.day,
    total: report.total.toString(),
    totalCollateral: Number(report.total) / 1e6,
    payments: report.payments.map((p) => ({
      ...p,
      amount: p.amount.toString(),
      amountCollateral: Number(p.amount) / 1e6,
    })),
  };
}
