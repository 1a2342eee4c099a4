// The trader's order as the contract's order intent (market, outcome, side, price, amount and its choices), which
// the order flow takes as it is; the sentences for what is missing; and turning it into the exact order to build.
import { ErrorCode, PmDeskError, invalidParameter, isPmDeskError } from '@pmdesk/toolkit/model';
import type { PositionToken } from '@pmdesk/toolkit/model';
import { tradedMarket, type TradedMarket } from '@pmdesk/toolkit/model';

export { tradedMarket, type TradedMarket };
import type { MarketSource } from '@pmdesk/toolkit';
import type { OrderType } from '@pmdesk/toolkit';
import { roundDown, type OrderSide } from '@pmdesk/toolkit';

/** docs/protocol.md#validation-messages "Building an order", word for word. */
export const OrderMessages = {
  PROVIDER_REQUIRED: 'Provider is required to execute order',
  ONLY_POLYMARKET: 'Now Only Polymarket is supported',
  WALLET_REQUIRED: 'Wallet is required to execute order',
  WALLET_ADDRESS_REQUIRED: 'walletAddress is required when wallet is JsonRpcSigner',
  EXCHANGE_NOT_FOUND: 'Exchange not found',
  POSITION_TOKEN_NOT_FOUND: 'Position token not found',
  USER_ORDER_NOT_FOUND: 'UserOrder not found',
} as const;

export interface OrderChoices {
  /** GTC by default for limit orders; FOK and FAK make a market order. */
  orderType?: OrderType;
  /** GTD only: unix seconds. */
  expiration?: number;
  postOnly?: boolean;
}

/**
 * The trader's order, named as the contract's order intent (`placeOrder` in src/shared/contract.ts), which the
 * order flow takes as it is: the page's intent, the CLI's flags and the tests' orders are all this one shape.
 */
export interface OrderIntent extends OrderChoices {
  /** Polymarket when absent (the only provider); when given, it is checked. */
  provider?: string;
  /** A market id, or a slug (anything with a hyphen). */
  marketId: string;
  /** An outcome's token id, or its name in any case ("yes", "No"). */
  tokenId: string;
  side: OrderSide;
  /** Limit price, or the worst price of a market order; the outcome's current price when absent. */
  price?: number;
  /** Shares. */
  size?: number;
  /** Dollars to spend (BUY) or raise (SELL); size = amountUsd / price when no size is given. */
  amountUsd?: number;
}

/** The first checks, in their documented order (docs/protocol.md#validation-messages): provider, then wallet, then the order itself. Nothing is sent before. */
export function assertOrderRequest(input: OrderIntent | undefined, wallet: unknown): asserts input is OrderIntent {
  if (input && input.provider !== undefined && !input.provider)
    throw invalidParameter(OrderMessages.PROVIDER_REQUIRED, 'executeOrder');
  if (input && input.provider !== undefined && input.provider.toLowerCase() !== 'polymarket')
    throw invalidParameter(OrderMessages.ONLY_POLYMARKET, 'executeOrder');
  if (!wallet) throw invalidParameter(OrderMessages.WALLET_REQUIRED, 'executeOrder');
  if (!input || !input.marketId || !input.tokenId || (input.side !== 'BUY' && input.side !== 'SELL')) {
    throw invalidParameter(OrderMessages.USER_ORDER_NOT_FOUND, 'executeOrder');
  }
  for (const [name, value] of [
    ['price', input.price],
    ['size', input.size],
    ['amountUsd', input.amountUsd],
  ] as const) {
    if (value !== undefined && !(Number.isFinite(value) && value > 0))
      throw invalidParameter(`The order's ${name} must be a positive number.`, 'executeOrder');
  }
  if (input.size === undefined && input.amountUsd === undefined)
    throw invalidParameter('Say how much to trade: a size in shares or a dollar amount.', 'executeOrder');
}

