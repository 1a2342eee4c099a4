// Client-side stops and alerts in main, on the whole local sandbox (real chain, exchange and its WebSocket):
// a stop-loss and a price alert are set on a position, the dead-man switch cancels a resting order and the stop
// stays armed, the terminal restarts on the same data folder and re-arms both (with the sentence), the bid
// falls while the wallet is locked (the stop says it could not sell and stays armed), and once it is unlocked
// the stop sells the whole position through the normal order path; the alert fires once, with its log line and
// a desktop notification asked of the notifier, and the fill alert names what filled (side, shares, outcome,
// price, the market's question, the wallet). A last-trade alert on each outcome fires on a sandbox trade the
// aggregator streams without a token id. A corrupt stops file does not stop a start.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertInfo, AlertLogEntry, Balances, OpenOrder, StopInfo } from '../../src/shared/contract';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { CredentialVault } from '../../src/main/credentials/api-credentials';
import { MemorySecretStore } from '../../src/main/credentials/secret-store';
import { allowOrigins } from '../../src/main/ipc/router';
import { openTerminal, type Terminal } from '../../src/main/terminal/terminal';
import { parseAppProfile } from '../../src/main/settings/profile';
import { TradingService } from '../../src/main/trading/service';
import { parseTradingProfile } from '../../src/main/trading/profile';
import { startSignerThread } from '../../src/main/wallets/signer-thread';
import { STOPS_FILE, stopsFile } from '../../src/main/stops/stops';
import { PASSWORD, freshWallet, makerOrder, marketMaker, type TradingSandbox } from '../helpers/trading-sandbox';
import { hubClient } from '../helpers/hub-client';

const APP = 'app://pmdesk';
const MARKET = '90021';
const FED = '90011';

let sandbox: RunningSandbox;
let sb: TradingSandbox;
let dataDir: string;
let terminal: Terminal;
let window1: ReturnType<typeof hubClient>;
let yes: string;
let no: string;
let maker: Awaited<ReturnType<typeof marketMaker>>;
let vault: CredentialVault;
const notified: { title: string; body: string }[] = [];

/** The terminal on the data folder, as a start of the app opens it (API credentials stay in the one vault, as in a keychain). */
function open(): Terminal {
  return openTerminal({
    profile: parseAppProfile(sandbox.profile),
    rawProfile: sandbox.profile,
    shell: 'browser',
    allowSender: allowOrigins([APP]),
    wallets: { dataDir, signer: startSignerThread(), scryptN: 2 ** 12 },
    openOrderFlow: (raw, markets) =>
      new TradingService({ profile: parseTradingProfile(raw), vault, timeoutMs: 20_000, markets }),
    accountFeeds: { backoffMs: { initial: 50, max: 400 }, pollMs: 100, heartbeatMs: 250 },
    notifier: { show: (title, body) => notified.push({ title, body }) },
    watchTuning: { stopRetryMs: 100, resolveCheckMs: 200 },
  });
}

async function call<T>(op: string, input: unknown): Promise<T> {
  const result = await window1.call(op, input);
  if (!result.ok) throw new Error(`${op} failed: ${result.error?.code} ${result.error?.message}`);
  return result.value as T;
}
async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string, ms = 30_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > until) throw new Error(`never happened: ${what} (last: ${JSON.stringify(value).slice(0, 300)})`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}
const yesHeld = async () =>
  (await call<Balances>('getBalances', { wallet: 'desk', marketId: MARKET })).outcomes[yes] ?? 0;

