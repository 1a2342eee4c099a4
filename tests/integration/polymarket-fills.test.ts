// Live fills of a Polymarket market: the real-time service on a real WebSocket on loopback (the subscribe
// message's exact bytes, the `ping` keepalive, validation, deduplication) and the fallback to polling the Data
// API when that service is refused or drops, then back to live when it opens again.
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TradeRecord } from '../../packages/toolkit/src/model/market-model';
import type { PmDeskError } from '../../packages/toolkit/src/model/errors';
import type { Logger } from '../../packages/toolkit/src/base/logger';
import { PolymarketSource } from '../../packages/toolkit/src/polymarket/source';
import type { FillSubscription } from '../../packages/toolkit/src/model/market-source';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server';
import { until } from '../helpers/until';
import { WsFixture } from '../helpers/ws-fixture';
import { CONDITION_ID, NO_TOKEN, YES_TOKEN, dataTrade, gammaMarket, rtdsTrade } from '../helpers/polymarket-fixtures';

let http: FixtureServer;
let rtds: WsFixture;
let subscription: FillSubscription | undefined;
const logger: Logger = { debug() {}, warn() {}, error() {} };

function follow(rtdsUrl: string | undefined, silenceMs?: number) {
  const fills: TradeRecord[] = [];
  const modes: string[] = [];
  const errors: PmDeskError[] = [];
  const closes: (PmDeskError | undefined)[] = [];
  let opens = 0;
  const source = new PolymarketSource({
    gammaUrl: http.url,
    dataUrl: http.url,
    clobUrl: http.url,
    rtdsUrl,
    logger,
    timing: { pollMs: 40, rtdsRetryMs: 80, pingMs: 30, rtdsOpenTimeoutMs: 150, ...(silenceMs ? { silenceMs } : {}) },
  });
  subscription = source.subscribeToFills('polymarket', '506729', {
    onOpen: () => opens++,
    onFill: (fill) => fills.push(fill),
    onMode: (mode) => modes.push(mode),
    onError: (error) => errors.push(error),
    onClose: (error) => closes.push(error),
  });
  return { subscription, fills, modes, errors, closes, opens: () => opens };
}

const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  http = await startFixtureServer();
});
afterAll(() => http.stop());
beforeEach(async () => {
  http.reset();
  http.json('GET', '/markets/506729', gammaMarket());
  http.json('GET', '/trades', []);
  rtds = await WsFixture.start();
});
afterEach(async () => {
  subscription?.close();
  await rtds.stop();
});

describe('real-time trades', () => {
  it('subscribes with filters as a JSON string, exactly as the official client does', async () => {
    const live = follow(rtds.wsUrl);
    const connection = await rtds.connection(0);
    await connection.receivedCount(1);
    expect(connection.received[0]).toBe(
      '{"action":"subscribe","subscriptions":[{"topic":"activity","type":"orders_matched","filters":"{\\"market_slug\\":\\"fed-cut-25-bps-december\\"}"}]}',
    );
    await until(() => live.modes.length > 0, 'live mode');
    expect(live.modes).toEqual(['live']);
    expect(live.subscription.state).toBe('open');
    expect(live.opens()).toBe(1);
  });

  it('sends the text ping on its keepalive period', async () => {
    follow(rtds.wsUrl);
    const connection = await rtds.connection(0);
    await connection.receivedCount(3);
    expect(connection.received.slice(1, 3)).toEqual(['ping', 'ping']);
  });

  it('emits each trade once with side, trader, transaction and token, in the first outcome; a bad message is reported and the stream stays open', async () => {
    const live = follow(rtds.wsUrl);
    const connection = await rtds.connection(0);
    await connection.receivedCount(1);
    connection.send(rtdsTrade());
    connection.send(rtdsTrade());
    connection.send('pong');
    connection.send({ topic: 'activity', type: 'orders_matched', payload: { asset: YES_TOKEN, price: 'high' } });
    connection.send('{not json');
    connection.send(rtdsTrade({ conditionId: '0x' + '99'.repeat(32), transactionHash: '0x07' }));
    connection.send({ topic: 'comments', type: 'comment_created', payload: { body: 'hi' } });
    connection.send(rtdsTrade({ size: 11, asset: NO_TOKEN, side: 'BUY' }));
    await until(() => live.fills.length === 2, 'two distinct fills');
    // Both in the first outcome, as the aggregator's stream sends them: buying No at 55¢ is selling Yes at 45¢.
    expect(live.fills.map((f) => [f.tokenId, f.volumeBase, f.side, f.price])).toEqual([
      [YES_TOKEN, 10, 'SELL', 0.55],
      [YES_TOKEN, 11, 'SELL', 0.45],
    ]);
    expect(live.fills[0]).toMatchObject({
      price: 0.55,
      trader: '0x00000000000000000000000000000000000000a1',
      traderName: 'alice',
      transactionHash: '0x' + 'cd'.repeat(32),
    });
    expect(live.errors.map((e) => e.code)).toEqual(['ERR_VALIDATION', 'ERR_VALIDATION']);
    expect(live.errors[0]!.detail).toContain('price');
    expect(live.subscription.latest()).toEqual(live.fills[1]);
    expect(live.subscription.state).toBe('open');
  });
});

