// The sandbox CLOB's WebSocket channels with real `ws` clients against a real chain and CLOB: the market channel's
// snapshot and deltas replay exactly to GET /book (levels and hash, both outcomes, removals), last_trade_price,
// tick_size_change and best_bid_ask; the user channel's own orders and trades only; bad auth, PING, malformed and
// oversized frames, idle connections and a reconnect. Every wait is on a message or a close, never on a clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract, parseUnits, type Wallet } from 'ethers';
import { createHash } from 'node:crypto';
import WebSocket from 'ws';
import { WsTestClient as Client, type Msg } from '../helpers/ws-test-client';
import {
  l2Request,
  signedOrderJson,
  startClobSandbox,
  type ClobSandbox,
  type Creds,
  type OrderFields,
} from '../helpers/sandbox-clob';
import type { CatalogMarket } from '../../sandbox/market/catalog';
import { bookHash } from '../../sandbox/clob/book-snapshot';
import type { BookSnapshot } from '../../sandbox/market/market-data';

const usdc = (amount: number): bigint => parseUnits(amount.toFixed(6), 6);

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

type Level = { price: string; size: string };
type LocalBook = { bids: Map<string, string>; asks: Map<string, string>; hash: string; timestamp: string };

/** Levels as GET /book lists them: bids and asks both with the best level last. */
function ordered(book: LocalBook): { bids: Level[]; asks: Level[] } {
  const list = (m: Map<string, string>, ascending: boolean) =>
    [...m]
      .map(([price, size]) => ({ price, size }))
      .sort((a, b) => (ascending ? Number(a.price) - Number(b.price) : Number(b.price) - Number(a.price)));
  return { bids: list(book.bids, true), asks: list(book.asks, false) };
}

