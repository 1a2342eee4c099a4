// The toolkit's typed exchange-contract client on the sandbox chain: order status by hash after a real
// partial fill, the contract's own hash of a toolkit order, decoded settlement events, the maker's on-chain
// cancel (and a stranger's refused one), the registry, the pause flag and the version-1 nonce.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'ethers';
import { ClobClient } from '../../packages/toolkit/src/clob/client';
import type { ApiCredentials } from '../../packages/toolkit/src/clob/auth';
import { privateKeySigner } from '../../packages/toolkit/src/orders/signer';
import { silentLogger } from '../../packages/toolkit/src/base/logger';
import type { NetworkProfile } from '../../packages/toolkit/src/chain/networks';
import { ExchangeContract } from '../../packages/toolkit/src/orders/exchange';
import { PmDeskError } from '../../packages/toolkit/src/model/errors';
import { startClobSandbox, type ClobSandbox } from '../helpers/sandbox-clob';

const LEGACY = { type: 0, gasPrice: 1_000_000_000n };

describe('toolkit exchange-contract client (sandbox chain, order version 1)', () => {
  let sb: ClobSandbox;
  let alice: ClobClient;
  let bob: ClobClient;
  let exchange: ExchangeContract;

  beforeAll(async () => {
    sb = await startClobSandbox({ orderVersion: 1 });
    const c = sb.chain.contracts;
    const profile: NetworkProfile = {
      name: 'sandbox',
      chainId: sb.chain.chainId,
      orderVersion: 1,
      clobUrl: sb.server.url,
      contracts: {
        collateral: c.collateral,
        conditionalTokens: c.conditionalTokens,
        negRiskAdapter: c.negRiskAdapter,
        exchange: c.exchange,
        negRiskExchange: c.negRiskExchange,
      },
    };
    const client = async (wallet: Wallet) => {
      const signer = privateKeySigner(wallet.privateKey);
      const base = {
        host: sb.server.url,
        chainId: sb.chain.chainId,
        signer,
        throwOnError: true,
        networks: [profile],
        logger: silentLogger,
        timeoutMs: 10_000,
      };
      const creds = (await new ClobClient(base).createOrDeriveApiKey()) as ApiCredentials;
      return new ClobClient({ ...base, creds });
    };
    alice = await client(sb.wallets[0]!);
    bob = await client(sb.wallets[1]!);
    exchange = new ExchangeContract(c.exchange, sb.provider, 'sandbox');
  });
  afterAll(async () => sb?.stop());

  it('reads a partly filled order, hashes it like the toolkit, and decodes the settlement', async () => {
    const [yes, no] = [sb.binary.tokens[0].tokenId, sb.binary.tokens[1].tokenId];
    const block = await sb.provider.getBlockNumber();
    const resting = await alice.createAndPostOrder(
      (version) => alice.createOrder({ tokenId: yes, price: 0.42, size: 30, side: 'BUY' }, { version }),
      { orderType: 'GTC' },
    );
    expect(await exchange.orderStatus(resting.order.orderHash)).toEqual({ isFilledOrCancelled: false, remaining: 0n }); // never seen on chain yet
    expect(await exchange.hashOrder(resting.order.signedOrder)).toBe(resting.order.orderHash);

    const taker = await bob.createAndPostOrder(
      (version) => bob.createOrder({ tokenId: no, price: 0.58, size: 12, side: 'BUY' }, { version }),
      { orderType: 'FOK' },
    );
    expect(taker.response).toMatchObject({ success: true, status: 'matched' });
    // 30 shares at 0.42 is 12.6 USDC; 12 shares filled used 5.04 of it.
    expect(await exchange.orderStatus(resting.order.orderHash)).toEqual({
      isFilledOrCancelled: false,
      remaining: 7_560_000n,
    });

    const events = await exchange.events(block + 1);
    const filled = events.filter((e) => e.name === 'OrderFilled');
    expect(filled.map((e) => e.name === 'OrderFilled' && e.orderHash)).toContain(resting.order.orderHash);
    const mine = filled.find((e) => e.name === 'OrderFilled' && e.orderHash === resting.order.orderHash)!;
    expect(mine).toMatchObject({
      maker: sb.wallets[0]!.address,
      makerAssetId: 0n,
      takerAssetId: BigInt(yes),
      makerAmountFilled: 5_040_000n,
      takerAmountFilled: 12_000_000n,
    });
    expect(events.some((e) => e.name === 'OrdersMatched' && e.takerOrderHash === taker.order.orderHash)).toBe(true);
  });

  it('lets only the maker cancel on the chain, and reports the contract’s reason otherwise', async () => {
    const yes = sb.binary.tokens[0].tokenId;
    const built = await alice.createOrder({ tokenId: yes, price: 0.3, size: 10, side: 'BUY' }, { version: 1 });
    const asBob = new ExchangeContract(
      sb.chain.contracts.exchange,
      new Wallet(sb.wallets[1]!.privateKey, sb.provider),
      'sandbox',
    );
    await expect(asBob.cancelOrder(built.signedOrder, LEGACY)).rejects.toThrow(/NotOwner/);
    try {
      await asBob.cancelOrder(built.signedOrder, LEGACY);
    } catch (error) {
      expect(error).toBeInstanceOf(PmDeskError);
      expect(JSON.stringify(error)).not.toContain(sb.wallets[1]!.privateKey);
    }
    const asAlice = new ExchangeContract(
      sb.chain.contracts.exchange,
      new Wallet(sb.wallets[0]!.privateKey, sb.provider),
      'sandbox',
    );
    const receipt = await (await asAlice.cancelOrder(built.signedOrder, LEGACY)).wait();
    expect(asAlice.decodeLogs(receipt!.logs)).toMatchObject([{ name: 'OrderCancelled', orderHash: built.orderHash }]);
    expect(await exchange.orderStatus(built.orderHash)).toMatchObject({ isFilledOrCancelled: true });
  });

  it('reads the registry and the pause flag, and moves the version-1 nonce', async () => {
    const [yes, no] = [sb.binary.tokens[0].tokenId, sb.binary.tokens[1].tokenId];
    expect(await exchange.complementOf(yes)).toBe(BigInt(no));
    expect(await exchange.conditionIdOf(no)).toBe(sb.binary.conditionId);
    expect(await exchange.isPaused()).toBe(false);
    const carol = sb.wallets[2]!;
    expect(await exchange.nonce(carol.address)).toBe(0n);
    const asCarol = new ExchangeContract(
      sb.chain.contracts.exchange,
      new Wallet(carol.privateKey, sb.provider),
      'sandbox',
    );
    await (await asCarol.incrementNonce(LEGACY)).wait();
    expect(await exchange.nonce(carol.address)).toBe(1n);
  });
});
