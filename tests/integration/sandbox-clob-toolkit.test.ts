// The toolkit's own exchange client against the sandbox CLOB on the sandbox's own chain id, through a custom
// network profile: key derivation, books, a full order lifecycle (rest, look up, partial fill on the chain,
// trades, cancel), a market order priced from the book, balance-allowance, heartbeats and paging. The
// toolkit signs with its code and the server checks with ethers, so each side checks the other.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUnits, type Wallet } from 'ethers';
import { ClobClient } from '../../packages/toolkit/src/clob/client';
import type { ApiCredentials } from '../../packages/toolkit/src/clob/auth';
import { privateKeySigner } from '../../packages/toolkit/src/orders/signer';
import { silentLogger } from '../../packages/toolkit/src/base/logger';
import type { NetworkProfile } from '../../packages/toolkit/src/chain/networks';
import { startClobSandbox, type ClobSandbox } from '../helpers/sandbox-clob';

const usdc = (amount: number): bigint => parseUnits(amount.toFixed(6), 6);

describe('toolkit exchange client against the sandbox CLOB (order version 2, sandbox chain id)', () => {
  let sb: ClobSandbox;
  let profile: NetworkProfile;
  let alice: ClobClient;
  let bob: ClobClient;
  let aliceWallet: Wallet;
  let bobWallet: Wallet;
  let aliceCreds: ApiCredentials;

  const client = (wallet: Wallet, creds?: ApiCredentials) =>
    new ClobClient({
      host: sb.server.url,
      chainId: sb.chain.chainId,
      signer: privateKeySigner(wallet.privateKey),
      creds,
      throwOnError: true,
      networks: [profile],
      logger: silentLogger,
      timeoutMs: 10_000,
    });

  beforeAll(async () => {
    sb = await startClobSandbox({ orderVersion: 2 });
    const c = sb.chain.contracts;
    profile = {
      name: 'sandbox',
      chainId: sb.chain.chainId,
      orderVersion: 2,
      clobUrl: sb.server.url,
      contracts: {
        collateral: c.collateral,
        conditionalTokens: c.conditionalTokens,
        negRiskAdapter: c.negRiskAdapter,
        exchangeV2: c.exchange,
        negRiskExchangeV2: c.negRiskExchange,
      },
    };
    [aliceWallet, bobWallet] = sb.wallets as [Wallet, Wallet];
    aliceCreds = (await client(aliceWallet).createOrDeriveApiKey()) as ApiCredentials;
    alice = client(aliceWallet, aliceCreds);
    bob = client(bobWallet, (await client(bobWallet).createOrDeriveApiKey()) as ApiCredentials);
  });
  afterAll(async () => sb?.stop());

  it('derives keys and reads the market as the server publishes it', async () => {
    const again = (await client(aliceWallet).createOrDeriveApiKey()) as ApiCredentials;
    expect(again).toEqual(aliceCreds);
    // Create-first from a fresh client: the key exists, so the server refuses create and the client derives it.
    expect(await client(aliceWallet).createOrDeriveApiKey(undefined, 'create-first')).toEqual(aliceCreds);
    const yes = sb.binary.tokens[0].tokenId;
    expect(await alice.getTickSize(yes)).toBe('0.01');
    expect(await alice.getNegRisk(yes)).toBe(false);
    expect(await alice.resolveVersion()).toBe(2);
    const book = (await alice.getOrderBook(yes)) as { bids: unknown[]; hash: string };
    expect(book.bids).toEqual([]);
  });

  it('runs an order through its life: rests, is found, fills in part on the chain, shows in trades, is cancelled', async () => {
    const [yes, no] = [sb.binary.tokens[0].tokenId, sb.binary.tokens[1].tokenId];
    const { order, response } = await alice.createAndPostOrder(
      (version) => alice.createOrder({ tokenId: yes, price: 0.42, size: 30, side: 'BUY' }, { version }),
      {
        orderType: 'GTC',
      },
    );
    expect(response).toMatchObject({ success: true, status: 'live', orderID: order.orderHash });
    expect(order.verifyingContract).toBe(sb.chain.contracts.exchange);
    expect(await alice.getOrder(order.orderHash)).toMatchObject({ status: 'LIVE', original_size: '30', price: '0.42' });
    expect(((await bob.getOrderBook(yes)) as { bids: unknown[] }).bids).toEqual([{ price: '0.42', size: '30' }]);

    const start = { a: await sb.collateralOf(aliceWallet.address), b: await sb.collateralOf(bobWallet.address) };
    const fill = await bob.createAndPostOrder(
      (version) => bob.createOrder({ tokenId: no, price: 0.58, size: 12, side: 'BUY' }, { version }),
      { orderType: 'FOK' },
    );
    expect(fill.response).toMatchObject({ success: true, status: 'matched', makingAmount: '6.96', takingAmount: '12' });
    expect(await sb.collateralOf(aliceWallet.address)).toBe(start.a - usdc(5.04));
    expect(await sb.collateralOf(bobWallet.address)).toBe(start.b - usdc(6.96));
    expect(await sb.sharesOf(aliceWallet.address, yes)).toBe(usdc(12));
    expect(await alice.getOrder(order.orderHash)).toMatchObject({ status: 'LIVE', size_matched: '12' });
    const trades = (await alice.getTrades({ market: sb.binary.conditionId })) as {
      status: string;
      trader_side: string;
      maker_orders: { order_id: string }[];
    }[];
    expect(trades).toEqual([expect.objectContaining({ status: 'CONFIRMED', trader_side: 'MAKER' })]);
    expect(trades[0]!.maker_orders[0]!.order_id).toBe(order.orderHash);

    expect(await alice.cancelOrder(order.orderHash)).toEqual({ canceled: [order.orderHash], not_canceled: {} });
    expect(await alice.getOpenOrders()).toEqual([]);
    expect(await alice.getOrder(order.orderHash)).toMatchObject({ status: 'CANCELED', size_matched: '12' });
  });

  it('sells with a market order priced from the book', async () => {
    const yes = sb.binary.tokens[0].tokenId;
    await bob.createAndPostOrder((version) =>
      bob.createOrder({ tokenId: yes, price: 0.45, size: 20, side: 'BUY' }, { version }),
    );
    const before = await sb.collateralOf(aliceWallet.address);
    const { response } = await alice.createAndPostOrder(
      (version) => alice.createMarketOrder({ tokenId: yes, amount: 12, side: 'SELL' }, { version, orderType: 'FOK' }),
      {
        orderType: 'FOK',
      },
    );
    expect(response).toMatchObject({ success: true, status: 'matched', makingAmount: '12', takingAmount: '5.4' });
    expect(await sb.collateralOf(aliceWallet.address)).toBe(before + usdc(5.4));
    expect(await sb.sharesOf(aliceWallet.address, yes)).toBe(0n);
    expect(await bob.cancelAll()).toMatchObject({ canceled: [expect.any(String)] });
  });

  it('reads balance-allowance, refreshes it, and keeps heartbeats', async () => {
    const view = (await alice.getBalanceAllowance({ asset_type: 'COLLATERAL' })) as {
      balance: string;
      allowances: Record<string, string>;
    };
    expect(view.balance).toBe((await sb.collateralOf(aliceWallet.address)).toString());
    expect(view.allowances[sb.chain.contracts.exchange]).toMatch(/^\d{20,}$/);
    const refreshed = (await alice.updateBalanceAllowance({
      asset_type: 'CONDITIONAL',
      token_id: sb.binary.tokens[0].tokenId,
    })) as { balance: string };
    expect(refreshed.balance).toBe('0');
    const beat = (await alice.postHeartbeat()) as { heartbeat_id: string };
    const next = (await alice.postHeartbeat(beat.heartbeat_id)) as { heartbeat_id: string };
    expect(next.heartbeat_id).not.toBe(beat.heartbeat_id);
  });
});
