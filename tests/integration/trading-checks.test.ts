// Pre-trade checks and the documented order-building messages against the whole sandbox: each check fails for a
// real reason (a locked wallet in the real signer, a real chain of another id, a market the aggregator shows
// closed, an empty wallet) with a sentence a trader can act on, and a failed order sends nothing.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialVault } from '../../src/main/credentials/api-credentials';
import { MemorySecretStore } from '../../src/main/credentials/secret-store';
import { ErrorCode, PmDeskError } from '../../packages/toolkit/src/model/errors';
import { startSignerThread } from '../../src/main/wallets/signer-thread';
import type { SignerClient } from '../../src/main/wallets/signer-client';
import { privateKeySigner } from '../../packages/toolkit/src/orders/signer';
import { TradingService, type TradingWallet } from '../../src/main/trading/service';
import { PreTradeCheckError } from '../../src/main/trading/checks';
import { OrderMessages, type OrderIntent } from '../../src/main/trading/order-input';
import { freshWallet, startTradingSandbox, type TradingSandbox } from '../helpers/trading-sandbox';

const MARKET = '90021';
const order = (over: Partial<OrderIntent> = {}): OrderIntent => ({
  provider: 'polymarket',
  marketId: MARKET,
  tokenId: 'Yes',
  side: 'BUY',
  price: 0.1,
  size: 10,
  ...over,
});

