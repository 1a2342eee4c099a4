// The one reference count of what main follows (src/main/follow/follower.ts): markets for books, fills and market
// states; wallets, by their own key, for the account feeds.
import { describe, expect, it } from 'vitest';
import { EventHub } from '../../src/main/ipc/event-hub';
import { Follower } from '../../src/main/follow/follower';

function setup() {
  const hub = new EventHub();
  const opened: string[] = [];
  const closed: string[] = [];
  const follower = new Follower<{ name: string; clients: ReadonlySet<string> }>(hub, (feed) => closed.push(feed.name));
  const follow = (clientId: string, marketId: string, protocol = 'polymarket') =>
    follower.follow(clientId, { protocol, marketId }, (clients) => {
      opened.push(marketId);
      return { name: marketId, clients };
    });
  return { hub, follower, follow, opened, closed };
}

describe('Follower', () => {
  it('opens a market once for all its clients and closes it after the last one leaves', () => {
    const { follower, follow, opened, closed } = setup();
    const a = follow('w1', 'm1');
    const b = follow('w2', 'm1');
    expect(a).toBe(b);
    expect(opened).toEqual(['m1']);
    expect([...a.clients].sort()).toEqual(['w1', 'w2']);
    expect(follower.unfollow('w1', 'm1')).toBe(true);
    expect(closed).toEqual([]);
    expect(follower.unfollow('w1', 'm1')).toBe(false);
    expect(follower.unfollow('w2', 'm1')).toBe(true);
    expect(closed).toEqual(['m1']);
    expect(follower.followed()).toEqual([]);
  });

  it('hands the feed its clients with the first one already in, so what it says as it opens is heard', () => {
    const { follower } = setup();
    let seen: string[] = [];
    follower.follow('w1', { protocol: 'polymarket', marketId: 'm1' }, (clients) => {
      seen = [...clients];
      return { name: 'm1', clients };
    });
    expect(seen).toEqual(['w1']);
  });

  it('releases every market of a client that goes away from the hub', () => {
    const { hub, follower, follow, closed } = setup();
    hub.connect('w1', () => undefined);
    hub.connect('w2', () => undefined);
    follow('w1', 'm1');
    follow('w1', 'm2');
    follow('w2', 'm2');
    hub.disconnect('w1');
    expect(closed).toEqual(['m1']);
    expect(follower.subscriptions()).toEqual([{ clientId: 'w2', protocol: 'polymarket', marketId: 'm2' }]);
  });

  it('lists who follows what, to follow it again elsewhere', () => {
    const { follower, follow } = setup();
    follow('w1', 'm1');
    follow('w2', 'm1');
    follow('w2', 'm2', 'limitless');
    expect(follower.subscriptions()).toEqual([
      { clientId: 'w1', protocol: 'polymarket', marketId: 'm1' },
      { clientId: 'w2', protocol: 'polymarket', marketId: 'm1' },
      { clientId: 'w2', protocol: 'limitless', marketId: 'm2' },
    ]);
    expect(follower.followed()).toEqual(['polymarket:m1', 'limitless:m2']);
  });

  it('forgets a feed that ended on its own without closing it, and opens a new one for the next client', () => {
    const { follower, follow, opened, closed } = setup();
    const first = follow('w1', 'm1');
    follower.forget({ protocol: 'polymarket', marketId: 'm1' }, { name: 'other', clients: new Set() });
    expect(follower.feedOf({ protocol: 'polymarket', marketId: 'm1' })).toBe(first);
    follower.forget({ protocol: 'polymarket', marketId: 'm1' }, first);
    expect(follower.feedOf({ protocol: 'polymarket', marketId: 'm1' })).toBeUndefined();
    expect(closed).toEqual([]);
    expect(follow('w1', 'm1')).not.toBe(first);
    expect(opened).toEqual(['m1', 'm1']);
  });

  it('closes everything on closeAll and stops listening to the hub', () => {
    const { hub, follower, follow, closed } = setup();
    hub.connect('w1', () => undefined);
    follow('w1', 'm1');
    follow('w1', 'm2');
    follower.closeAll();
    expect(closed.sort()).toEqual(['m1', 'm2']);
    hub.disconnect('w1');
    expect(closed).toHaveLength(2);
  });

  it('keeps nothing when opening a feed throws', () => {
    const { follower } = setup();
    expect(() =>
      follower.follow('w1', { protocol: 'polymarket', marketId: 'm1' }, () => {
        throw new Error('no such market');
      }),
    ).toThrow('no such market');
    expect(follower.followed()).toEqual([]);
  });

  it('follows wallets by their own key, and reopens one for the same clients without closing it', () => {
    const hub = new EventHub();
    const closed: string[] = [];
    const follower = new Follower<{ label: string; round: number; clients: ReadonlySet<string> }, string>(
      hub,
      (feed, key) => closed.push(`${key}#${feed.round}`),
      (key) => key,
    );
    const first = follower.follow('w1', '0xdesk', (clients) => ({ label: 'Desk', round: 1, clients }));
    follower.follow('w2', '0xdesk', () => ({ label: 'never', round: 0, clients: new Set() }));
    expect(follower.follows('w2', '0xdesk')).toBe(true);
    expect(follower.follows('w3', '0xdesk')).toBe(false);
    // Another account of the wallet: a new feed for the same two clients, the old one handed back, nobody closed.
    const old = follower.reopen('0xdesk', (clients) => ({ label: 'Desk', round: 2, clients }));
    expect(old).toBe(first);
    const now = follower.feedOf('0xdesk')!;
    expect(now.round).toBe(2);
    expect([...now.clients].sort()).toEqual(['w1', 'w2']);
    expect(closed).toEqual([]);
    expect(follower.reopen('0xother', () => ({ label: 'x', round: 9, clients: new Set() }))).toBeUndefined();
    expect(follower.followed()).toEqual(['0xdesk']);
    expect(follower.unfollow('w1', '0xdesk')).toBe(true);
    hub.connect('w2', () => undefined);
    hub.disconnect('w2');
    expect(closed).toEqual(['0xdesk#2']);
    expect(follower.feedOf('0xdesk')).toBeUndefined();
  });
});
