// The exchange client: every exchange-service call (service.ts) plus the order flow that asks the market only
// what the trader did not say (tick, neg-risk, version, fee, book), signs, posts, and rebuilds once for a
// version mismatch.
import { invalidParameter } from '../model/errors';
import type { OrderVersion } from '../chain/networks';
import { OrderBuilder, type BuiltOrder, type LimitOrderInput, type MarketOrderInput } from '../orders/builder';
import type { PostOrderOptions } from '../orders/body';
import { assertPriceInRange, marketPriceFromBook, resolveTickSize, type OrderType } from '../orders/price';
import type { TickSize } from '../orders/rounding';
import { CLOB_PATHS as P } from './endpoints';
import { BookAnswer } from './schemas';
import { ClobService, isVersionMismatch, type OrderBookSummary, type OrderOptions } from './service';
import { errorResult, type ClobResult } from './transport';

export * from './service';

export class ClobClient extends ClobService {
  private builder: OrderBuilder | undefined;

  private orderBuilder(methodName: string): OrderBuilder {
    const signer = this.requireSigner(methodName);
    this.builder ??= new OrderBuilder({
      signer,
      chainId: this.chainId,
      signatureType: this.signatureType,
      funder: this.options.funder,
      networks: this.options.networks,
    });
    return this.builder;
  }

  /** The market's tick, or the trader's if it is not finer. */
  async resolveTickSize(tokenId: string, requested?: TickSize): Promise<TickSize> {
    return resolveTickSize(await this.getTickSize(tokenId), requested, 'createOrder');
  }

  /** Version 1 signs the market's fee: a different non-zero fee from the trader is refused, and the market's wins. */
  async resolveFeeRateBps(tokenId: string, requested?: number): Promise<number> {
    const market = await this.getFeeRateBps(tokenId);
    if (market > 0 && requested !== undefined && requested !== market) {
      throw invalidParameter(
        `invalid user provided fee rate: ${requested}, fee rate for the market must be ${market}`,
        'createOrder',
      );
    }
    return market;
  }

  /** Builds and signs a limit order, asking the server only for what the options do not say. */
  async createOrder(
    input: Omit<LimitOrderInput, 'feeRateBps'> & { feeRateBps?: number },
    options: OrderOptions = {},
  ): Promise<BuiltOrder> {
    const builder = this.orderBuilder('createOrder');
    const tickSize = await this.resolveTickSize(input.tokenId, options.tickSize);
    assertPriceInRange(input.price, tickSize, 'createOrder');
    const version = options.version ?? (await this.resolveVersion());
    const negRisk = options.negRisk ?? (await this.getNegRisk(input.tokenId));
    const feeRateBps = version === 1 ? await this.resolveFeeRateBps(input.tokenId, input.feeRateBps) : undefined;
    return builder.buildLimitOrder({ ...input, feeRateBps }, { tickSize, negRisk, version });
  }

  /** Builds and signs a market order; without a price it takes the price that covers the amount in the book. */
  async createMarketOrder(
    input: Omit<MarketOrderInput, 'price' | 'feeRateBps'> & { price?: number; feeRateBps?: number },
    options: OrderOptions & { orderType?: OrderType } = {},
  ): Promise<BuiltOrder> {
    const builder = this.orderBuilder('createMarketOrder');
    const tickSize = await this.resolveTickSize(input.tokenId, options.tickSize);
    let price = input.price;
    if (!price) {
      const book = await this.readOrThrow<OrderBookSummary>('getOrderBook', BookAnswer, P.GET_ORDER_BOOK, {
        token_id: input.tokenId,
      });
      price = marketPriceFromBook(book, input.side, input.amount, options.orderType ?? 'FOK', 'createMarketOrder');
    }
    assertPriceInRange(price, tickSize, 'createMarketOrder');
    const version = options.version ?? (await this.resolveVersion());
    const negRisk = options.negRisk ?? (await this.getNegRisk(input.tokenId));
    const feeRateBps = version === 1 ? await this.resolveFeeRateBps(input.tokenId, input.feeRateBps) : undefined;
    return builder.buildMarketOrder({ ...input, price, feeRateBps }, { tickSize, negRisk, version });
  }

  /**
   * Builds, signs and posts; when the server rejects the order for a version mismatch and did not get the
   * version from the caller, the order is rebuilt once for the version the server now names.
   */
  async createAndPostOrder(
    create: (version: OrderVersion | undefined) => Promise<BuiltOrder>,
    post: PostOrderOptions = {},
    explicitVersion?: OrderVersion,
  ): Promise<{ order: BuiltOrder; response: ClobResult<unknown> }> {
    let order = await create(explicitVersion);
    // The first answer is judged before it may throw: a version mismatch is a reason to rebuild, not a failure yet.
    let attempt = await this.postOrderAttempt(order, post);
    if (!attempt.ok && explicitVersion === undefined && isVersionMismatch(errorResult(attempt.error))) {
      const version = await this.resolveVersion();
      if (version !== order.version) {
        order = await create(version);
        attempt = await this.postOrderAttempt(order, post);
      }
    }
    return { order, response: this.transport.settle(attempt) };
  }
}
