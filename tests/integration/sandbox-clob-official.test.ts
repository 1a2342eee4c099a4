// Issue 4 point 6: Polymarket's official clients, unchanged, against the sandbox CLOB on a chain at Amoy's
// addresses: API keys, books, orders built and signed by the official order builders, cancels, and fills that
// move collateral and outcome tokens on the chain (MINT, NORMAL and MERGE), for order versions 2 and 1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ClobClient as ClobClientV2,
  OrderType as OrderTypeV2,
  Side as SideV2,
  AssetType as AssetTypeV2,
} from '@polymarket/clob-client-v2';
import { ClobClient as ClobClientV1, OrderType as OrderTypeV1, Side as SideV1 } from '@polymarket/clob-client';
import { parseUnits } from 'ethers';
import { officialSigner, startClobSandbox, type ClobSandbox } from '../helpers/sandbox-clob';

const usdc = (amount: number): bigint => parseUnits(amount.toFixed(6), 6);

describe('official clob-client-v2 against the sandbox (order version 2, Amoy addresses)', () => {
  let sb: ClobSandbox;
  let alice: ClobClientV2;
  let bob: ClobClientV2;

  beforeAll(async () => {
    sb = await startClobSandbox({ orderVersion: 2, amoy: true });
    const [a, b] = sb.wallets;
    const anon = (wallet: typeof a) =>
      new ClobClientV2({
        host: sb.server.url,
        chain: 80002,
        signer: officialSigner(wallet!) as never,
        throwOnError: true,
      });
    const aliceCreds = await anon(a).createOrDeriveApiKey();
    const bobCreds = await anon(b).createOrDeriveApiKey();
    alice = new ClobClientV2({
      host: sb.server.url,
      chain: 80002,
      signer: officialSigner(a!) as never,
      creds: aliceCreds,
      throwOnError: true,
    });
    bob = new ClobClientV2({
      host: sb.server.url,
      chain: 80002,
      signer: officialSigner(b!) as never,
      creds: bobCreds,
      throwOnError: true,
    });
  });
  afterAll(async () => sb?.stop());

  it('creates an API key once, then derives the same one', async () => {
    const client = new ClobClientV2({
      host: sb.server.url,
      chain: 80002,
      signer: officialSigner(sb.wallets[0]!) as never,
      throwOnError: true,
    });
    const derived = await client.deriveApiKey();
    expect(derived.key).toBe(alice.creds!.key);
    expect(derived.secret).toBe(alice.creds!.secret);
    // A second create for the same nonce is refused; createOrDerive falls back to derive.
    await expect(client.createApiKey()).rejects.toThrow('Could not create api key');
    await expect(client.deriveApiKey(5)).rejects.toThrow('Could not derive api key!');
    expect((await alice.getApiKeys()).apiKeys).toContain(alice.creds!.key);
    expect(await alice.getClosedOnlyMode()).toEqual({ closed_only: false });
  });

  it('answers close-only for an account a test put in that mode, and only for it', async () => {
    const faults = sb.server.exchangeFaults();
    faults.closedOnly(sb.wallets[0]!.address.toUpperCase().replace('0X', '0x'), true);
    try {
      expect(await alice.getClosedOnlyMode()).toEqual({ closed_only: true });
      expect(await bob.getClosedOnlyMode()).toEqual({ closed_only: false });
    } finally {
      faults.closedOnly(sb.wallets[0]!.address, false);
    }
    expect(await alice.getClosedOnlyMode()).toEqual({ closed_only: false });
  });

  it('reads version, time, markets and an empty book whose hash the client recomputes', async () => {
    expect(await alice.getVersion()).toBe(2);
    expect(Math.abs((await alice.getServerTime()) - Date.now() / 1000)).toBeLessThan(5);
    const yes = sb.binary.tokens[0].tokenId;
    const book = await alice.getOrderBook(yes);
    expect(book).toMatchObject({
      market: sb.binary.conditionId,
      asset_id: yes,
      bids: [],
      asks: [],
      tick_size: '0.01',
      neg_risk: false,
      min_order_size: '5',
    });
    const hash = book.hash;
    expect(await alice.getOrderBookHash(book)).toBe(hash);
    expect(await alice.getTickSize(yes)).toBe('0.01');
    expect(await alice.getNegRisk(sb.negRisk.tokens[0].tokenId)).toBe(true);
    const markets = await alice.getMarkets();
    expect(markets.data.map((m: { condition_id: string }) => m.condition_id)).toContain(sb.binary.conditionId);
    expect(markets.next_cursor).toBe('LTE=');
    const info = await alice.getClobMarketInfo(sb.binary.conditionId);
    expect(info).toMatchObject({ c: sb.binary.conditionId, mts: 0.01, nr: false });
  });

  it('posts a limit order built by the official builder, shows it on the book and in open orders, cancels it', async () => {
    const yes = sb.binary.tokens[0].tokenId;
    const posted = await alice.createAndPostOrder(
      { tokenID: yes, price: 0.4, size: 10, side: SideV2.BUY },
      { tickSize: '0.01', negRisk: false },
      OrderTypeV2.GTC,
    );
    expect(posted).toMatchObject({ success: true, status: 'live', errorMsg: '' });
    expect(posted.orderID).toMatch(/^0x[0-9a-f]{64}$/);
    const book = await bob.getOrderBook(yes);
    expect(book.bids).toEqual([{ price: '0.4', size: '10' }]);
    // The complement's book mirrors it: a bid for YES at 0.40 is an ask for NO at 0.60.
    expect((await bob.getOrderBook(sb.binary.tokens[1].tokenId)).asks).toEqual([{ price: '0.6', size: '10' }]);
    const open = await alice.getOpenOrders({ market: sb.binary.conditionId });
    expect(open).toEqual([
      expect.objectContaining({
        id: posted.orderID,
        status: 'LIVE',
        side: 'BUY',
        price: '0.4',
        original_size: '10',
        size_matched: '0',
        asset_id: yes,
      }),
    ]);
    expect(await bob.getOpenOrders()).toEqual([]);
    expect(await alice.cancelOrder({ orderID: posted.orderID })).toEqual({
      canceled: [posted.orderID],
      not_canceled: {},
    });
    expect((await bob.getOrderBook(yes)).bids).toEqual([]);
    expect(await alice.getOrder(posted.orderID)).toMatchObject({ id: posted.orderID, status: 'CANCELED' });
  });

  it('settles MINT, NORMAL and MERGE fills on the chain; balances, trades and tapes follow', async () => {
    const [a, b] = sb.wallets as [NonNullable<(typeof sb.wallets)[0]>, NonNullable<(typeof sb.wallets)[0]>];
    const [yes, no] = [sb.binary.tokens[0].tokenId, sb.binary.tokens[1].tokenId];
    const start = { a: await sb.collateralOf(a.address), b: await sb.collateralOf(b.address) };

    // MINT: alice bids YES at 0.55, bob buys NO at 0.45 — two buys of complements make complete sets.
    const bid = await alice.createAndPostOrder(
      { tokenID: yes, price: 0.55, size: 10, side: SideV2.BUY },
      { tickSize: '0.01', negRisk: false },
    );
    expect(bid.status).toBe('live');
    const mint = await bob.createAndPostOrder(
      { tokenID: no, price: 0.45, size: 10, side: SideV2.BUY },
      { tickSize: '0.01', negRisk: false },
    );
    expect(mint).toMatchObject({ success: true, status: 'matched', makingAmount: '4.5', takingAmount: '10' });
    expect(mint.transactionsHashes).toHaveLength(1);
    const receipt = await sb.provider.getTransactionReceipt(mint.transactionsHashes![0]!);
    expect(receipt?.status).toBe(1);
    expect(await sb.sharesOf(a.address, yes)).toBe(usdc(10));
    expect(await sb.sharesOf(b.address, no)).toBe(usdc(10));
    expect(await sb.collateralOf(a.address)).toBe(start.a - usdc(5.5));
    expect(await sb.collateralOf(b.address)).toBe(start.b - usdc(4.5));
    expect(await alice.getOrder(bid.orderID)).toMatchObject({ status: 'MATCHED', size_matched: '10' });
    // The maker hears of its fill.
    const notes = await alice.getNotifications();
    expect(notes).toContainEqual(
      expect.objectContaining({
        type: 2,
        payload: expect.objectContaining({ order_id: bid.orderID, matched_amount: '10', price: '0.55' }),
      }),
    );

    // NORMAL: alice offers 5 YES at 0.60, bob lifts it.
    const ask = await alice.createAndPostOrder(
      { tokenID: yes, price: 0.6, size: 5, side: SideV2.SELL },
      { tickSize: '0.01', negRisk: false },
    );
    expect(ask.status).toBe('live');
    const lift = await bob.createAndPostOrder(
      { tokenID: yes, price: 0.6, size: 5, side: SideV2.BUY },
      { tickSize: '0.01', negRisk: false },
    );
    expect(lift).toMatchObject({ status: 'matched', makingAmount: '3', takingAmount: '5' });
    expect(await sb.sharesOf(b.address, yes)).toBe(usdc(5));
    expect(await sb.collateralOf(a.address)).toBe(start.a - usdc(5.5) + usdc(3));

    // MERGE: alice offers her last 5 YES at 0.62, bob sells 5 NO at 0.38 — two sells merge back to collateral.
    await alice.createAndPostOrder(
      { tokenID: yes, price: 0.62, size: 5, side: SideV2.SELL },
      { tickSize: '0.01', negRisk: false },
    );
    const merge = await bob.createAndPostOrder(
      { tokenID: no, price: 0.38, size: 5, side: SideV2.SELL },
      { tickSize: '0.01', negRisk: false },
    );
    expect(merge).toMatchObject({ status: 'matched', makingAmount: '5', takingAmount: '1.9' });
    expect(await sb.sharesOf(a.address, yes)).toBe(0n);
    expect(await sb.sharesOf(b.address, no)).toBe(usdc(5));
    expect(await sb.collateralOf(a.address)).toBe(start.a - usdc(5.5) + usdc(3) + usdc(3.1));
    expect(await sb.collateralOf(b.address)).toBe(start.b - usdc(4.5) - usdc(3) + usdc(1.9));

    const trades = await bob.getTrades({ market: sb.binary.conditionId });
    expect(trades.map((t) => t.status)).toEqual(['CONFIRMED', 'CONFIRMED', 'CONFIRMED']);
    expect(trades.every((t) => t.trader_side === 'TAKER' && /^0x[0-9a-f]{64}$/.test(t.transaction_hash ?? ''))).toBe(
      true,
    );
    const aliceTrades = await alice.getTrades({ asset_id: yes });
    expect(aliceTrades.map((t) => t.trader_side)).toEqual(['MAKER', 'MAKER', 'MAKER']);
    expect(aliceTrades[0]!.maker_orders[0]).toMatchObject({
      order_id: bid.orderID,
      matched_amount: '10',
      price: '0.55',
      side: 'BUY',
      outcome: 'Yes',
    });
    // Both tapes agree: the YES tape shows 0.55, 0.6, 0.62; the NO tape their complements.
    expect(sb.data.fills(yes).map((f) => f.price)).toEqual([0.55, 0.6, 0.62]);
    expect(sb.data.fills(no).map((f) => f.price)).toEqual([0.45, 0.4, 0.38]);
    expect((await alice.getLastTradePrice(yes)).price).toBe('0.62');
    // The client types the answer as a list, but the server (like Polymarket's) sends {history: [...]}.
    const history = (await alice.getPricesHistory({
      market: yes,
      interval: '1h' as never,
      fidelity: 1,
    })) as unknown as { history: { t: number; p: number }[] };
    expect(history.history.at(-1)?.p).toBe(0.62);
  });

  it('sells with a market order (FOK) built by the official builder against a resting bid', async () => {
    const [, b] = sb.wallets;
    const no = sb.binary.tokens[1].tokenId;
    // Bob still holds 5 NO; alice bids for NO at 0.3 and bob sells all 5 with FOK.
    await alice.createAndPostOrder(
      { tokenID: no, price: 0.3, size: 5, side: SideV2.BUY },
      { tickSize: '0.01', negRisk: false },
    );
    const before = await sb.collateralOf(b!.address);
    const sold = await bob.createAndPostMarketOrder(
      { tokenID: no, amount: 5, side: SideV2.SELL },
      { tickSize: '0.01', negRisk: false },
      OrderTypeV2.FOK,
    );
    expect(sold).toMatchObject({ success: true, status: 'matched', makingAmount: '5', takingAmount: '1.5' });
    expect(await sb.collateralOf(b!.address)).toBe(before + usdc(1.5));
    expect(await sb.sharesOf(b!.address, no)).toBe(0n);
    // Nothing left to sell: another FOK is killed by the balance check before it reaches the book.
    await expect(
      bob.createAndPostMarketOrder(
        { tokenID: no, amount: 5, side: SideV2.SELL, price: 0.3 },
        { tickSize: '0.01', negRisk: false },
        OrderTypeV2.FOK,
      ),
    ).rejects.toThrow('not enough balance / allowance');
  });

  it('trades a neg-risk market through the neg-risk exchange', async () => {
    const [a, b] = sb.wallets;
    const [yes, no] = [sb.negRisk.tokens[0].tokenId, sb.negRisk.tokens[1].tokenId];
    await alice.createAndPostOrder(
      { tokenID: yes, price: 0.2, size: 20, side: SideV2.BUY },
      { tickSize: '0.01', negRisk: true },
    );
    const minted = await bob.createAndPostOrder(
      { tokenID: no, price: 0.8, size: 20, side: SideV2.BUY },
      { tickSize: '0.01', negRisk: true },
    );
    expect(minted.status).toBe('matched');
    const receipt = await sb.provider.getTransactionReceipt(minted.transactionsHashes![0]!);
    expect(receipt?.to?.toLowerCase()).toBe(sb.chain.contracts.negRiskExchange.toLowerCase());
    expect(await sb.sharesOf(a!.address, yes)).toBe(usdc(20));
    expect(await sb.sharesOf(b!.address, no)).toBe(usdc(20));
  });

  it('makes the official client re-read /version and rebuild after order_version_mismatch', async () => {
    // Errors as values (no throwOnError), as the client's own retry loop needs them.
    const client = new ClobClientV2({
      host: sb.server.url,
      chain: 80002,
      signer: officialSigner(sb.wallets[0]!) as never,
      creds: alice.creds,
    });
    (client as unknown as { cachedVersion: number }).cachedVersion = 1;
    const posted = await client.createAndPostOrder(
      { tokenID: sb.binary.tokens[0].tokenId, price: 0.05, size: 10, side: SideV2.BUY },
      { tickSize: '0.01', negRisk: false },
    );
    expect(posted).toMatchObject({ success: true, status: 'live' });
    expect((client as unknown as { cachedVersion: number }).cachedVersion).toBe(2);
    await alice.cancelOrder({ orderID: posted.orderID });
  });

  it('answers balance-allowance in the version-2 shape', async () => {
    const [a] = sb.wallets;
    const view = await alice.getBalanceAllowance({ asset_type: AssetTypeV2.COLLATERAL });
    expect(view.balance).toBe((await sb.collateralOf(a!.address)).toString());
    expect(Object.keys(view.allowances)).toEqual(
      expect.arrayContaining([
        sb.chain.contracts.exchange,
        sb.chain.contracts.negRiskExchange,
        sb.chain.contracts.negRiskAdapter,
      ]),
    );
    const shares = await alice.getBalanceAllowance({
      asset_type: AssetTypeV2.CONDITIONAL,
      token_id: sb.negRisk.tokens[0].tokenId,
    });
    expect(shares.balance).toBe(usdc(20).toString());
  });
});

