// Other traders in main (src/main/traders) on the whole sandbox through the router, as a window calls it: the
// leaderboard and a market's holders named by outcome; a followed trader with the alert on traded, and every window
// heard `followedTrade` while the notifier was asked once; a window that connects later reads the session's tape;
// the list is kept in settings.json under the network's name and followed again after a restart; an aggregator
// network says other traders are not available there.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FollowedTraders, LeaderboardRow, OutcomeHolderList } from '../../src/shared/contract';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { allowOrigins } from '../../src/main/ipc/router';
import { openTerminal, type Terminal } from '../../src/main/terminal/terminal';
import { parseAppProfile } from '../../src/main/settings/profile';
import { SETTINGS_FILE } from '../../src/main/settings/settings';
import { hubClient } from '../helpers/hub-client';
import { limitOrder, postOrder, type ClobSandbox } from '../helpers/sandbox-clob';

const APP = 'app://pmdesk';
const MARKET = '90021';

let sandbox: RunningSandbox;
let sb: ClobSandbox;
let dataDir: string;
let terminal: Terminal;
let taker: Wallet;
let maker: Wallet;
const notified: { title: string; body: string }[] = [];

function open(profile: Record<string, unknown> = sandbox.profile as unknown as Record<string, unknown>): Terminal {
  return openTerminal({
    profile: parseAppProfile(profile),
    rawProfile: profile,
    shell: 'browser',
    allowSender: allowOrigins([APP]),
    dataDir,
    notifier: { show: (title, body) => notified.push({ title, body }) },
  });
}

async function call<T>(window: ReturnType<typeof hubClient>, op: string, input: unknown): Promise<T> {
  const result = await window.call(op, input);
  if (!result.ok) throw new Error(`${op} failed: ${result.error?.code} ${result.error?.message}`);
  return result.value as T;
}

beforeAll(async () => {
  sandbox = await startSandbox({
    ports: { rpc: 0, clob: 0, aggregator: 0 },
    simulate: 'off',
    seed: 13,
    source: 'polymarket',
  });
  sb = { chain: sandbox.deployment, server: sandbox.clob } as unknown as ClobSandbox;
  [taker, maker] = sandbox.profile.testWallets.map((w) => new Wallet(w.privateKey)) as [Wallet, Wallet];
  dataDir = await mkdtemp(join(tmpdir(), 'pmdesk-traders-'));
  const market = sandbox.catalog.market(MARKET)!;
  await postOrder(sb, maker, limitOrder(market.tokens[1].tokenId, 'BUY', 0.6, 100));
  await postOrder(sb, taker, limitOrder(market.tokens[0].tokenId, 'BUY', 0.4, 10));
  terminal = open();
}, 90_000);
afterAll(async () => {
  await terminal?.close();
  await sandbox?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('other traders in main', () => {
  it('reads the leaderboard and a market’s holders by outcome name', async () => {
    const window1 = hubClient(terminal, 'window-1', APP);
    const market = sandbox.catalog.market(MARKET)!;
    let holders: OutcomeHolderList[] = [];
    // The trade settles on the chain in its own time: its holders show once it has.
    for (let i = 0; i < 3000 && !holders[0]?.holders.length; i++) {
      holders = await call<OutcomeHolderList[]>(window1, 'getMarketHolders', {
        protocol: 'polymarket',
        marketId: MARKET,
      });
      if (!holders[0]?.holders.length) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(holders.map((o) => [o.tokenId, o.outcome, o.holders.map((h) => [h.wallet, h.amount])])).toEqual([
      [market.tokens[0].tokenId, 'Yes', [[taker.address, '10000000']]],
      [market.tokens[1].tokenId, 'No', [[maker.address, '10000000']]],
    ]);
    const board = await call<LeaderboardRow[]>(window1, 'getLeaderboard', { by: 'volume', period: 'all' });
    expect(board.find((r) => r.wallet === maker.address)).toMatchObject({ volume: '6000000' });
    const refused = await window1.call('getLeaderboard', { by: 'profit' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'ERR_INVALID_PARAM' } });
  }, 60_000);

  it('tells every window of a followed trader’s trade, alerts once, and keeps the list per network', async () => {
    const window1 = hubClient(terminal, 'window-a', APP);
    const window2 = hubClient(terminal, 'window-b', APP);
    const followed = await call<FollowedTraders>(window1, 'followTrader', { address: taker.address, alert: true });
    expect(followed.traders.map((t) => [t.address, t.alert])).toEqual([[taker.address, true]]);
    await call(window1, 'followTrader', { address: maker.address });
    const live = window1.nextEvent('followedTrade', (p) => p.mode === 'live');
    if ((await call<FollowedTraders>(window1, 'listFollowedTraders', {})).mode !== 'live') await live;

    const heard = window2.nextEvent('followedTrade', (p) => p.trade !== undefined);
    const before = notified.length;
    await postOrder(sb, taker, limitOrder(sandbox.catalog.market(MARKET)!.tokens[0].tokenId, 'BUY', 0.4, 6));
    const { trade } = await heard;
    expect(trade).toMatchObject({ wallet: taker.address, side: 'BUY', outcome: 'Yes', price: 0.4, size: '6000000' });
    // The alert: one notification, saying who did what, at what price and for how much.
    expect(notified.slice(before)).toEqual([
      {
        title: expect.stringMatching(/bought Yes$/),
        body: `6 shares at 40¢ ($2.40) — ${sandbox.catalog.market(MARKET)!.question}`,
      },
    ]);
    // A window that comes later reads the session's tape.
    const window3 = hubClient(terminal, 'window-c', APP);
    const late = await call<FollowedTraders>(window3, 'listFollowedTraders', {});
    expect(late.tape.map((t) => t.key)).toEqual([trade!.key]);

    // Kept under the network's name; after a restart followed again, the tape a new session's.
    const file = JSON.parse(await readFile(join(dataDir, SETTINGS_FILE), 'utf8')) as {
      followedTraders: Record<string, { address: string }[]>;
    };
    expect(Object.keys(file.followedTraders)).toEqual([terminal.services.network.name]);
    await terminal.close();
    terminal = open();
    const again = await call<FollowedTraders>(hubClient(terminal, 'window-d', APP), 'listFollowedTraders', {});
    expect(again.traders.map((t) => [t.address, t.alert])).toEqual([
      [taker.address, true],
      [maker.address, false],
    ]);
    expect(again.tape).toEqual([]);
    expect(again.mode).not.toBe('idle');
  }, 60_000);

  it('says other traders are not available on an aggregator network', async () => {
    // Nothing is read from it: the refusal comes before any request.
    const aggregator = open({
      ...sandbox.profile,
      name: 'sandbox-aggregator',
      source: 'aggregator',
      aggregatorUrl: 'http://127.0.0.1:9',
    });
    try {
      const answer = await hubClient(aggregator, 'window-x', APP).call('listFollowedTraders', {});
      expect(answer).toMatchObject({ ok: false, error: { code: 'ERR_NOT_AVAILABLE' } });
      expect(answer.error!.message).toMatch(/Polymarket's Data API/);
    } finally {
      await aggregator.close();
    }
  });
});
