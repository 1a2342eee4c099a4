// A market's state as main pushes it (src/main/follow/market-states.ts): the chain's payouts are the word that counts,
// then a winner the source names or a closed market listed at exactly 1 and 0; else closed (awaiting) or open.
import { describe, expect, it } from 'vitest';
import type { Market } from '@pmdesk/toolkit/model';
import { MarketStates, marketStateOf } from '../../src/main/follow/market-states';
import { EventHub } from '../../src/main/ipc/event-hub';
import type { MarketStateInfo } from '../../src/shared/contract';

const market = (patch: Partial<Market> = {}, prices: [string, string] = ['0.52', '0.48']): Market =>
  ({
    id: '1',
    protocol: 'polymarket',
    name: 'Test',
    question: 'Test?',
    conditionId: `0x${'ab'.repeat(32)}`,
    position_tokens: [
      { token_id: '11', name: 'Yes', price: prices[0] },
      { token_id: '22', name: 'No', price: prices[1] },
    ],
    ...patch,
  }) as unknown as Market;

describe('marketStateOf', () => {
  it('is open, then closed awaiting resolution while the source says closed and the chain has no payouts', () => {
    expect(marketStateOf('polymarket', '1', market())).toMatchObject({
      state: 'open',
      winnerTokenId: null,
      finalPrices: null,
    });
    expect(marketStateOf('polymarket', '1', market({ closed: true }), { state: 'unresolved' })).toMatchObject({
      state: 'closed',
      winnerTokenId: null,
      finalPrices: null,
    });
  });

  it("takes the chain's payouts over a source that still lists the market as trading", () => {
    const info = marketStateOf('polymarket', '1', market(), {
      state: 'resolved',
      numerators: [0n, 1n],
      denominator: 1n,
    });
    expect(info).toMatchObject({ state: 'resolved', winnerTokenId: '22', finalPrices: { '11': 0, '22': 1 } });
    // A 50/50: each share pays half, and there is no single winner.
    expect(
      marketStateOf('polymarket', '1', market(), { state: 'resolved', numerators: [1n, 1n], denominator: 2n }),
    ).toMatchObject({ winnerTokenId: null, finalPrices: { '11': 0.5, '22': 0.5 } });
  });

  it('reads a resolution off the source alone: its winner, or a closed market listed at exactly 1 and 0', () => {
    expect(marketStateOf('polymarket', '1', market({ closed: true }, ['1', '0']))).toMatchObject({
      state: 'resolved',
      winnerTokenId: '11',
      finalPrices: { '11': 1, '22': 0 },
    });
    expect(marketStateOf('polymarket', '1', market({ winnerTokenId: '22' }))).toMatchObject({
      state: 'resolved',
      winnerTokenId: '22',
    });
    // Near 1 is not resolved: a closed market trades down to its end before the oracle speaks.
    expect(marketStateOf('polymarket', '1', market({ closed: true }, ['0.9995', '0.0005']))).toMatchObject({
      state: 'closed',
    });
  });
});

describe('MarketStates', () => {
  it("reads a followed market again at once when the exchange's channel says one of its tokens resolved", async () => {
    const hub = new EventHub();
    const heard: MarketStateInfo[] = [];
    let told: () => void = () => undefined;
    const first = new Promise<void>((resolve) => (told = resolve));
    hub.connect('window-1', (event, payload) => {
      if (event !== 'marketState') return;
      heard.push(payload as MarketStateInfo);
      told();
    });
    let record = market();
    // No chain here, and a source schedule far away: only the channel's word can bring the news.
    const states = new MarketStates(hub, { getMarket: async () => record }, { sourceEveryMs: 3_600_000 });
    try {
      expect(await states.follow('window-1', 'polymarket', '1')).toMatchObject({ state: 'open' });
      record = market({ closed: true }, ['0', '1']);
      states.nudgeToken('99'); // not this market's token: nothing is read
      states.nudgeToken('22');
      await first;
      expect(heard.map((h) => [h.marketId, h.state, h.winnerTokenId])).toEqual([['1', 'resolved', '22']]);
    } finally {
      states.close();
    }
  });

  it('is read for as long as a client follows it: the follower lets go when the last client leaves or goes away', async () => {
    const hub = new EventHub();
    hub.connect('window-1', () => undefined);
    hub.connect('window-2', () => undefined);
    let reads = 0;
    const states = new MarketStates(hub, { getMarket: async () => (reads++, market()) }, { sourceEveryMs: 3_600_000 });
    try {
      await states.follow('window-1', 'polymarket', '1');
      await states.follow('window-2', 'polymarket', '1');
      expect(reads).toBe(1); // read once, shared
      expect(states.unfollow('window-1', '1')).toBe(true);
      expect(states.unfollow('window-1', '1')).toBe(false);
      hub.disconnect('window-2'); // the hub's word that the last client went away
      // Followed afresh, the market is read again: the old one was let go, not kept for nobody.
      await states.follow('window-3', 'polymarket', '1');
      expect(reads).toBe(2);
    } finally {
      states.close();
    }
  });
});