describe('falling back to polling and back', () => {
  it('polls the Data API at once when there is no real-time URL, emitting only new trades, each once', async () => {
    const t = now();
    let round = 0;
    http.on('GET', '/trades', (_request, reply) => {
      round++;
      const older = dataTrade({ timestamp: t - 3600, transactionHash: '0x00' });
      const first = dataTrade({ timestamp: t, transactionHash: '0x01' });
      const second = dataTrade({ timestamp: t + 1, transactionHash: '0x02' });
      reply.json(200, round === 1 ? [first, older] : [second, first, older]);
    });
    const polled = follow(undefined);
    await until(() => polled.fills.length === 2, 'two polled fills');
    expect(polled.modes).toEqual(['polling']);
    expect(polled.fills.map((f) => f.transactionHash)).toEqual(['0x01', '0x02']);
    expect(http.to('/trades')[0]!.rawQuery).toBe(`market=${CONDITION_ID}&limit=100&offset=0&takerOnly=true`);
    await until(() => round >= 4, 'more polls');
    expect(polled.fills).toHaveLength(2);
  });

  it('polls while the real-time service is away and goes live again when it opens', async () => {
    const t = now();
    http.json('GET', '/trades', [dataTrade({ timestamp: t, transactionHash: '0x0a' })]);
    // The first connection is cut as soon as it is made: live, then the service dropped.
    void rtds.connection(0).then((c) => c.socket.terminate());
    const feed = follow(rtds.wsUrl);
    await until(() => feed.modes.includes('polling') && feed.fills.length === 1, 'polling with one fill');
    expect(feed.fills[0]!.transactionHash).toBe('0x0a');

    const second = await rtds.connection(1);
    await until(() => feed.modes.at(-1) === 'live' && feed.modes.includes('polling'), 'live again');
    expect(feed.modes.slice(-2)).toEqual(['polling', 'live']);
    expect(feed.opens()).toBe(1);
    await second.receivedCount(1);
    second.send(rtdsTrade({ transactionHash: '0x0b' }));
    second.send(rtdsTrade({ transactionHash: '0x0a', size: 25 }));
    await until(() => feed.fills.length === 2, 'a live fill');
    expect(feed.fills.map((f) => f.transactionHash)).toEqual(['0x0a', '0x0b']);
    const pollsWhenLive = http.to('/trades').length;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(http.to('/trades').length).toBe(pollsWhenLive);
  });

  it('falls back when the real-time service refuses the connection', async () => {
    const refused = rtds.wsUrl;
    await rtds.stop();
    const feed = follow(refused);
    await until(() => feed.modes.includes('polling'), 'polling');
    expect(feed.modes).toEqual(['polling']);
    expect(feed.subscription.state).toBe('open');
    rtds = await WsFixture.start();
  });

  it('falls back when the real-time host accepts the connection but never answers the handshake', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const feed = follow(`ws://127.0.0.1:${(silent.address() as AddressInfo).port}`);
      await until(() => feed.modes.includes('polling'), 'polling after the open timeout');
      expect(feed.modes).toEqual(['polling']);
      feed.subscription.close();
    } finally {
      silent.close();
    }
  });
});

describe('a silent subscription (issue 27, defect 4)', () => {
  it('passes on the trades a live but silent feed missed, subscribes again once, then polls', async () => {
    const t = now();
    // The service takes the subscription and answers nothing; the market trades all the same.
    http.json('GET', '/trades', [dataTrade({ timestamp: t + 1, transactionHash: '0x0c' })]);
    const feed = follow(rtds.wsUrl, 60);
    await until(() => feed.fills.length === 1, 'the missed trade passed on');
    expect(feed.fills[0]!.transactionHash).toBe('0x0c');
    const again = await rtds.connection(1);
    await again.receivedCount(1);
    expect(JSON.parse(again.received[0]!)).toMatchObject({ action: 'subscribe' });
    expect(feed.modes).toEqual(['live']);

    // Still silent while the market trades: polling takes over.
    http.json('GET', '/trades', [
      dataTrade({ timestamp: t + 2, transactionHash: '0x0d' }),
      dataTrade({ timestamp: t + 1, transactionHash: '0x0c' }),
    ]);
    await until(() => feed.modes.includes('polling'), 'polling');
    expect(feed.modes).toEqual(['live', 'polling']);
    await until(() => feed.fills.length === 2, 'the second missed trade');
    expect(feed.fills.map((f) => f.transactionHash)).toEqual(['0x0c', '0x0d']);
  });

  it('stays live on a quiet market: a silence with no trade anywhere is not a silent feed', async () => {
    const feed = follow(rtds.wsUrl, 30);
    const connection = await rtds.connection(0);
    await until(() => http.to('/trades').length >= 3, 'three audits');
    expect(feed.modes).toEqual(['live']);
    expect(rtds.connections).toHaveLength(1);
    // A trade the feed sends is passed on as always.
    connection.send(rtdsTrade({ transactionHash: '0x0e' }));
    await until(() => feed.fills.length === 1, 'a live fill');
  });
});

describe('a market without a slug', () => {
  it('is polled by condition id, since the real-time service filters by slug', async () => {
    http.json('GET', '/markets/506729', gammaMarket({ slug: null }));
    const feed = follow(rtds.wsUrl);
    await until(() => http.to('/trades').length >= 2, 'two polls');
    expect(feed.modes).toEqual(['polling']);
    expect(rtds.connections).toHaveLength(0);
  });
});

describe('the subscription contract', () => {
  it('closes once when the caller closes it', async () => {
    const feed = follow(rtds.wsUrl);
    await until(() => feed.modes.length > 0, 'live');
    feed.subscription.close();
    feed.subscription.close();
    expect(await feed.subscription.done).toBeNull();
    expect(feed.closes).toEqual([undefined]);
    expect(feed.subscription.state).toBe('closed');
  });

  it('closes with the error when the market cannot be read', async () => {
    http.json('GET', '/markets/506729', null);
    const feed = follow(rtds.wsUrl);
    const error = await feed.subscription.done;
    expect(error?.code).toBe('ERR_NOT_FOUND');
    expect(feed.closes).toHaveLength(1);
    expect(feed.closes[0]?.code).toBe('ERR_NOT_FOUND');
    expect(rtds.connections).toHaveLength(0);
  });
});