beforeAll(async () => {
  sandbox = await startSandbox({
    ports: { rpc: 0, clob: 0, aggregator: 0 },
    simulate: 'off',
    seed: 11,
    orderVersion: 2,
    heartbeatTimeoutMs: 1_500,
  });
  sb = { sandbox, profile: parseTradingProfile(sandbox.profile), stop: () => sandbox.stop() };
  vault = await CredentialVault.open({ keychain: new MemorySecretStore() });
  dataDir = await mkdtemp(join(tmpdir(), 'pmdesk-stops-'));
  terminal = open();
  window1 = hubClient(terminal, 'window-1', APP);
  const market = sandbox.catalog.market(MARKET)!;
  [yes, no] = [market.tokens[0].tokenId, market.tokens[1].tokenId];
  const funder = startSignerThread();
  const funded = await freshWallet(sb, funder, { unlock: false });
  await funder.close();
  await call('importWallet', {
    label: 'desk',
    password: PASSWORD,
    source: { kind: 'privateKey', privateKey: funded.privateKey },
  });
  await call('unlockWallet', { label: 'desk', password: PASSWORD, autoLockMinutes: 0 });
  // The desk buys 20 Yes from the maker (its bid for No at 60¢ is an ask for Yes at 40¢), then the maker bids 50¢ for Yes.
  maker = await marketMaker(sb);
  expect(await makerOrder(maker.client, { tokenId: no, side: 'BUY', price: 0.6, size: 100 })).toMatchObject({
    success: true,
  });
  expect(
    await call('placeOrder', {
      wallet: 'desk',
      marketId: MARKET,
      tokenId: yes,
      side: 'BUY',
      orderType: 'FOK',
      amountUsd: 8,
    }),
  ).toMatchObject({ status: 'MATCHED' });
  await eventually(yesHeld, (held) => held === 20, 'the desk holds 20 Yes');
  await maker.client.cancelAll();
  expect(await makerOrder(maker.client, { tokenId: yes, side: 'BUY', price: 0.5, size: 100 })).toMatchObject({
    success: true,
    status: 'live',
  });
}, 120_000);

