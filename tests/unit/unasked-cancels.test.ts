// The notice of cancels the trader did not click: the exchange's cancellations of a wallet are told once, after
// a moment, in a count that reads right, with the dead-man switch's reason when it has one; the ids the trader's
// own cancels answered (even when the exchange's word came first, or while a cancel is on its way) are not told.
import { describe, expect, it } from 'vitest';
import type { TerminalEvents } from '../../src/shared/contract';
import { countOf } from '../../src/shared/words';
import { ManualScheduler } from '../../src/main/feeds/scheduler';
import { EventHub } from '../../src/main/ipc/event-hub';
import { UnaskedCancels } from '../../src/main/trading/unasked-cancels';
import { expiredBy } from '../../src/main/follow/account-feeds';

function setup(cause?: (wallet: string) => string | undefined) {
  const hub = new EventHub();
  const notices: TerminalEvents['notice'][] = [];
  hub.connect('page', (event, payload) => {
    if (event === 'notice') notices.push(payload as TerminalEvents['notice']);
  });
  const scheduler = new ManualScheduler();
  const cancels = new UnaskedCancels(hub, { scheduler, settleMs: 1_000, cause });
  return { notices, scheduler, cancels };
}

describe('counts in words', () => {
  it('says 1 order, 2 orders, 0 orders', () => {
    expect(countOf(1, 'order')).toBe('1 order');
    expect(countOf(2, 'order')).toBe('2 orders');
    expect(countOf(0, 'order')).toBe('0 orders');
    expect(countOf(3, 'open order')).toBe('3 open orders');
  });
});

describe('cancels the trader did not click', () => {
  it('tells the exchange cancelling orders once, after the moment, counted and with the reason', () => {
    const { notices, scheduler, cancels } = setup((wallet) =>
      wallet === 'alice' ? "the dead-man switch's heartbeats stopped getting through" : undefined,
    );
    cancels.cancelled('alice', '0xAA');
    cancels.cancelled('alice', '0xbb');
    scheduler.advance(999);
    expect(notices).toEqual([]);
    scheduler.advance(1);
    expect(notices).toEqual([
      {
        wallet: 'alice',
        kind: 'cancelled',
        message:
          "The exchange cancelled 2 orders of alice that you did not cancel here: the dead-man switch's heartbeats stopped getting through.",
        orderIds: ['0xaa', '0xbb'],
      },
    ]);
    cancels.cancelled('bob', '0xcc');
    scheduler.advance(1_000);
    expect(notices[1]).toMatchObject({
      wallet: 'bob',
      message:
        'The exchange cancelled 1 order of bob that you did not cancel here (from another app, or by the exchange).',
      orderIds: ['0xcc'],
    });
  });

  it("leaves out the trader's own cancels, even when the exchange's word comes first", async () => {
    const { notices, scheduler, cancels } = setup();
    let answer: (ids: { cancelled: string[] }) => void = () => undefined;
    const pending = cancels.byTrader(
      'Alice',
      () => new Promise<{ cancelled: string[] }>((resolve) => (answer = resolve)),
    );
    cancels.cancelled('alice', '0xAA');
    cancels.cancelled('alice', '0xdd');
    scheduler.advance(5_000); // the cancel is still on its way: nothing is told yet
    expect(notices).toEqual([]);
    answer({ cancelled: ['0xaa'] });
    expect(await pending).toEqual({ cancelled: ['0xaa'] });
    scheduler.advance(1_000);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      wallet: 'alice',
      orderIds: ['0xdd'],
      message: expect.stringContaining('cancelled 1 order of alice'),
    });

    await cancels.byTrader('alice', async () => ({ cancelled: ['0xee'] }));
    cancels.cancelled('alice', '0xee');
    scheduler.advance(2_000);
    expect(notices).toHaveLength(1);
  });

  it('a failed cancel of the trader does not hide what the exchange cancelled', async () => {
    const { notices, scheduler, cancels } = setup();
    await expect(cancels.byTrader('alice', () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    cancels.cancelled('alice', '0xaa');
    scheduler.advance(1_000);
    expect(notices).toHaveLength(1);
    cancels.close();
  });
});

describe('an expiry is not a cancel nobody asked for', () => {
  it('knows a GTD order that reached its expiration from one cancelled before it', () => {
    const now = 1_700_000_000_000;
    expect(expiredBy({ expiration: String(now / 1000 - 5) }, now)).toBe(true);
    expect(expiredBy({ expiration: now / 1000 }, now)).toBe(true);
    expect(expiredBy({ expiration: String(now / 1000 + 3600) }, now)).toBe(false);
    expect(expiredBy({ expiration: '0' }, now)).toBe(false);
    expect(expiredBy({}, now)).toBe(false);
  });
});
