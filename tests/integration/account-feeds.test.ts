// AccountFeeds on the sandbox CLOB's /ws/user, below the contract: two clients of one wallet share one feed and
// both hear its snapshot; credentials the exchange refuses end in `feedStatus {feed:'user', state:'closed'}` with
// ERR_UNAUTHORIZED and no secret in it; an opener that fails is answered as its error and leaves nothing watched;
// the last client leaving stops the feed. Waits are on events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Wallet } from 'ethers';
import type { EventName, TerminalEvents } from '../../src/shared/contract';
import { ErrorCode, PmDeskError } from '../../packages/toolkit/src/model/errors';
import { AccountFeeds, type WatchedWallet } from '../../src/main/follow/account-feeds';
import { EventHub } from '../../src/main/ipc/event-hub';
import type { UserOrder, UserTrade } from '../../src/main/feeds/user-feed';
import { l2Request, startClobSandbox, type ClobSandbox } from '../helpers/sandbox-clob';

let sb: ClobSandbox;
beforeAll(async () => {
  sb = await startClobSandbox({ orderVersion: 2 });
});
afterAll(async () => {
  await sb?.stop();
});

function opened(wallet: Wallet, secret?: string): WatchedWallet {
  const c = sb.server.apiKeyFor(wallet.address);
  const creds = { key: c.apiKey, secret: c.secret, passphrase: c.passphrase };
  const rows = async <T>(path: string) =>
    ((await l2Request(sb.server.url, wallet, creds, 'GET', path, undefined, '?next_cursor=MA==')).body.data as T[]) ??
    [];
  return {
    address: wallet.address,
    credentials: { apiKey: c.apiKey, secret: secret ?? c.secret, passphrase: c.passphrase },
    fetchOpenOrders: () => rows<UserOrder>('/data/orders'),
    fetchTrades: () => rows<UserTrade>('/data/trades'),
  };
}

function listen(hub: EventHub, id: string) {
  const heard: { event: EventName; payload: unknown }[] = [];
  const waiters: { check: () => boolean; resolve: () => void }[] = [];
  hub.connect(id, <E extends EventName>(event: E, payload: TerminalEvents[E]) => {
    heard.push({ event, payload });
    for (const w of waiters.filter((w) => w.check())) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  });
  return {
    heard,
    until: (check: () => boolean) =>
      new Promise<void>((resolve) => (check() ? resolve() : waiters.push({ check, resolve }))),
    of: <E extends EventName>(event: E) =>
      heard.filter((h) => h.event === event).map((h) => h.payload as TerminalEvents[E]),
  };
}

describe('AccountFeeds', () => {
  const wsUrl = () => `${sb.server.url.replace(/^http/, 'ws')}/ws`;

  it('shares one feed between two clients and stops it when the last leaves', async () => {
    const [alice] = sb.wallets as [Wallet];
    const hub = new EventHub();
    const a = listen(hub, 'a');
    const b = listen(hub, 'b');
    let opens = 0;
    const feeds = new AccountFeeds(async () => (opens++, opened(alice)), hub, { wsUrl: wsUrl() });
    try {
      await Promise.all([feeds.follow('a', 'Alice'), feeds.follow('b', 'alice')]);
      expect(opens).toBe(1);
      expect(feeds.watched()).toEqual(['Alice']);
      await a.until(() => a.of('account').length > 0);
      await b.until(() => b.of('account').length > 0);
      expect(a.of('account')[0]).toEqual({ wallet: 'Alice', openOrders: [], trades: [], state: 'open' });
      expect(a.of('feedStatus')).toEqual([{ feed: 'user', marketId: 'Alice', state: 'open', source: 'live' }]);

      expect(feeds.unfollow('a', 'ALICE')).toBe(true);
      expect(feeds.watched()).toEqual(['Alice']);
      expect(feeds.unfollow('b', 'alice')).toBe(true);
      expect(feeds.watched()).toEqual([]);
      expect(feeds.unfollow('b', 'alice')).toBe(false);
    } finally {
      feeds.closeAll();
    }
  });

  it('says closed with ERR_UNAUTHORIZED when the exchange refuses the credentials, and passes an opener error on', async () => {
    const [, bob] = sb.wallets as [Wallet, Wallet];
    const hub = new EventHub();
    const a = listen(hub, 'a');
    const wrongSecret = Buffer.from('not the secret at all').toString('base64');
    const feeds = new AccountFeeds(
      async (label) => {
        if (label === 'locked')
          throw new PmDeskError(
            ErrorCode.UNAUTHORIZED,
            'The wallet locked is locked and has no exchange credentials yet: unlock it to follow its orders.',
          );
        return opened(bob, wrongSecret);
      },
      hub,
      { wsUrl: wsUrl() },
    );
    try {
      await expect(feeds.follow('a', 'locked')).rejects.toThrow(/unlock it to follow its orders/);
      expect(feeds.watched()).toEqual([]);

      await feeds.follow('a', 'bob');
      await a.until(() => a.of('feedStatus').some((s) => s.state === 'closed'));
      const closed = a.of('feedStatus').find((s) => s.state === 'closed')!;
      expect(closed).toMatchObject({
        feed: 'user',
        marketId: 'bob',
        state: 'closed',
        error: { code: 'ERR_UNAUTHORIZED' },
      });
      expect(JSON.stringify(a.heard)).not.toContain(wrongSecret);
      expect(JSON.stringify(a.heard)).not.toContain(sb.server.apiKeyFor(bob.address).passphrase);
    } finally {
      feeds.closeAll();
    }
  });
});