describe('official clob-client 5.8.1 against the sandbox (order version 1, Amoy addresses)', () => {
  let sb: ClobSandbox;
  let alice: ClobClientV1;
  let bob: ClobClientV1;

  beforeAll(async () => {
    sb = await startClobSandbox({ orderVersion: 1, amoy: true });
    const [a, b] = sb.wallets;
    const make = async (wallet: typeof a) => {
      const signer = officialSigner(wallet!) as never;
      const creds = await new ClobClientV1(sb.server.url, 80002, signer).createOrDeriveApiKey();
      return new ClobClientV1(sb.server.url, 80002, signer, creds);
    };
    alice = await make(a);
    bob = await make(b);
  });
  afterAll(async () => sb?.stop());

  it('posts, shows, cancels and fills version-1 orders; balances move on the chain', async () => {
    const [a, b] = sb.wallets;
    const [yes, no] = [sb.binary.tokens[0].tokenId, sb.binary.tokens[1].tokenId];
    expect(await alice.getFeeRateBps(yes)).toBe(0);
    const resting = (await alice.createAndPostOrder(
      { tokenID: yes, price: 0.3, size: 10, side: SideV1.BUY },
      { tickSize: '0.01', negRisk: false },
      OrderTypeV1.GTC,
    )) as {
      success: boolean;
      status: string;
      orderID: string;
    };
    expect(resting).toMatchObject({ success: true, status: 'live' });
    expect((await bob.getOrderBook(yes)).bids).toEqual([{ price: '0.3', size: '10' }]);
    expect(await alice.cancelOrders([resting.orderID])).toEqual({ canceled: [resting.orderID], not_canceled: {} });
    expect((await bob.getOrderBook(yes)).bids).toEqual([]);

    const start = { a: await sb.collateralOf(a!.address), b: await sb.collateralOf(b!.address) };
    await alice.createAndPostOrder(
      { tokenID: yes, price: 0.35, size: 10, side: SideV1.BUY },
      { tickSize: '0.01', negRisk: false },
      OrderTypeV1.GTC,
    );
    const mint = (await bob.createAndPostOrder(
      { tokenID: no, price: 0.65, size: 10, side: SideV1.BUY },
      { tickSize: '0.01', negRisk: false },
      OrderTypeV1.GTC,
    )) as {
      status: string;
      transactionsHashes: string[];
    };
    expect(mint.status).toBe('matched');
    expect(mint.transactionsHashes).toHaveLength(1);
    expect(await sb.sharesOf(a!.address, yes)).toBe(usdc(10));
    expect(await sb.sharesOf(b!.address, no)).toBe(usdc(10));
    expect(await sb.collateralOf(a!.address)).toBe(start.a - usdc(3.5));
    expect(await sb.collateralOf(b!.address)).toBe(start.b - usdc(6.5));
    const balance = (await alice.getBalanceAllowance({ asset_type: 'COLLATERAL' as never })) as {
      balance: string;
      allowance: string;
    };
    expect(balance).toEqual({ balance: (start.a - usdc(3.5)).toString(), allowance: expect.stringMatching(/^\d+$/) });
  });

  it('fills a version-1 market BUY whose amounts are not an exact price, in whole hundredths of a share', async () => {
    const [a, b] = sb.wallets;
    const no = sb.binary.tokens[1].tokenId;
    // Bob offers his 10 NO at 0.60; alice spends $2 with a FOK market BUY: 3.3333 shares signed, 3.33 filled.
    await bob.createAndPostOrder(
      { tokenID: no, price: 0.6, size: 10, side: SideV1.SELL },
      { tickSize: '0.01', negRisk: false },
      OrderTypeV1.GTC,
    );
    const before = { a: await sb.collateralOf(a!.address), b: await sb.collateralOf(b!.address) };
    const bought = (await alice.createAndPostMarketOrder(
      { tokenID: no, amount: 2, side: SideV1.BUY },
      { tickSize: '0.01', negRisk: false },
      OrderTypeV1.FOK,
    )) as {
      success: boolean;
      status: string;
      makingAmount: string;
      takingAmount: string;
    };
    expect(bought).toMatchObject({ success: true, status: 'matched', makingAmount: '1.998', takingAmount: '3.33' });
    expect(await sb.sharesOf(a!.address, no)).toBe(usdc(3.33));
    expect(await sb.collateralOf(a!.address)).toBe(before.a - usdc(1.998));
    expect(await sb.collateralOf(b!.address)).toBe(before.b + usdc(1.998));
  });
});