afterAll(async () => {
  await terminal?.close();
  await sandbox?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('a client-side stop-loss and a price alert', () => {
  let stop: StopInfo;
  let alert: AlertInfo;
  let fillAlert: AlertInfo;

  it('are set on the position; a level the bid is already past is refused', async () => {
    const refused = await window1.call('createStop', {
      wallet: 'desk',
      marketId: MARKET,
      tokenId: yes,
      kind: 'stop-loss',
      level: 0.55,
    });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'ERR_INVALID_PARAM',
        message: expect.stringMatching(
          /^The best bid 50¢ is already at or below 55¢: this stop-loss would sell at once/,
        ),
      },
    });
    const armedEvent = window1.nextEvent('stop', (s) => s.state === 'armed');
    stop = await call<StopInfo>('createStop', {
      wallet: 'desk',
      marketId: MARKET,
      tokenId: yes,
      kind: 'stop-loss',
      level: 0.45,
    });
    expect(stop).toMatchObject({
      state: 'armed',
      outcome: 'Yes',
      level: 0.45,
      size: null,
      worstPrice: null,
      wallet: 'desk',
      network: sandbox.profile.name,
    });
    await armedEvent;
    alert = await call<AlertInfo>('createAlert', {
      kind: 'price',
      marketId: MARKET,
      tokenId: yes,
      price: 'bid',
      direction: 'down',
      level: 0.45,
    });
    expect(alert).toMatchObject({ state: 'armed', kind: 'price', outcome: 'Yes' });
    fillAlert = await call<AlertInfo>('createAlert', { kind: 'fill', wallet: 'desk' });
    expect(fillAlert).toMatchObject({ state: 'armed', kind: 'fill', wallet: 'desk', marketId: '' });
    const kept = JSON.parse(await readFile(join(dataDir, STOPS_FILE), 'utf8')) as { stops: StopInfo[] };
    expect(kept.stops.map((s) => [s.id, s.state])).toEqual([[stop.id, 'armed']]);
  });

  it('survives the dead-man switch cancelling a resting order: stops are not orders on the exchange', async () => {
    expect(await call('setDeadManSwitch', { wallet: 'desk', enabled: true })).toMatchObject({ state: 'beating' });
    const resting = await call<{ orderId: string }>('placeOrder', {
      wallet: 'desk',
      marketId: MARKET,
      tokenId: no,
      side: 'BUY',
      price: 0.05,
      size: 20,
    });
    expect((await call<OpenOrder[]>('listOpenOrders', { wallet: 'desk' })).map((o) => o.orderId)).toEqual([
      resting.orderId,
    ]);
    // Heartbeats stop: 1.5 s later the exchange cancels every open order of the wallet.
    await call('setDeadManSwitch', { wallet: 'desk', enabled: false });
    await eventually(
      () => call<OpenOrder[]>('listOpenOrders', { wallet: 'desk' }),
      (orders) => orders.length === 0,
      'the switch cancelled the resting order',
    );
    const { stops } = await call<{ stops: StopInfo[] }>('listStops', {});
    expect(stops.map((s) => [s.id, s.state])).toEqual([[stop.id, 'armed']]);
  });

  it('are re-armed after a restart on the same data folder, with a notice', async () => {
    await terminal.close();
    terminal = open();
    window1 = hubClient(terminal, 'window-1', APP);
    const listed = await call<{ stops: StopInfo[]; rearmed: string | null }>('listStops', {});
    expect(listed.rearmed).toBe('1 stop re-armed (runs only while PM Desk is open).');
    expect(listed.stops.map((s) => [s.id, s.state])).toEqual([[stop.id, 'armed']]);
    expect((await call<{ alerts: AlertInfo[] }>('listAlerts', {})).alerts.map((a) => [a.id, a.state])).toEqual([
      [alert.id, 'armed'],
      [fillAlert.id, 'armed'],
    ]);
  });

  it('the bid falls while the wallet is locked: the stop says it could not sell and stays armed; unlocked, it sells the whole position', async () => {
    const couldNot = window1.nextEvent(
      'stop',
      (s) => s.id === stop.id && s.state === 'armed' && (s.result ?? '').includes('could not sell'),
    );
    const alerted = window1.nextEvent('alert', (a) => a.alert.id === alert.id);
    await maker.client.cancelAll();
    expect(await makerOrder(maker.client, { tokenId: yes, side: 'BUY', price: 0.44, size: 100 })).toMatchObject({
      success: true,
      status: 'live',
    });
    const blocked = await couldNot;
    expect(blocked.result).toMatch(
      /^Stop-loss on Yes of ".+" reached its level \(best bid 44¢\) but could not sell: .*is locked.*\. It stays armed and tries again while the bid is past its level\.$/,
    );
    const { alert: fired, entry } = await alerted;
    expect(fired).toMatchObject({ id: alert.id, state: 'fired' });
    expect(entry.message).toMatch(/^The best bid of Yes on ".+" fell to 44¢, crossing 45¢\.$/);
    expect(notified).toEqual([{ title: entry.title, body: entry.message }]);
    expect(await yesHeld()).toBe(20);

    const sold = window1.nextEvent('stop', (s) => s.id === stop.id && s.state === 'fired');
    const filled = window1.nextEvent('alert', (a) => a.alert.id === fillAlert.id);
    await call('unlockWallet', { label: 'desk', password: PASSWORD, autoLockMinutes: 0 });
    const done = await sold;
    expect(done.result).toMatch(
      /^Stop-loss fired: sold 20 Yes of ".+" into a best bid of 44¢ \(level 45¢, no lower than 1¢\), FAK order 0x[0-9a-f]+\.$/,
    );
    expect(done.orderId).toMatch(/^0x/);
    expect(
      window1.heard.some((h) => h.event === 'notice' && (h.payload as { message: string }).message === done.result),
    ).toBe(true);
    await eventually(yesHeld, (held) => held === 0, 'the position was sold');
    // The sale is a fill of the desk's: the fill alert (re-armed after the restart, the buy before it left out) tells it.
    const soldLine = `Fill: sold 20 Yes at 44¢ — ${sandbox.catalog.market(MARKET)!.question} (desk)`;
    expect((await filled).entry.message).toBe(soldLine);
    // Fired once: kept as history, the alert's log line kept, nothing fires again.
    const { stops, rearmed } = await call<{ stops: StopInfo[]; rearmed: string | null }>('listStops', {});
    expect(stops.map((s) => [s.id, s.state])).toEqual([[stop.id, 'fired']]);
    expect(rearmed).toBe('1 stop re-armed (runs only while PM Desk is open).');
    const { log } = await call<{ log: AlertLogEntry[] }>('listAlerts', {});
    expect(log.map((l) => l.alertId)).toEqual([fillAlert.id, alert.id]);
    expect(notified.map((n) => n.body)).toEqual([entry.message, soldLine]);
  });
});

