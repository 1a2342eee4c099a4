// Fees as the exchange charges them, previewed and then moved on the sandbox's chain: on the tech market (90041,
// taker fee 0.04·p(1−p)) a taker BUY and SELL move exactly the previewed fee to the fee recipient and the price
// plus (minus) that fee from the trader; a limit BUY whose balance covers the price but not the fee is refused by
// the preview's check, and a market BUY in the same spot is shrunk as Polymarket's own client does.
import { Contract } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialVault } from '../../src/main/credentials/api-credentials';
import { MemorySecretStore } from '../../src/main/credentials/secret-store';
import { startSignerThread } from '../../src/main/wallets/signer-thread';
import type { SignerClient } from '../../src/main/wallets/signer-client';
import { TradingService, type TradingWallet } from '../../src/main/trading/service';
import { previewOrder } from '../../src/main/trading/preview';
import { PreTradeCheckError } from '../../src/main/trading/checks';
import {
  freshWallet,
  makerOrder,
  marketMaker,
  startTradingSandbox,
  type TradingSandbox,
} from '../helpers/trading-sandbox';
import type { ClobClient } from '../../packages/toolkit/src/clob/client';

const MARKET = '90041';
const units = (dollars: number): bigint => BigInt(Math.round(dollars * 1_000_000));

