// A market order's worst price is a bound the order flow keeps (issue 28): against the whole local sandbox with a
// real signer worker, a market BUY whose book moved past its worst price between its confirmation (made ready)
// and the click is not sent, with a sentence saying so; one the book still fills within it fills, never worse
// than that price on the chain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialVault } from '../../src/main/credentials/api-credentials';
import { MemorySecretStore } from '../../src/main/credentials/secret-store';
import { startSignerThread } from '../../src/main/wallets/signer-thread';
import type { SignerClient } from '../../src/main/wallets/signer-client';
import { TradingService, type TradingWallet } from '../../src/main/trading/service';
import { PreTradeCheckError } from '../../src/main/trading/checks';
import type { OrderIntent } from '../../src/main/trading/order-input';
import {
  freshWallet,
  makerOrder,
  marketMaker,
  startTradingSandbox,
  type TradingSandbox,
} from '../helpers/trading-sandbox';

const MARKET = '90021'; // Bitcoin above $120k: a 1¢ tick, a minimum of 5 shares, no resting orders at the start

describe('a market order keeps its worst price', () => {
  let sb: TradingSandbox;
  let signer: SignerClient;
  let service: TradingService;
  let wallet: TradingWallet;
  let address: string;
  let yes: string;
  let no: string;
  let maker: Awaited<ReturnType<typeof marketMaker>>;
  const marketBuy = (dollars: number, worst: number): OrderIntent => ({
    provider: 'polymarket',
    marketId: MARKET,
    tokenId: 'YES',
    side: 'BUY',
    amountUsd: dollars,
    price: worst,
  });
  /** Another trader's ask for YES at `price`: a bid for NO at 1 − price, as the exchange shows it. */
  const offerYes = async (price: number, size: number): Promise<string> => {
    const answer = await makerOrder(maker.client, {
      tokenId: no,
      side: 'BUY',
      price: Math.round((1 - price) * 100) / 100,
      size,
    });
    expect(answer).toMatchObject({ success: true, status: 'live' });
    return answer.orderID!;
  };
  const collateral = async () => (await service.balances(address)).collateral;
  const yesShares = async () => (await service.balances(address, [{ tokens: [{ token_id: yes }] }])).outcomes[yes]!;

  beforeAll(async () => {
    sb = await startTradingSandbox();
    signer = startSignerThread();
    const vault = await CredentialVault.open({ keychain: new MemorySecretStore() });
    service = new TradingService({ profile: sb.profile, vault, timeoutMs: 20_000 });
    ({ address } = await freshWallet(sb, signer));
    wallet = { kind: 'worker', address, signer };
    [yes, no] = [
      sb.sandbox.catalog.market(MARKET)!.tokens[0].tokenId,
      sb.sandbox.catalog.market(MARKET)!.tokens[1].tokenId,
    ];
    maker = await marketMaker(sb);
    // The first order sets the wallet's allowances (transactions): a limit bid far from the book, cancelled.
    const first = await service.executeOrder(
      { provider: 'polymarket', marketId: MARKET, tokenId: 'YES', side: 'BUY', price: 0.01, size: 5 },
      wallet,
    );
    await service.cancelOrder(wallet, first.orderID!);
  }, 120_000);
  afterAll(async () => {
    service?.close();
    await signer?.close();
    await sb?.stop();
  });

  it('does not send a market BUY made ready at a worst price the book has since moved past, and says why', async () => {
    const cheap = await offerYes(0.3, 10);
    await offerYes(0.7, 50);
    // $2 fills at 30¢ now: confirmed with a worst price of 33¢ (30¢ and three ticks), made ready, not sent.
    const ready = await service.readyOrder({ ...marketBuy(2, 0.33), orderType: 'FOK' }, wallet);
    expect(ready.ready).toBe(true);
    // The 30¢ ask goes before the click: what is left is at 70¢, past the bound.
    await maker.client.cancelOrder(cheap);
    const before = await collateral();
    const refused = await service
      .executeOrder({ ...marketBuy(2, 0.33), orderType: 'FOK' }, wallet)
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PreTradeCheckError);
    expect((refused as PreTradeCheckError).problems).toEqual([
      {
        check: 'PRICE_MOVED',
        blocking: true,
        message:
          'The book moved past your max price 33¢: it has no asks at 33¢ or better. Nothing was sent; review the new numbers.',
      },
    ]);
    // Never sent: the exchange does not know the order made ready, and no money moved.
    await expect(service.order(wallet, ready.orderHash!)).rejects.toThrow();
    expect(await collateral()).toBe(before);
    expect(await yesShares()).toBe(0n);
  }, 60_000);

  it('a market BUY the book fills only in part within its worst price is not sent either (fill-or-kill)', async () => {
    await offerYes(0.31, 5); // $1.55 at 31¢; the rest of $4 would be at 70¢
    const refused = await service
      .executeOrder({ ...marketBuy(4, 0.34), orderType: 'FOK' }, wallet)
      .catch((e: unknown) => e);
    expect((refused as PreTradeCheckError).problems?.[0]?.message).toBe(
      'The book moved past your max price 34¢: it fills only $1.55 of the $4.00 at 34¢ or better. Nothing was sent; review the new numbers.',
    );
    expect(await yesShares()).toBe(0n);
  }, 60_000);

  it('a market BUY the book still fills within its worst price fills, never worse than it on the chain', async () => {
    const before = await collateral();
    const placed = await service.executeOrder({ ...marketBuy(1.5, 0.34), orderType: 'FOK' }, wallet);
    expect(placed.status).toBe('MATCHED');
    await expect.poll(yesShares, { timeout: 30_000 }).toBeGreaterThan(0n);
    const spent = Number(before - (await collateral())) / 1e6;
    const shares = Number(await yesShares()) / 1e6;
    expect(spent).toBeGreaterThan(0);
    expect(spent / shares).toBeLessThanOrEqual(0.34);
  }, 60_000);
});
