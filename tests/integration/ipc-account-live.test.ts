// watchAccount and the dead-man switch through the contract, on the whole local sandbox (real chain, real CLOB
// with its /ws/user, real signer worker, the order flow): a locked wallet without credentials is told to unlock;
// once watched, `account` events follow an order resting, a fill to CONFIRMED (not pending), REST polls while
// /ws/user refuses connections (`source: 'polling'`), a settlement the
// exchange retries and then fails (FAILED, not pending) and one retried then settled (CONFIRMED). The switch beats,
// says failing when heartbeats are refused (the exchange then cancels the resting order, and the trader is told
// with a `notice`, which a cancel the trader clicked never gets) and beating again when
// they pass; turned off, or the terminal closed, the beats stop and the exchange cancels what rests.
// Waits are on events and on the exchange's state, never on the clock.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TerminalEvents, TradeInfo } from '../../src/shared/contract';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { CredentialVault } from '../../src/main/credentials/api-credentials';
import { MemorySecretStore } from '../../src/main/credentials/secret-store';
import { allowOrigins } from '../../src/main/ipc/router';
import { openTerminal, type Terminal } from '../../src/main/terminal/terminal';
import { parseAppProfile } from '../../src/main/settings/profile';
import { TradingService } from '../../src/main/trading/service';
import { parseTradingProfile } from '../../src/main/trading/profile';
import { startSignerThread } from '../../src/main/wallets/signer-thread';
import type { SignerClient } from '../../src/main/wallets/signer-client';
import type { ClobClient } from '../../packages/toolkit/src/clob/client';
import { PASSWORD, makerOrder, marketMaker } from '../helpers/trading-sandbox';
import { hubClient } from '../helpers/hub-client';

const APP = 'app://pmdesk';
const MARKET = '90021';
let sandbox: RunningSandbox;
let signer: SignerClient;
let terminal: Terminal;
let closed = false;
let dataDir: string;
let maker: { client: ClobClient; address: string };
/** The watched wallet's own exchange client (a test's view of the exchange, independent of the terminal). */
let own: { client: ClobClient; address: string };
let yes: string;
let no: string;

