// Wrong-password throttling: five free attempts, then 1 s, 2 s, 4 s … up to 30 s, one attempt at a time per
// wallet. The clock and the wait are injected and recorded, so nothing here depends on real time passing.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  PasswordThrottle,
  fileLedger,
  memoryLedger,
  waitAfter,
  withFileLock,
} from '../../src/main/wallets/password-throttle';

class WrongPassword extends Error {}
const isWrong = (e: unknown) => e instanceof WrongPassword;

/** A clock that only moves when the throttle sleeps, and a log of every wait and every check in order. */
function harness() {
  let now = 1_000_000;
  const log: string[] = [];
  const throttle = new PasswordThrottle({
    ledger: memoryLedger(),
    now: () => now,
    sleep: async (ms) => {
      log.push(`wait ${ms}`);
      now += ms;
    },
  });
  const check = (wallet: string, ok: boolean, name = ok ? 'right' : 'wrong') =>
    throttle.attempt(
      wallet,
      async () => {
        log.push(`check ${name}`);
        // Yield, so a parallel attempt would interleave here if the queue let it.
        await new Promise((resolve) => setImmediate(resolve));
        log.push(`done ${name}`);
        if (!ok) throw new WrongPassword();
        return name;
      },
      isWrong,
    );
  return { throttle, log, check, advance: (ms: number) => (now += ms) };
}

describe('the password throttle', () => {
  it('owes nothing for five failures, then doubles from 1 s and stops at 30 s', () => {
    expect([0, 1, 4, 5, 6, 7, 8, 9, 10, 11, 20].map(waitAfter)).toEqual([
      0, 0, 0, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
  });

  it('lets five wrong passwords through at once, then waits before each further attempt', async () => {
    const { log, check } = harness();
    for (let i = 0; i < 5; i++) await expect(check('w', false)).rejects.toBeInstanceOf(WrongPassword);
    expect(log.filter((l) => l.startsWith('wait'))).toEqual([]);
    for (let i = 0; i < 7; i++) await expect(check('w', false)).rejects.toBeInstanceOf(WrongPassword);
    expect(log.filter((l) => l.startsWith('wait'))).toEqual([
      'wait 1000',
      'wait 2000',
      'wait 4000',
      'wait 8000',
      'wait 16000',
      'wait 30000',
      'wait 30000',
    ]);
  });

  it('waits only what is still owed, and a right password clears the record', async () => {
    const { log, check, advance } = harness();
    for (let i = 0; i < 6; i++) await check('w', false).catch(() => undefined);
    log.length = 0;
    advance(1500); // 2 s owed after the sixth failure; 1.5 s already passed
    expect(await check('w', true)).toBe('right');
    expect(log).toEqual(['wait 500', 'check right', 'done right']);
    log.length = 0;
    await check('w', false).catch(() => undefined);
    expect(log).toEqual(['check wrong', 'done wrong']);
  });

  it('runs parallel attempts on one wallet one after another, so none skips its wait', async () => {
    const { log, check } = harness();
    for (let i = 0; i < 5; i++) await check('w', false).catch(() => undefined);
    log.length = 0;
    const results = await Promise.allSettled([check('w', false, 'a'), check('w', false, 'b'), check('w', true, 'c')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
    expect(log).toEqual([
      'wait 1000',
      'check a',
      'done a',
      'wait 2000',
      'check b',
      'done b',
      'wait 4000',
      'check c',
      'done c',
    ]);
  });

  it('keeps wallets apart, and does not count failures that are not wrong passwords', async () => {
    const { throttle, log, check } = harness();
    for (let i = 0; i < 5; i++) await check('w', false).catch(() => undefined);
    log.length = 0;
    await check('other', true);
    expect(log).toEqual(['check right', 'done right']);
    for (let i = 0; i < 3; i++) {
      await expect(throttle.attempt('other', async () => Promise.reject(new Error('disk')), isWrong)).rejects.toThrow(
        'disk',
      );
    }
    for (let i = 0; i < 5; i++) await check('other', false).catch(() => undefined);
    expect(log.filter((l) => l.startsWith('wait'))).toEqual([]);
  });
});

describe('the throttle across processes', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pmdesk-throttle-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('counts every failure of two throttles on one ledger file (as two processes would), none lost', async () => {
    const path = join(dir, 'password-attempts.json');
    // Two throttles with their own queues: only the file lock keeps their read–check–write cycles apart.
    const a = new PasswordThrottle({ ledger: fileLedger(path), sleep: async () => undefined });
    const b = new PasswordThrottle({ ledger: fileLedger(path), sleep: async () => undefined });
    const wrong = async () => {
      await new Promise((r) => setTimeout(r, 5));
      throw new WrongPassword('wrong');
    };
    const runs = Array.from({ length: 8 }, (_, i) =>
      (i % 2 ? a : b).attempt('w', wrong, isWrong).catch(() => undefined),
    );
    await Promise.all(runs);
    expect((await fileLedger(path).read('w'))?.failures).toBe(8);
  });

  it('takes over a lock whose owner died, and holds it against a live one', async () => {
    const lock = join(dir, 'x.lock');
    // A pid that cannot be running: the lock was left by a process killed mid-attempt.
    await writeFile(lock, '2147483646');
    const order: string[] = [];
    await withFileLock(lock, async () => order.push('after dead owner'));
    await writeFile(lock, String(process.pid));
    const waiting = withFileLock(lock, async () => order.push('after live owner'));
    await new Promise((r) => setTimeout(r, 100));
    order.push('live owner releases');
    await rm(lock);
    await waiting;
    expect(order).toEqual(['after dead owner', 'live owner releases', 'after live owner']);
  });
});
