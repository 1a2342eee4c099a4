// How a CLOB server restarted on its state file puts orders back: saved while running (not only on stop), resting
// orders keep their time priority and new ones queue behind them, a GTD order that expired while the server was
// down is expired, an order cancelled on the chain meanwhile stays off the book, and a file of another version
// is refused with a log line and the server starts empty.
import { Contract } from 'ethers';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TX_OVERRIDES } from '../../sandbox/chain/index';
import { compileContracts } from '../../sandbox/chain/compile';
import { parseOrderBody } from '../../sandbox/clob/order-rules';
import { startClobServer, type ClobServer } from '../../sandbox/clob/server';
import {
  l2Request,
  signedOrderJson,
  startClobSandbox,
  type ClobSandbox,
  type OrderFields,
} from '../helpers/sandbox-clob';

describe('CLOB state file: restoring orders', () => {
  let sb: ClobSandbox;
  let stateFile: string;
  let clock = Date.now();
  const now = () => clock;
  const servers: ClobServer[] = [];
  const lines: string[] = [];

  beforeAll(async () => {
    stateFile = join(await mkdtemp(join(tmpdir(), 'pmdesk-clob-state-')), 'clob-state.json');
    sb = await startClobSandbox({ stateFile, now, log: (l) => lines.push(l) });
  });
  afterAll(async () => {
    for (const server of servers) await server.stop();
    await sb?.stop();
  });

  const restart = async (from: ClobServer) => {
    await from.stop();
    const server = await startClobServer({
      deployment: sb.chain,
      catalog: sb.catalog,
      marketData: sb.data,
      stateFile,
      now,
      log: (l) => lines.push(l),
    });
    servers.push(server);
    return server;
  };

  it('puts orders back in time priority, expires the overdue, leaves out what the chain cancelled', async () => {
    const [alice, bob, carol, dave] = sb.wallets as [
      (typeof sb.wallets)[0],
      (typeof sb.wallets)[0],
      (typeof sb.wallets)[0],
      (typeof sb.wallets)[0],
    ];
    const creds = new Map(sb.wallets.slice(0, 4).map((w) => [w.address, sb.server.apiKeyFor(w.address)]));
    const [yes, no] = [sb.binary.tokens[0].tokenId, sb.binary.tokens[1].tokenId];
    const buy = (tokenId: string, price: bigint, shares: bigint, extra: Partial<OrderFields> = {}): OrderFields => ({
      tokenId,
      side: 'BUY',
      makerAmount: (shares * price) / 10_000n,
      takerAmount: shares,
      ...extra,
    });
    const post = async (server: ClobServer, wallet: typeof alice, json: Record<string, unknown>, orderType = 'GTC') => {
      const key = creds.get(wallet.address)!.apiKey;
      return server.placeOrder({ order: json, owner: key, orderType }, key);
    };

    // Alice then Bob bid 5 YES at 0.50; Alice also has a GTD bid at 0.40 and a GTC bid at 0.30.
    const first = await post(sb.server, alice, await signedOrderJson(sb, alice, buy(yes, 5000n, 5_000_000n)));
    const second = await post(sb.server, bob, await signedOrderJson(sb, bob, buy(yes, 5000n, 5_000_000n)));
    const gtd = await post(
      sb.server,
      alice,
      await signedOrderJson(
        sb,
        alice,
        buy(yes, 4000n, 5_000_000n, { expiration: BigInt(Math.floor(clock / 1000) + 120) }),
      ),
      'GTD',
    );
    const doomedJson = await signedOrderJson(sb, alice, buy(yes, 3000n, 5_000_000n));
    const doomed = await post(sb.server, alice, doomedJson);
    for (const r of [first, second, gtd, doomed])
      expect(r, r.errorMsg).toMatchObject({ success: true, status: 'live' });

    // Saved while running, not only on stop: the file follows the book.
    await expect
      .poll(async () => {
        const saved = JSON.parse(await readFile(stateFile, 'utf8').catch(() => '{}')) as { orders?: { id: string }[] };
        return (saved.orders ?? []).map((o) => o.id);
      })
      .toEqual([first.orderID, second.orderID, gtd.orderID, doomed.orderID]);

    // Alice cancels the 0.30 bid on the chain, behind the CLOB's back.
    const parsed = parseOrderBody(
      { order: doomedJson, owner: creds.get(alice.address)!.apiKey, orderType: 'GTC' },
      sb.chain.orderVersion,
    ).order;
    const exchange = new Contract(sb.chain.contracts.exchange, compileContracts().CTFExchange.abi, alice);
    await (await exchange.getFunction('cancelOrder')(parsed, TX_OVERRIDES)).wait();

    // Down for an hour: the GTD bid's time runs out meanwhile.
    clock += 3_600_000;
    const restarted = await restart(sb.server);
    expect(lines).toContain(
      `CLOB state loaded from ${stateFile}: 4 API keys, 2 resting orders, 0 trades; 1 orders filled or cancelled on the chain were not restored`,
    );
    expect(restarted.book(yes)!.bids).toEqual([{ price: '0.5', size: '10' }]);
    clock = Date.now(); // back to the wall clock, so L2 headers signed now are in the window

    const aliceCreds = creds.get(alice.address)!;
    const asAlice = { key: aliceCreds.apiKey, secret: aliceCreds.secret, passphrase: aliceCreds.passphrase };
    const statusOf = async (id: string) =>
      (await l2Request(restarted.url, alice, asAlice, 'GET', `/data/order/${id}`)).body as { status: string };
    expect((await statusOf(gtd.orderID)).status).toBe('CANCELED');
    expect((await statusOf(doomed.orderID)).status).toBe('CANCELED');
    expect((await statusOf(first.orderID)).status).toBe('LIVE');
    const notes = (await l2Request(restarted.url, alice, asAlice, 'GET', '/notifications')).body as {
      payload: { order_id: string; reason: string };
    }[];
    expect(notes.map((n) => n.payload)).toEqual(
      expect.arrayContaining([
        { order_id: doomed.orderID, reason: 'filled or cancelled on the chain' },
        { order_id: gtd.orderID, reason: 'expired' },
      ]),
    );

    // Dave bids at 0.50 after the restart: he queues behind Alice and Bob. Carol buys 10 NO at 0.50 (a MINT).
    const late = await post(restarted, dave, await signedOrderJson(sb, dave, buy(yes, 5000n, 5_000_000n)));
    expect(late.status).toBe('live');
    const taker = await post(restarted, carol, await signedOrderJson(sb, carol, buy(no, 5000n, 10_000_000n)));
    expect(taker, taker.errorMsg).toMatchObject({ success: true, status: 'matched' });
    expect(restarted.openOrderIds(creds.get(alice.address)!.apiKey)).toEqual([]);
    expect(restarted.openOrderIds(creds.get(bob.address)!.apiKey)).toEqual([]);
    expect(restarted.openOrderIds(creds.get(dave.address)!.apiKey)).toEqual([late.orderID]);
    expect(await sb.sharesOf(alice.address, yes)).toBe(5_000_000n);
    expect(await sb.sharesOf(bob.address, yes)).toBe(5_000_000n);
    expect(await sb.sharesOf(carol.address, no)).toBe(10_000_000n);
  }, 120_000);

  it('keeps only the newest finished orders in the file; an older one is still refused if posted again', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'pmdesk-clob-history-')), 'clob-state.json');
    const options = {
      deployment: sb.chain,
      catalog: sb.catalog,
      marketData: sb.data,
      stateFile: file,
      now,
      stateHistory: 1,
      log: (l: string) => lines.push(l),
    };
    const server = await startClobServer(options);
    servers.push(server);
    const wallet = sb.wallets[4]!;
    const key = server.apiKeyFor(wallet.address).apiKey;
    const yes = sb.binary.tokens[0].tokenId;
    const jsons = [
      await signedOrderJson(sb, wallet, {
        tokenId: yes,
        side: 'BUY',
        makerAmount: 1_000_000n,
        takerAmount: 5_000_000n,
      }),
      await signedOrderJson(sb, wallet, {
        tokenId: yes,
        side: 'BUY',
        makerAmount: 1_050_000n,
        takerAmount: 5_000_000n,
      }),
    ];
    const ids: string[] = [];
    for (const json of jsons) {
      const placed = await server.placeOrder({ order: json, owner: key, orderType: 'GTC' }, key);
      expect(placed, placed.errorMsg).toMatchObject({ success: true, status: 'live' });
      ids.push(placed.orderID);
      expect(await server.cancel(key, placed.orderID)).toEqual({ canceled: [placed.orderID], not_canceled: {} });
    }
    await server.stop();
    const saved = JSON.parse(await readFile(file, 'utf8')) as { orders: { id: string }[]; retired: string[] };
    expect(saved.orders.map((o) => o.id)).toEqual([ids[1]]);
    expect(saved.retired).toEqual([ids[0]]);

    const again = await startClobServer(options);
    servers.push(again);
    expect(await again.placeOrder({ order: jsons[0], owner: key, orderType: 'GTC' }, key)).toMatchObject({
      success: false,
      errorMsg: 'order already exists',
    });
    expect(await again.cancel(key, ids[1]!)).toEqual({
      canceled: [],
      not_canceled: { [ids[1]!]: 'order already canceled' },
    });
  });

  it('refuses a state file of another version: said in the log, the server starts empty', async () => {
    const key = sb.server.apiKeyFor(sb.wallets[0]!.address).apiKey;
    // Nothing else may write the file meanwhile (stop is harmless twice; afterAll stops them again).
    for (const running of servers) await running.stop();
    await writeFile(stateFile, JSON.stringify({ version: 99, orders: [] }));
    const server = await startClobServer({
      deployment: sb.chain,
      catalog: sb.catalog,
      marketData: sb.data,
      stateFile,
      now,
      log: (l) => lines.push(l),
    });
    servers.push(server);
    expect(lines.at(-1)).toMatch(
      /^CLOB state in .* refused: version 99, this sandbox reads version 1; starting with an empty CLOB \(the file is kept as .*\.refused-\d+\)$/,
    );
    expect(server.book(sb.binary.tokens[0].tokenId)!.bids).toEqual([]);
    await expect(server.placeOrder({}, key)).rejects.toThrow('unknown API key');
  });
});
