// Switching networks in a running terminal, over browser mode's real bridge: launched on one sandbox, a second
// sandbox (its own chain id, and a bid only it holds) is added as a custom network and switched to: reads
// come from its aggregator, a followed book is followed again there, every page hears the network event,
// wallets stay; then back. Polygon and Amoy are listed as available on Polymarket's own endpoints (never
// switched to here: that would reach a real host), and custom networks are kept across a restart.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarketOrderBooks } from '../../packages/toolkit/src/model/market-model';
import type { AlertInfo, NetworkChoice, NetworkInfo, TerminalEvents, WalletInfo } from '../../src/shared/contract';
import { ContractErrorCode } from '../../src/shared/contract';
import { ErrorCode } from '../../packages/toolkit/src/model/errors';
import { startSandbox } from '../../sandbox/index';
import { CredentialVault } from '../../src/main/credentials/api-credentials';
import { MemorySecretStore } from '../../src/main/credentials/secret-store';
import { startBrowserMode, type BrowserMode } from '../../src/main/host/browser-mode';
import { parseTradingProfile } from '../../src/main/trading/profile';
import { SANDBOX_WALLET_UNAVAILABLE } from '../../src/main/ipc/services';
import { openBridge, type BridgeClient } from '../helpers/bridge-client';
import {
  PASSWORD,
  makerOrder,
  marketMaker,
  startTradingSandbox,
  type TradingSandbox,
} from '../helpers/trading-sandbox';

const MARKET = '90021';
const SECOND_CHAIN = 31_339;

let first: TradingSandbox;
let second: TradingSandbox;
let rendererDir: string;
let dataDir: string;
let mode: BrowserMode;
let page: BridgeClient;
let otherPage: BridgeClient;
let yes: string;

async function start(): Promise<BrowserMode> {
  const vault = await CredentialVault.open({ keychain: new MemorySecretStore() });
  return startBrowserMode({ profile: first.sandbox.profile, rendererDir, dataDir, vault });
}

beforeAll(async () => {
  first = await startTradingSandbox();
  const sandbox = await startSandbox({
    ports: { rpc: 0, clob: 0, aggregator: 0 },
    simulate: 'off',
    seed: 11,
    chainId: SECOND_CHAIN,
  });
  second = { sandbox, profile: parseTradingProfile(sandbox.profile), stop: () => sandbox.stop() };
  yes = second.sandbox.catalog.market(MARKET)!.tokens[0].tokenId;
  // A bid only the second network's book holds: what tells its answers from the first one's.
  const maker = await marketMaker(second);
  expect(await makerOrder(maker.client, { tokenId: yes, side: 'BUY', price: 0.13, size: 50 })).toMatchObject({
    success: true,
    status: 'live',
  });
  rendererDir = await mkdtemp(join(tmpdir(), 'pmdesk-renderer-'));
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>PM Desk</title>');
  dataDir = await mkdtemp(join(tmpdir(), 'pmdesk-networks-'));
  mode = await start();
  page = await openBridge(mode.host);
  otherPage = await openBridge(mode.host);
}, 120_000);

afterAll(async () => {
  page?.close();
  otherPage?.close();
  await mode?.stop();
  await first?.stop();
  await second?.stop();
  for (const dir of [rendererDir, dataDir]) if (dir) await rm(dir, { recursive: true, force: true });
});

const bidsOf = async (client: BridgeClient) => {
  const books = await client.value<MarketOrderBooks>('getOrderBook', { marketId: MARKET });
  return books[yes]!.bids.map((b) => Number(b.price));
};

