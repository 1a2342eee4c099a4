// Issue 4 point 7 for the CLOB: malformed JSON, wrong types, oversized bodies, bad or stale auth, unknown
// paths, replayed orders and a settlement that reverts each get the right status and `{error}`; a flood of
// such requests runs while a valid trade settles, and afterwards the server still answers and every balance
// is exactly what the trade says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { Contract, parseUnits, type Wallet } from 'ethers';
import { TX_OVERRIDES, mined } from '../../sandbox/chain/deploy';
import {
  l2Request,
  signedOrderJson,
  startClobSandbox,
  type ClobSandbox,
  type Creds,
  type OrderFields,
} from '../helpers/sandbox-clob';

const usdc = (amount: number): bigint => parseUnits(amount.toFixed(6), 6);

describe('sandbox CLOB under bad input', () => {
  let sb: ClobSandbox;
  let alice: Wallet;
  let bob: Wallet;
  let carol: Wallet;
  let A: Creds;
  let B: Creds;
  let C: Creds;
  let yes: string;
  let no: string;

  const creds = (wallet: Wallet): Creds => {
    const c = sb.server.apiKeyFor(wallet.address);
    return { key: c.apiKey, secret: c.secret, passphrase: c.passphrase };
  };
  const buy = (tokenId: string, price: number, size: number): OrderFields => ({
    tokenId,
    side: 'BUY',
    makerAmount: usdc(price * size),
    takerAmount: usdc(size),
  });
  const postBody = (order: unknown, owner: string, orderType = 'GTC') =>
    JSON.stringify({ deferExec: false, postOnly: false, order, owner, orderType });

  beforeAll(async () => {
    sb = await startClobSandbox({ orderVersion: 2, maxBodyBytes: 64 * 1024 });
    [alice, bob, carol] = sb.wallets as [Wallet, Wallet, Wallet];
    [A, B, C] = [creds(alice), creds(bob), creds(carol)];
    [yes, no] = [sb.binary.tokens[0].tokenId, sb.binary.tokens[1].tokenId];
  });
  afterAll(async () => sb?.stop());

  it('answers malformed JSON and wrong types with 400 and an error', async () => {
    expect(await l2Request(sb.server.url, alice, A, 'POST', '/order', '{"order": {')).toEqual({
      status: 400,
      body: { error: 'Invalid JSON body' },
    });
    const good = await signedOrderJson(sb, alice, buy(yes, 0.2, 10));
    const cases: [unknown, RegExp][] = [
      [null, /^Invalid order payload/],
      [[], /^Invalid order payload/],
      ['order', /^Invalid order payload/],
      [{ ...good, makerAmount: -5 }, /^invalid order: makerAmount must be an unsigned integer/],
      [{ ...good, makerAmount: '1e6' }, /^invalid order: makerAmount must be an unsigned integer/],
      [{ ...good, takerAmount: `1${'0'.repeat(80)}` }, /^invalid order: takerAmount must be an unsigned integer/],
      [{ ...good, side: 'HOLD' }, /^invalid order: side must be BUY or SELL/],
      [{ ...good, signatureType: '0' }, /^invalid order: signatureType/],
      [{ ...good, maker: 'alice' }, /^invalid order: maker is malformed/],
      [{ ...good, signature: 'nope' }, /^invalid order: signature is malformed/],
      [{ ...good, tokenId: '123' }, /^invalid token id/],
    ];
    for (const [order, message] of cases) {
      const response = await l2Request(sb.server.url, alice, A, 'POST', '/order', postBody(order, A.key));
      expect(response.status, JSON.stringify(order)).toBe(400);
      expect(response.body.error).toMatch(message);
    }
    const badType = await l2Request(sb.server.url, alice, A, 'POST', '/order', postBody(good, A.key, 'IOC'));
    expect(badType.body.error).toBe('Invalid order payload: orderType must be one of GTC, GTD, FOK, FAK');
    for (const [path, body] of [
      ['/order', '[]'],
      ['/orders', '{}'],
      ['/orders', '[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16]'],
      ['/orders-scoring', '"x"'],
      ['/v1/heartbeats', '{"heartbeat_id": 5}'],
    ] as const) {
      const response = await l2Request(sb.server.url, alice, A, 'POST', path, body);
      expect(response.status, path).toBe(400);
      expect(typeof response.body.error).toBe('string');
    }
    for (const body of ['{"orderID": 5}', '"x"', '']) {
      expect((await l2Request(sb.server.url, alice, A, 'DELETE', '/order', body || undefined)).status).toBe(400);
    }
    expect((await l2Request(sb.server.url, alice, A, 'DELETE', '/orders', '[1]')).status).toBe(400);
    expect(
      (await l2Request(sb.server.url, alice, A, 'GET', '/balance-allowance', undefined, '?asset_type=GOLD')).status,
    ).toBe(400);
    expect(
      (await l2Request(sb.server.url, alice, A, 'GET', '/data/trades', undefined, '?before=yesterday')).status,
    ).toBe(400);
    // A batch answers per order: the good one is placed, the bad one refused.
    const batch = await l2Request(
      sb.server.url,
      alice,
      A,
      'POST',
      '/orders',
      JSON.stringify([JSON.parse(postBody(good, A.key)), { order: { side: 'BUY' }, owner: A.key, orderType: 'GTC' }]),
    );
    expect(batch.status).toBe(200);
    expect(batch.body).toMatchObject([
      { success: true, status: 'live' },
      { success: false, status: 'unmatched', errorMsg: expect.stringMatching(/^invalid order/) },
    ]);
    await l2Request(sb.server.url, alice, A, 'DELETE', '/cancel-all');
  });

  it('refuses oversized bodies with 413, declared or streamed', async () => {
    const big = JSON.stringify({ order: { salt: 'x'.repeat(100_000) } });
    const declared = await fetch(`${sb.server.url}/order`, {
      method: 'POST',
      body: big,
      headers: { 'content-type': 'application/json' },
    });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({ error: 'request body too large' });
    const chunks = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(10_000)));
        controller.close();
      },
    });
    const streamed = await fetch(`${sb.server.url}/books`, {
      method: 'POST',
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    // A body promised and never finished: the client goes away; the server carries on.
    const { port } = new URL(sb.server.url);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write('POST /books HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n[{"token');
        setTimeout(() => socket.destroy(), 20);
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    expect((await fetch(`${sb.server.url}/ok`)).status).toBe(200);
  });

  it('answers bad, stale or missing auth with 401, unknown paths with 404, bad reads with 400/404', async () => {
    expect(await (await fetch(`${sb.server.url}/data/orders`)).json()).toEqual({
      error: 'Unauthorized/Invalid api key',
    });
    const good = await l2Request(sb.server.url, alice, A, 'GET', '/data/orders');
    expect(good.status).toBe(200);
    expect((await l2Request(sb.server.url, alice, { ...A, passphrase: 'x' }, 'GET', '/data/orders')).status).toBe(401);
    expect((await l2Request(sb.server.url, alice, { ...A, secret: B.secret }, 'GET', '/data/orders')).status).toBe(401);
    // Alice's key with bob's address in POLY_ADDRESS.
    expect((await l2Request(sb.server.url, bob, A, 'GET', '/data/orders')).status).toBe(401);
    const { createL2Headers, createL1Headers } = await import('@polymarket/clob-client-v2');
    const { officialSigner } = await import('../helpers/sandbox-clob');
    const stale = (await createL2Headers(
      officialSigner(alice) as never,
      A,
      { method: 'GET', requestPath: '/data/orders' },
      Math.floor(Date.now() / 1000) - 3600,
    )) as never;
    const staleResponse = await fetch(`${sb.server.url}/data/orders`, { headers: stale });
    expect(staleResponse.status).toBe(401);
    expect(((await staleResponse.json()) as { error: string }).error).toMatch(/^Invalid timestamp/);
    // L1 signed for another chain.
    const l1 = (await createL1Headers(officialSigner(alice) as never, 137 as never)) as never;
    expect((await fetch(`${sb.server.url}/auth/derive-api-key`, { headers: l1 })).status).toBe(401);
    expect((await fetch(`${sb.server.url}/nope`)).status).toBe(404);
    expect((await fetch(`${sb.server.url}/data/nope`, { method: 'DELETE' })).status).toBe(404);
    expect(await (await fetch(`${sb.server.url}/book`)).json()).toEqual({
      error: 'Invalid payload: token_id is required',
    });
    expect((await fetch(`${sb.server.url}/book?token_id=42`)).status).toBe(404);
    expect((await fetch(`${sb.server.url}/price?token_id=${yes}&side=UP`)).status).toBe(400);
    expect((await fetch(`${sb.server.url}/markets/0x1234`)).status).toBe(404);
    expect((await fetch(`${sb.server.url}/prices-history?market=${yes}&interval=1y`)).status).toBe(400);
    expect((await fetch(`${sb.server.url}/prices-history?market=${yes}&startTs=-4`)).status).toBe(400);
    expect((await fetch(`${sb.server.url}/books`, { method: 'POST', body: '[{"token_id": 7}]' })).status).toBe(400);
    expect((await l2Request(sb.server.url, alice, A, 'GET', '/data/order/0xabc')).status).toBe(404);
  });

  it('refuses a replayed order after it filled, and a second signature of the same order by another owner', async () => {
    const bid = await signedOrderJson(sb, alice, buy(yes, 0.5, 10));
    expect((await l2Request(sb.server.url, alice, A, 'POST', '/order', postBody(bid, A.key))).body.status).toBe('live');
    const taker = await signedOrderJson(sb, bob, buy(no, 0.5, 10));
    expect((await l2Request(sb.server.url, bob, B, 'POST', '/order', postBody(taker, B.key))).body.status).toBe(
      'matched',
    );
    for (const [wallet, c, order] of [
      [alice, A, bid],
      [bob, B, taker],
    ] as const) {
      const replay = await l2Request(sb.server.url, wallet, c, 'POST', '/order', postBody(order, c.key));
      expect(replay).toMatchObject({ status: 400, body: { error: 'order already exists' } });
    }
    // Carol cannot post alice's signed order as hers.
    expect((await l2Request(sb.server.url, carol, C, 'POST', '/order', postBody(bid, C.key))).body.error).toBe(
      'the order signer address has to be the address of the API KEY',
    );
  });

  it('reports a settlement that reverts as FAILED, moves nothing and cancels the maker that can no longer pay', async () => {
    // Carol bids, then empties her wallet on the chain behind the server's back.
    const bid = await l2Request(
      sb.server.url,
      carol,
      C,
      'POST',
      '/order',
      postBody(await signedOrderJson(sb, carol, buy(yes, 0.4, 10)), C.key),
    );
    expect(bid.body.status).toBe('live');
    const collateral = new Contract(
      sb.chain.contracts.collateral,
      ['function transfer(address,uint256) returns (bool)'],
      carol,
    );
    const held = await sb.collateralOf(carol.address);
    await mined(collateral.getFunction('transfer')(alice.address, held - usdc(1), TX_OVERRIDES));
    const before = {
      a: await sb.collateralOf(alice.address),
      b: await sb.collateralOf(bob.address),
      c: await sb.collateralOf(carol.address),
    };
    const taker = await l2Request(
      sb.server.url,
      bob,
      B,
      'POST',
      '/order',
      postBody(await signedOrderJson(sb, bob, buy(no, 0.6, 10)), B.key),
    );
    expect(taker.status).toBe(400);
    expect(taker.body).toMatchObject({ success: false, status: 'unmatched', tradeIDs: [expect.any(String)] });
    expect(taker.body.error).toMatch(/^settlement failed: /);
    const [trade] = (
      await l2Request(sb.server.url, bob, B, 'GET', '/data/trades', undefined, `?id=${taker.body.tradeIDs[0]}`)
    ).body.data;
    expect(trade).toMatchObject({ status: 'FAILED', transaction_hash: '' });
    expect(await sb.collateralOf(alice.address)).toBe(before.a);
    expect(await sb.collateralOf(bob.address)).toBe(before.b);
    expect(await sb.collateralOf(carol.address)).toBe(before.c);
    expect((await l2Request(sb.server.url, carol, C, 'GET', `/data/order/${bid.body.orderID}`)).body.status).toBe(
      'CANCELED',
    );
    expect(
      ((await fetch(`${sb.server.url}/book?token_id=${yes}`).then((r) => r.json())) as { bids: unknown[] }).bids,
    ).toEqual([]);
    // Carol is paid back so the next test starts from a clean slate.
    const back = new Contract(
      sb.chain.contracts.collateral,
      ['function transfer(address,uint256) returns (bool)'],
      alice,
    );
    await mined(back.getFunction('transfer')(carol.address, held - usdc(1), TX_OVERRIDES));
  });

  it('keeps settling a valid trade exactly while a flood of bad requests arrives', async () => {
    const failedBefore = sb.server.failedTrades().length;
    const start = {
      a: await sb.collateralOf(alice.address),
      b: await sb.collateralOf(bob.address),
      ay: await sb.sharesOf(alice.address, yes),
      bn: await sb.sharesOf(bob.address, no),
    };
    const good = await signedOrderJson(sb, alice, buy(yes, 0.35, 20));
    const bad = (i: number): Promise<number> => {
      switch (i % 6) {
        case 0:
          return l2Request(sb.server.url, alice, A, 'POST', '/order', '{"order":').then((r) => r.status);
        case 1:
          return fetch(`${sb.server.url}/order`, { method: 'POST', body: '{}', headers: { poly_api_key: A.key } }).then(
            (r) => r.status,
          );
        case 2:
          return l2Request(
            sb.server.url,
            alice,
            A,
            'POST',
            '/order',
            postBody({ ...good, makerAmount: String(usdc(999)) }, A.key),
          ).then((r) => r.status);
        case 3:
          return fetch(`${sb.server.url}/book?token_id=${'9'.repeat(i)}`).then((r) => r.status);
        case 4:
          return fetch(`${sb.server.url}/order`, { method: 'POST', body: 'x'.repeat(70_000) }).then((r) => r.status);
        default:
          return l2Request(sb.server.url, bob, B, 'DELETE', '/orders', '{"not":"a list"}').then((r) => r.status);
      }
    };
    const flood = Array.from({ length: 300 }, (_, i) => bad(i));
    const trade = (async () => {
      const rest = await l2Request(sb.server.url, alice, A, 'POST', '/order', postBody(good, A.key));
      const fill = await l2Request(
        sb.server.url,
        bob,
        B,
        'POST',
        '/order',
        postBody(await signedOrderJson(sb, bob, buy(no, 0.65, 20)), B.key),
      );
      return [rest.body.status, fill.body.status];
    })();
    const statuses = await Promise.all(flood);
    expect(await trade).toEqual(['live', 'matched']);
    expect(new Set(statuses)).toEqual(new Set([400, 401, 404, 413]));
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(await sb.collateralOf(alice.address)).toBe(start.a - usdc(7));
    expect(await sb.collateralOf(bob.address)).toBe(start.b - usdc(13));
    expect(await sb.sharesOf(alice.address, yes)).toBe(start.ay + usdc(20));
    expect(await sb.sharesOf(bob.address, no)).toBe(start.bn + usdc(20));
    expect(sb.server.failedTrades()).toHaveLength(failedBefore);
    expect(await (await fetch(`${sb.server.url}/ok`)).json()).toBe('OK');
  });
});
