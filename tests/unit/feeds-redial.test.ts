// The connection upkeep both socket feeds share, on a hand-driven clock: the backoff doubles to its cap and starts
// over once the server speaks; REST polling starts after the third connect in a row that never opened (not after
// drops of connections that had opened), runs a round every interval, skips when there is nothing to read, and
// ends when a connect opens; PING goes out while the socket says it is open.
import { describe, expect, it } from 'vitest';
import { ManualScheduler } from '../../src/main/feeds/scheduler';
import { MAX_RECONNECT_BACKOFF_MS, Redial, type FeedSource } from '../../src/main/feeds/redial';

function setup(
  options: ConstructorParameters<typeof Redial>[1] = { backoffMs: { initial: 100, max: 400 }, pollMs: 1_000 },
) {
  const clock = new ManualScheduler();
  const sources: FeedSource[] = [];
  const redial = new Redial(clock, options, (s) => sources.push(s));
  let connects = 0;
  let rounds = 0;
  let nothingToRead = false;
  const connect = () => connects++;
  const round = () => {
    if (nothingToRead) return undefined;
    rounds++;
    return Promise.resolve();
  };
  const flush = () => new Promise((resolve) => setImmediate(resolve));
  return {
    clock,
    sources,
    redial,
    connect,
    round,
    flush,
    counts: () => ({ connects, rounds }),
    setNothingToRead: (value: boolean) => (nothingToRead = value),
  };
}

describe('Redial', () => {
  it('doubles the backoff up to its cap and starts over once the server speaks', () => {
    const t = setup();
    const waits: number[] = [];
    for (let i = 0; i < 4; i++) {
      const before = t.clock.now();
      t.redial.closed(true, t.connect, t.round);
      const connects = t.counts().connects;
      while (t.counts().connects === connects) t.clock.advance(1);
      waits.push(t.clock.now() - before);
    }
    expect(waits).toEqual([100, 200, 400, 400]);
    t.redial.heard();
    const before = t.clock.now();
    t.redial.closed(true, t.connect, t.round);
    t.clock.advance(99);
    expect(t.clock.now() - before).toBe(99);
    expect(t.counts().connects).toBe(4);
    t.clock.advance(1);
    expect(t.counts().connects).toBe(5);
    // Drops of connections that had opened never start polling.
    expect(t.sources).toEqual([]);
    expect(t.counts().rounds).toBe(0);
  });

  it('by default waits at most 2 s between connects however long the outage: the exchange is back within seconds', () => {
    const t = setup({ pollMs: 1_000 });
    const waits: number[] = [];
    // A long outage: connects that never open, one after another, for more than 30 s.
    const start = t.clock.now();
    while (t.clock.now() - start < 30_000) {
      const before = t.clock.now();
      t.redial.closed(false, t.connect, t.round);
      const connects = t.counts().connects;
      while (t.counts().connects === connects) t.clock.advance(1);
      waits.push(t.clock.now() - before);
    }
    expect(waits.slice(0, 4)).toEqual([500, 1_000, 2_000, 2_000]);
    expect(Math.max(...waits)).toBe(MAX_RECONNECT_BACKOFF_MS);
    expect(MAX_RECONNECT_BACKOFF_MS).toBe(2_000);
    t.redial.close();
  });

  it('polls after three connects in a row that never opened, every interval, until one opens', async () => {
    const t = setup();
    t.redial.closed(false, t.connect, t.round);
    t.redial.closed(false, t.connect, t.round);
    expect(t.redial.source).toBe('live');
    t.redial.closed(false, t.connect, t.round);
    expect(t.redial.source).toBe('polling');
    expect(t.sources).toEqual(['polling']);
    expect(t.counts().rounds).toBe(1);
    await t.flush();
    t.clock.advance(999);
    expect(t.counts().rounds).toBe(1);
    t.clock.advance(1);
    expect(t.counts().rounds).toBe(2);
    expect(t.redial.polls).toBe(2);

    // Nothing to read: no round and no timer, until something is subscribed.
    await t.flush();
    t.setNothingToRead(true);
    t.clock.advance(1_000);
    await t.flush();
    t.clock.advance(5_000);
    expect(t.counts().rounds).toBe(2);
    t.setNothingToRead(false);
    t.redial.pollNow();
    expect(t.counts().rounds).toBe(3);

    t.redial.opened();
    expect(t.sources).toEqual(['polling', 'live']);
    await t.flush();
    t.clock.advance(10_000);
    expect(t.counts().rounds).toBe(3);
    // A fresh run of failures is needed to poll again.
    t.redial.closed(false, t.connect, t.round);
    expect(t.redial.source).toBe('live');
  });

  it('sends PING while the socket is open, and closing ends polling without a word', async () => {
    const t = setup({ pingMs: 1_000, pollAfterFailures: 1 });
    let open = true;
    let pings = 0;
    t.redial.ping(() => open && ++pings > 0);
    t.clock.advance(3_000);
    expect(pings).toBe(3);
    open = false;
    t.clock.advance(5_000);
    expect(pings).toBe(3);

    t.redial.closed(false, t.connect, t.round);
    expect(t.sources).toEqual(['polling']);
    t.redial.close();
    expect(t.redial.source).toBe('live');
    expect(t.sources).toEqual(['polling']);
    await t.flush();
    t.clock.advance(60_000);
    expect(t.counts()).toEqual({ connects: 0, rounds: 1 });
    expect(t.clock.pending).toBe(0);
  });
});
