// The sandbox CLOB's rules, each refused with the message traders know (tick, bounds, size, precision,
// expiration, post-only, duplicates, balance and allowance with reservations, signatures, signer/owner,
// version), every cancel variant, paging with cursors, heartbeats, and (issue 4 point 7) bad input and a flood
// of it while a valid trade still settles with exact balances.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract, Wallet, parseUnits } from 'ethers';
import { ClobClient as ClobClientV2 } from '@polymarket/clob-client-v2';
import { TX_OVERRIDES, mined, openAccount } from '../../sandbox/chain/deploy';
import { compileContracts } from '../../sandbox/chain/compile';
import { MarketData } from '../../sandbox/market/market-data';
import { startClobServer } from '../../sandbox/clob/server';
import {
  l2Request,
  officialSigner,
  signedOrderJson,
  startClobSandbox,
  type ClobSandbox,
  type Creds,
  type OrderFields,
} from '../helpers/sandbox-clob';

const usdc = (amount: number): bigint => parseUnits(amount.toFixed(6), 6);

function credsOf(sb: ClobSandbox, wallet: Wallet): Creds {
  const c = sb.server.apiKeyFor(wallet.address);
  return { key: c.apiKey, secret: c.secret, passphrase: c.passphrase };
}

async function post(
  sb: ClobSandbox,
  wallet: Wallet,
  creds: Creds,
  order: Record<string, unknown>,
  orderType = 'GTC',
  postOnly = false,
  owner = creds.key,
) {
  const body = JSON.stringify({ deferExec: false, postOnly, order, owner, orderType });
  return l2Request(sb.server.url, wallet, creds, 'POST', '/order', body);
}

/** A limit order of `size` shares at `price` (exact amounts). */
function limit(
  tokenId: string,
  side: 'BUY' | 'SELL',
  price: number,
  size: number,
  extra: Partial<OrderFields> = {},
): OrderFields {
  const shares = usdc(size);
  const collateral = usdc(Number((price * size).toFixed(6)));
  return side === 'BUY'
    ? { tokenId, side, makerAmount: collateral, takerAmount: shares, ...extra }
    : { tokenId, side, makerAmount: shares, takerAmount: collateral, ...extra };
}

