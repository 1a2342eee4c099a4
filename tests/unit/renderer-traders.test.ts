// The Traders tab's state and numbers: base units in dollars and cents and in shares, exactly; switching the
// leaderboard's metric or period drops the board shown at once, and a late answer for the board no longer
// asked for is thrown away; a followed trade heard twice (an event, then main's tape) shows once.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// Imported by a path the node type-check does not follow: the store reaches terminal.ts, typed against the DOM.
const TRADERS_STORE = '../../src/renderer/src/store/traders';
interface TradersStore {
  unitsUsd(units: string): string;
  unitsShares(units: string): string;
  loadLeaderboard(by?: string, period?: string): void;
  followTheFollowed(): () => void;
  useTraders: { getState(): Record<string, unknown> };
}
let store: TradersStore;

beforeAll(async () => {
  store = (await import(/* @vite-ignore */ TRADERS_STORE)) as TradersStore;
});

interface Pending {
  op: string;
  input: Record<string, unknown>;
  resolve(value: unknown): void;
}
let pending: Pending[];
let listeners: Map<string, (payload: unknown) => void>;
const settle = () => new Promise((done) => setTimeout(done, 0));

beforeEach(() => {
  pending = [];
  listeners = new Map();
  const ask = (op: string) => (input: Record<string, unknown>) =>
    new Promise((resolve) => pending.push({ op, input, resolve }));
  (globalThis as { window?: unknown }).window = {
    terminal: {
      getLeaderboard: ask('getLeaderboard'),
      listFollowedTraders: ask('listFollowedTraders'),
      on: (event: string, listener: (payload: unknown) => void) => {
        listeners.set(event, listener);
        return () => listeners.delete(event);
      },
    },
  };
});
afterEach(() => delete (globalThis as { window?: unknown }).window);

const row = (wallet: string) => ({ rank: 1, wallet, name: '', pnl: '0', volume: '1000000' });
const trade = (key: string, timestamp: number) => ({
  key,
  wallet: `0x${'ab'.repeat(20)}`,
  name: '',
  side: 'BUY',
  outcome: 'Yes',
  market: 'M?',
  conditionId: '0x',
  tokenId: '1',
  price: 0.4,
  size: '5000000',
  timestamp,
  transactionHash: '0x',
});

describe('the Traders tab', () => {
  it('writes base units in dollars and cents and in shares, exactly', () => {
    expect(store.unitsUsd('4000000')).toBe('$4.00');
    expect(store.unitsUsd('1234567891')).toBe('$1,234.57');
    expect(store.unitsUsd('-4999')).toBe('$0.00');
    expect(store.unitsUsd('-405000')).toBe('−$0.41');
    expect(store.unitsShares('10000000')).toBe('10');
    expect(store.unitsShares('12500000')).toBe('12.5');
    expect(store.unitsShares('1000000000')).toBe('1,000');
    expect(store.unitsShares('1')).toBe('0.000001');
  });

  it('shows the board asked for last, whatever order the answers come in', async () => {
    store.loadLeaderboard('pnl', 'day');
    store.loadLeaderboard('volume', 'all');
    expect(store.useTraders.getState()).toMatchObject({ by: 'volume', period: 'all', board: { state: 'loading' } });
    const [first, second] = pending;
    expect([first!.input, second!.input]).toEqual([
      { by: 'pnl', period: 'day', limit: 25 },
      { by: 'volume', period: 'all', limit: 25 },
    ]);
    second!.resolve({ ok: true, value: [row('0xnew')] });
    await settle();
    first!.resolve({ ok: true, value: [row('0xold')] });
    await settle();
    expect(store.useTraders.getState().board).toEqual({ state: 'done', rows: [row('0xnew')] });
  });

  it('shows a followed trade once, heard live and again in main’s tape, newest first', async () => {
    const off = store.followTheFollowed();
    listeners.get('followedTrade')!({ trade: trade('a', 10), mode: 'live' });
    listeners.get('followedTrade')!({ trade: trade('a', 10), mode: 'live' });
    pending[0]!.resolve({ ok: true, value: { traders: [], tape: [trade('b', 20), trade('a', 10)], mode: 'live' } });
    await settle();
    expect((store.useTraders.getState().tape as { key: string }[]).map((t) => t.key)).toEqual(['b', 'a']);
    off();
  });
});