describe('pre-trade checks and the documented messages', () => {
  let sb: TradingSandbox;
  let signer: SignerClient;
  let service: TradingService;
  let funded: TradingWallet;
  let fundedAddress: string;

  beforeAll(async () => {
    sb = await startTradingSandbox();
    signer = startSignerThread();
    service = new TradingService({
      profile: sb.profile,
      vault: await CredentialVault.open({ keychain: new MemorySecretStore() }),
      timeoutMs: 20_000,
    });
    ({ address: fundedAddress } = await freshWallet(sb, signer, { collateral: 50 }));
    funded = { kind: 'worker', address: fundedAddress, signer };
  }, 120_000);
  afterAll(async () => {
    service?.close();
    await signer?.close();
    await sb?.stop();
  });

  const checks = async (input: OrderIntent, wallet: TradingWallet = funded) =>
    (await service.check(input, wallet)).map((p) => [p.check, p.blocking, p.message] as const);

  it('passes a good order with only the allowance notice (and its gas cost) for a fresh wallet', async () => {
    expect(await checks(order())).toEqual([
      [
        'ALLOWANCE_MISSING',
        false,
        `4 allowances are missing (collateral for the exchange (${sb.sandbox.profile.contracts.exchange}), collateral for the neg-risk exchange (${sb.sandbox.profile.contracts.negRiskExchange}), outcome tokens for the exchange (${sb.sandbox.profile.contracts.exchange}), outcome tokens for the neg-risk exchange (${sb.sandbox.profile.contracts.negRiskExchange})): they will be set before the order, costing at most 0.08 ETH in gas.`,
      ],
    ]);
  });

  it('says the price is off the tick or out of bounds, and the size under the minimum', async () => {
    expect(await checks(order({ price: 0.555 }))).toContainEqual([
      'PRICE_OFF_TICK',
      true,
      "The price 0.555 is not on this market's 0.01 tick: use 0.55 or 0.56.",
    ]);
    expect(await checks(order({ price: 0.995 }))).toContainEqual([
      'PRICE_OUT_OF_BOUNDS',
      true,
      'The price 0.995 is out of bounds: this market takes prices from 0.01 to 0.99.',
    ]);
    expect(await checks(order({ size: 2 }))).toContainEqual([
      'SIZE_UNDER_MINIMUM',
      true,
      "2 shares is under this market's minimum order of 5 shares: order at least 5.",
    ]);
  });

  it('says the wallet lacks collateral or outcome tokens, and gas for the allowances', async () => {
    const { address } = await freshWallet(sb, signer, { collateral: 0, gasEth: false });
    const empty: TradingWallet = { kind: 'worker', address, signer };
    const buy = await checks(order({ amountUsd: 100, size: undefined, price: 0.5 }), empty);
    expect(buy.map(([id]) => id)).toEqual(['NOT_ENOUGH_COLLATERAL', 'ALLOWANCE_MISSING', 'NOT_ENOUGH_GAS']);
    expect(buy[0]![2]).toBe('This buy needs $100.00 but the wallet holds $0.00: deposit more or buy less.');
    expect(buy[2]![2]).toBe(
      'Setting the allowances needs up to 0.08 ETH for gas but the wallet holds 0.0 ETH: send it some first.',
    );
    const sell = await checks(order({ side: 'SELL' }), empty);
    expect(sell[0]).toEqual([
      'NOT_ENOUGH_OUTCOME_TOKENS',
      true,
      'This sell needs 10 "Yes" shares but the wallet holds 0: sell at most 0.',
    ]);
  });

  it('says a locked wallet is locked', async () => {
    const { address } = await freshWallet(sb, signer, { unlock: false });
    expect((await checks(order(), { kind: 'worker', address, signer }))[0]).toEqual([
      'WALLET_LOCKED',
      true,
      `The wallet ${address} is locked: unlock it with its password, then place the order again.`,
    ]);
  });

  it('says a closed market is closed and a paused one is not accepting orders', async () => {
    const market = sb.sandbox.catalog.market(MARKET)!;
    try {
      market.acceptingOrders = false;
      expect(await checks(order())).toContainEqual([
        'MARKET_NOT_ACCEPTING_ORDERS',
        true,
        'The market "Bitcoin above $120k on December 31, 2026?" is not accepting orders right now: try again when it reopens.',
      ]);
      market.closed = true;
      expect(await checks(order())).toContainEqual([
        'MARKET_CLOSED',
        true,
        'The market "Bitcoin above $120k on December 31, 2026?" is closed: it takes no more orders.',
      ]);
    } finally {
      market.acceptingOrders = true;
      market.closed = false;
    }
  });

  it('says the profile is for another chain than the node it points at', async () => {
    const other = { ...sb.profile, network: { ...sb.profile.network, chainId: 80002, name: 'amoy-copy' } };
    const wrong = new TradingService({
      profile: other,
      vault: await CredentialVault.open({ keychain: new MemorySecretStore() }),
    });
    try {
      expect((await wrong.check(order(), funded)).find((p) => p.check === 'NETWORK_MISMATCH')?.message).toBe(
        `The chain at ${sb.profile.rpcUrl} is chain ${sb.profile.network.chainId}, but the profile "amoy-copy" is for chain 80002: use the profile written for this network.`,
      );
    } finally {
      wrong.close();
    }
  });

  it('says plainly when the chain’s node does not answer', async () => {
    // A port that was just free and is closed again: nothing listens there.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
    const rpcUrl = `http://127.0.0.1:${port}`;
    const offline = new TradingService({
      profile: { ...sb.profile, rpcUrl },
      vault: await CredentialVault.open({ keychain: new MemorySecretStore() }),
    });
    try {
      const error = await offline.check(order(), funded).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: ErrorCode.NETWORK_ERROR });
      expect((error as PmDeskError).detail).toBe(
        `The chain's node at ${rpcUrl} did not answer (ECONNREFUSED): check that the network (or the local sandbox) is running.`,
      );
    } finally {
      offline.close();
    }
  });

  it('fails the order with every blocking sentence, and sends nothing: no approval, no order', async () => {
    const { address } = await freshWallet(sb, signer, { collateral: 5 });
    const wallet: TradingWallet = { kind: 'worker', address, signer };
    const failed = await service
      .executeOrder(order({ price: 0.555, size: 2, amountUsd: undefined }), wallet)
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(PreTradeCheckError);
    const error = failed as PreTradeCheckError;
    expect(error.code).toBe(ErrorCode.VALIDATION_ERROR);
    expect(error.problems.map((p) => p.check)).toEqual(['PRICE_OFF_TICK', 'SIZE_UNDER_MINIMUM', 'ALLOWANCE_MISSING']);
    expect(error.detail.split('\n')).toEqual([
      'The order was not placed:',
      ...error.problems.map((p) => `- ${p.message}`),
    ]);
    expect(await service.provider.getTransactionCount(address)).toBe(0);
    expect(service.pendingOrderIds()).toEqual([]);
  });

  it('speaks the documented sentences for a bad order request', async () => {
    const message = async (input: unknown, wallet: unknown = funded) => {
      const error = await service.executeOrder(input as OrderIntent, wallet as TradingWallet).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PmDeskError);
      return [(error as PmDeskError).code, (error as PmDeskError).detail];
    };
    const invalid = ErrorCode.INVALID_PARAMETER;
    expect(await message(order({ provider: '' }))).toEqual([invalid, OrderMessages.PROVIDER_REQUIRED]);
    expect(await message(order({ provider: 'limitless' }))).toEqual([invalid, OrderMessages.ONLY_POLYMARKET]);
    expect(await message(order(), null)).toEqual([invalid, OrderMessages.WALLET_REQUIRED]);
    expect(await message(undefined)).toEqual([invalid, OrderMessages.USER_ORDER_NOT_FOUND]);
    expect(await message(order({ tokenId: '' }))).toEqual([invalid, OrderMessages.USER_ORDER_NOT_FOUND]);
    const jsonRpc = {
      kind: 'json-rpc',
      signer: privateKeySigner(sb.sandbox.profile.testWallets[0]!.privateKey),
      approvals: signer,
    };
    expect(await message(order(), jsonRpc)).toEqual([invalid, OrderMessages.WALLET_ADDRESS_REQUIRED]);
    expect(await message(order({ marketId: '99999999' }))).toEqual([
      ErrorCode.NOT_FOUND,
      OrderMessages.EXCHANGE_NOT_FOUND,
    ]);
    expect(await message(order({ marketId: 'no-such-market-anywhere' }))).toEqual([
      ErrorCode.NOT_FOUND,
      OrderMessages.EXCHANGE_NOT_FOUND,
    ]);
    expect(await message(order({ tokenId: 'Maybe' }))).toEqual([
      ErrorCode.NOT_FOUND,
      OrderMessages.POSITION_TOKEN_NOT_FOUND,
    ]);
    expect(service.pendingOrderIds()).toEqual([]);
  });

  it('trades through a JSON-RPC wallet that names its address', async () => {
    const tester = sb.sandbox.profile.testWallets[3]!;
    const wallet: TradingWallet = {
      kind: 'json-rpc',
      walletAddress: tester.address,
      signer: privateKeySigner(tester.privateKey),
      approvals: signer,
    };
    const placed = await service.executeOrder(order(), wallet);
    // The sandbox's test wallets come approved: nothing to send through the approvals channel.
    expect(placed).toMatchObject({ status: 'LIVE', pending: true, approvals: [] });
    await service.cancelAll(wallet);
  });
});
