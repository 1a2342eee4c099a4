// The region and close-only checks' state machine (src/main/trading/region-check.ts) on a hand-driven clock: what
// getTradingAccess answers and what the order flow is refused for a blocked region, a failed check (allowed,
// with a note; a real block never dropped for a failure), a close-only account (BUY refused, SELL not), and
// that each change is one `tradingAccess` event.
import { describe, expect, it } from 'vitest';
import type { TradingAccessInfo } from '../../src/shared/contract';
import type { TradingAccess } from '../../packages/toolkit/src/model/market-model';
import { ManualScheduler } from '../../src/main/feeds/scheduler';
import {
  CLOSE_ONLY_SENTENCE,
  RegionCheck,
  blockedSentence,
  type RegionCheckOptions,
} from '../../src/main/trading/region-check';
import type { TradingWallet } from '../../src/main/trading/service';

const URL = 'http://127.0.0.1:9/api/geoblock';
const MINUTE = 60_000;
const BLOCKED_NY: TradingAccess = {
  allowed: false,
  state: 'blocked',
  reason: 'Polymarket does not allow trading from NY, US.',
  country: 'US',
  region: 'NY',
};
const OK_IE: TradingAccess = { allowed: true, state: 'ok', reason: '', country: 'IE', region: 'L' };
const FAILED: TradingAccess = {
  allowed: false,
  state: 'unknown',
  reason: 'Could not check whether trading is allowed from here: connection refused',
};
const NY_SENTENCE =
  'Trading is not available from your region (US-NY): Polymarket blocks new orders there. You can still browse markets.';

const desk: TradingWallet = {
  kind: 'worker',
  address: '0x00000000000000000000000000000000000000aa',
  signer: undefined as never,
};
const flush = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

function setup(
  options: {
    answers?: TradingAccess[];
    closedOnly?: RegionCheckOptions['closedOnly'];
    geoblockUrl?: string | null;
  } = {},
) {
  const scheduler = new ManualScheduler();
  const events: TradingAccessInfo[] = [];
  const answers = [...(options.answers ?? [])];
  let asked = 0;
  const check = new RegionCheck({
    geoblockUrl: options.geoblockUrl === null ? undefined : (options.geoblockUrl ?? URL),
    checkRegion: async (url) => {
      expect(url).toBe(URL);
      asked++;
      return answers.length > 1 ? answers.shift()! : answers[0]!;
    },
    closedOnly: options.closedOnly,
    walletNamed: async (label) => {
      if (label.toLowerCase() !== 'desk') throw new Error(`There is no wallet named ${label}.`);
      return desk;
    },
    emit: (info) => events.push(info),
    intervalMs: 5 * MINUTE,
    scheduler,
  });
  return { check, scheduler, events, asked: () => asked };
}

describe('the region check', () => {
  it('a network without a geoblock URL is not held back, and asks nothing', async () => {
    const { check, events, asked } = setup({ geoblockUrl: null });
    check.start();
    expect(await check.access()).toEqual({ allowed: true, state: 'ok', reason: '', wallet: null });
    expect(asked()).toBe(0);
    expect(events).toEqual([{ allowed: true, state: 'ok', reason: '', wallet: null }]);
    check.close();
  });

  it('blocked: the sentence names the region, every new order is refused, and unblocking is one event', async () => {
    const { check, scheduler, events, asked } = setup({ answers: [BLOCKED_NY, OK_IE] });
    check.start();
    const blocked = await check.access();
    expect(blocked).toEqual({
      allowed: false,
      state: 'blocked',
      reason: NY_SENTENCE,
      country: 'US',
      region: 'NY',
      wallet: null,
    });
    expect(blockedSentence('US-NY')).toBe(NY_SENTENCE);
    expect(await check.refusal(desk, 'BUY')).toBe(NY_SENTENCE);
    expect(await check.refusal(desk, 'SELL')).toBe(NY_SENTENCE);
    expect(events).toHaveLength(1);

    // Nothing is asked again before the interval; then the answer changed and every window hears it once.
    scheduler.advance(4 * MINUTE);
    await flush();
    expect(asked()).toBe(1);
    scheduler.advance(MINUTE);
    await flush();
    expect(asked()).toBe(2);
    expect(events.at(-1)).toEqual({ allowed: true, state: 'ok', reason: '', country: 'IE', region: 'L', wallet: null });
    expect(await check.refusal(desk, 'BUY')).toBeUndefined();
    // The same answer again is no news.
    scheduler.advance(5 * MINUTE);
    await flush();
    expect(asked()).toBe(3);
    expect(events).toHaveLength(2);
    check.close();
    scheduler.advance(60 * MINUTE);
    await flush();
    expect(asked()).toBe(3);
  });

  it('a check that could not be made allows trading with a quiet note; a real block is never dropped for a failure', async () => {
    const { check, scheduler, events } = setup({ answers: [FAILED, BLOCKED_NY, FAILED] });
    check.start();
    const unknown = await check.access();
    expect(unknown).toMatchObject({ allowed: true, state: 'unknown', wallet: null });
    expect(unknown.reason).toBe(
      'PM Desk could not check whether Polymarket allows trading from here (connection refused); orders are not held back for that.',
    );
    expect(await check.refusal(desk, 'BUY')).toBeUndefined();

    scheduler.advance(5 * MINUTE);
    await flush();
    expect(await check.access()).toMatchObject({ state: 'blocked', reason: NY_SENTENCE });
    scheduler.advance(5 * MINUTE);
    await flush();
    // The re-check failed: still blocked, and nothing new was announced.
    expect(await check.access()).toMatchObject({ state: 'blocked', allowed: false });
    expect(await check.refusal(desk, 'SELL')).toBe(NY_SENTENCE);
    expect(events.map((e) => e.state)).toEqual(['unknown', 'blocked']);
    check.close();
  });
});