beforeAll(async () => {
  sandbox = await startSandbox({
    ports: { rpc: 0, clob: 0, aggregator: 0 },
    simulate: 'off',
    seed: 11,
    orderVersion: 2,
    heartbeatTimeoutMs: 1_500,
  });
  signer = startSignerThread();
  dataDir = await mkdtemp(join(tmpdir(), 'pmdesk-account-'));
  const flow = new TradingService({
    profile: parseTradingProfile(sandbox.profile),
    vault: await CredentialVault.open({ keychain: new MemorySecretStore() }),
    timeoutMs: 20_000,
  });
  terminal = openTerminal({
    profile: parseAppProfile(sandbox.profile),
    shell: 'browser',
    allowSender: allowOrigins([APP]),
    wallets: { dataDir, signer, scryptN: 2 ** 12 },
    orderFlow: flow,
    accountFeeds: { backoffMs: { initial: 50, max: 400 }, pollMs: 100, heartbeatMs: 250 },
  });
  const tradingSandbox = { sandbox, profile: parseTradingProfile(sandbox.profile), stop: async () => undefined };
  maker = await marketMaker(tradingSandbox, 1);
  own = await marketMaker(tradingSandbox, 2);
  const market = sandbox.catalog.market(MARKET)!;
  [yes, no] = [market.tokens[0].tokenId, market.tokens[1].tokenId];
}, 120_000);
afterAll(async () => {
  if (!closed) await terminal?.close();
  await sandbox?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const client = (id: string) => hubClient(terminal, id, APP);

/** Asks the exchange again until `check` holds (the exchange works on its own time: a cancel after a timeout). */
async function untilExchange(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the exchange never showed: ${what}`);
}
const restingIds = async () =>
  ((await own.client.getOpenOrders({ asset_id: yes })) as { id: string }[]).map((o) => o.id);

describe('live account data and the dead-man switch through the contract', () => {
  let a: ReturnType<typeof client>;
  beforeAll(() => {
    a = client('a');
  });
  const tradeIn = (p: TerminalEvents['account'], id: string): TradeInfo | undefined =>
    p.trades.find((t) => t.tradeId === id);

  it('tells a locked wallet without credentials to unlock, then follows orders and fills to CONFIRMED', async () => {
    const key = sandbox.profile.testWallets[2]!.privateKey;
    expect(
      await a.call('importWallet', {
        label: 'alice',
        password: PASSWORD,
        source: { kind: 'privateKey', privateKey: key },
      }),
    ).toMatchObject({ ok: true });
    const locked = await a.call('watchAccount', { wallet: 'alice' });
    expect(locked).toMatchObject({ ok: false, error: { code: 'ERR_UNAUTHORIZED' } });
    expect(locked.error!.message).toMatch(/locked.*unlock it to follow its orders/);
    expect(terminal.services.accounts!.watched()).toEqual([]);

    expect(await a.call('unlockWallet', { label: 'alice', password: PASSWORD })).toMatchObject({ ok: true });
    const first = a.nextEvent('account');
    const open = a.nextEvent('feedStatus', (p) => p.feed === 'user' && p.state === 'open');
    expect(await a.call('watchAccount', { wallet: 'alice' })).toMatchObject({ ok: true, value: { wallet: 'alice' } });
    expect(await open).toEqual({ feed: 'user', marketId: 'alice', state: 'open', source: 'live' });
    expect(await first).toMatchObject({ wallet: 'alice', openOrders: [], trades: [], state: 'open' });

    // An order rests: the socket says so.
    const placed = await a.call('placeOrder', {
      wallet: 'alice',
      marketId: MARKET,
      tokenId: yes,
      side: 'BUY',
      price: 0.3,
      size: 10,
    });
    expect(placed).toMatchObject({ ok: true, value: { pending: true } });
    const orderId = (placed.value as { orderId: string }).orderId;
    const resting = await a.nextEvent('account', (p) => p.openOrders.some((o) => o.orderId === orderId));
    expect(resting.openOrders.find((o) => o.orderId === orderId)).toMatchObject({
      tokenId: yes,
      side: 'BUY',
      price: 0.3,
      originalSize: 10,
      sizeMatched: 0,
      status: 'LIVE',
    });

    // A No bid at 0.70 crosses it (a mint): the fill is pending until CONFIRMED, and the order leaves the open list.
    const confirmed = a.nextEvent('account', (p) => p.trades.some((t) => t.status === 'CONFIRMED'));
    expect(await makerOrder(maker.client, { tokenId: no, side: 'BUY', price: 0.7, size: 10 })).toMatchObject({
      success: true,
    });
    const after = await confirmed;
    expect(after.trades).toHaveLength(1);
    expect(after.trades[0]).toMatchObject({
      tokenId: yes,
      side: 'BUY',
      price: 0.3,
      size: 10,
      status: 'CONFIRMED',
      pending: false,
    });
    const filled = await (after.openOrders.length === 0
      ? after
      : a.nextEvent('account', (p) => p.openOrders.length === 0));
    expect(filled.openOrders).toEqual([]);
  });

  it('reads the account from REST while /ws/user refuses connections, and says polling until the socket is back', async () => {
    const faults = sandbox.clob.wsFaults();
    const polling = a.nextEvent('feedStatus', (p) => p.feed === 'user' && p.source === 'polling');
    faults.refuse(true, 'user', true);
    try {
      expect(await polling).toEqual({ feed: 'user', marketId: 'alice', state: 'open', source: 'polling' });
      const placed = await a.call('placeOrder', {
        wallet: 'alice',
        marketId: MARKET,
        tokenId: yes,
        side: 'BUY',
        price: 0.1,
        size: 5,
      });
      const orderId = (placed.value as { orderId: string }).orderId;
      // Only a REST poll can have said so: the socket is refused.
      const polled = await a.nextEvent('account', (p) => p.openOrders.some((o) => o.orderId === orderId));
      expect(polled.state).toBe('open');
      const live = a.nextEvent('feedStatus', (p) => p.feed === 'user' && p.source === 'live');
      faults.refuse(false, 'user');
      expect(await live).toEqual({ feed: 'user', marketId: 'alice', state: 'open', source: 'live' });
      const gone = a.nextEvent('account', (p) => !p.openOrders.some((o) => o.orderId === orderId));
      expect(await a.call('cancelOrder', { wallet: 'alice', orderId })).toMatchObject({ ok: true });
      await gone;
    } finally {
      faults.refuse(false);
    }
  });

  it('shows a settlement retried then failed as FAILED (not pending), and one retried then settled as CONFIRMED', async () => {
    const faults = sandbox.clob.exchangeFaults();
    const placed = await a.call('placeOrder', {
      wallet: 'alice',
      marketId: MARKET,
      tokenId: yes,
      side: 'BUY',
      price: 0.3,
      size: 5,
    });
    const orderId = (placed.value as { orderId: string }).orderId;
    await a.nextEvent('account', (p) => p.openOrders.some((o) => o.orderId === orderId));

    const before = new Set(((await own.client.getTrades({ asset_id: yes })) as { id: string }[]).map((t) => t.id));
    faults.nextSettlement({ retries: 2, fail: true });
    const failed = a.nextEvent('account', (p) => p.trades.some((t) => t.status === 'FAILED'));
    // The taker's post is refused: its settlement failed.
    await expect(makerOrder(maker.client, { tokenId: no, side: 'BUY', price: 0.7, size: 5 })).rejects.toThrow(
      /settlement failed/,
    );
    const seen = await failed;
    const failedTrade = seen.trades.find((t) => t.status === 'FAILED')!;
    expect(before.has(failedTrade.tradeId)).toBe(false);
    expect(failedTrade).toMatchObject({ tokenId: yes, size: 5, pending: false });
    // The exchange agrees, and alice's order is back on the book (nothing moved on the chain).
    expect((await own.client.getTrades({ asset_id: yes })) as { id: string; status: string }[]).toContainEqual(
      expect.objectContaining({ id: failedTrade.tradeId, status: 'FAILED' }),
    );
    expect(await restingIds()).toContain(orderId);

    faults.nextSettlement({ retries: 1, fail: false });
    const settled = a.nextEvent('account', (p) =>
      p.trades.some(
        (t) => t.status === 'CONFIRMED' && t.tradeId !== seen.trades.find((x) => x.status === 'CONFIRMED')?.tradeId,
      ),
    );
    expect(await makerOrder(maker.client, { tokenId: no, side: 'BUY', price: 0.7, size: 5 })).toMatchObject({
      success: true,
    });
    const now = await settled;
    const retried = now.trades.filter((t) => t.size === 5 && t.status === 'CONFIRMED');
    expect(retried).toHaveLength(1);
    expect(retried[0]).toMatchObject({ pending: false });
    expect(tradeIn(now, failedTrade.tradeId)).toMatchObject({ status: 'FAILED', pending: false });
  });

  it('beats while on, says failing when beats are refused (the exchange cancels), beating when they pass again', async () => {
    const faults = sandbox.clob.exchangeFaults();
    expect(await a.call('getDeadManSwitch', { wallet: 'alice' })).toEqual({
      ok: true,
      value: { wallet: 'alice', enabled: false, state: 'off', intervalSeconds: 0.25, lastBeatAt: null },
    });
    const on = await a.call('setDeadManSwitch', { wallet: 'alice', enabled: true });
    expect(on).toMatchObject({
      ok: true,
      value: { wallet: 'alice', enabled: true, state: 'beating', lastBeatAt: expect.any(Number) },
    });
    expect(
      a.heard.filter((h) => h.event === 'deadManSwitch').map((h) => (h.payload as { state: string }).state),
    ).toEqual(['beating']);

    const placed = await a.call('placeOrder', {
      wallet: 'alice',
      marketId: MARKET,
      tokenId: yes,
      side: 'BUY',
      price: 0.2,
      size: 5,
    });
    const orderId = (placed.value as { orderId: string }).orderId;
    await a.nextEvent('account', (p) => p.openOrders.some((o) => o.orderId === orderId));
    // Beats keep it resting past the exchange's 1.5 s timeout: several beats go by and it is still there.
    const beatAt = (await a.call('getDeadManSwitch', { wallet: 'alice' })).value as { lastBeatAt: number };
    await untilExchange(
      async () =>
        ((await a.call('getDeadManSwitch', { wallet: 'alice' })).value as { lastBeatAt: number }).lastBeatAt >
        beatAt.lastBeatAt + 1_500,
      'beats for 1.5 s',
    );
    expect(await restingIds()).toContain(orderId);

    const failing = a.nextEvent('deadManSwitch', (p) => p.state === 'failing');
    const gone = a.nextEvent('account', (p) => !p.openOrders.some((o) => o.orderId === orderId));
    const told = a.nextEvent('notice', (p) => p.kind === 'cancelled');
    faults.failHeartbeats(true);
    expect(await failing).toMatchObject({
      wallet: 'alice',
      enabled: true,
      state: 'failing',
      error: { code: 'ERR_NETWORK' },
    });
    expect((await failing).error!.message).toMatch(/cancels this wallet's open orders/);
    await gone;
    expect(await restingIds()).not.toContain(orderId);
    // Nobody clicked this cancel: the trader is told, with the reason; the cancel clicked earlier was never told.
    expect(await told).toEqual({
      wallet: 'alice',
      kind: 'cancelled',
      message:
        "The exchange cancelled 1 order of alice that you did not cancel here: the dead-man switch's heartbeats stopped getting through.",
      orderIds: [orderId.toLowerCase()],
    });
    expect(
      a.heard.filter((h) => h.event === 'notice' && (h.payload as { kind: string }).kind === 'cancelled'),
    ).toHaveLength(1);

    const beating = a.nextEvent('deadManSwitch', (p) => p.state === 'beating');
    faults.failHeartbeats(false);
    expect(await beating).toMatchObject({ wallet: 'alice', enabled: true, state: 'beating' });
    expect(await beating).not.toHaveProperty('error');
  });

  it('turned off, the beats stop and the exchange cancels what rests; on again, closing the terminal stops them too', async () => {
    const placed = await a.call('placeOrder', {
      wallet: 'alice',
      marketId: MARKET,
      tokenId: yes,
      side: 'BUY',
      price: 0.2,
      size: 5,
    });
    const orderId = (placed.value as { orderId: string }).orderId;
    await a.nextEvent('account', (p) => p.openOrders.some((o) => o.orderId === orderId));
    const off = a.nextEvent('deadManSwitch', (p) => p.state === 'off');
    expect(await a.call('setDeadManSwitch', { wallet: 'alice', enabled: false })).toMatchObject({
      ok: true,
      value: { enabled: false, state: 'off' },
    });
    expect(await off).toMatchObject({ wallet: 'alice', enabled: false, state: 'off' });
    await untilExchange(async () => !(await restingIds()).includes(orderId), 'the order cancelled once beats stopped');
    expect(await a.call('getDeadManSwitch', { wallet: 'alice' })).toMatchObject({
      ok: true,
      value: { enabled: false, state: 'off' },
    });

    expect(await a.call('unwatchAccount', { wallet: 'alice' })).toEqual({
      ok: true,
      value: { wallet: 'alice', wasWatched: true },
    });
    expect(terminal.services.accounts!.watched()).toEqual([]);
    expect(await a.call('unwatchAccount', { wallet: 'alice' })).toEqual({
      ok: true,
      value: { wallet: 'alice', wasWatched: false },
    });

    expect(await a.call('setDeadManSwitch', { wallet: 'alice', enabled: true })).toMatchObject({
      ok: true,
      value: { state: 'beating' },
    });
    const last = await a.call('placeOrder', {
      wallet: 'alice',
      marketId: MARKET,
      tokenId: yes,
      side: 'BUY',
      price: 0.2,
      size: 5,
    });
    const lastId = (last.value as { orderId: string }).orderId;
    expect(await restingIds()).toContain(lastId);
    closed = true;
    await terminal.close();
    await untilExchange(
      async () => !(await restingIds()).includes(lastId),
      'the order cancelled once the terminal closed',
    );
  });
});