describe('networks', () => {
  it('lists the launch sandbox as current, and Polygon and Amoy as available, read from Polymarket directly', async () => {
    const list = await page.value<NetworkChoice[]>('listNetworks');
    expect(list[0]).toEqual({
      name: 'sandbox',
      chainId: first.sandbox.profile.chainId,
      source: 'aggregator',
      sandbox: true,
      current: true,
      available: true,
    });
    expect(list.slice(1)).toEqual([
      { name: 'polygon', chainId: 137, source: 'polymarket', sandbox: false, current: false, available: true },
      { name: 'amoy', chainId: 80002, source: 'polymarket', sandbox: false, current: false, available: true },
    ]);
    expect(await page.call('switchNetwork', { name: 'nowhere' })).toMatchObject({
      ok: false,
      error: { code: ErrorCode.NOT_FOUND },
    });
  });

  it('adds a custom network, kept in networks.json; a name PM Desk already knows is refused', async () => {
    const p = second.sandbox.profile;
    const added = await page.value<NetworkChoice>('addNetwork', {
      name: 'second',
      chainId: SECOND_CHAIN,
      aggregatorUrl: p.aggregatorUrl,
      clobUrl: p.clobUrl,
      rpcUrl: p.rpcUrl,
      wsUrl: p.wsUrl,
      orderVersion: 2,
    });
    expect(added).toEqual({
      name: 'second',
      chainId: SECOND_CHAIN,
      source: 'aggregator',
      sandbox: true,
      current: false,
      available: true,
    });
    expect(JSON.parse(await readFile(join(dataDir, 'networks.json'), 'utf8'))).toEqual({
      networks: [
        {
          name: 'second',
          chainId: SECOND_CHAIN,
          source: 'aggregator',
          aggregatorUrl: p.aggregatorUrl,
          clobUrl: p.clobUrl,
          rpcUrl: p.rpcUrl,
          wsUrl: p.wsUrl,
          orderVersion: 2,
        },
      ],
    });
    // A network reading Polymarket directly needs its Gamma and Data API URLs.
    expect(
      await page.call('addNetwork', {
        name: 'direct',
        chainId: SECOND_CHAIN,
        source: 'polymarket',
        gammaUrl: p.clobUrl,
        clobUrl: p.clobUrl,
        rpcUrl: p.rpcUrl,
        orderVersion: 2,
      }),
    ).toMatchObject({
      ok: false,
      error: { code: ErrorCode.INVALID_PARAMETER, message: expect.stringMatching(/gammaUrl/) },
    });
    expect(
      await page.call('addNetwork', {
        name: 'Polygon',
        chainId: 137,
        aggregatorUrl: p.aggregatorUrl,
        clobUrl: p.clobUrl,
        rpcUrl: p.rpcUrl,
        orderVersion: 2,
      }),
    ).toMatchObject({
      ok: false,
      error: { code: ErrorCode.INVALID_PARAMETER },
    });
    expect((await page.value<NetworkChoice[]>('listNetworks')).map((n) => n.name)).toEqual([
      'sandbox',
      'polygon',
      'amoy',
      'second',
    ]);
  });

  it('switches to it: reads come from its aggregator, every page hears the network event, wallets stay; and back', async () => {
    const wallet = await page.value<WalletInfo>('importWallet', {
      label: 'desk',
      password: PASSWORD,
      source: { kind: 'privateKey', privateKey: first.sandbox.profile.testWallets[0]!.privateKey },
    });
    expect(await bidsOf(page)).not.toContain(0.13);
    // A followed book is followed again on the new network: its updates come from there.
    expect(await page.value('subscribeBook', { marketId: MARKET })).toMatchObject({ marketId: MARKET });
    const since = otherPage.events.length;
    const pageSince = page.events.length;

    const info = await page.value<NetworkInfo>('switchNetwork', { name: 'second' });
    expect(info).toMatchObject({
      name: 'second',
      chainId: SECOND_CHAIN,
      source: 'aggregator',
      sandbox: true,
      shell: 'browser',
      aggregatorUrl: second.sandbox.profile.aggregatorUrl,
      gammaUrl: '',
    });
    expect(await otherPage.nextEvent<NetworkInfo>('network', (n) => n.name === 'second', since)).toEqual(info);
    expect(await otherPage.value<NetworkInfo>('getNetwork')).toEqual(info);
    expect(await bidsOf(otherPage)).toContain(0.13);
    const update = await page.nextEvent<TerminalEvents['bookUpdate']>(
      'bookUpdate',
      (u) => u.tokenId === yes && u.book.bids.some((b) => Number(b.price) === 0.13),
      pageSince,
    );
    expect(update.marketId).toBe(MARKET);
    expect(await page.value('unsubscribeBook', { marketId: MARKET })).toEqual({
      marketId: MARKET,
      wasSubscribed: true,
    });
    expect((await page.value<{ events: unknown[] }>('listEvents', { limit: 5 })).events.length).toBeGreaterThan(0);
    expect((await page.value<NetworkChoice[]>('listNetworks')).filter((n) => n.current).map((n) => n.name)).toEqual([
      'second',
    ]);
    expect(await page.value<WalletInfo[]>('listWallets')).toEqual([wallet]);
    // Only the launch sandbox hands out its test wallet: this network's profile names none.
    expect(await page.call('importSandboxWallet', { label: 'test', password: PASSWORD })).toMatchObject({
      ok: false,
      error: { code: ContractErrorCode.NOT_AVAILABLE, message: SANDBOX_WALLET_UNAVAILABLE },
    });
    // PM Desk knows no exchange contracts on chain 31339: it reads there, and says it cannot trade.
    expect(await page.call('getBalances', { wallet: 'desk' })).toMatchObject({
      ok: false,
      error: { code: ContractErrorCode.NOT_AVAILABLE },
    });

    const beforeBack = page.events.length;
    const back = await page.value<NetworkInfo>('switchNetwork', { name: 'sandbox' });
    expect(back).toMatchObject({ name: 'sandbox', chainId: first.sandbox.profile.chainId });
    expect(await page.nextEvent<NetworkInfo>('network', (n) => n.name === 'sandbox', beforeBack)).toEqual(back);
    expect(await bidsOf(page)).not.toContain(0.13);
    // Trading is back with a new order flow for the launch network.
    expect((await page.value<{ collateral: number }>('getBalances', { wallet: 'desk' })).collateral).toBeGreaterThan(0);
  });

  it("an alert armed after switching there and back fires: the old network's watchers let go of theirs only", async () => {
    // The old network's alerts and stops closed after the new network's had joined the hub under the same ids
    // (`main:alerts`, `main:stops`): closing must not take the new ones off the hub, nor their followed books.
    const firstYes = first.sandbox.catalog.market(MARKET)!.tokens[0].tokenId;
    const books = await page.value<MarketOrderBooks>('getOrderBook', { marketId: MARKET });
    const best = Math.max(0, ...books[firstYes]!.bids.map((b) => Number(b.price)));
    const below = Math.round((best + 0.01) * 100) / 100;
    const level = Math.round((best + 0.02) * 100) / 100;
    const above = Math.round((best + 0.03) * 100) / 100;
    expect(above).toBeLessThan(0.95);
    const maker = await marketMaker(first);
    expect(await makerOrder(maker.client, { tokenId: firstYes, side: 'BUY', price: below, size: 20 })).toMatchObject({
      success: true,
      status: 'live',
    });
    const alert = await page.value<AlertInfo>('createAlert', {
      kind: 'price',
      marketId: MARKET,
      tokenId: firstYes,
      price: 'bid',
      direction: 'up',
      level,
    });
    expect(alert).toMatchObject({ state: 'armed', network: 'sandbox' });
    // An upward crossing needs a reading below the level first: the alert's own, from the book it follows.
    const seen = async () =>
      (await page.value<{ alerts: AlertInfo[] }>('listAlerts', {})).alerts.find((a) => a.id === alert.id)?.seen;
    while ((await seen()) !== below) await new Promise((resolve) => setTimeout(resolve, 50));
    const fired = page.nextEvent<TerminalEvents['alert']>('alert', (a) => a.alert.id === alert.id);
    expect(await makerOrder(maker.client, { tokenId: firstYes, side: 'BUY', price: above, size: 20 })).toMatchObject({
      success: true,
      status: 'live',
    });
    expect((await fired).alert).toMatchObject({ id: alert.id, state: 'fired' });
  });

  it('keeps custom networks across a restart', async () => {
    page.close();
    otherPage.close();
    await mode.stop();
    mode = await start();
    page = await openBridge(mode.host);
    otherPage = await openBridge(mode.host);
    expect((await page.value<NetworkChoice[]>('listNetworks')).map((n) => [n.name, n.current])).toEqual([
      ['sandbox', true],
      ['polygon', false],
      ['amoy', false],
      ['second', false],
    ]);
  });
});
