// The order flow against the whole local sandbox (real chain, real CLOB, real aggregator) with a real signer
// worker: a fresh wallet's first order sets its four allowances (mined, once) and gets API credentials; limit,
// market, GTD, FAK and post-only orders; the pending list; waitOrderMatched; cancels; balances and positions.
import { Contract, MaxUint256 } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialVault } from '../../src/main/credentials/api-credentials';
import { MemorySecretStore } from '../../src/main/credentials/secret-store';
import { CREDS_CREATION_WARNING } from '../../packages/toolkit/src/clob/auth';
import { PmDeskError } from '../../packages/toolkit/src/model/errors';
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
import type { ClobClient } from '../../packages/toolkit/src/clob/client';
import { createMarketSource, type MarketSource } from '@pmdesk/toolkit';

const MARKET = '90021';
const SLUG = 'bitcoin-above-120k-on-december-31-2026';

describe('the order flow on the sandbox (order version 2)', () => {
  let sb: TradingSandbox;
  let signer: SignerClient;
  let vault: CredentialVault;
  let service: TradingService;
  let wallet: TradingWallet;
  let address: string;
  let maker: { client: ClobClient; address: string };
  let yes: string;
  let no: string;
  const notices: string[] = [];

  beforeAll(async () => {
    sb = await startTradingSandbox();
    signer = startSignerThread();
    vault = await CredentialVault.open({ keychain: new MemorySecretStore() });
    service = new TradingService({ profile: sb.profile, vault, onNotice: (m) => notices.push(m), timeoutMs: 20_000 });
    ({ address } = await freshWallet(sb, signer));
    wallet = { kind: 'worker', address, signer };
    const market = sb.sandbox.catalog.market(MARKET)!;
    [yes, no] = [market.tokens[0].tokenId, market.tokens[1].tokenId];
    // The other side: a bid for No at 0.60 is an ask for Yes at 0.40; a bid for Yes at 0.20.
    maker = await marketMaker(sb);
    expect(await makerOrder(maker.client, { tokenId: no, side: 'BUY', price: 0.6, size: 200 })).toMatchObject({
      success: true,
      status: 'live',
    });
    expect(await makerOrder(maker.client, { tokenId: yes, side: 'BUY', price: 0.2, size: 200 })).toMatchObject({
      success: true,
      status: 'live',
    });
  }, 120_000);
  afterAll(async () => {
    service?.close();
    await signer?.close();
    await sb?.stop();
  });

  const allowance = (spender: string) =>
    new Contract(
      sb.profile.network.contracts.collateral!,
      ['function allowance(address,address) view returns (uint256)'],
      service.provider,
    ).getFunction('allowance')(address, spender);
  const approvedForAll = (operator: string) =>
    new Contract(
      sb.profile.network.contracts.conditionalTokens!,
      ['function isApprovedForAll(address,address) view returns (bool)'],
      service.provider,
    ).getFunction('isApprovedForAll')(address, operator);

  let restingId: string;

  it("sets a fresh wallet's allowances, gets its credentials, and rests a limit order sized from dollars at the pending list", async () => {
    const { exchange, negRiskExchange } = sb.sandbox.profile.contracts;
    expect(await allowance(exchange)).toBe(0n);
    const placed = await service.executeOrder(
      { provider: 'polymarket', marketId: MARKET, tokenId: 'YES', side: 'BUY', price: 0.05, amountUsd: 0.5 },
      wallet,
    );
    // Version 2: collateral and outcome tokens, each for the exchange and the neg-risk exchange.
    expect(placed.approvals.map((a) => [a.kind, a.spender])).toEqual([
      ['collateral', exchange],
      ['collateral', negRiskExchange],
      ['outcome-tokens', exchange],
      ['outcome-tokens', negRiskExchange],
    ]);
    for (const approval of placed.approvals)
      expect((await service.provider.getTransactionReceipt(approval.txHash))?.status).toBe(1);
    expect(await allowance(exchange)).toBe(MaxUint256);
    expect(await allowance(negRiskExchange)).toBe(MaxUint256);
    expect(await approvedForAll(exchange)).toBe(true);
    expect(await approvedForAll(negRiskExchange)).toBe(true);

    expect(placed).toMatchObject({ status: 'LIVE', pending: true, reconciled: false, orderID: placed.orderHash });
    expect(placed.plan).toMatchObject({ kind: 'limit', price: 0.05, size: 10, orderType: 'GTC' });
    expect(service.pendingOrderIds()).toEqual([placed.orderID]);
    expect(notices.some((n) => n.startsWith(CREDS_CREATION_WARNING))).toBe(true);
    expect(notices.some((n) => n.startsWith('4 allowances are missing'))).toBe(true);
    expect(await vault.load(address, sb.profile.network.clobUrl)).toMatchObject({ key: expect.any(String) });
    restingId = placed.orderID!;
  });

  it('buys at market (FOK, priced from the book) without setting any allowance again, by slug and outcome name', async () => {
    const before = await service.balances(address, []);
    const nonce = await service.provider.getTransactionCount(address);
    const placed = await service.executeOrder(
      { provider: 'Polymarket', marketId: SLUG, tokenId: 'yes', side: 'BUY', amountUsd: 8, orderType: 'FOK' },
      wallet,
    );
    expect(placed.approvals).toEqual([]);
    expect(placed.notices.some((n) => n.includes('allowance'))).toBe(false);
    expect(await service.provider.getTransactionCount(address)).toBe(nonce);
    expect(placed).toMatchObject({ status: 'MATCHED', pending: false });
    expect(service.pendingOrderIds()).toEqual([restingId]);
    const after = await service.balances(address, [placed.market]);
    expect(after.outcomes[yes]).toBe(20_000_000n); // $8 at the 0.40 ask
    expect(before.collateral - after.collateral).toBe(8_000_000n);
  });

  it('sells at market with FAK into the best bid', async () => {
    const placed = await service.executeOrder(
      { provider: 'polymarket', marketId: MARKET, tokenId: yes, side: 'SELL', size: 10, orderType: 'FAK' },
      wallet,
    );
    expect(placed).toMatchObject({
      status: 'MATCHED',
      pending: false,
      plan: { kind: 'market', orderType: 'FAK', amount: 10 },
    });
    expect((await service.balances(address, [placed.market])).outcomes[yes]).toBe(10_000_000n);
  });

  let gtdId: string;
  it('rests a GTD order with its expiration, and refuses a crossing post-only order (its price goes to the oracle)', async () => {
    const expiration = Math.floor(Date.now() / 1000) + 3600;
    const gtd = await service.executeOrder(
      {
        provider: 'polymarket',
        marketId: MARKET,
        tokenId: 'Yes',
        side: 'BUY',
        price: 0.06,
        size: 10,
        orderType: 'GTD',
        expiration,
      },
      wallet,
    );
    expect(gtd).toMatchObject({ status: 'LIVE', pending: true });
    const book = (await maker.client.getOrderBook(yes)) as unknown as { bids: { price: string }[] };
    expect(book.bids.map((b) => b.price)).toContain('0.06');
    expect(await service.order(wallet, gtd.orderID!)).toMatchObject({
      expiration: String(expiration),
      order_type: 'GTD',
    });
    gtdId = gtd.orderID!;

    expect(await service.oracle!.scanPendingPriceData()).toBe(false);
    const crossing = service.executeOrder(
      {
        provider: 'polymarket',
        marketId: MARKET,
        tokenId: 'Yes',
        side: 'BUY',
        price: 0.4,
        size: 5,
        orderType: 'GTC',
        postOnly: true,
      },
      wallet,
    );
    await expect(crossing).rejects.toThrow(/post-only/i);
    expect(await service.oracle!.scanPendingPriceData()).toBe(true);
    expect(service.pendingOrderIds()).toEqual([restingId, gtdId]);
  });

  it('waits for a resting order to match, and says false for an order that never will', async () => {
    const placed = await service.executeOrder(
      { provider: 'polymarket', marketId: MARKET, tokenId: 'Yes', side: 'BUY', price: 0.3, size: 10 },
      wallet,
    );
    expect(placed).toMatchObject({ status: 'LIVE', pending: true });
    const waiting = service.waitOrderMatched(wallet, placed.orderID!, { intervalMs: 50, timeoutMs: 60_000 });
    // A buy of No at 0.70 is the mirror of our Yes bid at 0.30: it fills it on the chain.
    expect(await makerOrder(maker.client, { tokenId: no, side: 'BUY', price: 0.7, size: 10 }, 'FOK')).toMatchObject({
      status: 'matched',
    });
    expect(await waiting).toBe(true);
    expect(service.pendingOrderIds()).not.toContain(placed.orderID);
    expect(await service.waitOrderMatched(wallet, `0x${'0'.repeat(64)}`)).toBe(false);
  });

  it('lists the wallet’s open orders and trades', async () => {
    const open = await service.openOrders(wallet, { asset_id: yes });
    expect(open.map((o) => o.id).sort()).toEqual([restingId, gtdId].sort());
    const conditionId = sb.sandbox.catalog.market(MARKET)!.conditionId;
    expect((await service.openOrders(wallet, { market: conditionId })).length).toBe(2);
    // The FOK buy, the FAK sell and the filled resting bid: three trades of this wallet's orders.
    expect((await service.trades(wallet, { market: conditionId })).length).toBe(3);
  });

  it('cancels one order, then all, and the pending list follows', async () => {
    await service.cancelOrder(wallet, restingId);
    expect(service.pendingOrderIds()).toEqual([gtdId]);
    await service.cancelAll(wallet);
    expect(service.pendingOrderIds()).toEqual([]);
  });

  it('cancels a market’s orders and many by id', async () => {
    const a = await service.executeOrder(
      { provider: 'polymarket', marketId: MARKET, tokenId: 'Yes', side: 'BUY', price: 0.07, size: 10 },
      wallet,
    );
    const b = await service.executeOrder(
      { provider: 'polymarket', marketId: MARKET, tokenId: 'Yes', side: 'BUY', price: 0.08, size: 10 },
      wallet,
    );
    const c = await service.executeOrder(
      { provider: 'polymarket', marketId: MARKET, tokenId: 'Yes', side: 'BUY', price: 0.09, size: 10 },
      wallet,
    );
    await service.cancelOrders(wallet, [a.orderID!, b.orderID!]);
    expect(service.pendingOrderIds()).toEqual([c.orderID]);
    await service.cancelMarketOrders(wallet, { asset_id: yes });
    expect(service.pendingOrderIds()).toEqual([]);
  });

  it('shows the position the trades left', async () => {
    const positions = await service.positions(address);
    expect(positions.some((p) => JSON.stringify(p).includes(yes))).toBe(true);
  });

  it('uses the stored credentials in a new session, proving them first, without creating any', async () => {
    const later: string[] = [];
    const next = new TradingService({ profile: sb.profile, vault, onNotice: (m) => later.push(m), timeoutMs: 20_000 });
    try {
      const placed = await next.executeOrder(
        { provider: 'polymarket', marketId: MARKET, tokenId: 'Yes', side: 'BUY', price: 0.05, size: 5 },
        wallet,
      );
      expect(placed.status).toBe('LIVE');
      expect(later).toEqual([]);
      await next.cancelAll(wallet);
    } finally {
      next.close();
    }
  });

  it('creates credentials first when asked (the other reading of docs/protocol.md#order-flow) for a wallet that has none', async () => {
    const other = await freshWallet(sb, signer);
    const created: string[] = [];
    const createFirst = new TradingService({
      profile: sb.profile,
      vault,
      credentialsOrder: 'create-first',
      onNotice: (m) => created.push(m),
      timeoutMs: 20_000,
    });
    try {
      const placed = await createFirst.executeOrder(
        { provider: 'polymarket', marketId: MARKET, tokenId: 'No', side: 'BUY', price: 0.05, size: 5 },
        { kind: 'worker', address: other.address, signer },
      );
      expect(placed.status).toBe('LIVE');
      expect(created.filter((n) => n.startsWith(CREDS_CREATION_WARNING))).toHaveLength(1);
    } finally {
      createFirst.close();
    }
  });

  it('sends a fresh wallet’s approvals once when two of its orders start together', async () => {
    const other = await freshWallet(sb, signer);
    const both: TradingWallet = { kind: 'worker', address: other.address, signer };
    const order = { provider: 'polymarket', marketId: MARKET, tokenId: 'Yes', side: 'BUY' as const, size: 5 };
    const [a, b] = await Promise.all([
      service.executeOrder({ ...order, price: 0.05 }, both),
      service.executeOrder({ ...order, price: 0.06 }, both),
    ]);
    expect(a.approvals.length + b.approvals.length).toBe(4);
    expect(await service.provider.getTransactionCount(other.address)).toBe(4);
    expect([a.status, b.status]).toEqual(['LIVE', 'LIVE']);
    await service.cancelAll(both);
  });

  it('trades a neg-risk market on the neg-risk exchange with the allowances already set', async () => {
    const negRisk = sb.sandbox.catalog.market('90011')!;
    expect(negRisk.negRisk).toBe(true);
    await makerOrder(maker.client, { tokenId: negRisk.tokens[1].tokenId, side: 'BUY', price: 0.6, size: 50 });
    const placed = await service.executeOrder(
      { provider: 'polymarket', marketId: '90011', tokenId: 'yes', side: 'BUY', amountUsd: 2, orderType: 'FOK' },
      wallet,
    );
    expect(placed).toMatchObject({ status: 'MATCHED', pending: false, approvals: [], market: { negRisk: true } });
    expect((await service.balances(address, [placed.market])).outcomes[negRisk.tokens[0].tokenId]).toBe(5_000_000n);
  });

  it('reports a refusal with the exchange’s reason', async () => {
    // A FOK buy deeper than the book: no pre-trade check can know the depth, the exchange refuses it.
    const thin = service.executeOrder(
      {
        provider: 'polymarket',
        marketId: MARKET,
        tokenId: 'Yes',
        side: 'BUY',
        price: 0.4,
        size: 500,
        orderType: 'FOK',
      },
      wallet,
    );
    await expect(thin).rejects.toBeInstanceOf(PmDeskError);
  });

  it('keeps the tick between orders; refused for a tick that changed, it reads the tick again and says so, never resending', async () => {
    const { conditionId } = sb.sandbox.catalog.market(MARKET)!;
    // A market source that lags the exchange (it still says the old tick), so the pre-trade checks let the order
    // through and only the exchange can refuse it: the case a kept tick must survive.
    const live = createMarketSource(sb.profile.endpoints);
    const lagging: MarketSource = Object.assign(Object.create(live) as MarketSource, {
      getMarket: async (protocol: string, id: string) => ({
        ...(await live.getMarket(protocol, id)),
        minimum_tick_size: '0.01',
      }),
    });
    const flow = new TradingService({ profile: sb.profile, vault, markets: lagging, timeoutMs: 20_000 });
    try {
      const order = { provider: 'polymarket', marketId: MARKET, tokenId: 'Yes', side: 'BUY', size: 10 } as const;
      const first = await flow.executeOrder({ ...order, price: 0.05 }, wallet);
      expect(first.status).toBe('LIVE');
      // That order left the market's tick kept (exchange-terms.ts): the next one asks nothing for it.
      expect(await flow.terms.tickSize(yes)).toBe('0.01');
      const before = (await flow.openOrders(wallet, { asset_id: yes })).length;
      // The exchange makes the tick coarser behind the flow's back (no market channel here to say so).
      sb.sandbox.clob.setTickSize(conditionId, '0.1');
      const refused = flow.executeOrder({ ...order, price: 0.15 }, wallet);
      await expect(refused).rejects.toThrow(/tick again \(it is now 0\.1\) and did not send the order again/);
      expect(await flow.terms.tickSize(yes)).toBe('0.1');
      // Nothing placed, at that price or any other.
      expect(await flow.openOrders(wallet, { asset_id: yes })).toHaveLength(before);
      await flow.cancelAll(wallet);
    } finally {
      sb.sandbox.clob.setTickSize(conditionId, '0.01');
      flow.close();
    }
  });
});
