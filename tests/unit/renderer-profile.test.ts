// The trader profile's state and words: an address changed drops every result at once, a late answer for an
// address no longer shown is thrown away, a wrong address says why and reads nothing, opening a profile asks
// the account panel to show it, a read the source lacks is told from a failure; a position's PnL in dollars
// and percent, an activity line in words.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { activityKind, percentPnl, pnlText } from '../../src/renderer/src/components/profile/profile-words';

// Imported by a path the node type-check does not follow: the store reaches terminal.ts, typed against the DOM.
const PROFILE_STORE = '../../src/renderer/src/store/profile';
interface ProfileStore {
  addressProblem(address: string): string | null;
  openTraderProfile(address: string, name?: string): void;
  setProfileAddress(address: string): void;
  useProfile: { getState(): Record<string, unknown>; setState(patch: Record<string, unknown>): void };
}
let addressProblem: ProfileStore['addressProblem'];
let openTraderProfile: ProfileStore['openTraderProfile'];
let setProfileAddress: ProfileStore['setProfileAddress'];
let useProfile: ProfileStore['useProfile'];

beforeAll(async () => {
  ({ addressProblem, openTraderProfile, setProfileAddress, useProfile } = (await import(
    /* @vite-ignore */ PROFILE_STORE
  )) as ProfileStore);
});

const A = `0x${'a1'.repeat(20)}`;
const B = `0x${'b2'.repeat(20)}`;

/** A page-side terminal whose answers the test gives by hand, in any order (what main's latency can do). */
interface Pending {
  op: string;
  address: string;
  resolve(value: unknown): void;
}
let pending: Pending[];

function answer(op: string, address: string, value: unknown): Promise<void> {
  const call = pending.find((p) => p.op === op && p.address === address);
  if (!call) throw new Error(`no ${op} for ${address}`);
  pending = pending.filter((p) => p !== call);
  call.resolve({ ok: true, value });
  return new Promise((done) => setTimeout(done, 0));
}

function fail(op: string, address: string, message: string, code = 'ERR_NOT_AVAILABLE'): Promise<void> {
  const call = pending.find((p) => p.op === op && p.address === address);
  if (!call) throw new Error(`no ${op} for ${address}`);
  pending = pending.filter((p) => p !== call);
  call.resolve({ ok: false, error: { code, message } });
  return new Promise((done) => setTimeout(done, 0));
}

const trader = (name: string, wallet: string) => ({
  user: { tradingWallet: wallet, name, pseudonym: '', bio: '', avatar: '', createdAt: '' },
  stats: { portfolioValue: 1 },
});

beforeEach(() => {
  pending = [];
  const ask = (op: string) => (input: { address: string }) =>
    new Promise((resolve) => pending.push({ op, address: input.address, resolve }));
  (globalThis as { window?: unknown }).window = {
    terminal: {
      getTrader: ask('getTrader'),
      getTraderPositions: ask('getTraderPositions'),
      getTraderActivity: ask('getTraderActivity'),
    },
  };
  useProfile.setState({
    address: '',
    knownName: null,
    invalid: null,
    loadedFor: null,
    trader: null,
    positions: null,
    activity: null,
    opened: 0,
  });
});

afterEach(() => {
  delete (globalThis as { window?: unknown }).window;
});