describe('a last-trade alert', () => {
  it('fires on a sandbox trade the aggregator streams without a token id, on either outcome', async () => {
    const fed = sandbox.catalog.market(FED)!;
    const [fedYes, fedNo] = fed.tokens;
    // The last trade the screen shows now: the newest of the market's history (its first outcome's tape).
    const now = Math.round(sandbox.marketData.lastTradePrice(fedYes.tokenId)! * 100);
    const up = now < 50;
    const tradeAt = now + (up ? 10 : -10);
    const levelAt = now + (up ? 5 : -5);
    const onYes = await call<AlertInfo>('createAlert', {
      kind: 'price',
      marketId: FED,
      tokenId: fedYes.tokenId,
      price: 'last',
      direction: up ? 'up' : 'down',
      level: levelAt / 100,
    });
    const onNo = await call<AlertInfo>('createAlert', {
      kind: 'price',
      marketId: FED,
      tokenId: fedNo.tokenId,
      price: 'last',
      direction: up ? 'down' : 'up',
      level: (100 - levelAt) / 100,
    });
    // The alerts' fill stream is the one a window shares: once a window hears it open, the trade cannot be missed.
    const opened = window1.nextEvent(
      'feedStatus',
      (s) => s.feed === 'fills' && s.marketId === FED && s.state === 'open',
    );
    const following = await call<{ state: string }>('subscribeFills', { marketId: FED });
    if (following.state !== 'open') await opened;
    const yesFired = window1.nextEvent('alert', (a) => a.alert.id === onYes.id);
    const noFired = window1.nextEvent('alert', (a) => a.alert.id === onNo.id);
    // The maker rests the other side and the desk takes it: Yes trades at tradeAt (bought as Yes, or as No at the complement).
    await maker.client.cancelAll();
    const [rest, take] = up ? [fedNo, fedYes] : [fedYes, fedNo];
    const takePrice = (up ? tradeAt : 100 - tradeAt) / 100;
    expect(
      await makerOrder(maker.client, { tokenId: rest.tokenId, side: 'BUY', price: 1 - takePrice, size: 10 }),
    ).toMatchObject({ success: true, status: 'live' });
    expect(
      await call('placeOrder', {
        wallet: 'desk',
        marketId: FED,
        tokenId: take.tokenId,
        side: 'BUY',
        orderType: 'FOK',
        amountUsd: Number((takePrice * 5).toFixed(2)),
      }),
    ).toMatchObject({ status: 'MATCHED' });
    const word = (direction: boolean) => (direction ? 'rose' : 'fell');
    expect((await yesFired).entry.message).toBe(
      `The last trade of ${fedYes.name} on "${onYes.marketName}" ${word(up)} to ${tradeAt}¢, crossing ${levelAt}¢.`,
    );
    expect((await noFired).entry.message).toBe(
      `The last trade of ${fedNo.name} on "${onNo.marketName}" ${word(!up)} to ${100 - tradeAt}¢, crossing ${100 - levelAt}¢.`,
    );
  });
});

describe('a market resolving', () => {
  it('fires its alert when the sandbox resolves the market', async () => {
    const set = await call<AlertInfo>('createAlert', { kind: 'resolved', marketId: '90031' });
    const fired = window1.nextEvent('alert', (a) => a.alert.id === set.id);
    await sandbox.resolveMarket('90031', 1);
    const { entry } = await fired;
    expect(entry.message).toMatch(/^".+" has (resolved|closed)\.$/);
  });
});

describe('the stops file', () => {
  it('a corrupt one is set aside and the terminal starts with no stops', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pmdesk-stops-bad-'));
    try {
      await writeFile(join(dir, STOPS_FILE), '{"version":1,"stops":[{"id":"x"}]}');
      expect(await stopsFile(dir).read()).toEqual({ version: 1, stops: [] });
      expect(existsSync(join(dir, `${STOPS_FILE}.bad`))).toBe(true);
      await writeFile(join(dir, STOPS_FILE), 'not json');
      expect(await stopsFile(dir).read()).toEqual({ version: 1, stops: [] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
