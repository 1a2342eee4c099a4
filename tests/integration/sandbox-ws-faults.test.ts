// The sandbox CLOB's WebSocket fault switches, which a feed client's tests rely on: a stalled feed (held, then
// delivered or dropped), a duplicated and an out-of-order price_change, a corrupt hash, and a server-side drop
// followed by a fresh snapshot. Real chain, real CLOB, real `ws` clients; waits are on messages only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUnits, type Wallet } from 'ethers';
import WebSocket from 'ws';
import { WsTestClient as Client, type Msg } from '../helpers/ws-test-client';
import { l2Request, signedOrderJson, startClobSandbox, type ClobSandbox, type Creds } from '../helpers/sandbox-clob';

const usdc = (amount: number): bigint => parseUnits(amount.toFixed(6), 6);
const isChange = (x: Msg) => x?.event_type === 'price_change';

describe('sandbox CLOB WebSocket faults', () => {
  let sb: ClobSandbox;
  let alice: Wallet;
  let A: Creds;
  let yes: string;
  const clients: Client[] = [];

  const bid = async (price: number, size: number) => {
    const order = await signedOrderJson(sb, alice, {
      tokenId: yes,
      side: 'BUY',
      makerAmount: usdc(price * size),
      takerAmount: usdc(size),
    });
    const response = await l2Request(
      sb.server.url,
      alice,
      A,
      'POST',
      '/order',
      JSON.stringify({ order, owner: A.key, orderType: 'GTC' }),
    );
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  };
  const restHash = async () =>
    ((await (await fetch(`${sb.server.url}/book?token_id=${yes}`)).json()) as { hash: string }).hash;
  const subscribed = async () => {
    const client = await Client.open(`${sb.server.url.replace(/^http/, 'ws')}/ws/market`);
    clients.push(client);
    client.send({ assets_ids: [yes], type: 'market' });
    await client.next(Array.isArray);
    return client;
  };
  const yesChange = (x: Msg) => x.price_changes.find((c: Msg) => c.asset_id === yes && c.side === 'BUY');

  beforeAll(async () => {
    sb = await startClobSandbox({ orderVersion: 2, ws: { maxBufferedBytes: 1024 * 1024 } });
    alice = sb.wallets[0]!;
    const c = sb.server.apiKeyFor(alice.address);
    A = { key: c.apiKey, secret: c.secret, passphrase: c.passphrase };
    yes = sb.binary.tokens[0].tokenId;
  });
  afterAll(async () => {
    for (const c of clients) c.ws.terminate();
    await sb?.stop();
  });

  it('a stall holds events (PONG still answers) and resume delivers them in order', async () => {
    const m = await subscribed();
    sb.server.wsFaults().stall();
    await bid(0.11, 5);
    await bid(0.12, 5);
    await m.sync();
    expect(m.all.filter(isChange)).toEqual([]);
    sb.server.wsFaults().resume();
    const first = await m.next(isChange);
    const second = await m.next(isChange);
    expect([yesChange(first).price, yesChange(second).price]).toEqual(['0.11', '0.12']);
    expect(yesChange(second).hash).toBe(await restHash());
  });

  it('a stall resumed without delivery drops the events: the client is left on an old hash', async () => {
    const m = await subscribed();
    sb.server.wsFaults().stall();
    await bid(0.13, 5);
    sb.server.wsFaults().resume(false);
    await bid(0.14, 5);
    const change = await m.next(isChange);
    expect(yesChange(change).price).toBe('0.14');
    expect(m.all.filter(isChange)).toHaveLength(1);
    // The last hash is GET /book's, but the 0.13 level never arrived: the replayed levels are not GET /book's,
    // which is the drift a client must catch (its levels against the hash or against GET /book) and resync.
    expect(yesChange(change).hash).toBe(await restHash());
    const snapshot = m.all[0][0].bids as { price: string; size: string }[];
    const replayed = [...snapshot, { price: '0.14', size: '5' }];
    const rest = ((await (await fetch(`${sb.server.url}/book?token_id=${yes}`)).json()) as { bids: unknown[] }).bids;
    expect(rest).toEqual([...snapshot, { price: '0.13', size: '5' }, { price: '0.14', size: '5' }]);
    expect(replayed).not.toEqual(rest);
  });

  it('duplicates, swaps and corrupts exactly the next price_change', async () => {
    const m = await subscribed();
    sb.server.wsFaults().duplicateNext();
    await bid(0.15, 5);
    const a = await m.next(isChange);
    const b = await m.next(isChange);
    expect(b).toEqual(a);

    sb.server.wsFaults().swapNext();
    await bid(0.16, 5);
    await bid(0.17, 5);
    const later = await m.next(isChange);
    const earlier = await m.next(isChange);
    expect([yesChange(later).price, yesChange(earlier).price]).toEqual(['0.17', '0.16']);

    sb.server.wsFaults().corruptNextHash();
    await bid(0.18, 5);
    const corrupt = await m.next(isChange);
    expect(yesChange(corrupt).hash).not.toBe(await restHash());
    await bid(0.19, 5);
    const healed = await m.next(isChange);
    expect(yesChange(healed).hash).toBe(await restHash());
    await m.sync();
    expect(m.all.filter(isChange)).toHaveLength(6);
  });

  it('drops a client whose unsent data passes maxBufferedBytes; others carry on', async () => {
    const tokens = sb.catalog.events.flatMap((e) => e.markets).flatMap((m) => m.tokens.map((t) => t.tokenId));
    const slow = await subscribed();
    const bystander = await subscribed();
    // Held by a stall, then released in one synchronous burst: far more than the socket buffers and the 1 MiB
    // allowance hold, so the unsent data must pass the limit before anything can drain.
    sb.server.wsFaults().stall();
    const requests = 4000;
    for (let i = 0; i < requests; i++) slow.send({ assets_ids: tokens, operation: 'subscribe' });
    await slow.sync();
    sb.server.wsFaults().resume();
    expect((await slow.closed).code).toBe(1006);
    expect(slow.all.filter(Array.isArray).length).toBeLessThan(requests);
    await bystander.sync();
    expect(bystander.ws.readyState).toBe(WebSocket.OPEN);
  });

  it('dropAll closes every connection with 1012; a new one gets the current snapshot', async () => {
    const m = await subscribed();
    sb.server.wsFaults().dropAll();
    expect(await m.closed).toEqual({ code: 1012, reason: 'server restart' });
    const again = await Client.open(`${sb.server.url.replace(/^http/, 'ws')}/ws/market`);
    clients.push(again);
    again.send({ assets_ids: [yes], type: 'market' });
    const [book] = await again.next(Array.isArray);
    expect(book.hash).toBe(await restHash());
    expect(book.bids.map((l: Msg) => l.price)).toEqual([
      '0.11',
      '0.12',
      '0.13',
      '0.14',
      '0.15',
      '0.16',
      '0.17',
      '0.18',
      '0.19',
    ]);
  });
});