describe('the trader profile', () => {
  it('reads a well-formed address straight away: profile, positions and activity, each loading until answered', async () => {
    setProfileAddress(A);
    expect(pending.map((p) => p.op).sort()).toEqual(['getTrader', 'getTraderActivity', 'getTraderPositions']);
    expect(useProfile.getState()).toMatchObject({
      loadedFor: A,
      trader: { state: 'loading' },
      positions: { state: 'loading' },
      activity: { state: 'loading' },
    });
    await answer('getTrader', A, trader('alice', A));
    await answer('getTraderPositions', A, [{ outcome: 'Yes', size: 3 }]);
    await fail('getTraderActivity', A, 'This source has no trader activity.');
    expect(useProfile.getState()).toMatchObject({
      trader: { state: 'done', value: { user: { name: 'alice' } } },
      positions: { state: 'done', value: [{ outcome: 'Yes', size: 3 }] },
      activity: { state: 'failed', message: 'This source has no trader activity.', unavailable: true },
    });
  });

  it('tells a read the source does not have from one that failed', async () => {
    setProfileAddress(A);
    await fail('getTraderPositions', A, 'The data service could not be reached.', 'ERR_NETWORK');
    expect(useProfile.getState().positions).toEqual({
      state: 'failed',
      message: 'The data service could not be reached.',
    });
  });

  it('drops everything the moment the address changes, and throws away a late answer for the old one', async () => {
    setProfileAddress(A);
    await answer('getTrader', A, trader('alice', A));
    // One character typed: not an address any more; nothing of alice stays, nothing is read.
    setProfileAddress(`${A}0`);
    expect(useProfile.getState()).toMatchObject({
      loadedFor: null,
      trader: null,
      positions: null,
      activity: null,
      invalid: 'An address is 0x and 40 hex digits.',
    });
    setProfileAddress(B);
    expect(useProfile.getState()).toMatchObject({ loadedFor: B, invalid: null, trader: { state: 'loading' } });
    // A's positions arrive after B was asked for: they are not B's and are not shown.
    await answer('getTraderPositions', A, [{ outcome: 'Yes', size: 99 }]);
    expect(useProfile.getState().positions).toEqual({ state: 'loading' });
    await answer('getTraderPositions', B, []);
    expect(useProfile.getState().positions).toEqual({ state: 'done', value: [] });
  });

  it('opens a profile from elsewhere with the name known there, and bumps `opened` for the account panel', () => {
    openTraderProfile(A, 'whale');
    expect(useProfile.getState()).toMatchObject({ address: A, knownName: 'whale', loadedFor: A, opened: 1 });
    openTraderProfile(B);
    expect(useProfile.getState()).toMatchObject({ address: B, knownName: null, loadedFor: B, opened: 2 });
    openTraderProfile('not an address');
    expect(useProfile.getState()).toMatchObject({
      loadedFor: null,
      trader: null,
      invalid: 'An address is 0x and 40 hex digits.',
      opened: 3,
    });
  });

  it('says why an address cannot be looked up, and nothing for an empty box', () => {
    expect(addressProblem('')).toBeNull();
    expect(addressProblem(`  ${A} `)).toBeNull();
    expect(addressProblem('0x1234')).toBe('An address is 0x and 40 hex digits.');
    expect(addressProblem(`${A.slice(0, 41)}g`)).toBe('An address is 0x and 40 hex digits.');
  });
});

describe('profile words', () => {
  it('gives a position’s PnL in dollars and percent: the source’s percent, else from its cost', () => {
    expect(percentPnl({ percentPnl: 12.5, cashPnl: 1, initialValue: 8 })).toBe(12.5);
    expect(percentPnl({ cashPnl: -2, initialValue: 8 })).toBe(-25);
    expect(percentPnl({ cashPnl: null, initialValue: 8 })).toBeNull();
    expect(percentPnl({ cashPnl: 1, initialValue: 0 })).toBeNull();
    expect(pnlText(1.5, 12.5)).toBe('+$1.50 (+12.5%)');
    expect(pnlText(-2, -25)).toBe('−$2.00 (−25.0%)');
    expect(pnlText(0.3, null)).toBe('+$0.30');
    expect(pnlText(null, null)).toBe('—');
  });

  it('says what an activity line did: Buy/Sell for a trade, the kind for the rest', () => {
    expect(activityKind({ type: 'TRADE', side: 'BUY' })).toEqual({ text: 'Buy', className: 'bid' });
    expect(activityKind({ type: 'TRADE', side: 'SELL' })).toEqual({ text: 'Sell', className: 'ask' });
    expect(activityKind({ type: 'REDEEM', side: null }).text).toBe('Redeem');
    expect(activityKind({ type: 'MAKER_REBATE', side: null }).text).toBe('Maker rebate');
    expect(activityKind({ type: 'SOMETHING_NEW', side: null }).text).toBe('Something new');
  });
});