describe('an account in close-only mode', () => {
  it('refuses BUY, allows SELL, says so for the wallet, and its release is an event naming the wallet', async () => {
    let closedOnly = true;
    let asked = 0;
    const { check, scheduler, events } = setup({
      answers: [OK_IE],
      closedOnly: async (wallet) => {
        expect(wallet).toBe(desk);
        asked++;
        return closedOnly;
      },
    });
    check.start();
    expect(await check.access()).toMatchObject({ state: 'ok', wallet: null });
    // Before an order holds its credentials the account is not asked: nothing known, nothing refused.
    expect(await check.refusal(desk, 'BUY', false)).toBeUndefined();
    expect(asked).toBe(0);
    expect(await check.access('Desk')).toEqual({
      allowed: false,
      state: 'close-only',
      reason: CLOSE_ONLY_SENTENCE,
      country: 'IE',
      region: 'L',
      wallet: 'Desk',
    });
    expect(await check.refusal(desk, 'BUY')).toBe(CLOSE_ONLY_SENTENCE);
    expect(await check.refusal(desk, 'SELL')).toBeUndefined();
    // Once known, the answer counts without asking too.
    expect(await check.refusal(desk, 'BUY', false)).toBe(CLOSE_ONLY_SENTENCE);
    // Answers are kept for the interval: one question so far.
    expect(asked).toBe(1);

    closedOnly = false;
    scheduler.advance(5 * MINUTE);
    await flush();
    expect(asked).toBe(2);
    expect(events.at(-1)).toEqual({
      allowed: true,
      state: 'ok',
      reason: '',
      country: 'IE',
      region: 'L',
      wallet: 'Desk',
    });
    expect(await check.refusal(desk, 'BUY')).toBeUndefined();
    check.close();
  });

  it('a blocked region says more than close-only; an account that cannot be asked is not held back', async () => {
    const blocked = setup({ answers: [BLOCKED_NY], closedOnly: async () => true });
    blocked.check.start();
    expect(await blocked.check.access('desk')).toMatchObject({ state: 'blocked', reason: NY_SENTENCE, wallet: 'desk' });
    blocked.check.close();

    const locked = setup({ answers: [OK_IE], closedOnly: async () => undefined });
    locked.check.start();
    expect(await locked.check.access('desk')).toMatchObject({ allowed: true, state: 'ok' });
    expect(await locked.check.refusal(desk, 'BUY')).toBeUndefined();
    locked.check.close();

    const failing = setup({
      answers: [OK_IE],
      closedOnly: async () => {
        throw new Error('exchange unreachable');
      },
    });
    failing.check.start();
    expect(await failing.check.access('desk')).toMatchObject({ allowed: true, state: 'ok' });
    await expect(failing.check.access('nobody')).rejects.toThrow('There is no wallet named nobody.');
    failing.check.close();
  });

  it('a close-only answer stands when a later question fails', async () => {
    let fail = false;
    const { check, scheduler, events } = setup({
      answers: [OK_IE],
      closedOnly: async () => {
        if (fail) throw new Error('timeout');
        return true;
      },
    });
    check.start();
    expect(await check.access('desk')).toMatchObject({ state: 'close-only' });
    fail = true;
    scheduler.advance(5 * MINUTE);
    await flush();
    scheduler.advance(5 * MINUTE);
    await flush();
    expect(await check.refusal(desk, 'BUY')).toBe(CLOSE_ONLY_SENTENCE);
    expect(events.filter((e) => e.wallet !== null)).toEqual([]);
    check.close();
  });
});