describe('sandbox CLOB rules (order version 2)', () => {
  let sb: ClobSandbox;
  let alice: Wallet;
  let bob: Wallet;
  let carol: Wallet;
  let A: Creds;
  let B: Creds;
  let C: Creds;
  let yes: string;
  let no: string;

  beforeAll(async () => {
    sb = await startClobSandbox({ orderVersion: 2, pageSize: 2, heartbeatTimeoutMs: 400 });
    [alice, bob, carol] = sb.wallets as [Wallet, Wallet, Wallet];
    [A, B, C] = [credsOf(sb, alice), credsOf(sb, bob), credsOf(sb, carol)];
    [yes, no] = [sb.binary.tokens[0].tokenId, sb.binary.tokens[1].tokenId];
  });
  afterAll(async () => sb?.stop());

  const refusal = async (wallet: Wallet, creds: Creds, fields: OrderFields, orderType = 'GTC', postOnly = false) => {
    const response = await post(sb, wallet, creds, await signedOrderJson(sb, wallet, fields), orderType, postOnly);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, status: 'unmatched' });
    expect(response.body.error).toBe(response.body.errorMsg);
    return response.body.error as string;
  };

  it('refuses prices off the tick grid or outside [tick, 1 − tick]', async () => {
    expect(await refusal(alice, A, limit(yes, 'BUY', 0.555, 10))).toBe(
      'invalid price (0.555): the price must be a multiple of the tick size 0.01',
    );
    expect(await refusal(alice, A, { tokenId: yes, side: 'BUY', makerAmount: usdc(10), takerAmount: usdc(10) })).toBe(
      'invalid price (1), min: 0.01 - max: 0.99',
    );
    expect(await refusal(alice, A, limit(yes, 'SELL', 0.995, 10))).toMatch(/^invalid price \(0\.995\)/);
  });

  it('refuses sizes under the minimum and amounts beyond the rounding table', async () => {
    expect(await refusal(alice, A, limit(yes, 'BUY', 0.5, 4))).toBe('Size (4) lower than the minimum: 5');
    expect(await refusal(alice, A, limit(yes, 'BUY', 0.5, 10.005))).toBe(
      'invalid amounts, the buy orders maker amount supports a max accuracy of 4 decimals, taker amount a max of 2 decimals',
    );
    expect(await refusal(alice, A, { tokenId: yes, side: 'BUY', makerAmount: 0n, takerAmount: usdc(10) })).toBe(
      'invalid order amounts: makerAmount and takerAmount must be positive',
    );
    // A marketable BUY under $1.
    expect(
      await refusal(alice, A, { tokenId: yes, side: 'BUY', makerAmount: usdc(0.5), takerAmount: usdc(1) }, 'FOK'),
    ).toBe('invalid amount for a marketable BUY order ($0.5), min size: $1');
  });

  it('needs a GTD expiration at least a minute ahead and no expiration on other types', async () => {
    const now = BigInt(Math.floor(Date.now() / 1000));
    expect(await refusal(alice, A, limit(yes, 'BUY', 0.1, 10, { expiration: now + 30n }), 'GTD')).toBe(
      'invalid expiration: a GTD order must expire at least 60 seconds from now',
    );
    expect(await refusal(alice, A, limit(yes, 'BUY', 0.1, 10, { expiration: now + 300n }), 'GTC')).toBe(
      'invalid expiration: only GTD orders may expire',
    );
    const gtd = await post(
      sb,
      alice,
      A,
      await signedOrderJson(sb, alice, limit(yes, 'BUY', 0.1, 10, { expiration: now + 300n })),
      'GTD',
    );
    expect(gtd.body).toMatchObject({ success: true, status: 'live' });
    expect(
      (await l2Request(sb.server.url, alice, A, 'DELETE', '/order', JSON.stringify({ orderID: gtd.body.orderID }))).body
        .canceled,
    ).toEqual([gtd.body.orderID]);
  });

  it('expires a GTD order at its expiration: off the book and the published book, CANCELED, with a notification', async () => {
    // A second server on the same chain with a clock the test moves.
    let clock = Date.now();
    const data = new MarketData(sb.catalog);
    const server = await startClobServer({
      deployment: sb.chain,
      catalog: sb.catalog,
      marketData: data,
      now: () => clock,
    });
    try {
      const key = server.apiKeyFor(alice.address);
      const creds = { key: key.apiKey, secret: key.secret, passphrase: key.passphrase };
      const expiration = BigInt(Math.floor(clock / 1000) + 90);
      const order = await signedOrderJson(sb, alice, limit(yes, 'BUY', 0.07, 10, { expiration }));
      const placed = await server.placeOrder({ order, owner: creds.key, orderType: 'GTD' }, creds.key);
      expect(placed.status).toBe('live');
      expect(server.book(yes)!.bids).toEqual([{ price: '0.07', size: '10' }]);
      clock += 89_000;
      expect(server.book(yes)!.bids).toHaveLength(1);
      clock += 2_000;
      expect(server.book(yes)!.bids).toEqual([]);
      expect(data.book(yes)!.bids).toEqual([]);
      const status = await l2Request(server.url, alice, creds, 'GET', `/data/order/${placed.orderID}`);
      expect(status.body.status).toBe('CANCELED');
      const notes = (await l2Request(server.url, alice, creds, 'GET', '/notifications')).body as {
        payload: { order_id: string; reason: string };
      }[];
      expect(notes).toContainEqual(
        expect.objectContaining({ payload: { order_id: placed.orderID, reason: 'expired' } }),
      );
    } finally {
      await server.stop();
    }
  });

  it('forgets the oldest finished orders beyond its retention, yet still refuses their ids', async () => {
    const server = await startClobServer({
      deployment: sb.chain,
      catalog: sb.catalog,
      marketData: new MarketData(sb.catalog),
      retain: { orders: 2 },
    });
    try {
      const key = server.apiKeyFor(alice.address).apiKey;
      const bodies: Record<string, unknown>[] = [];
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) {
        const order = await signedOrderJson(sb, alice, limit(yes, 'BUY', 0.03, 10));
        bodies.push({ order, owner: key, orderType: 'GTC' });
        const placed = await server.placeOrder(bodies[i], key);
        ids.push(placed.orderID);
        await server.cancel(key, placed.orderID);
      }
      const c = server.apiKeyFor(alice.address);
      const creds = { key: c.apiKey, secret: c.secret, passphrase: c.passphrase };
      expect((await l2Request(server.url, alice, creds, 'GET', `/data/order/${ids[0]}`)).status).toBe(404);
      expect((await l2Request(server.url, alice, creds, 'GET', `/data/order/${ids[3]}`)).body.status).toBe('CANCELED');
      expect((await server.placeOrder(bodies[0], key)).errorMsg).toBe('order already exists');
    } finally {
      await server.stop();
    }
  });

  it('deletes an API key: its calls are refused, derive finds nothing, create makes it again', async () => {
    // Key management needs no funds: a fresh wallet.
    const frank = Wallet.createRandom() as unknown as Wallet;
    const client = new ClobClientV2({
      host: sb.server.url,
      chain: sb.chain.chainId as never,
      signer: officialSigner(frank) as never,
    });
    const created = await client.createApiKey();
    const F = { key: created.key, secret: created.secret, passphrase: created.passphrase };
    expect((await l2Request(sb.server.url, frank, F, 'GET', '/auth/api-keys')).body).toEqual({ apiKeys: [F.key] });
    expect((await l2Request(sb.server.url, frank, F, 'DELETE', '/auth/api-key')).status).toBe(200);
    expect((await l2Request(sb.server.url, frank, F, 'GET', '/auth/api-keys')).status).toBe(401);
    // The client maps any answer to {key, secret, passphrase}; the raw answer says why.
    expect((await client.deriveApiKey()).key).toBeUndefined();
    const { createL1Headers } = await import('@polymarket/clob-client-v2');
    const l1 = (await createL1Headers(officialSigner(frank) as never, sb.chain.chainId as never)) as never;
    const derive = await fetch(`${sb.server.url}/auth/derive-api-key`, { headers: l1 });
    expect([derive.status, await derive.json()]).toEqual([400, { error: 'Could not derive api key!' }]);
    expect((await client.createApiKey()).key).toBe(F.key);
  });

  it('post-only: only GTC/GTD, and never crossing; FOK and FAK that cannot fill are killed', async () => {
    expect(await refusal(alice, A, limit(yes, 'BUY', 0.2, 10), 'FOK', true)).toBe(
      'invalid post-only order: only GTC and GTD orders can be post-only',
    );
    const bid = await post(sb, alice, A, await signedOrderJson(sb, alice, limit(yes, 'BUY', 0.3, 10)));
    expect(bid.body.status).toBe('live');
    // Bob's post-only BUY NO at 0.70 would MINT against alice's bid.
    expect(await refusal(bob, B, limit(no, 'BUY', 0.7, 10), 'GTC', true)).toBe(
      'invalid post-only order: order crosses book',
    );
    expect(await refusal(bob, B, limit(no, 'BUY', 0.7, 20), 'FOK')).toBe(
      "order couldn't be fully filled. FOK orders are fully filled or killed.",
    );
    expect(await refusal(bob, B, limit(no, 'BUY', 0.6, 10), 'FAK')).toBe(
      'no orders found to match with FAK order. FAK orders are partially filled or killed if no match is found.',
    );
    // A FAK fills what it can (10 of 20) and drops the rest.
    const fak = await post(sb, bob, B, await signedOrderJson(sb, bob, limit(no, 'BUY', 0.7, 20)), 'FAK');
    expect(fak.body).toMatchObject({ success: true, status: 'matched', takingAmount: '10', makingAmount: '7' });
    expect(await sb.sharesOf(bob.address, no)).toBe(usdc(10));
    expect((await l2Request(sb.server.url, bob, B, 'GET', '/data/orders')).body.data).toEqual([]);
  });

  it('refuses duplicates and replays', async () => {
    const order = await signedOrderJson(sb, alice, limit(yes, 'BUY', 0.11, 10));
    expect((await post(sb, alice, A, order)).body.status).toBe('live');
    const again = await post(sb, alice, A, order);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('order already exists');
    await l2Request(sb.server.url, alice, A, 'DELETE', '/order', JSON.stringify({ orderID: again.body.orderID }));
    // Cancelled, it stays refused: an order id is used once.
    expect((await post(sb, alice, A, order)).body.error).toBe('order already exists');
  });

  it('checks balance and allowance on the chain, counting what open orders reserve', async () => {
    const balance = await sb.collateralOf(carol.address);
    // Each bid locks 60% of her collateral: the first rests, the second would need 120% of it.
    const size = Number((balance * 6n) / 10n / 1_000_000n) * 2;
    const big = limit(yes, 'BUY', 0.5, size);
    expect((await post(sb, carol, C, await signedOrderJson(sb, carol, big))).body.status).toBe('live');
    expect(await refusal(carol, C, limit(yes, 'BUY', 0.5, size))).toMatch(/^not enough balance \/ allowance: balance /);
    // Once the first is cancelled, the same order fits.
    await l2Request(sb.server.url, carol, C, 'DELETE', '/cancel-all');
    expect((await post(sb, carol, C, await signedOrderJson(sb, carol, big))).body.status).toBe('live');
    await l2Request(sb.server.url, carol, C, 'DELETE', '/cancel-all');
    // Selling shares she does not have.
    expect(await refusal(carol, C, limit(yes, 'SELL', 0.5, 10))).toMatch(/^not enough balance \/ allowance/);
    // Allowance withdrawn on the chain: refused with the allowance named.
    const collateral = new Contract(
      sb.chain.contracts.collateral,
      ['function approve(address,uint256) returns (bool)'],
      carol,
    );
    await mined(collateral.getFunction('approve')(sb.chain.contracts.exchange, 0n, TX_OVERRIDES));
    expect(await refusal(carol, C, limit(yes, 'BUY', 0.5, 10))).toMatch(
      /^not enough balance \/ allowance: allowance 0 available/,
    );
    const view = await l2Request(
      sb.server.url,
      carol,
      C,
      'GET',
      '/balance-allowance/update',
      undefined,
      '?asset_type=COLLATERAL&signature_type=0',
    );
    expect(view.body.allowances[sb.chain.contracts.exchange]).toBe('0');
  });

  it('refuses bad signatures, a neg-risk order signed for the standard exchange, foreign signers and owners', async () => {
    const good = await signedOrderJson(sb, alice, limit(yes, 'BUY', 0.12, 10));
    expect((await post(sb, alice, A, { ...good, makerAmount: String(usdc(1.3)) })).body.error).toBe(
      'invalid signature',
    );
    const wrongVenue = await signedOrderJson(
      sb,
      alice,
      limit(sb.negRisk.tokens[0].tokenId, 'BUY', 0.12, 10, { verifyingContract: sb.chain.contracts.exchange }),
    );
    expect((await post(sb, alice, A, wrongVenue)).body.error).toBe('invalid signature');
    // Bob signs an order and alice posts it with her key.
    expect((await post(sb, alice, A, await signedOrderJson(sb, bob, limit(yes, 'BUY', 0.12, 10)))).body.error).toBe(
      'the order signer address has to be the address of the API KEY',
    );
    expect((await post(sb, alice, A, good, 'GTC', false, B.key)).body.error).toBe(
      'the order owner has to be the owner of the API KEY',
    );
    expect(
      (await post(sb, alice, A, await signedOrderJson(sb, alice, limit(yes, 'BUY', 0.12, 10, { maker: bob.address }))))
        .body.error,
    ).toBe('invalid signature: an EOA order must have maker = signer');
    expect(
      (await post(sb, alice, A, await signedOrderJson(sb, alice, limit(yes, 'BUY', 0.12, 10, { signatureType: 1 }))))
        .body.error,
    ).toBe("invalid signature: the maker is not the signer's proxy wallet");
  });

  it('takes orders made by proxy and Safe wallets and signed by their owners, and settles them between the wallets', async () => {
    const [dave, erin] = [sb.wallets[3]!, sb.wallets[4]!];
    const walletFor = async (kind: 'proxy' | 'safe', owner: Wallet): Promise<string> =>
      (await openAccount(sb.chain, kind, owner.privateKey, usdc(100))).address;
    const proxy = await walletFor('proxy', dave);
    const safe = await walletFor('safe', erin);
    const [D, E] = [credsOf(sb, dave), credsOf(sb, erin)];
    // A proxy order whose maker is the Safe (wrong factory) is refused; the right one rests.
    expect(
      (
        await post(
          sb,
          dave,
          D,
          await signedOrderJson(sb, dave, limit(yes, 'BUY', 0.45, 20, { maker: safe, signatureType: 1 })),
        )
      ).body.error,
    ).toBe("invalid signature: the maker is not the signer's proxy wallet");
    const bid = await post(
      sb,
      dave,
      D,
      await signedOrderJson(sb, dave, limit(yes, 'BUY', 0.45, 20, { maker: proxy, signatureType: 1 })),
    );
    expect(bid.body).toMatchObject({ success: true, status: 'live' });
    // More than the proxy holds is refused by the proxy's own balance.
    expect(await refusal(dave, D, limit(yes, 'BUY', 0.5, 200, { maker: proxy, signatureType: 1 }))).toBe(
      'not enough balance / allowance: balance 100 available, 109 needed by this order and the open ones',
    );
    const fill = await post(
      sb,
      erin,
      E,
      await signedOrderJson(sb, erin, limit(no, 'BUY', 0.55, 20, { maker: safe, signatureType: 2 })),
    );
    expect(fill.body).toMatchObject({ success: true, status: 'matched' });
    expect(await sb.sharesOf(proxy, yes)).toBe(usdc(20));
    expect(await sb.sharesOf(safe, no)).toBe(usdc(20));
    expect(await sb.collateralOf(proxy)).toBe(usdc(91));
    expect(await sb.collateralOf(safe)).toBe(usdc(89));
    // The balance view of a proxy signer is its proxy's.
    const view = await l2Request(
      sb.server.url,
      dave,
      D,
      'GET',
      '/balance-allowance',
      undefined,
      '?asset_type=COLLATERAL&signature_type=1',
    );
    expect(view.body.balance).toBe(usdc(91).toString());
  });

  it('answers a version-1 body with order_version_mismatch', async () => {
    const v1 = await signedOrderJson(sb, alice, { ...limit(yes, 'BUY', 0.12, 10), version: 1 });
    const response = await post(sb, alice, A, v1);
    expect(response.status).toBe(400);
    expect(response.body.error).toContain('order_version_mismatch');
  });

  it('cancels one, many, all and by market or token, naming what it could not cancel', async () => {
    const place = async (tokenId: string, price: number) =>
      (await post(sb, alice, A, await signedOrderJson(sb, alice, limit(tokenId, 'BUY', price, 10)))).body
        .orderID as string;
    await l2Request(sb.server.url, alice, A, 'DELETE', '/cancel-all');
    const [o1, o2, o3] = [await place(yes, 0.05), await place(yes, 0.06), await place(no, 0.05)];
    const other = sb.catalog.events
      .flatMap((e) => e.markets)
      .find((m) => m !== sb.binary && !m.negRisk && m.tickSize === '0.01')!;
    const o4 = await place(other.tokens[0].tokenId, 0.05);
    const bobs = (await post(sb, bob, B, await signedOrderJson(sb, bob, limit(yes, 'BUY', 0.05, 10)))).body
      .orderID as string;

    const one = await l2Request(sb.server.url, alice, A, 'DELETE', '/order', JSON.stringify({ orderID: o1 }));
    expect(one.body).toEqual({ canceled: [o1], not_canceled: {} });
    const many = await l2Request(sb.server.url, alice, A, 'DELETE', '/orders', JSON.stringify([o1, bobs, '0xdead']));
    expect(many.body).toEqual({
      canceled: [],
      not_canceled: {
        [o1]: 'order already canceled',
        [bobs]: "the order doesn't exist or isn't yours",
        '0xdead': "the order doesn't exist or isn't yours",
      },
    });
    const byToken = await l2Request(
      sb.server.url,
      alice,
      A,
      'DELETE',
      '/cancel-market-orders',
      JSON.stringify({ asset_id: no }),
    );
    expect(byToken.body).toEqual({ canceled: [o3], not_canceled: {} });
    const byMarket = await l2Request(
      sb.server.url,
      alice,
      A,
      'DELETE',
      '/cancel-market-orders',
      JSON.stringify({ market: sb.binary.conditionId }),
    );
    expect(byMarket.body).toEqual({ canceled: [o2], not_canceled: {} });
    const all = await l2Request(sb.server.url, alice, A, 'DELETE', '/cancel-all');
    expect(all.body).toEqual({ canceled: [o4], not_canceled: {} });
    // Bob's order was never touched.
    expect((await l2Request(sb.server.url, bob, B, 'GET', `/data/order/${bobs}`)).body.status).toBe('LIVE');
    await l2Request(sb.server.url, bob, B, 'DELETE', '/cancel-all');
  });

  it('pages open orders, trades and markets with base64 cursors from MA== to LTE=', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(
        (await post(sb, alice, A, await signedOrderJson(sb, alice, limit(yes, 'BUY', 0.01 + i / 100, 10)))).body
          .orderID,
      );
    const page1 = await l2Request(sb.server.url, alice, A, 'GET', '/data/orders', undefined, '?next_cursor=MA==');
    expect(page1.body).toMatchObject({ limit: 2, count: 2, next_cursor: 'Mg==' });
    const page3 = await l2Request(sb.server.url, alice, A, 'GET', '/data/orders', undefined, '?next_cursor=NA==');
    expect(page3.body).toMatchObject({ count: 1, next_cursor: 'LTE=' });
    const client = new ClobClientV2({
      host: sb.server.url,
      chain: sb.chain.chainId as never,
      signer: officialSigner(alice) as never,
      creds: A,
      throwOnError: true,
    });
    expect((await client.getOpenOrders()).map((o) => o.id).sort()).toEqual([...ids].sort());
    expect((await client.getOpenOrders({ id: ids[2] })).map((o) => o.id)).toEqual([ids[2]]);
    const markets = await client.getMarkets();
    expect(markets).toMatchObject({ count: 2, next_cursor: 'Mg==' });
    let cursor = 'MA==';
    const all: string[] = [];
    while (cursor !== 'LTE=') {
      const page = await client.getSimplifiedMarkets(cursor);
      all.push(...page.data.map((m: { condition_id: string }) => m.condition_id));
      cursor = page.next_cursor;
    }
    expect(all).toHaveLength(sb.catalog.events.flatMap((e) => e.markets).length);
    expect((await fetch(`${sb.server.url}/markets?next_cursor=bogus`)).status).toBe(400);
    await l2Request(sb.server.url, alice, A, 'DELETE', '/cancel-all');
  });

  it('heartbeats chain ids; silence cancels every open order of the owner and leaves a notification', async () => {
    const order = (await post(sb, bob, B, await signedOrderJson(sb, bob, limit(yes, 'BUY', 0.02, 10)))).body
      .orderID as string;
    const first = await l2Request(
      sb.server.url,
      bob,
      B,
      'POST',
      '/v1/heartbeats',
      JSON.stringify({ heartbeat_id: '' }),
    );
    expect(first.body.heartbeat_id).toMatch(/^[0-9a-f-]{36}$/);
    const second = await l2Request(
      sb.server.url,
      bob,
      B,
      'POST',
      '/v1/heartbeats',
      JSON.stringify({ heartbeat_id: first.body.heartbeat_id }),
    );
    expect(second.body.heartbeat_id).not.toBe(first.body.heartbeat_id);
    const stale = await l2Request(
      sb.server.url,
      bob,
      B,
      'POST',
      '/v1/heartbeats',
      JSON.stringify({ heartbeat_id: first.body.heartbeat_id }),
    );
    expect(stale).toEqual({ status: 400, body: { error: 'Invalid heartbeat id' } });
    // No more beats: wait until the server acts (the timeout is 400 ms here), however long the machine takes.
    let status = 'LIVE';
    for (let i = 0; i < 200 && status === 'LIVE'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await l2Request(sb.server.url, bob, B, 'GET', `/data/order/${order}`)).body.status;
    }
    expect(status).toBe('CANCELED');
    const notes = (await l2Request(sb.server.url, bob, B, 'GET', '/notifications', undefined, '?signature_type=0'))
      .body as { id: number; payload: { order_id: string; reason?: string } }[];
    const note = notes.find((n) => n.payload.order_id === order && n.payload.reason === 'heartbeat timeout');
    expect(note).toBeDefined();
    expect(
      (await l2Request(sb.server.url, bob, B, 'DELETE', '/notifications', undefined, `?ids=${note!.id}`)).status,
    ).toBe(200);
    const after = (await l2Request(sb.server.url, bob, B, 'GET', '/notifications')).body as { id: number }[];
    expect(after.some((n) => n.id === note!.id)).toBe(false);
  });

  it('serves prices history from the tape in buckets of the fidelity, with startTs/endTs or an interval', async () => {
    const fills = sb.data.fills(no);
    expect(fills.length).toBeGreaterThan(0);
    const now = Math.floor(Date.now() / 1000);
    const hourly = (await (
      await fetch(`${sb.server.url}/prices-history?market=${no}&startTs=0&endTs=${now + 60}&fidelity=60`)
    ).json()) as { history: { t: number; p: number }[] };
    expect(hourly.history.every((point) => point.t % 3600 === 0)).toBe(true);
    expect(hourly.history.at(-1)!.p).toBe(fills.at(-1)!.price);
    const none = (await (await fetch(`${sb.server.url}/prices-history?market=${no}&startTs=0&endTs=1000`)).json()) as {
      history: unknown[];
    };
    expect(none.history).toEqual([]);
    expect((await fetch(`${sb.server.url}/prices-history?market=${no}&interval=1d&startTs=0`)).status).toBe(400);
    const day = (await (await fetch(`${sb.server.url}/prices-history?market=${no}&interval=1d`)).json()) as {
      history: { p: number }[];
    };
    expect(day.history.at(-1)!.p).toBe(fills.at(-1)!.price);
  });
});

