// The order flow's pure parts: the documented order of messages, sizing from dollars, market orders' amounts, the
// sandbox profile read as a trading profile for each order version, and the approval targets each version needs.
import { describe, expect, it } from 'vitest';
import type { PmDeskError } from '../../packages/toolkit/src/model/errors';
import { ErrorCode } from '../../packages/toolkit/src/model/errors';
import {
  OrderMessages,
  assertOrderRequest,
  findToken,
  planOrder,
  tradedMarket,
  type OrderIntent,
} from '../../src/main/trading/order-input';
import { DEFAULT_APPROVAL_GAS, parseTradingProfile } from '../../src/main/trading/profile';
import { approvalGasCost, approvalTargets, formatGas } from '../../src/main/trading/allowances';
import type { Market } from '../../packages/toolkit/src/model/market-model';
import type { ParsedInput } from '../../src/shared/contract';

const A = '0x1111111111111111111111111111111111111111';
const B = '0x2222222222222222222222222222222222222222';
const C = '0x3333333333333333333333333333333333333333';
const USDC = '0x4444444444444444444444444444444444444444';
const CTF = '0x5555555555555555555555555555555555555555';

const sandboxJson = (orderVersion: 1 | 2 | 3, extra: Record<string, unknown> = {}) => ({
  name: 'sandbox',
  chainId: 31338,
  rpcUrl: 'http://127.0.0.1:4812',
  clobUrl: 'http://127.0.0.1:4811',
  aggregatorUrl: 'http://127.0.0.1:4810',
  sseUrl: 'http://127.0.0.1:4810',
  wsUrl: 'ws://127.0.0.1:4811/ws',
  orderVersion,
  contracts: { collateral: USDC, conditionalTokens: CTF, exchange: A, negRiskExchange: B, negRiskAdapter: C },
  testWallets: [],
  ...extra,
});

const input = (over: Partial<OrderIntent> = {}): OrderIntent => ({
  provider: 'polymarket',
  marketId: '1',
  tokenId: 'Yes',
  side: 'BUY',
  size: 10,
  ...over,
});
const detail = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    return (error as PmDeskError).detail;
  }
  throw new Error('no error');
};

describe('order request', () => {
  it('takes the contract’s order intent as it is: its names, its choices, no provider', () => {
    // The page's placeOrder input, as the contract parses it (src/shared/contract.ts): nothing renamed on its way.
    const intent: ParsedInput<'placeOrder'> = {
      wallet: 'main',
      marketId: '1',
      tokenId: 'Yes',
      side: 'SELL',
      amountUsd: 4.2,
      orderType: 'FAK',
      postOnly: false,
    };
    expect(() => assertOrderRequest(intent, {})).not.toThrow();
    expect(planOrder(intent, { token_id: '7', name: 'Yes', price: '0.42' })).toMatchObject({
      kind: 'market',
      side: 'SELL',
      amount: 10,
      orderType: 'FAK',
    });
  });

  it('says what is missing in the documented order: provider, then wallet, then the order', () => {
    expect(detail(() => assertOrderRequest(input({ provider: '' }), undefined))).toBe(OrderMessages.PROVIDER_REQUIRED);
    expect(detail(() => assertOrderRequest(input({ provider: 'truemarket' }), undefined))).toBe(
      OrderMessages.ONLY_POLYMARKET,
    );
    expect(detail(() => assertOrderRequest(input(), undefined))).toBe(OrderMessages.WALLET_REQUIRED);
    expect(detail(() => assertOrderRequest(undefined, {}))).toBe(OrderMessages.USER_ORDER_NOT_FOUND);
    expect(detail(() => assertOrderRequest(input({ side: 'HOLD' as 'BUY' }), {}))).toBe(
      OrderMessages.USER_ORDER_NOT_FOUND,
    );
    expect(detail(() => assertOrderRequest(input({ size: undefined }), {}))).toBe(
      'Say how much to trade: a size in shares or a dollar amount.',
    );
    expect(detail(() => assertOrderRequest(input({ price: Number.NaN }), {}))).toBe(
      "The order's price must be a positive number.",
    );
    expect(() => assertOrderRequest(input({ provider: 'Polymarket' }), {})).not.toThrow();
  });

  it('finds the outcome by token id or by name in any case', () => {
    const market = tradedMarket({
      id: '1',
      position_tokens: [
        { token_id: '7', name: 'Yes', price: '0.4' },
        { token_id: '8', name: 'No', price: '0.6' },
      ],
    } as unknown as Market);
    expect(findToken(market, 'nO').token_id).toBe('8');
    expect(findToken(market, '7').name).toBe('Yes');
    const error = (() => {
      try {
        findToken(market, 'Maybe');
      } catch (e) {
        return e as PmDeskError;
      }
    })();
    expect([error?.code, error?.detail]).toEqual([ErrorCode.NOT_FOUND, OrderMessages.POSITION_TOKEN_NOT_FOUND]);
  });
});

