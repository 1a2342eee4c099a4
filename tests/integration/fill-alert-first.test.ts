// A "fill of mine" alert hears the first fill after it is armed, on the whole local sandbox (real chain, exchange
// and its WebSocket): a window already follows the wallet's orders (so its feed sends the next snapshot only on a
// change, the very fill), the alert is set a second before a market buy fills, and it fires on that fill, its
// title and sentence naming the market. Without it the alert took that snapshot as "what was there before".
// A "market resolves" alert hears the resolution as it is pushed (the chain's payouts), not on its minute's poll.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AlertInfo } from '../../src/shared/contract';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { CredentialVault } from '../../src/main/credentials/api-credentials';
import { MemorySecretStore } from '../../src/main/credentials/secret-store';
import { allowOrigins } from '../../src/main/ipc/router';
import { openTerminal, type Terminal } from '../../src/main/terminal/terminal';
import { parseAppProfile } from '../../src/main/settings/profile';
import { TradingService } from '../../src/main/trading/service';
import { parseTradingProfile } from '../../src/main/trading/profile';
import { startSignerThread } from '../../src/main/wallets/signer-thread';
import { PASSWORD, freshWallet, makerOrder, marketMaker } from '../helpers/trading-sandbox';
import { hubClient } from '../helpers/hub-client';

const APP = 'app://pmdesk';
const MARKET = '90021';

let sandbox: RunningSandbox;
let dataDir: string;
let terminal: Terminal;
let window1: ReturnType<typeof hubClient>;

async function call<T>(op: string, input: unknown): Promise<T> {
  const result = await window1.call(op, input);
  if (!result.ok) throw new Error(`${op} failed: ${result.error?.code} ${result.error?.message}`);
  return result.value as T;
}

beforeAll(async () => {
  sandbox = await startSandbox({
    ports: { rpc: 0, clob: 0, aggregator: 0 },
    simulate: 'off',
    seed: 12,
    orderVersion: 2,
  });
  const sb = { sandbox, profile: parseTradingProfile(sandbox.profile), stop: () => sandbox.stop() };
  const vault = await CredentialVault.open({ keychain: new MemorySecretStore() });
  dataDir = await mkdtemp(join(tmpdir(), 'pmdesk-fill-alert-'));
  terminal = openTerminal({
    profile: parseAppProfile(sandbox.profile),
    rawProfile: sandbox.profile,
    shell: 'browser',
    allowSender: allowOrigins([APP]),
    wallets: { dataDir, signer: startSignerThread(), scryptN: 2 ** 12 },
    openOrderFlow: (raw, markets) =>
      new TradingService({ profile: parseTradingProfile(raw), vault, timeoutMs: 20_000, markets }),
    accountFeeds: { backoffMs: { initial: 50, max: 400 }, pollMs: 100, heartbeatMs: 250 },
  });
  window1 = hubClient(terminal, 'window-1', APP);
  const funder = startSignerThread();
  const funded = await freshWallet(sb, funder, { unlock: false });
  await funder.close();
  await call('importWallet', {
    label: 'desk',
    password: PASSWORD,
    source: { kind: 'privateKey', privateKey: funded.privateKey },
  });
  await call('unlockWallet', { label: 'desk', password: PASSWORD, autoLockMinutes: 0 });
  const maker = await marketMaker(sb);
  const no = sandbox.catalog.market(MARKET)!.tokens[1].tokenId;
  // The maker's bid for No at 60¢ is an ask for Yes at 40¢.
  expect(await makerOrder(maker.client, { tokenId: no, side: 'BUY', price: 0.6, size: 100 })).toMatchObject({
    success: true,
  });
}, 120_000);

afterAll(async () => {
  await terminal?.close();
  await sandbox?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

it('a fill alert armed a second before a fill fires on it, naming the market', async () => {
  // The window follows the desk's orders first, as the Orders tab does: its first snapshot has gone out.
  const followed = window1.nextEvent('account', (a) => a.wallet === 'desk');
  await call('watchAccount', { wallet: 'desk' });
  await followed;

  const fillAlert = await call<AlertInfo>('createAlert', { kind: 'fill', wallet: 'desk' });
  const fired = window1.nextEvent('alert', (a) => a.alert.id === fillAlert.id);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const market = sandbox.catalog.market(MARKET)!;
  expect(
    await call('placeOrder', {
      wallet: 'desk',
      marketId: MARKET,
      tokenId: market.tokens[0].tokenId,
      side: 'BUY',
      orderType: 'FOK',
      amountUsd: 8,
    }),
  ).toMatchObject({ status: 'MATCHED' });

  const { alert, entry } = await fired;
  expect(alert).toMatchObject({ state: 'fired' });
  expect(entry.title).toBe(`Alert: fill on "${market.question}"`);
  expect(entry.message).toBe(`Fill: bought 20 Yes at 40¢ — ${market.question} (desk)`);
}, 30_000);

it('a resolving alert fires within seconds of the resolution, not on its minute-long poll of the source', async () => {
  const RESOLVING = '90031';
  const alert = await call<AlertInfo>('createAlert', { kind: 'resolved', marketId: RESOLVING });
  const fired = window1.nextEvent('alert', (a) => a.alert.id === alert.id);
  await sandbox.resolveMarket(RESOLVING, 1);
  const { entry } = await fired;
  expect(entry.message).toBe(`"${sandbox.catalog.market(RESOLVING)!.question}" has resolved.`);
}, 30_000);
