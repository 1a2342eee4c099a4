// After a fill, Polymarket's exchange does not see the shares it brought until asked to read the chain again
// (GET /balance-allowance/update for that token): a sandbox that models that lag refuses a SELL right after a BUY
// from a client that does not ask, and takes it once asked; PM Desk's order flow asks on its own, so its SELL
// right after a BUY goes through.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialVault } from '../../src/main/credentials/api-credentials';
import { MemorySecretStore } from '../../src/main/credentials/secret-store';
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

const MARKET = '90021';

describe('the exchange’s lagging view of shares after a fill', () => {
  let sb: TradingSandbox;
  let signer: SignerClient;
  let maker: { client: ClobClient; address: string };
  let yes: string;
  let no: string;

  beforeAll(async () => {
    // A lag far longer than the test: only a refresh makes the shares seen.
    sb = await startTradingSandbox(2, { shareViewLagMs: 3_600_000 });
    signer = startSignerThread();
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
    await signer?.close();
    await sb?.stop();
  });

  it('refuses a SELL right after a BUY until GET /balance-allowance/update for the token, as Polymarket does', async () => {
    const trader = await marketMaker(sb, 2);
    expect(await makerOrder(trader.client, { tokenId: yes, side: 'BUY', price: 0.4, size: 10 }, 'FOK')).toMatchObject({
      success: true,
      status: 'matched',
    });
    // The chain holds the 10 shares; the exchange still sees none.
    const seen = (await trader.client.getBalanceAllowance({ asset_type: 'CONDITIONAL', token_id: yes })) as {
      balance: string;
    };
    expect(seen.balance).toBe('0');
    await expect(
      makerOrder(trader.client, { tokenId: yes, side: 'SELL', price: 0.2, size: 10 }, 'FOK'),
    ).rejects.toThrow(/not enough balance \/ allowance/);

    await trader.client.updateBalanceAllowance({ asset_type: 'CONDITIONAL', token_id: yes });
    expect(
      ((await trader.client.getBalanceAllowance({ asset_type: 'CONDITIONAL', token_id: yes })) as { balance: string })
        .balance,
    ).toBe('10000000');
    expect(await makerOrder(trader.client, { tokenId: yes, side: 'SELL', price: 0.2, size: 10 }, 'FOK')).toMatchObject({
      success: true,
      status: 'matched',
    });
  });

  it('lets PM Desk sell right after it bought: the flow asks the exchange to read the token first', async () => {
    const vault = await CredentialVault.open({ keychain: new MemorySecretStore() });
    const service = new TradingService({ profile: sb.profile, vault, onNotice: () => {}, timeoutMs: 20_000 });
    try {
      const { address } = await freshWallet(sb, signer);
      const wallet: TradingWallet = { kind: 'worker', address, signer };
      const bought = await service.executeOrder(
        { provider: 'polymarket', marketId: MARKET, tokenId: 'Yes', side: 'BUY', amountUsd: 4, orderType: 'FOK' },
        wallet,
      );
      expect(bought).toMatchObject({ status: 'MATCHED', pending: false });
      expect((await service.balances(address, [bought.market])).outcomes[yes]).toBe(10_000_000n);
      const sold = await service.executeOrder(
        { provider: 'polymarket', marketId: MARKET, tokenId: 'Yes', side: 'SELL', size: 10, orderType: 'FAK' },
        wallet,
      );
      expect(sold).toMatchObject({ status: 'MATCHED', pending: false });
      expect((await service.balances(address, [sold.market])).outcomes[yes]).toBe(0n);
    } finally {
      service.close();
    }
  });
});
