// The allowance flow for the other order versions on a sandbox running them: version 1 needs the exchange, the
// neg-risk exchange and the neg-risk adapter approved for collateral and outcome tokens (docs/protocol.md#order-flow); version 3 only
// its one exchange (docs/protocol.md#allowances). A fresh wallet's first order sets exactly those, then trades.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialVault } from '../../src/main/credentials/api-credentials';
import { MemorySecretStore } from '../../src/main/credentials/secret-store';
import { startSignerThread } from '../../src/main/wallets/signer-thread';
import type { SignerClient } from '../../src/main/wallets/signer-client';
import { TradingService } from '../../src/main/trading/service';
import { freshWallet, startTradingSandbox, type TradingSandbox } from '../helpers/trading-sandbox';

for (const version of [1, 3] as const) {
  describe(`order version ${version} on a sandbox running it`, () => {
    let sb: TradingSandbox;
    let signer: SignerClient;
    let service: TradingService;

    beforeAll(async () => {
      sb = await startTradingSandbox(version);
      signer = startSignerThread();
      service = new TradingService({
        profile: sb.profile,
        vault: await CredentialVault.open({ keychain: new MemorySecretStore() }),
        timeoutMs: 20_000,
      });
    }, 120_000);
    afterAll(async () => {
      service?.close();
      await signer?.close();
      await sb?.stop();
    });

    it('sets the approvals this version needs, once, and places the order', async () => {
      const { address } = await freshWallet(sb, signer);
      const wallet = { kind: 'worker' as const, address, signer };
      const { exchange, negRiskExchange, negRiskAdapter } = sb.sandbox.profile.contracts;
      const spenders = version === 1 ? [exchange, negRiskExchange, negRiskAdapter] : [exchange];
      const order = {
        provider: 'polymarket',
        marketId: '90021',
        tokenId: 'Yes',
        side: 'BUY' as const,
        price: 0.1,
        size: 10,
      };
      const first = await service.executeOrder(order, wallet);
      expect(first.approvals.map((a) => [a.kind, a.spender])).toEqual([
        ...spenders.map((s) => ['collateral', s]),
        ...spenders.map((s) => ['outcome-tokens', s]),
      ]);
      expect(first).toMatchObject({ status: 'LIVE', pending: true });
      const second = await service.executeOrder({ ...order, price: 0.11 }, wallet);
      expect(second).toMatchObject({ status: 'LIVE', pending: true, approvals: [] });
      await service.cancelAll(wallet);
      expect(service.pendingOrderIds()).toEqual([]);
    });
  });
}
