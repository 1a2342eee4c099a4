// Orders made ready while their confirmation is open (TradingService.readyOrder), against the whole local
// sandbox with a real signer worker: the click posts exactly the order made ready (same hash, once); what makes
// a ready order stale (another order of the account, a money move, its age, a new tick, a lock) makes the click
// build a new one or refuse; a market order with no worst price made ready at the live book's price, and made anew
// at the click when the live book moved; and what is never made ready (a market order with no worst price and no
// live book, failing checks, missing allowances).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialVault } from '../../src/main/credentials/api-credentials';
import { MemorySecretStore } from '../../src/main/credentials/secret-store';
import { startSignerThread } from '../../src/main/wallets/signer-thread';
import type { SignerClient } from '../../src/main/wallets/signer-client';
import { TradingService, type TradingWallet } from '../../src/main/trading/service';
import { PreTradeCheckError } from '../../src/main/trading/checks';
import type { OrderIntent } from '../../src/main/trading/order-input';
import { MarketFeed } from '../../src/main/feeds/market-feed';
import { ClobClient, marketPriceFromBook } from '@pmdesk/toolkit';
import { PASSWORD, freshWallet, startTradingSandbox, type TradingSandbox } from '../helpers/trading-sandbox';

const MARKET = '90021'; // Bitcoin above $120k: a 1¢ tick, a minimum of 5 shares