describe('official clob-client-v2 against the sandbox (order version 3, Amoy addresses)', () => {
  let sb: ClobSandbox;

  beforeAll(async () => {
    sb = await startClobSandbox({ orderVersion: 3, amoy: true });
  });
  afterAll(async () => sb?.stop());

  it('reads /version 3, signs for exchangeV3 on its own, and settles a MINT on the chain', async () => {
    const [a, b] = sb.wallets;
    const make = async (wallet: typeof a) => {
      const creds = await new ClobClientV2({
        host: sb.server.url,
        chain: 80002,
        signer: officialSigner(wallet!) as never,
        throwOnError: true,
      }).createOrDeriveApiKey();
      return new ClobClientV2({
        host: sb.server.url,
        chain: 80002,
        signer: officialSigner(wallet!) as never,
        creds,
        throwOnError: true,
      });
    };
    const [alice, bob] = [await make(a), await make(b)];
    expect(await alice.getVersion()).toBe(3);
    const [yes, no] = [sb.binary.tokens[0].tokenId, sb.binary.tokens[1].tokenId];
    const bid = await alice.createAndPostOrder(
      { tokenID: yes, price: 0.25, size: 8, side: SideV2.BUY },
      { tickSize: '0.01', negRisk: false },
    );
    expect(bid).toMatchObject({ success: true, status: 'live' });
    const fill = await bob.createAndPostOrder(
      { tokenID: no, price: 0.75, size: 8, side: SideV2.BUY },
      { tickSize: '0.01', negRisk: false },
    );
    expect(fill).toMatchObject({ success: true, status: 'matched', makingAmount: '6', takingAmount: '8' });
    const receipt = await sb.provider.getTransactionReceipt(fill.transactionsHashes![0]!);
    expect(receipt?.to?.toLowerCase()).toBe(sb.chain.contracts.exchange.toLowerCase());
    expect(await sb.sharesOf(a!.address, yes)).toBe(usdc(8));
    expect(await sb.sharesOf(b!.address, no)).toBe(usdc(8));
  });

  it('trades a neg-risk market on the same one exchange, as version 3 does', async () => {
    const [, , c, d] = sb.wallets;
    const make = async (wallet: typeof c) => {
      const creds = await new ClobClientV2({
        host: sb.server.url,
        chain: 80002,
        signer: officialSigner(wallet!) as never,
        throwOnError: true,
      }).createOrDeriveApiKey();
      return new ClobClientV2({
        host: sb.server.url,
        chain: 80002,
        signer: officialSigner(wallet!) as never,
        creds,
        throwOnError: true,
      });
    };
    const [carol, dave] = [await make(c), await make(d)];
    expect(sb.chain.contracts.negRiskExchange).toBe(sb.chain.contracts.exchange);
    const [yes, no] = [sb.negRisk.tokens[0].tokenId, sb.negRisk.tokens[1].tokenId];
    const bid = await carol.createAndPostOrder(
      { tokenID: yes, price: 0.3, size: 10, side: SideV2.BUY },
      { tickSize: '0.01', negRisk: true },
    );
    expect(bid).toMatchObject({ success: true, status: 'live' });
    const fill = await dave.createAndPostOrder(
      { tokenID: no, price: 0.7, size: 10, side: SideV2.BUY },
      { tickSize: '0.01', negRisk: true },
    );
    expect(fill).toMatchObject({ success: true, status: 'matched' });
    const receipt = await sb.provider.getTransactionReceipt(fill.transactionsHashes![0]!);
    expect(receipt?.to?.toLowerCase()).toBe(sb.chain.contracts.exchange.toLowerCase());
    expect(await sb.sharesOf(c!.address, yes)).toBe(usdc(10));
    expect(await sb.sharesOf(d!.address, no)).toBe(usdc(10));
  });
});