describe('sandbox CLOB rules (order version 1)', () => {
  let sb: ClobSandbox;
  let alice: Wallet;
  let A: Creds;

  beforeAll(async () => {
    sb = await startClobSandbox({ orderVersion: 1 });
    alice = sb.wallets[0]!;
    A = credsOf(sb, alice);
  });
  afterAll(async () => sb?.stop());

  it('needs the on-chain nonce, a zero fee and no private taker; incrementNonce retires older orders', async () => {
    const yes = sb.binary.tokens[0].tokenId;
    const body = async (extra: Partial<OrderFields>) =>
      post(sb, alice, A, await signedOrderJson(sb, alice, limit(yes, 'BUY', 0.2, 10, extra)));
    expect((await body({ nonce: 1n })).body.error).toBe('invalid nonce');
    expect((await body({ feeRateBps: 100n })).body.error).toBe(
      'invalid user provided fee rate: (100), fee rate for the market must be 0',
    );
    expect((await body({ taker: sb.wallets[1]!.address })).body.error).toBe(
      'invalid order: private orders (taker set) are not supported',
    );
    const exchange = new Contract(sb.chain.contracts.exchange, compileContracts().CTFExchange.abi, alice);
    await mined(exchange.getFunction('incrementNonce')(TX_OVERRIDES));
    expect((await body({ nonce: 0n })).body.error).toBe('invalid nonce');
    expect((await body({ nonce: 1n })).body).toMatchObject({ success: true, status: 'live' });
    // A version-2 body on this server is the other mismatch.
    const v2 = await signedOrderJson(sb, alice, { ...limit(yes, 'BUY', 0.2, 10), version: 2 });
    expect((await post(sb, alice, A, v2)).body.error).toContain('order_version_mismatch');
  });
});
