// Following traders on the sandbox (toolkit, followed-trades.ts): a followed wallet's real trade on the sandbox
// exchange comes through the real-time feed; while the feed refuses, through the Data API; a trade made while
// nobody listened is read when the feed comes back (no gap); every trade once, and nobody else's.
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import type { CatalogMarket } from '../../sandbox/market/catalog';
import { DataClient } from '../../packages/toolkit/src/polymarket/data';
import { silentLogger } from '../../packages/toolkit/src/base/logger';
import {
  followTraders,
  type FollowMode,
  type FollowedTrade,
  type TraderFollow,
} from '../../packages/toolkit/src/polymarket/followed-trades';
import { limitOrder, postOrder, type ClobSandbox } from '../helpers/sandbox-clob';

/** Waits, turn by turn on the real clock (the chain mines and the feed's timers run for real), until `check` holds. */
async function waitFor(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 3000; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`never happened: ${what}`);
}

let sandbox: RunningSandbox;
let sb: ClobSandbox;
let btc: CatalogMarket;
let taker: Wallet;
let maker: Wallet;
let other: Wallet;
let data: DataClient;

/** The wallet's trades the Data API lists now. */
const settledTrades = async (wallet: Wallet) => (await data.getTrades({ user: wallet.address })).length;

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { rpc: 0, clob: 0, aggregator: 0, polymarket: 0 }, simulate: 'off', seed: 5 });
  sb = { chain: sandbox.deployment, server: sandbox.clob } as unknown as ClobSandbox;
  btc = sandbox.catalog.market('90021')!;
  [taker, maker, other] = sandbox.profile.testWallets.map((w) => new Wallet(w.privateKey)) as [Wallet, Wallet, Wallet];
  data = new DataClient({ baseUrl: sandbox.profile.dataUrl, logger: silentLogger });
  // Plenty of YES asks at 0.40 (NO bids at 0.60) for the followed taker, and the unfollowed one, to take.
  await postOrder(sb, maker, limitOrder(btc.tokens[1].tokenId, 'BUY', 0.6, 100));
}, 90_000);
afterAll(() => sandbox?.stop());

describe('following a trader on the sandbox', () => {
  it('live, then polled while the feed is away, then live again with what it missed, each trade once', async () => {
    const told: FollowedTrade[] = [];
    const modes: FollowMode[] = [];
    let polls = 0;
    const follow: TraderFollow = followTraders({
      wallets: [taker.address],
      pollTrades: async (wallet) => {
        const rows = await data.getTrades({ user: wallet, takerOnly: true });
        polls++;
        return rows;
      },
      rtdsUrl: sandbox.profile.rtdsUrl,
      handlers: { onTrade: (t) => told.push(t), onMode: (m) => modes.push(m) },
      logger: silentLogger,
      // Polled once on losing the feed and never again by the clock: what comes later must come from the catch-up.
      timing: { pollMs: 600_000, rtdsRetryMs: 200 },
    });
    try {
      await waitFor(() => follow.mode === 'live' && polls >= 1, 'the feed open and the first catch-up read');
      expect(told).toEqual([]);

      // 1. Live: the followed taker buys 5 YES at 0.40; the unfollowed wallet buys too, and is not told.
      await postOrder(sb, other, limitOrder(btc.tokens[0].tokenId, 'BUY', 0.4, 6));
      await postOrder(sb, taker, limitOrder(btc.tokens[0].tokenId, 'BUY', 0.4, 5));
      await waitFor(() => told.length >= 1, 'the live trade');
      expect(told[0]).toMatchObject({
        wallet: taker.address,
        side: 'BUY',
        outcome: 'Yes',
        tokenId: btc.tokens[0].tokenId,
        conditionId: btc.conditionId,
        market: btc.question,
        price: 0.4,
        size: '5000000',
      });
      expect(told[0]!.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);

      // 2. The feed drops and refuses: polling, one read at once.
      const pollsWhenDown = polls;
      sandbox.polymarket.rtdsFaults().refuse(true, true);
      await waitFor(() => follow.mode === 'polling', 'polling');
      await waitFor(() => polls > pollsWhenDown, 'the read on losing the feed');
      // 3. A trade while nobody listens and no poll is due: only the catch-up can find it.
      await postOrder(sb, taker, limitOrder(btc.tokens[0].tokenId, 'BUY', 0.4, 7));
      await waitFor(async () => (await settledTrades(taker)) >= 2, 'the second trade settled');
      expect(told).toHaveLength(1);
      sandbox.polymarket.rtdsFaults().refuse(false);
      await waitFor(() => told.length >= 2, 'the missed trade, read when the feed came back');
      expect(follow.mode).toBe('live');
      expect(told[1]).toMatchObject({ wallet: taker.address, size: '7000000', price: 0.4 });

      // 4. Live again: one more trade, told once though both the feed and a catch-up read could see it.
      await postOrder(sb, taker, limitOrder(btc.tokens[0].tokenId, 'BUY', 0.4, 8));
      await waitFor(() => told.length >= 3, 'the third trade');
      // Another wallet followed (its trades read once, as a baseline) and let go again.
      const beforeOther = polls;
      follow.setWallets([taker.address, other.address]);
      follow.setWallets([taker.address]);
      await waitFor(() => polls > beforeOther, 'the baseline read of the wallet added');
      const before = polls;
      // A catch-up read of everything again (as after any reconnect) tells nothing twice.
      sandbox.polymarket.rtdsFaults().dropAll();
      await waitFor(() => polls > before + 1 && follow.mode === 'live', 'the feed back after a drop, caught up');
      expect(told.map((t) => t.size)).toEqual(['5000000', '7000000', '8000000']);
      expect(new Set(told.map((t) => t.key)).size).toBe(3);
      expect(modes).toEqual(expect.arrayContaining(['live', 'polling']));
    } finally {
      follow.close();
    }
    expect(follow.mode).toBe('closed');
  }, 120_000);

  it('refuses what is not a wallet, and more wallets than it can poll', () => {
    const base = { pollTrades: async () => [], handlers: {}, logger: silentLogger };
    expect(() => followTraders({ ...base, wallets: ['nobody'] })).toThrow(/wallet addresses/);
    const many = Array.from({ length: 51 }, () => Wallet.createRandom().address);
    expect(() => followTraders({ ...base, wallets: many })).toThrow(/At most 50/);
  });
});