describe('planning the order', () => {
  const token = { token_id: '7', name: 'Yes', price: '0.42' };

  it('prices at the token price and sizes dollars / price, rounded down to whole hundredths', () => {
    expect(planOrder(input({ size: undefined, amountUsd: 10 }), token)).toMatchObject({
      kind: 'limit',
      price: 0.42,
      size: 23.8,
      orderType: 'GTC',
      expiration: 0,
    });
    expect(planOrder(input({ size: undefined, amountUsd: 1, price: 0.3 }), token)).toMatchObject({
      price: 0.3,
      size: 3.33,
    });
    expect(planOrder(input({ size: 12, amountUsd: 1 }), token)).toMatchObject({ size: 12 });
    expect(() => planOrder(input({ size: undefined, amountUsd: 0.001 }), token)).toThrow(
      '$0.001 buys less than a hundredth of a share at 0.42: give more dollars or a size.',
    );
  });

  it('makes FOK and FAK market orders: a buy spends dollars, a sell sells shares', () => {
    expect(planOrder({ ...input({ size: undefined, amountUsd: 8 }), orderType: 'FOK' }, token)).toMatchObject({
      kind: 'market',
      amount: 8,
      price: undefined,
      estimatedSize: 19.04,
    });
    expect(planOrder({ ...input({ size: 10 }), orderType: 'FOK' }, token)).toMatchObject({
      kind: 'market',
      amount: 4.2,
    });
    expect(planOrder({ ...input({ side: 'SELL', size: 10 }), orderType: 'FAK' }, token)).toMatchObject({
      kind: 'market',
      amount: 10,
      orderType: 'FAK',
    });
    expect(
      planOrder({ ...input({ side: 'SELL', size: undefined, amountUsd: 4.2 }), orderType: 'FAK' }, token),
    ).toMatchObject({ amount: 10 });
    expect(() => planOrder({ ...input({ size: 0.01 }), orderType: 'FOK' }, token)).toThrow(
      /comes to nothing after rounding/,
    );
  });

  it('keeps GTD with its expiration and post-only, and refuses them where they do not apply', () => {
    expect(planOrder({ ...input(), orderType: 'GTD', expiration: 4102444800, postOnly: true }, token)).toMatchObject({
      orderType: 'GTD',
      expiration: 4102444800,
      postOnly: true,
    });
    expect(() => planOrder({ ...input(), orderType: 'GTD' }, token)).toThrow(
      'A GTD order needs an expiration (unix seconds).',
    );
    expect(() => planOrder({ ...input(), orderType: 'GTC', expiration: 4102444800 }, token)).toThrow(
      /Only GTD orders expire/,
    );
    expect(() => planOrder({ ...input(), orderType: 'FAK', postOnly: true }, token)).toThrow(
      'Post-only orders are GTC or GTD.',
    );
  });
});

describe('trading profile and approval targets', () => {
  it('reads a version 1 sandbox profile as version 1 contracts: both exchanges and the adapter, for collateral and tokens', () => {
    const profile = parseTradingProfile(sandboxJson(1));
    expect(profile.network.contracts).toMatchObject({ exchange: A, negRiskExchange: B, negRiskAdapter: C });
    expect(approvalTargets(profile, 1).map((t) => [t.kind, t.spender])).toEqual([
      ['collateral', A],
      ['collateral', B],
      ['collateral', C],
      ['outcome-tokens', A],
      ['outcome-tokens', B],
      ['outcome-tokens', C],
    ]);
    expect(approvalTargets(profile, 1).every((t) => t.token === (t.kind === 'collateral' ? USDC : CTF))).toBe(true);
  });

  it('reads a version 2 sandbox’s exchanges as the version 2 ones (docs/protocol.md#allowances: the two exchanges)', () => {
    const profile = parseTradingProfile(sandboxJson(2));
    expect(profile.network.contracts).toEqual({
      collateral: USDC,
      conditionalTokens: CTF,
      negRiskAdapter: C,
      exchangeV2: A,
      negRiskExchangeV2: B,
    });
    expect(approvalTargets(profile, 2).map((t) => [t.kind, t.spender])).toEqual([
      ['collateral', A],
      ['collateral', B],
      ['outcome-tokens', A],
      ['outcome-tokens', B],
    ]);
  });

  it('reads a version 3 sandbox’s exchange as the one exchange of version 3', () => {
    const profile = parseTradingProfile(sandboxJson(3));
    expect(profile.network.contracts.exchangeV3).toBe(A);
    expect(approvalTargets(profile, 3).map((t) => [t.kind, t.spender])).toEqual([
      ['collateral', A],
      ['outcome-tokens', A],
    ]);
  });

  it('uses the documented approval gas unless the profile says otherwise, and prices the worst case', () => {
    const spec = parseTradingProfile(sandboxJson(2));
    expect(spec.approvalGas).toEqual(DEFAULT_APPROVAL_GAS);
    expect(DEFAULT_APPROVAL_GAS).toEqual({ gasPrice: 100_000_000_000n, gasLimit: 200_000n });
    expect(formatGas(spec, approvalGasCost(spec, 4))).toBe('0.08 ETH');
    const own = parseTradingProfile(sandboxJson(2, { gasPrice: '30000000000', gasLimit: 100000 }));
    expect(own.approvalGas).toEqual({ gasPrice: 30_000_000_000n, gasLimit: 100_000n });
    const polygon = parseTradingProfile(sandboxJson(2, { chainId: 137 }));
    expect(formatGas(polygon, approvalGasCost(polygon, 1))).toBe('0.02 POL');
  });

  it('refuses a profile without what trading needs, naming the field', () => {
    expect(() => parseTradingProfile({ ...sandboxJson(2), rpcUrl: undefined })).toThrow(
      'Invalid network profile: rpcUrl: ',
    );
    expect(() => parseTradingProfile({ ...sandboxJson(2), orderVersion: 4 })).toThrow(
      /Invalid network profile: orderVersion/,
    );
    const bare = parseTradingProfile({ ...sandboxJson(2), contracts: { collateral: USDC, conditionalTokens: CTF } });
    expect(() => approvalTargets(bare, 2)).toThrow(
      'The network profile sandbox names no exchange for order version 2.',
    );
  });
});
