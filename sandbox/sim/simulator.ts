// The market simulator: bots that quote, trade and cancel through the sandbox CLOB's REST API so books, tapes
// and candles move. Makers keep a few levels of bids on both outcomes around a drifting fair price (a bid on
// the second outcome at 1 − p is an ask on the first at p, so makers need only collateral); takers now and
// then cross the spread with fill-and-kill orders. Deterministic under a seed, apart from timing.
import type { Wallet } from 'ethers';
import type { Deployment } from '../chain/deploy';
import type { Catalog, CatalogMarket } from '../market/catalog';
import { snapToTick } from '../market/history';
import type { MarketData } from '../market/market-data';
import { SeededRandom } from '../market/random';
import { BotClobClient } from './clob-http';
import { feeRateBps } from '../market/fees';
import { postOrderBody, signBotOrder, type BotOrder } from './orders';

export interface SimulatorOptions {
  clobUrl: string;
  deployment: Deployment;
  catalog: Catalog;
  marketData: MarketData;
  /** Funded, approved wallets; half make markets, half take. At least two. */
  bots: Wallet[];
  seed: number;
  /** Milliseconds between steps when running on its own. */
  intervalMs?: number;
  /** Price levels each maker quotes per side. */
  levels?: number;
  log?: (line: string) => void;
}

interface Bot {
  wallet: Wallet;
  client: BotClobClient;
}

export class MarketSimulator {
  private readonly random: SeededRandom;
  private readonly fair = new Map<string, number>();
  private readonly markets: CatalogMarket[];
  private makers: Bot[] = [];
  private takers: Bot[] = [];
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private step = 0;
  /** Orders refused or failed, for the log and tests: a healthy market has none. */
  readonly problems: string[] = [];

  constructor(private readonly options: SimulatorOptions) {
    if (options.bots.length < 2) throw new Error('the simulator needs at least two bots');
    this.random = new SeededRandom(options.seed);
    this.markets = options.catalog.events.flatMap((e) => e.markets);
    for (const market of this.markets) {
      this.fair.set(market.id, options.marketData.lastTradePrice(market.tokens[0].tokenId) ?? market.startPrice);
    }
  }

  /** Gets every bot an API key and puts a first set of quotes on every market. */
  async open(): Promise<void> {
    const bots = this.options.bots.map((wallet) => ({
      wallet,
      client: new BotClobClient(this.options.clobUrl, wallet, this.options.deployment.chainId),
    }));
    await Promise.all(bots.map((b) => b.client.connect()));
    const half = Math.ceil(bots.length / 2);
    this.makers = bots.slice(0, half);
    this.takers = bots.slice(half);
    for (const market of this.markets) await this.requote(market);
  }

  /** Runs steps every intervalMs until stop(). */
  start(): void {
    const interval = this.options.intervalMs ?? 1500;
    this.timer = setInterval(() => {
      if (this.running) return; // never two steps at once
      this.running = this.tick()
        .catch((error: unknown) => this.note(`step failed: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => (this.running = undefined));
    }, interval);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
    await Promise.all(this.makers.concat(this.takers).map((b) => b.client.cancelAll().catch(() => undefined)));
  }

  /** One step: a market's fair price drifts, its maker requotes, and maybe a taker crosses. */
  async tick(): Promise<void> {
    this.step++;
    const market = this.random.pick(this.markets);
    const fair = this.fair.get(market.id)!;
    const tick = Number(market.tickSize);
    this.fair.set(market.id, Math.min(1 - 5 * tick, Math.max(5 * tick, fair + this.random.normal(0, 0.004))));
    await this.requote(market);
    if (this.random.next() < 0.7) await this.take(market);
  }

  private makerFor(market: CatalogMarket): Bot {
    return this.makers[this.markets.indexOf(market) % this.makers.length]!;
  }

  private async requote(market: CatalogMarket): Promise<void> {
    const maker = this.makerFor(market);
    await maker.client.cancelMarket(market.conditionId);
    const { bid, ask, step } = this.quotes(market);
    const [yes, no] = market.tokens;
    for (let level = 0; level < (this.options.levels ?? 3); level++) {
      const size = (20 + this.random.int(0, 80) + level * 40) * 100;
      const bidPrice = bid - level * step;
      const askPrice = ask + level * step;
      if (bidPrice > 0)
        await this.place(maker, market, { tokenId: yes.tokenId, side: 'BUY', price: bidPrice, sizeCents: size }, 'GTC');
      if (askPrice < 10_000)
        await this.place(
          maker,
          market,
          { tokenId: no.tokenId, side: 'BUY', price: 10_000 - askPrice, sizeCents: size },
          'GTC',
        );
    }
  }

  /** Best bid and ask around the fair price on the market's grid, in 1e-4 units, and the step between levels. */
  private quotes(market: CatalogMarket): { bid: number; ask: number; step: number } {
    const fair = this.fair.get(market.id)!;
    const tick = Number(market.tickSize);
    const half = Math.max(tick, 0.01);
    const bid = snapToTick(fair - half, market.tickSize);
    const ask = Math.max(snapToTick(fair + half, market.tickSize), bid + tick);
    const units = (p: number) => Math.round(p * 10_000);
    return { bid: units(bid), ask: Math.min(units(ask), units(1 - tick)), step: units(Math.max(tick, 0.01)) };
  }

  private async take(market: CatalogMarket): Promise<void> {
    const taker = this.takers[this.step % this.takers.length]!;
    const { bid, ask } = this.quotes(market);
    const [yes, no] = market.tokens;
    const sizeCents = (5 + this.random.int(0, 35)) * 100;
    // Buying the first outcome at the ask crosses the maker's bid on the second; buying the second at 1 − bid
    // crosses the maker's bid on the first. Both are mints on the exchange.
    const order: BotOrder =
      this.random.next() < 0.5
        ? { tokenId: yes.tokenId, side: 'BUY', price: ask, sizeCents }
        : { tokenId: no.tokenId, side: 'BUY', price: 10_000 - bid, sizeCents };
    await this.place(taker, market, order, 'FAK');
  }

  private async place(bot: Bot, market: CatalogMarket, order: BotOrder, orderType: 'GTC' | 'FAK'): Promise<void> {
    const { deployment } = this.options;
    const venue = {
      chainId: deployment.chainId,
      orderVersion: deployment.orderVersion,
      verifyingContract: market.negRisk ? deployment.contracts.negRiskExchange : deployment.contracts.exchange,
      feeRateBps: feeRateBps(market.fees),
    };
    const { json } = await signBotOrder(bot.wallet, venue, order, Date.now());
    const result = await bot.client.postOrder(
      postOrderBody(deployment.orderVersion, json, bot.client.apiKey, orderType),
    );
    const body = result.body as { success?: boolean; errorMsg?: string; error?: string } | undefined;
    if (!result.ok || body?.success === false) {
      // A FAK with nothing left to take is normal market life; anything else is a problem worth seeing.
      const message = body?.errorMsg || body?.error || `status ${result.status}`;
      if (!(orderType === 'FAK' && /no orders found to match/i.test(message))) this.note(`${market.slug}: ${message}`);
    }
  }

  private note(problem: string): void {
    this.problems.push(problem);
    this.options.log?.(`simulator: ${problem}`);
  }
}