/** A hyphen means a slug (first market the source lists for it); anything else is a market id. */
export async function findMarket(
  markets: Pick<MarketSource, 'getMarket' | 'getMarketsBySlug'>,
  marketId: string,
): Promise<TradedMarket> {
  try {
    const market = marketId.includes('-')
      ? (await markets.getMarketsBySlug(marketId))[0]
      : await markets.getMarket('polymarket', marketId);
    if (!market)
      throw new PmDeskError(ErrorCode.NOT_FOUND, OrderMessages.EXCHANGE_NOT_FOUND, { methodName: 'executeOrder' });
    return tradedMarket(market);
  } catch (error) {
    if (isPmDeskError(error) && error.code === ErrorCode.NOT_FOUND) {
      throw new PmDeskError(ErrorCode.NOT_FOUND, OrderMessages.EXCHANGE_NOT_FOUND, {
        methodName: 'executeOrder',
        cause: error,
      });
    }
    throw error;
  }
}

/** The outcome by token id, or by name case-insensitively. */
export function findToken(market: TradedMarket, tokenId: string): PositionToken {
  const wanted = tokenId.trim().toLowerCase();
  const token =
    market.tokens.find((t) => t.token_id === tokenId.trim()) ??
    market.tokens.find((t) => t.name.trim().toLowerCase() === wanted);
  if (!token)
    throw new PmDeskError(ErrorCode.NOT_FOUND, OrderMessages.POSITION_TOKEN_NOT_FOUND, { methodName: 'executeOrder' });
  return token;
}

/** The order the flow will build: a limit order (price and size) or a market order (amount, worst price). */
export type OrderPlan =
  | {
      kind: 'limit';
      side: OrderSide;
      price: number;
      size: number;
      orderType: 'GTC' | 'GTD';
      expiration: number;
      postOnly: boolean;
    }
  | {
      kind: 'market';
      side: OrderSide;
      price: number | undefined;
      amount: number;
      orderType: 'FOK' | 'FAK';
      estimatedSize: number;
      estimatedPrice: number;
    };

/**
 * docs/protocol.md#entities: price defaults to the token's price; size to amountUsd / price, in whole hundredths (the size
 * precision of every tick), rounded down so the order never spends more than the trader said.
 */
export function planOrder(input: OrderIntent, token: PositionToken): OrderPlan {
  const choices: OrderChoices = input;
  const orderType = choices.orderType ?? 'GTC';
  const tokenPrice = Number(token.price);
  const price = input.price ?? tokenPrice;
  if (!(Number.isFinite(price) && price > 0))
    throw invalidParameter('The outcome has no price yet: give one.', 'executeOrder');
  if (orderType === 'GTD' && !(choices.expiration && Number.isSafeInteger(choices.expiration))) {
    throw invalidParameter('A GTD order needs an expiration (unix seconds).', 'executeOrder');
  }
  if (orderType !== 'GTD' && choices.expiration)
    throw invalidParameter('Only GTD orders expire; use --order-type GTD with an expiration.', 'executeOrder');
  if (choices.postOnly && orderType !== 'GTC' && orderType !== 'GTD')
    throw invalidParameter('Post-only orders are GTC or GTD.', 'executeOrder');
  if (orderType === 'FOK' || orderType === 'FAK') {
    // Market orders: a BUY spends dollars, a SELL sells shares.
    const amount =
      input.side === 'BUY'
        ? (input.amountUsd ?? roundDown(input.size! * price, 2))
        : (input.size ?? roundDown(input.amountUsd! / price, 2));
    if (!(amount > 0))
      throw invalidParameter(
        'The market order comes to nothing after rounding to cents and hundredths of a share: trade more.',
        'executeOrder',
      );
    const estimatedSize = input.side === 'BUY' ? roundDown(amount / price, 2) : amount;
    return {
      kind: 'market',
      side: input.side,
      price: input.price,
      amount,
      orderType,
      estimatedSize,
      estimatedPrice: price,
    };
  }
  const size = input.size ?? roundDown(input.amountUsd! / price, 2);
  if (!(size > 0))
    throw invalidParameter(
      `$${input.amountUsd} buys less than a hundredth of a share at ${price}: give more dollars or a size.`,
      'executeOrder',
    );
  return {
    kind: 'limit',
    side: input.side,
    price,
    size,
    orderType,
    expiration: choices.expiration ?? 0,
    postOnly: choices.postOnly ?? false,
  };
}