describe('fees on a fee market, previewed and charged (order version 2)', () => {
  let sb: TradingSandbox;
  let signer: SignerClient;
  let service: TradingService;
  let maker: { client: ClobClient; address: string };
  let yes: string;
  let no: string;

  beforeAll(async () => {
    sb = await startTradingSandbox();
    signer = startSignerThread();
    const vault = await CredentialVault.open({ keychain: new MemorySecretStore() });
    service = new TradingService({ profile: sb.profile, vault, timeoutMs: 20_000 });
    const market = sb.sandbox.catalog.market(MARKET)!;
    [yes, no] = [market.tokens[0].tokenId, market.tokens[1].tokenId];
    maker = await marketMaker(sb);
    // A bid for No at 0.50 is an ask for Yes at 0.50; a bid for Yes at 0.40.
    expect(await makerOrder(maker.client, { tokenId: no, side: 'BUY', price: 0.5, size: 200 })).toMatchObject({
      success: true,
      status: 'live',
    });
    expect(await makerOrder(maker.client, { tokenId: yes, side: 'BUY', price: 0.4, size: 200 })).toMatchObject({
      success: true,
      status: 'live',
    });
  }, 120_000);
  afterAll(async () => {
    service?.close();
    await signer?.close();
    await sb?.stop();
  });

  const collateralOf = (address: string): Promise<bigint> =>
    new Contract(
      sb.profile.network.contracts.collateral!,
      ['function balanceOf(address) view returns (uint256)'],
      service.provider,
    ).getFunction('balanceOf')(address) as Promise<bigint>;
  const feesPaid = () => collateralOf(sb.sandbox.profile.feeRecipient);
  const worker = async (collateral: number): Promise<{ wallet: TradingWallet; address: string }> => {
    const { address } = await freshWallet(sb, signer, { collateral });
    return { wallet: { kind: 'worker', address, signer }, address };
  };

  it('a taker BUY and SELL move exactly the previewed fee to the fee recipient, and the price ± fee from the trader', async () => {
    const { wallet, address } = await worker(100);
    const buy = {
      provider: 'polymarket',
      marketId: MARKET,
      tokenId: 'Yes',
      side: 'BUY' as const,
      price: 0.5,
      size: 10,
    };
    const preview = await previewOrder(service, buy, wallet);
    // 10 shares at 0.50: 10 × 0.04 × 0.5 × 0.5.
    expect(preview).toMatchObject({ price: 0.5, shares: 10, cost: 5, fees: 0.1, feeTerms: 'taker fee 4 %·p(1−p)' });
    expect(preview.problems.filter((p) => p.blocking)).toEqual([]);

    const [fees0, trader0] = [await feesPaid(), await collateralOf(address)];
    expect(await service.executeOrder(buy, wallet)).toMatchObject({ status: 'MATCHED' });
    expect((await feesPaid()) - fees0).toBe(units(preview.fees));
    expect(trader0 - (await collateralOf(address))).toBe(units(preview.cost) + units(preview.fees));

    const sell = {
      provider: 'polymarket',
      marketId: MARKET,
      tokenId: yes,
      side: 'SELL' as const,
      price: 0.4,
      size: 10,
    };
    const sold = await previewOrder(service, sell, wallet);
    // 10 × 0.04 × 0.4 × 0.6, out of the $4 proceeds.
    expect(sold).toMatchObject({ price: 0.4, shares: 10, cost: 4, fees: 0.096 });
    const [fees1, trader1] = [await feesPaid(), await collateralOf(address)];
    expect(await service.executeOrder(sell, wallet)).toMatchObject({ status: 'MATCHED' });
    expect((await feesPaid()) - fees1).toBe(units(sold.fees));
    expect((await collateralOf(address)) - trader1).toBe(units(sold.cost) - units(sold.fees));
  });

  it('reads the market’s fee terms from the profile’s source', async () => {
    expect((await service.markets.getMarket('polymarket', MARKET)).fees).toEqual({
      rate: 0.04,
      exponent: 1,
      takerOnly: true,
    });
  });

  it('a resting limit order that takes nothing is previewed with no fee', async () => {
    const { wallet } = await worker(100);
    const preview = await previewOrder(
      service,
      { provider: 'polymarket', marketId: MARKET, tokenId: 'Yes', side: 'BUY', price: 0.3, size: 10 },
      wallet,
    );
    expect(preview).toMatchObject({ cost: 3, fees: 0, feeTerms: 'taker fee 4 %·p(1−p)' });
  });

  it('refuses a limit BUY whose balance covers the price but not the fee, saying so', async () => {
    const { wallet, address } = await worker(5);
    const buy = {
      provider: 'polymarket',
      marketId: MARKET,
      tokenId: 'Yes',
      side: 'BUY' as const,
      price: 0.5,
      size: 10,
    };
    const preview = await previewOrder(service, buy, wallet);
    expect(preview.problems).toContainEqual({
      check: 'NOT_ENOUGH_COLLATERAL',
      blocking: true,
      message:
        'This buy needs $5.10 ($5.00 at the price and a $0.10 taker fee) but the wallet holds $5.00: deposit more or buy less.',
    });
    const fees0 = await feesPaid();
    await expect(service.executeOrder(buy, wallet)).rejects.toBeInstanceOf(PreTradeCheckError);
    expect([await feesPaid(), await collateralOf(address)]).toEqual([fees0, units(5)]);
  });

  it('shrinks a market BUY whose amount and fee exceed the balance, as the official client does, and the fee fits', async () => {
    const { wallet, address } = await worker(5);
    const buy = { provider: 'polymarket', marketId: MARKET, tokenId: 'Yes', side: 'BUY' as const, amountUsd: 5 };
    const preview = await previewOrder(service, { ...buy, orderType: 'FOK' }, wallet);
    // The official shrink: 5 − 5 / 0.5 × 0.04 × 0.25 = 4.9, i.e. 9.8 shares whose fee is 0.098.
    expect(preview).toMatchObject({ orderType: 'FOK', price: 0.5, shares: 9.8, cost: 4.9, fees: 0.098 });
    const shrunk = preview.problems.find((p) => p.check === 'AMOUNT_SHRUNK_FOR_FEES');
    expect(shrunk).toMatchObject({ blocking: false });
    expect(shrunk!.message).toContain('shrunk to $4.9');
    expect(preview.problems.filter((p) => p.blocking)).toEqual([]);

    const fees0 = await feesPaid();
    const placed = await service.executeOrder({ ...buy, orderType: 'FOK' }, wallet);
    expect(placed).toMatchObject({ status: 'MATCHED', plan: { kind: 'market', amount: 4.9 } });
    expect((await feesPaid()) - fees0).toBe(units(preview.fees));
    expect(units(5) - (await collateralOf(address))).toBe(units(preview.cost) + units(preview.fees));
  });
});