describe('sandbox CLOB WebSocket channels', () => {
  let sb: ClobSandbox;
  let wsBase: string;
  let alice: Wallet;
  let bob: Wallet;
  let carol: Wallet;
  let A: Creds;
  let B: Creds;
  let C: Creds;
  let markets: CatalogMarket[];
  const open: Client[] = [];

  const connect = async (path: string) => {
    const client = await Client.open(`${wsBase}${path}`);
    open.push(client);
    return client;
  };
  const credsOf = (wallet: Wallet): Creds => {
    const c = sb.server.apiKeyFor(wallet.address);
    return { key: c.apiKey, secret: c.secret, passphrase: c.passphrase };
  };
  const post = async (wallet: Wallet, creds: Creds, fields: OrderFields) => {
    const order = await signedOrderJson(sb, wallet, fields);
    const response = await l2Request(
      sb.server.url,
      wallet,
      creds,
      'POST',
      '/order',
      JSON.stringify({ deferExec: false, postOnly: false, order, owner: creds.key, orderType: 'GTC' }),
    );
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as { orderID: string; status: string; tradeIDs: string[] };
  };
  const cancel = async (wallet: Wallet, creds: Creds, orderID: string) => {
    const response = await l2Request(sb.server.url, wallet, creds, 'DELETE', '/order', JSON.stringify({ orderID }));
    expect(response.body.canceled).toEqual([orderID]);
  };
  const restBook = async (tokenId: string) =>
    (await (await fetch(`${sb.server.url}/book?token_id=${tokenId}`)).json()) as Msg;
  const userChannel = async (creds: Creds, marketIds: string[]) => {
    const client = await connect('/ws/user');
    client.send({
      auth: { apiKey: creds.key, secret: creds.secret, passphrase: creds.passphrase },
      markets: marketIds,
      type: 'user',
    });
    await client.sync();
    return client;
  };

  beforeAll(async () => {
    // A short dead-man switch: only owners that send a heartbeat are affected (one test does).
    sb = await startClobSandbox({
      orderVersion: 2,
      heartbeatTimeoutMs: 300,
      ws: { subscribeTimeoutMs: 300, maxFrameBytes: 4096 },
    });
    wsBase = sb.server.url.replace(/^http/, 'ws');
    [alice, bob, carol] = sb.wallets as [Wallet, Wallet, Wallet];
    [A, B, C] = [credsOf(alice), credsOf(bob), credsOf(carol)];
    markets = sb.catalog.events.flatMap((e) => e.markets).filter((m) => !m.negRisk);
  });
  afterAll(async () => {
    for (const c of open) c.ws.terminate();
    await sb?.stop();
  });

  it('snapshot equals GET /book, and every price_change applied to it gives exactly the next GET /book', async () => {
    const market = sb.binary;
    const [yes, no] = [market.tokens[0].tokenId, market.tokens[1].tokenId];
    const m = await connect('/ws/market');
    m.send({ assets_ids: [yes, no], type: 'market', initial_dump: true });
    const dump = await m.next(Array.isArray);
    expect(dump.map((b: Msg) => b.event_type)).toEqual(['book', 'book']);
    const local = new Map<string, LocalBook>();
    for (const book of dump) {
      const rest = await restBook(book.asset_id);
      expect(book).toEqual({ event_type: 'book', ...rest });
      expect(rest.market).toBe(market.conditionId);
      local.set(book.asset_id, {
        bids: new Map(book.bids.map((l: Level) => [l.price, l.size])),
        asks: new Map(book.asks.map((l: Level) => [l.price, l.size])),
        hash: book.hash,
        timestamp: book.timestamp,
      });
    }

    const seen: Msg[] = [];
    /** A fill sends both outcomes' full books (as Polymarket does after trades): each replaces the local book. */
    const booksAfter = async (action: () => Promise<unknown>) => {
      await action();
      for (const token of [yes, no]) {
        const book = await m.next((x) => x?.event_type === 'book' && x.asset_id === token);
        seen.push(book);
        const { event_type: _type, ...summary } = book;
        // Self-checking: the message without event_type hashes to its own hash, like GET /book.
        expect(
          createHash('sha1')
            .update(JSON.stringify({ ...summary, hash: '' }))
            .digest('hex'),
        ).toBe(book.hash);
        expect(summary).toEqual(await restBook(token));
        local.set(token, {
          bids: new Map(book.bids.map((l: Level) => [l.price, l.size])),
          asks: new Map(book.asks.map((l: Level) => [l.price, l.size])),
          hash: book.hash,
          timestamp: book.timestamp,
        });
      }
    };
    /** One action, one price_change: applied level by level, both outcomes must equal GET /book afterwards. */
    const step = async (action: () => Promise<unknown>) => {
      await action();
      const change = await m.next((x) => x?.event_type === 'price_change');
      seen.push(change);
      expect(change.market).toBe(market.conditionId);
      for (const c of change.price_changes) {
        const book = local.get(c.asset_id)!;
        const side = c.side === 'BUY' ? book.bids : c.side === 'SELL' ? book.asks : undefined;
        expect(side).toBeDefined();
        if (c.size === '0') side!.delete(c.price);
        else side!.set(c.price, c.size);
        book.hash = c.hash;
        book.timestamp = change.timestamp;
      }
      for (const token of [yes, no]) {
        const rest = await restBook(token);
        const book = local.get(token)!;
        expect(ordered(book)).toEqual({ bids: rest.bids, asks: rest.asks });
        expect(book.hash).toBe(rest.hash);
        expect(book.timestamp).toBe(rest.timestamp);
        // best_bid / best_ask of every entry for this token are the book's best levels after the change.
        for (const c of change.price_changes.filter((x: Msg) => x.asset_id === token)) {
          expect([c.best_bid, c.best_ask]).toEqual([rest.bids.at(-1)?.price ?? '', rest.asks.at(-1)?.price ?? '']);
        }
      }
      return change;
    };

    let first = '';
    let second = '';
    // A new bid on YES is a new ask on NO: both outcomes move in one message.
    const placed = await step(async () => (first = (await post(alice, A, limit(yes, 'BUY', 0.4, 10))).orderID));
    expect(placed.price_changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ asset_id: yes, price: '0.4', size: '10', side: 'BUY' }),
        expect.objectContaining({ asset_id: no, price: '0.6', size: '10', side: 'SELL' }),
      ]),
    );
    await step(() => post(bob, B, limit(no, 'BUY', 0.55, 8)));
    // Same price again: the size now at the level, not an increment.
    const grown = await step(async () => (second = (await post(alice, A, limit(yes, 'BUY', 0.4, 5))).orderID));
    expect(grown.price_changes).toEqual(
      expect.arrayContaining([expect.objectContaining({ asset_id: yes, price: '0.4', size: '15', side: 'BUY' })]),
    );
    // A crossing NO buy mints against alice's YES bids (10 then 2 of 5): a trade on the chain, then full books.
    await booksAfter(() => post(carol, C, limit(no, 'BUY', 0.62, 12)));
    expect(ordered(local.get(no)!).asks).toEqual([{ price: '0.6', size: '3' }]);
    expect(ordered(local.get(no)!).bids).toEqual([{ price: '0.55', size: '8' }]);
    const trade = await m.next((x) => x?.event_type === 'last_trade_price' && x.asset_id === no);
    expect(trade).toMatchObject({
      market: market.conditionId,
      price: '0.6',
      side: 'BUY',
      size: '10',
      fee_rate_bps: '0',
    });
    const mirrored = await m.next((x) => x?.event_type === 'last_trade_price' && x.asset_id === yes);
    expect(mirrored).toMatchObject({
      market: market.conditionId,
      price: '0.4',
      side: 'SELL',
      size: '10',
      fee_rate_bps: '0',
    });
    expect(Number(trade.timestamp)).toBeGreaterThan(0);
    expect(await (await fetch(`${sb.server.url}/last-trade-price?token_id=${no}`)).json()).toMatchObject({
      price: '0.6',
    });
    // Cancelling removes the level on both outcomes: size "0".
    const removed = await step(() => cancel(alice, A, second));
    expect(removed.price_changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ asset_id: yes, price: '0.4', size: '0', side: 'BUY' }),
        expect.objectContaining({ asset_id: no, price: '0.6', size: '0', side: 'SELL' }),
      ]),
    );
    expect(first).not.toBe('');
    // Nothing else arrived that changes levels: every book change was one of the messages applied above.
    await m.sync();
    expect(m.all.filter((x) => x?.event_type === 'price_change' || x?.event_type === 'book')).toEqual(seen);
  });

  it('user channel: own placement, fill updates, trade statuses up to CONFIRMED and cancellation; nothing of other owners', async () => {
    const market = markets.find((x) => x !== sb.binary && x.tickSize === '0.01')!;
    const [yes, no] = [market.tokens[0].tokenId, market.tokens[1].tokenId];
    const ua = await userChannel(A, [market.conditionId]);
    const ub = await userChannel(B, [market.conditionId]);
    const uc = await userChannel(C, []);

    const order = await post(alice, A, limit(yes, 'BUY', 0.3, 10));
    const placement = await ua.next((x) => x?.event_type === 'order' && x.type === 'PLACEMENT');
    expect(placement).toMatchObject({
      id: order.orderID,
      owner: A.key,
      market: market.conditionId,
      asset_id: yes,
      side: 'BUY',
      price: '0.3',
      original_size: '10',
      size_matched: '0',
      outcome: market.tokens[0].name,
      order_type: 'GTC',
      status: 'LIVE',
    });
    expect(typeof placement.timestamp).toBe('string');

    const taker = await post(bob, B, limit(no, 'BUY', 0.75, 6));
    const tradeId = taker.tradeIDs[0];
    for (const [client, side] of [
      [ub, 'TAKER'],
      [ua, 'MAKER'],
    ] as const) {
      const statuses: string[] = [];
      for (const status of ['MATCHED', 'MINED', 'CONFIRMED']) {
        const t = await client.next((x) => x?.event_type === 'trade' && x.id === tradeId && x.status === status);
        statuses.push(t.status);
        expect(t).toMatchObject({
          taker_order_id: taker.orderID,
          market: market.conditionId,
          asset_id: no,
          side: 'BUY',
          size: '6',
          price: '0.7',
          owner: B.key,
          trader_side: side,
        });
        expect(t.maker_orders).toEqual([
          expect.objectContaining({
            order_id: order.orderID,
            owner: A.key,
            matched_amount: '6',
            price: '0.3',
            asset_id: yes,
          }),
        ]);
        expect(t.match_time).toMatch(/^\d+$/);
        expect(t.last_update).toMatch(/^\d+$/);
      }
      expect(statuses).toEqual(['MATCHED', 'MINED', 'CONFIRMED']);
    }
    const update = await ua.next((x) => x?.event_type === 'order' && x.type === 'UPDATE');
    expect(update).toMatchObject({ id: order.orderID, size_matched: '6', status: 'LIVE', associate_trades: [tradeId] });

    await cancel(alice, A, order.orderID);
    const cancellation = await ua.next((x) => x?.event_type === 'order' && x.type === 'CANCELLATION');
    expect(cancellation).toMatchObject({ id: order.orderID, status: 'CANCELED', size_matched: '6' });

    // Carol trades elsewhere and here; alice's and bob's connections must never hear of it.
    const carols = await post(carol, C, limit(yes, 'BUY', 0.1, 5));
    await cancel(carol, C, carols.orderID);
    const other = await post(carol, C, limit(sb.binary.tokens[0].tokenId, 'BUY', 0.05, 5));
    await cancel(carol, C, other.orderID);
    await uc.next((x) => x?.type === 'CANCELLATION' && x.id === other.orderID);
    await Promise.all([ua.sync(), ub.sync(), uc.sync()]);

    const events = (c: Client) => c.all.filter((x) => x?.event_type === 'order' || x?.event_type === 'trade');
    expect(events(ua).map((x) => `${x.event_type}:${x.type}:${x.status}`)).toEqual([
      'order:PLACEMENT:LIVE',
      'trade:TRADE:MATCHED',
      'trade:TRADE:MINED',
      'trade:TRADE:CONFIRMED',
      'order:UPDATE:LIVE',
      'order:CANCELLATION:CANCELED',
    ]);
    for (const x of events(ua)) expect(x.event_type === 'order' ? x.owner : x.trade_owner).toBe(A.key);
    // Bob's taker order matched at once: its placement, the trade, then its update as fully matched.
    expect(events(ub).map((x) => `${x.event_type}:${x.type}:${x.status}`)).toEqual([
      'order:PLACEMENT:LIVE',
      'trade:TRADE:MATCHED',
      'trade:TRADE:MINED',
      'trade:TRADE:CONFIRMED',
      'order:UPDATE:MATCHED',
    ]);
    for (const x of events(ub)) expect(x.event_type === 'order' ? x.owner : x.trade_owner).toBe(B.key);
    // Carol watches every market (an empty list): her four events, and only hers.
    expect(events(uc).map((x) => `${x.type}:${x.id}`)).toEqual([
      `PLACEMENT:${carols.orderID}`,
      `CANCELLATION:${carols.orderID}`,
      `PLACEMENT:${other.orderID}`,
      `CANCELLATION:${other.orderID}`,
    ]);
    // No secret ever travels back.
    for (const c of [ua, ub, uc])
      for (const creds of [A, B, C]) expect(JSON.stringify(c.all)).not.toContain(creds.secret);
  });

  it('a settlement that reverts: FAILED on both user channels, both orders cancelled, and the book replays to GET /book', async () => {
    const market = sb.negRisk;
    const [yes, no] = [market.tokens[0].tokenId, market.tokens[1].tokenId];
    const [dave, erin] = [sb.wallets[3]!, sb.wallets[4]!];
    const D = credsOf(dave);
    const ud = await userChannel(D, [market.conditionId]);
    const ub = await userChannel(B, [market.conditionId]);
    const m = await connect('/ws/market');
    m.send({ assets_ids: [yes, no], type: 'market' });
    const dump = await m.next(Array.isArray);

    const resting = await post(dave, D, limit(yes, 'BUY', 0.35, 10, { negRisk: true }));
    await m.next((x) => x?.event_type === 'price_change');
    // The maker's collateral leaves after it was checked: the chain refuses the match.
    const collateral = new Contract(
      sb.chain.contracts.collateral,
      ['function transfer(address,uint256) returns (bool)', 'function balanceOf(address) view returns (uint256)'],
      dave,
    );
    const balance = (await collateral.getFunction('balanceOf')(dave.address)) as bigint;
    await (await collateral.getFunction('transfer')(erin.address, balance)).wait();

    const order = await signedOrderJson(sb, bob, limit(no, 'BUY', 0.7, 6, { negRisk: true }));
    const refused = await l2Request(
      sb.server.url,
      bob,
      B,
      'POST',
      '/order',
      JSON.stringify({ order, owner: B.key, orderType: 'GTC' }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/settlement failed/);
    const tradeId = refused.body.tradeIDs[0];

    await Promise.all([ud.sync(), ub.sync(), m.sync()]);
    const events = (c: Client) =>
      c.all
        .filter((x) => x?.event_type === 'order' || x?.event_type === 'trade')
        .map((x) => `${x.event_type}:${x.type}:${x.status}:${x.id}`);
    expect(events(ud)).toEqual([
      `order:PLACEMENT:LIVE:${resting.orderID}`,
      `trade:TRADE:MATCHED:${tradeId}`,
      `trade:TRADE:FAILED:${tradeId}`,
      `order:CANCELLATION:CANCELED:${resting.orderID}`,
    ]);
    expect(events(ub)).toEqual([
      `order:PLACEMENT:LIVE:${refused.body.orderID}`,
      `trade:TRADE:MATCHED:${tradeId}`,
      `trade:TRADE:FAILED:${tradeId}`,
      `order:CANCELLATION:CANCELED:${refused.body.orderID}`,
    ]);
    // Nothing traded, so no last_trade_price; the book went back to what it was before dave's order, level by level.
    expect(m.all.filter((x) => x?.event_type === 'last_trade_price')).toEqual([]);
    const changes = m.all.filter((x) => x?.event_type === 'price_change');
    expect(changes).toHaveLength(2);
    expect(changes[1].price_changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ asset_id: yes, price: '0.35', size: '0', side: 'BUY' }),
        expect.objectContaining({ asset_id: no, price: '0.65', size: '0', side: 'SELL' }),
      ]),
    );
    for (const book of dump) {
      const rest = await restBook(book.asset_id);
      expect({ bids: rest.bids, asks: rest.asks }).toEqual({ bids: book.bids, asks: book.asks });
      expect(changes[1].price_changes.find((c: Msg) => c.asset_id === book.asset_id).hash).toBe(rest.hash);
    }
  });

  it('user channel markets filter: subscribe and unsubscribe operations; a heartbeat timeout cancels on both channels', async () => {
    const [first, second] = markets.filter((x) => x.tickSize === '0.01').slice(1, 3) as [CatalogMarket, CatalogMarket];
    // Erin's wallet only received collateral in the test above: its orders here are the only ones of its key.
    const erin = sb.wallets[4]!;
    const E = credsOf(erin);
    const ue = await userChannel(E, [first.conditionId]);
    const outside = await post(erin, E, limit(second.tokens[0].tokenId, 'BUY', 0.05, 5));
    await ue.sync();
    expect(ue.all.filter((x) => x?.event_type === 'order')).toEqual([]);
    ue.send({ operation: 'subscribe', markets: [second.conditionId] });
    await ue.sync();
    await cancel(erin, E, outside.orderID);
    expect(await ue.next((x) => x?.event_type === 'order')).toMatchObject({
      type: 'CANCELLATION',
      id: outside.orderID,
    });
    ue.send({ operation: 'unsubscribe', markets: [second.conditionId] });
    await ue.sync();
    const ignored = await post(erin, E, limit(second.tokens[0].tokenId, 'BUY', 0.05, 5));
    await cancel(erin, E, ignored.orderID);
    await ue.sync();
    expect(ue.all.filter((x) => x?.event_type === 'order').map((x) => x.id)).toEqual([outside.orderID]);

    // Dead-man switch: erin starts heartbeats on `first`, then goes silent; the server cancels, and says so live.
    const m = await connect('/ws/market');
    const token = first.tokens[0].tokenId;
    m.send({ assets_ids: [token], type: 'market' });
    await m.next(Array.isArray);
    const resting = await post(erin, E, limit(token, 'BUY', 0.06, 5));
    await m.next((x) => x?.event_type === 'price_change');
    const beat = await l2Request(
      sb.server.url,
      erin,
      E,
      'POST',
      '/v1/heartbeats',
      JSON.stringify({ heartbeat_id: null }),
    );
    expect(beat.status).toBe(200);
    expect(await ue.next((x) => x?.event_type === 'order' && x.type === 'CANCELLATION')).toMatchObject({
      id: resting.orderID,
      status: 'CANCELED',
    });
    const removal = await m.next((x) => x?.event_type === 'price_change');
    expect(removal.price_changes).toEqual([
      expect.objectContaining({
        asset_id: token,
        price: '0.06',
        size: '0',
        side: 'BUY',
        hash: (await restBook(token)).hash,
      }),
    ]);
  });

  it('refuses bad credentials with a close code and a reason that echoes nothing', async () => {
    const attempts = [
      { apiKey: A.key, secret: B.secret, passphrase: A.passphrase },
      { apiKey: A.key, secret: A.secret, passphrase: 'wrong' },
      { apiKey: '00000000-0000-4000-a000-000000000000', secret: A.secret, passphrase: A.passphrase },
      undefined,
    ];
    for (const auth of attempts) {
      const client = await connect('/ws/user');
      client.send({ auth, markets: [], type: 'user' });
      const closed = await client.closed;
      expect(closed).toEqual({ code: 4401, reason: 'invalid credentials' });
      expect(client.all).toEqual([]);
    }
  });

  it('answers PING with PONG and malformed frames with an error object, on both channels', async () => {
    for (const path of ['/ws/market', '/ws/user']) {
      const client = path === '/ws/user' ? await userChannel(A, []) : await connect(path);
      // Subscribed first, so the idle rule cannot close it while the bad frames go back and forth.
      if (path === '/ws/market') client.send({ assets_ids: [], type: 'market' });
      client.send('PING');
      expect(await client.next((x) => typeof x === 'string')).toBe('PONG');
      for (const bad of [
        '{oops',
        '[1,2]',
        '"text"',
        JSON.stringify({ assets_ids: 'x', type: 'market', markets: 'y' }),
      ]) {
        client.send(bad);
        const error = await client.next((x) => x?.event_type === 'error');
        expect(typeof error.error).toBe('string');
      }
      client.ws.send(Buffer.from([1, 2, 3]), { binary: true });
      expect((await client.next((x) => x?.event_type === 'error')).error).toMatch(/binary/);
      await client.sync();
    }
  });

  it('closes only the connection that sends an oversized frame', async () => {
    const big = await connect('/ws/market');
    const bystander = await connect('/ws/market');
    bystander.send({ assets_ids: [], type: 'market' });
    big.send(`{"assets_ids":["${'1'.repeat(5000)}"],"type":"market"}`);
    expect((await big.closed).code).toBe(1009);
    await bystander.sync();
    expect(bystander.ws.readyState).toBe(WebSocket.OPEN);
  });

  it('closes a connection that never subscribes', async () => {
    const idle = await connect('/ws/market');
    expect(await idle.closed).toEqual({ code: 4408, reason: 'no subscription' });
  });

  it('a client that drops and reconnects gets a fresh snapshot of the book as it is now', async () => {
    const market = markets.filter((x) => x.tickSize === '0.01')[2]!;
    const yes = market.tokens[0].tokenId;
    const first = await connect('/ws/market');
    first.send({ assets_ids: [yes], type: 'market' });
    const [before] = await first.next(Array.isArray);
    first.ws.terminate();
    await first.closed;
    await post(alice, A, limit(yes, 'BUY', 0.2, 7));
    const again = await connect('/ws/market');
    again.send({ assets_ids: [yes], type: 'market' });
    const [after] = await again.next(Array.isArray);
    const rest = await restBook(yes);
    expect(after).toMatchObject({ bids: rest.bids, asks: rest.asks, hash: rest.hash, timestamp: rest.timestamp });
    expect(after.bids).toEqual([...before.bids, { price: '0.2', size: '7' }]);
    expect(after.hash).not.toBe(before.hash);
  });

  it('tick_size_change, then a book with the new hash; best_bid_ask with custom features; subscribe and unsubscribe operations', async () => {
    const market = markets.find((x) => x.tickSize === '0.001')!;
    const [yes, no] = [market.tokens[0].tokenId, market.tokens[1].tokenId];
    const m = await connect('/ws/market');
    m.send({ assets_ids: [yes], type: 'market', custom_feature_enabled: true });
    await m.next(Array.isArray);
    // Adding the second outcome later sends its snapshot.
    m.send({ assets_ids: [no], operation: 'subscribe' });
    const [noBook] = await m.next(Array.isArray);
    expect(noBook).toMatchObject({ event_type: 'book', asset_id: no, hash: (await restBook(no)).hash });

    sb.server.setTickSize(market.conditionId, '0.0001');
    for (const asset of [yes, no]) {
      expect(await m.next((x) => x?.event_type === 'tick_size_change' && x.asset_id === asset)).toMatchObject({
        market: market.conditionId,
        old_tick_size: '0.001',
        new_tick_size: '0.0001',
      });
      const book = await m.next((x) => x?.event_type === 'book' && x.asset_id === asset);
      const rest = await restBook(asset);
      expect(rest.tick_size).toBe('0.0001');
      expect(book.hash).toBe(rest.hash);
    }

    await post(alice, A, limit(yes, 'BUY', 0.2345, 10));
    expect(await m.next((x) => x?.event_type === 'best_bid_ask' && x.asset_id === yes)).toMatchObject({
      market: market.conditionId,
      best_bid: '0.2345',
      best_ask: '',
    });
    expect(await m.next((x) => x?.event_type === 'best_bid_ask' && x.asset_id === no)).toMatchObject({
      best_bid: '',
      best_ask: '0.7655',
    });
    const both = await m.next((x) => x?.event_type === 'price_change');
    expect(both.price_changes.map((c: Msg) => c.asset_id).sort()).toEqual([yes, no].sort());

    // After unsubscribing NO, a change reaches this client for YES only.
    m.send({ assets_ids: [no], operation: 'unsubscribe' });
    await m.sync();
    await post(alice, A, limit(yes, 'BUY', 0.2, 5));
    const change = await m.next((x) => x?.event_type === 'price_change');
    expect(change.price_changes.map((c: Msg) => c.asset_id)).toEqual([yes]);
  });

  it('a burst of books published in one turn (one write) arrives as one price_change each, in order, each with its book hash', async () => {
    const market = markets.find((m) => m.conditionId !== sb.binary.conditionId)!;
    const token = market.tokens[0].tokenId;
    const m = await connect('/ws/market');
    m.send({ assets_ids: [token], type: 'market', initial_dump: true });
    const [dump] = (await m.next(Array.isArray)) as Msg[];
    const { event_type: _e, ...base } = dump as BookSnapshot & { event_type: string };
    const t0 = Number(base.timestamp) + 1;
    const books: BookSnapshot[] = Array.from({ length: 100 }, (_, i) => {
      const summary = {
        ...base,
        timestamp: String(t0 + i),
        hash: '',
        bids: [{ price: '0.01', size: String(100 + i) }, ...base.bids.filter((l) => l.price !== '0.01')],
      };
      return { ...summary, hash: bookHash(summary) };
    });
    for (const book of books) sb.server.publishBooks(market.conditionId, [book]);
    await m.next((x) => x?.event_type === 'price_change' && x.timestamp === String(t0 + 99));
    const changes = m.all.filter((x) => x?.event_type === 'price_change') as Msg[];
    expect(changes.map((c) => Number(c.timestamp))).toEqual(books.map((b) => Number(b.timestamp)));
    expect(changes.map((c) => c.price_changes.at(-1).hash)).toEqual(books.map((b) => b.hash));
    expect(changes.map((c) => c.price_changes.find((p: Msg) => p.price === '0.01').size)).toEqual(
      books.map((b) => b.bids[0]!.size),
    );
  });
});
