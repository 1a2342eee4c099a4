// No double orders: a post whose answer is lost is never signed again. A small proxy in front of the sandbox CLOB
// loses the answer of POST /order on demand (after the exchange placed the order) or the request itself (before
// it arrived) — faults a real server cannot produce when asked — and the exchange then holds exactly one order.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TX_OVERRIDES } from '../../sandbox/chain/index';
import { ExchangeContract } from '../../packages/toolkit/src/orders/exchange';
import type { SignedOrder } from '../../packages/toolkit/src/orders/builder';
import { CredentialVault } from '../../src/main/credentials/api-credentials';
import { MemorySecretStore } from '../../src/main/credentials/secret-store';
import { ErrorCode } from '../../packages/toolkit/src/model/errors';
import { isOrderInDoubt } from '../../packages/toolkit/src/clob/post-once';
import { ClobClient } from '../../packages/toolkit/src/clob/client';
import type { ApiCredentials } from '../../packages/toolkit/src/clob/auth';
import { privateKeySigner } from '../../packages/toolkit/src/orders/signer';
import { silentLogger } from '../../packages/toolkit/src/base/logger';
import { startSignerThread } from '../../src/main/wallets/signer-thread';
import type { SignerClient } from '../../src/main/wallets/signer-client';
import { TradingService, type TradingWallet } from '../../src/main/trading/service';
import {
  freshWallet,
  makerOrder,
  marketMaker,
  startTradingSandbox,
  type TradingSandbox,
} from '../helpers/trading-sandbox';
import { ForwardingProxy } from '../helpers/forwarding-proxy';

type Fault = 'lose-answer' | 'lose-request' | 'hold-answer' | 'garble-answer' | 'lose-request-after' | 'go-down';

/** Forwards everything to the CLOB; the next POST /order meets the queued faults, one each. */
class LossyProxy extends ForwardingProxy {
  readonly faults: Fault[] = [];
  /** Bodies of POST /order that reached the proxy, and those it passed on to the exchange, in order. */
  readonly arrivedPosts: string[] = [];
  readonly forwardedPosts: string[] = [];
  /** For 'lose-request-after': what happens to the order elsewhere while its request is lost. */
  meanwhile: (order: Record<string, unknown>) => Promise<void> = async () => {};

  protected async onRequest(req: IncomingMessage, res: ServerResponse, body: string): Promise<void> {
    const isPost = ForwardingProxy.isPost(req, '/order');
    if (isPost) this.arrivedPosts.push(body);
    const fault = isPost ? this.faults.shift() : undefined;
    if (fault === 'lose-request') {
      req.socket.destroy();
      return;
    }
    if (fault === 'lose-request-after') {
      await this.meanwhile((JSON.parse(body) as { order: Record<string, unknown> }).order);
      req.socket.destroy();
      return;
    }
    const answer = await this.forward(req, body);
    if (isPost) this.forwardedPosts.push(body);
    // After 'go-down': every request is cut, as an exchange that went away after taking the order.
    if (fault === 'go-down') this.down = true;
    if (fault === 'lose-answer' || fault === 'go-down') {
      // The exchange has placed (or refused) the order; the trader never hears it.
      req.socket.destroy();
      return;
    }
    // The exchange has answered; the answer never comes, the connection stays open: the client times out.
    if (fault === 'hold-answer') return;
    if (fault === 'garble-answer') {
      // A success cut short (a proxy on the way truncated it): the order is placed, the body unreadable.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(answer.text.slice(0, 10));
      return;
    }
    ForwardingProxy.reply(res, answer);
  }
}