describe('orders made ready before the click', () => {
  let sb: TradingSandbox;
  let signer: SignerClient;
  let service: TradingService;
  let wallet: TradingWallet;
  let address: string;
  let keystore: string;
  let yes: string;
  const bid = (price: number, size = 10): OrderIntent => ({
    provider: 'polymarket',
    marketId: MARKET,
    tokenId: 'YES',
    side: 'BUY',
    price,
    size,
  });
  /** A market BUY of YES for `dollars`, at the book (no worst price) unless one is given. */
  const marketBuy = (dollars: number, worst?: number): OrderIntent => ({
    provider: 'polymarket',
    marketId: MARKET,
    tokenId: 'YES',
    side: 'BUY',
    amountUsd: dollars,
    ...(worst !== undefined ? { price: worst } : {}),
  });

  beforeAll(async () => {
    sb = await startTradingSandbox();
    signer = startSignerThread();
    const vault = await CredentialVault.open({ keychain: new MemorySecretStore() });
    service = new TradingService({ profile: sb.profile, vault, timeoutMs: 20_000, readyForMs: 1_500 });
    ({ address, keystore } = await freshWallet(sb, signer));
    wallet = { kind: 'worker', address, signer };
    yes = sb.sandbox.catalog.market(MARKET)!.tokens[0].tokenId;
  }, 120_000);
  afterAll(async () => {
    service?.close();
    await signer?.close();
    await sb?.stop();
  });

  it('does not make ready an order whose allowances are missing: approvals are transactions, only the click sends them', async () => {
    const nonce = await service.provider.getTransactionCount(address);
    expect(await service.readyOrder(bid(0.01), wallet)).toEqual({ ready: false });
    expect(await service.provider.getTransactionCount(address)).toBe(nonce);
    // The click does the whole flow: the approvals, then the order.
    const placed = await service.executeOrder(bid(0.01), wallet);
    expect(placed.approvals.length).toBeGreaterThan(0);
    expect(placed).toMatchObject({ status: 'LIVE', pending: true });
  });

  it('posts the very order made ready (same hash), once; the same order asked again is made anew', async () => {
    const ready = await service.readyOrder(bid(0.02), wallet);
    expect(ready).toEqual({ ready: true, orderHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    // Made ready, not sent: the exchange does not know it.
    await expect(service.order(wallet, ready.orderHash!)).rejects.toThrow();
    const placed = await service.executeOrder(bid(0.02), wallet);
    expect(placed).toMatchObject({
      orderHash: ready.orderHash,
      orderID: ready.orderHash,
      status: 'LIVE',
      pending: true,
    });
    expect(await service.order(wallet, ready.orderHash!)).toMatchObject({ price: '0.02', original_size: '10' });
    const again = await service.executeOrder(bid(0.02), wallet);
    expect(again.orderHash).not.toBe(ready.orderHash);
  });

  it('makes a ready order again when another order of the account went first, or money moved', async () => {
    const ready = await service.readyOrder(bid(0.03), wallet);
    expect(ready.ready).toBe(true);
    await service.executeOrder(bid(0.04), wallet);
    const placed = await service.executeOrder(bid(0.03), wallet);
    expect(placed.status).toBe('LIVE');
    expect(placed.orderHash).not.toBe(ready.orderHash);

    const second = await service.readyOrder(bid(0.03, 11), wallet);
    expect(second.ready).toBe(true);
    service.accountChanged(address.toUpperCase().replace('0X', '0x'));
    expect((await service.executeOrder(bid(0.03, 11), wallet)).orderHash).not.toBe(second.orderHash);
  });

  it('makes a ready order again once it waited too long, or the market tick changed', async () => {
    const old = await service.readyOrder(bid(0.05), wallet);
    await new Promise((r) => setTimeout(r, 1_700)); // readyForMs 1,500 here
    expect((await service.executeOrder(bid(0.05), wallet)).orderHash).not.toBe(old.orderHash);

    const ticked = await service.readyOrder(bid(0.06), wallet);
    expect(ticked.ready).toBe(true);
    service.tickSizeChanged(yes, '0.001');
    try {
      const placed = await service.executeOrder(bid(0.06), wallet);
      expect(placed.orderHash).not.toBe(ticked.orderHash);
    } finally {
      service.tickSizeChanged(yes, '0.01');
    }
  });

  it('sends nothing a locked wallet made ready: the click is refused as locked', async () => {
    const ready = await service.readyOrder(bid(0.07), wallet);
    expect(ready.ready).toBe(true);
    await signer.lock(address);
    try {
      const error = await service.executeOrder(bid(0.07), wallet).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PreTradeCheckError);
      expect((error as PreTradeCheckError).problems.map((p) => p.check)).toContain('WALLET_LOCKED');
      await expect(service.order(wallet, ready.orderHash!)).rejects.toThrow();
    } finally {
      await signer.unlock(keystore, PASSWORD);
    }
  });

  it("does not make ready an outside wallet's order: its owner would be asked to sign before Confirm", async () => {
    const asked: string[] = [];
    const outside: TradingWallet = {
      kind: 'json-rpc',
      walletAddress: address,
      signer: {
        getAddress: async () => address,
        signTypedData: async () => {
          asked.push('signTypedData');
          throw new Error('not now');
        },
      },
      approvals: {
        sendApproval: async () => {
          throw new Error('not now');
        },
      } as never,
    };
    expect(await service.readyOrder(bid(0.09), outside)).toEqual({ ready: false });
    expect(asked).toEqual([]);
  });

  it('does not make ready a market order with no worst price and no live book, or one whose checks fail', async () => {
    expect(service.liveBook).toBeUndefined();
    expect(await service.readyOrder({ ...marketBuy(5), orderType: 'FOK' }, wallet)).toEqual({ ready: false });
    // Below the market's 5-share minimum: the check fails now and again at the click, with its sentence.
    expect(await service.readyOrder(bid(0.08, 1), wallet)).toEqual({ ready: false });
    await expect(service.executeOrder(bid(0.08, 1), wallet)).rejects.toBeInstanceOf(PreTradeCheckError);
  });

  /** Another trader's ask for YES at `price`: a bid for NO at 1 − price, as the exchange shows it. */
  let maker: TradingWallet | undefined;
  const offerYes = async (price: number, size = 40) => {
    maker ??= { kind: 'worker', address: (await freshWallet(sb, signer)).address, signer };
    const noPrice = Math.round((1 - price) * 100) / 100;
    await service.executeOrder(
      { provider: 'polymarket', marketId: MARKET, tokenId: 'NO', side: 'BUY', price: noPrice, size },
      maker,
    );
  };

  it("makes a market order with a worst price ready without any book: its price is the trader's", async () => {
    await offerYes(0.6);
    const ready = await service.readyOrder({ ...marketBuy(5, 0.99), orderType: 'FAK' }, wallet);
    expect(ready).toEqual({ ready: true, orderHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    const placed = await service.executeOrder({ ...marketBuy(5, 0.99), orderType: 'FAK' }, wallet);
    expect(placed.orderHash).toBe(ready.orderHash);
  });

  it("makes a market order with no worst price ready at the live book's price; a book that moved by the click makes it anew", async () => {
    const clob = new ClobClient({
      host: sb.sandbox.profile.clobUrl,
      chainId: sb.profile.network.chainId,
      timeoutMs: 15_000,
    });
    const feed = new MarketFeed({
      wsUrl: sb.sandbox.profile.wsUrl,
      fetchBook: async (tokenId) => (await clob.getOrderBook(tokenId)) as never,
    });
    try {
      feed.subscribe([yes]);
      feed.start();
      await expect.poll(() => feed.exchangeBook(yes) !== undefined, { timeout: 30_000 }).toBe(true); // the live book, checked by hash
      service.liveBook = (tokenId) => feed.exchangeBook(tokenId);
      const bestAsk = () => Number(feed.exchangeBook(yes)!.asks.at(-1)!.price);
      const asked = bestAsk();

      // Priced from the live book and posted as made: the price GET /book gives (the official client's) is the same.
      expect(marketPriceFromBook((await clob.getOrderBook(yes)) as never, 'BUY', 5)).toBe(
        marketPriceFromBook(feed.exchangeBook(yes), 'BUY', 5),
      );
      const ready = await service.readyOrder({ ...marketBuy(5), orderType: 'FOK' }, wallet);
      expect(ready).toEqual({ ready: true, orderHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
      const placed = await service.executeOrder({ ...marketBuy(5), orderType: 'FOK' }, wallet);
      expect(placed).toMatchObject({ orderHash: ready.orderHash, status: 'MATCHED' });

      // Another trader's ask comes in under the best (a bid for No at 1 − p is an ask for Yes at p) after the order
      // was made ready: the click sees the live book price it lower and makes the order again from the book.
      const second = await service.readyOrder({ ...marketBuy(5), orderType: 'FOK' }, wallet);
      expect(second.ready).toBe(true);
      const lower = Math.round((bestAsk() - 0.01) * 100) / 100;
      await offerYes(lower);
      await expect.poll(bestAsk, { timeout: 30_000 }).toBe(lower); // the lower ask in the live book
      const again = await service.executeOrder({ ...marketBuy(5), orderType: 'FOK' }, wallet);
      expect(again.orderHash).not.toBe(second.orderHash);
      expect(again.status).toBe('MATCHED');
      expect(lower).toBeLessThan(asked);
    } finally {
      service.liveBook = undefined;
      feed.close();
    }
  });
});