describe('a post whose answer is lost places exactly one order', () => {
  let sb: TradingSandbox;
  let proxy: LossyProxy;
  let signer: SignerClient;
  let vault: CredentialVault;
  let service: TradingService;
  let wallet: TradingWallet;
  let direct: ClobClient;
  let yes: string;
  let makerKey: string;

  beforeAll(async () => {
    sb = await startTradingSandbox();
    proxy = new LossyProxy(sb.profile.network.clobUrl);
    await proxy.start();
    signer = startSignerThread();
    vault = await CredentialVault.open({ keychain: new MemorySecretStore() });
    const profile = { ...sb.profile, network: { ...sb.profile.network, clobUrl: proxy.url } };
    service = new TradingService({ profile, vault, timeoutMs: 20_000 });
    const fresh = await freshWallet(sb, signer);
    makerKey = fresh.privateKey;
    wallet = { kind: 'worker', address: fresh.address, signer };
    yes = sb.sandbox.catalog.market('90021')!.tokens[0].tokenId;
    // Liquidity for the market order: a bid for No at 0.60 is an ask for Yes at 0.40.
    const maker = await marketMaker(sb);
    await makerOrder(maker.client, {
      tokenId: sb.sandbox.catalog.market('90021')!.tokens[1].tokenId,
      side: 'BUY',
      price: 0.6,
      size: 100,
    });
    // The first order sets allowances and credentials; then the wallet's own view of the exchange, not through the proxy.
    await service.executeOrder(
      { provider: 'polymarket', marketId: '90021', tokenId: 'Yes', side: 'BUY', price: 0.05, size: 5 },
      wallet,
    );
    await service.cancelAll(wallet);
    const creds = (await vault.load(fresh.address, proxy.url)) as ApiCredentials;
    const { network } = sb.profile;
    direct = new ClobClient({
      host: network.clobUrl,
      chainId: network.chainId,
      signer: privateKeySigner(fresh.privateKey),
      creds,
      throwOnError: true,
      networks: [network],
      logger: silentLogger,
    });
    proxy.forwardedPosts.length = 0;
  }, 120_000);
  afterAll(async () => {
    service?.close();
    await signer?.close();
    await proxy?.stop();
    await sb?.stop();
  });

  const openOrders = async () => (await direct.getOpenOrders({ asset_id: yes })) as { id: string }[];
  const trades = async () => (await direct.getTrades({ asset_id: yes })) as { taker_order_id: string }[];

  it('a resting order whose answer was lost is found by its hash and not posted again', async () => {
    proxy.faults.push('lose-answer');
    const placed = await service.executeOrder(
      { provider: 'polymarket', marketId: '90021', tokenId: 'Yes', side: 'BUY', price: 0.1, size: 10 },
      wallet,
    );
    expect(placed).toMatchObject({ reconciled: true, orderID: placed.orderHash, status: 'LIVE', pending: true });
    expect(proxy.forwardedPosts).toHaveLength(1);
    expect((await openOrders()).map((o) => o.id)).toEqual([placed.orderHash]);
    await service.cancelAll(wallet);
  });

  it('a post that times out is reconciled, not re-signed: one order', async () => {
    proxy.forwardedPosts.length = 0;
    proxy.arrivedPosts.length = 0;
    // A client that gives up quickly; the held answer would never come however long it waited.
    const impatient = new TradingService({
      profile: { ...sb.profile, network: { ...sb.profile.network, clobUrl: proxy.url } },
      vault,
      timeoutMs: 1500,
    });
    try {
      proxy.faults.push('hold-answer');
      const placed = await impatient.executeOrder(
        { provider: 'polymarket', marketId: '90021', tokenId: 'Yes', side: 'BUY', price: 0.14, size: 10 },
        wallet,
      );
      expect(placed).toMatchObject({ reconciled: true, orderID: placed.orderHash, status: 'LIVE', pending: true });
      expect(proxy.arrivedPosts).toHaveLength(1);
      expect((await openOrders()).map((o) => o.id)).toEqual([placed.orderHash]);
      await impatient.cancelAll(wallet);
    } finally {
      impatient.close();
    }
  });

  it('a success whose body cannot be read is reconciled too, not taken for a refusal', async () => {
    proxy.forwardedPosts.length = 0;
    proxy.faults.push('garble-answer');
    const placed = await service.executeOrder(
      { provider: 'polymarket', marketId: '90021', tokenId: 'Yes', side: 'BUY', price: 0.15, size: 10 },
      wallet,
    );
    expect(placed).toMatchObject({ reconciled: true, orderID: placed.orderHash, status: 'LIVE', pending: true });
    expect(proxy.forwardedPosts).toHaveLength(1);
    expect((await openOrders()).map((o) => o.id)).toEqual([placed.orderHash]);
    await service.cancelAll(wallet);
  });

  it('a market order that filled while its answer was lost is found in the trades, filled once', async () => {
    proxy.forwardedPosts.length = 0;
    const before = (await service.balances(wallet.kind === 'worker' ? wallet.address : '')).collateral;
    proxy.faults.push('lose-answer');
    const placed = await service.executeOrder(
      { provider: 'polymarket', marketId: '90021', tokenId: 'Yes', side: 'BUY', amountUsd: 4, orderType: 'FOK' },
      wallet,
    );
    expect(placed).toMatchObject({ reconciled: true, orderID: placed.orderHash, status: 'MATCHED', pending: false });
    expect(proxy.forwardedPosts).toHaveLength(1);
    expect((await trades()).filter((t) => t.taker_order_id === placed.orderHash)).toHaveLength(1);
    expect(before - (await service.balances(wallet.kind === 'worker' ? wallet.address : '')).collateral).toBe(
      4_000_000n,
    );
  });

  it('an order that never arrived is sent again as the same signed order (same hash, same bytes): one order', async () => {
    proxy.forwardedPosts.length = 0;
    proxy.arrivedPosts.length = 0;
    proxy.faults.push('lose-request');
    const placed = await service.executeOrder(
      { provider: 'polymarket', marketId: '90021', tokenId: 'Yes', side: 'BUY', price: 0.11, size: 10 },
      wallet,
    );
    expect(placed).toMatchObject({ reconciled: true, orderID: placed.orderHash, status: 'LIVE', pending: true });
    expect(proxy.forwardedPosts).toHaveLength(1);
    // Not re-signed: the retry is byte for byte the order that was lost (same salt, same signature).
    expect(proxy.arrivedPosts).toHaveLength(2);
    expect(proxy.arrivedPosts[1]).toBe(proxy.arrivedPosts[0]);
    expect((await openOrders()).map((o) => o.id)).toEqual([placed.orderHash]);
    await service.cancelAll(wallet);
  });

  it('an order the exchange never saw but the chain knows (its maker cancelled it there) is not posted again', async () => {
    proxy.forwardedPosts.length = 0;
    proxy.arrivedPosts.length = 0;
    // While the request is lost, the signed order is cancelled on the exchange contract by its maker: only the chain knows it.
    proxy.meanwhile = async (order) => {
      const maker = new Wallet(makerKey, service.provider);
      const exchange = new ExchangeContract(sb.sandbox.profile.contracts.exchange, maker, 'sandbox');
      await (await exchange.cancelOrder(order as unknown as SignedOrder, TX_OVERRIDES)).wait();
    };
    proxy.faults.push('lose-request-after');
    const placed = await service.executeOrder(
      { provider: 'polymarket', marketId: '90021', tokenId: 'Yes', side: 'BUY', price: 0.16, size: 10 },
      wallet,
    );
    expect(placed).toMatchObject({ reconciled: true, orderID: placed.orderHash, status: 'FILLED_OR_CANCELLED' });
    expect(proxy.arrivedPosts).toHaveLength(1);
    expect(proxy.forwardedPosts).toHaveLength(0);
    expect(await openOrders()).toEqual([]);
  });

  it('when both sends are lost before arriving, nothing is placed and the trader is told so', async () => {
    proxy.forwardedPosts.length = 0;
    const pendingBefore = service.pendingOrderIds();
    proxy.faults.push('lose-request', 'lose-request');
    const failed = await service
      .executeOrder(
        { provider: 'polymarket', marketId: '90021', tokenId: 'Yes', side: 'BUY', price: 0.12, size: 10 },
        wallet,
      )
      .catch((e: unknown) => e);
    expect(failed).toMatchObject({ code: ErrorCode.NETWORK_ERROR });
    expect((failed as Error).message).toMatch(/shows no order 0x[0-9a-f]{64}: nothing was placed/);
    expect(proxy.forwardedPosts).toHaveLength(0);
    expect(await openOrders()).toEqual([]);
    expect(service.pendingOrderIds()).toEqual(pendingBefore);
  });

  it('a lost answer followed by a lost retry still leaves one order, found after the retry', async () => {
    proxy.forwardedPosts.length = 0;
    // The first send never arrives; the retry (the same signed order) is placed but its answer is lost too.
    proxy.faults.push('lose-request', 'lose-answer');
    const placed = await service.executeOrder(
      { provider: 'polymarket', marketId: '90021', tokenId: 'Yes', side: 'BUY', price: 0.13, size: 10 },
      wallet,
    );
    expect(placed).toMatchObject({ reconciled: true, orderID: placed.orderHash, status: 'LIVE', pending: true });
    expect(proxy.forwardedPosts).toHaveLength(1);
    expect((await openOrders()).map((o) => o.id)).toEqual([placed.orderHash]);
  });

  it('when the exchange goes away after taking the order, the trade says it may be live with its hash, never "nothing placed"', async () => {
    proxy.forwardedPosts.length = 0;
    proxy.faults.push('go-down');
    const failed = await service
      .executeOrder(
        { provider: 'polymarket', marketId: '90021', tokenId: 'Yes', side: 'BUY', price: 0.17, size: 10 },
        wallet,
      )
      .catch((e: unknown) => e);
    proxy.down = false;
    expect(isOrderInDoubt(failed)).toBe(true);
    const hash = (failed as { context: { orderHash: string } }).context.orderHash;
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect((failed as Error).message).toContain(`${hash} may be live`);
    expect((failed as Error).message).toContain(`pmdesk order get ${hash}`);
    // Sent once, and the exchange does hold it.
    expect(proxy.forwardedPosts).toHaveLength(1);
    expect((await openOrders()).map((o) => o.id)).toContain(hash);
    await service.cancelAll(wallet);
  });
});
