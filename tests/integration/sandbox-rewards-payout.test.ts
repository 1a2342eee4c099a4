// The sandbox pays liquidity rewards once a sandbox day by itself: when its clock passes UTC midnight the day's
// tallies are paid on chain for the day that ended, split by weight to the base unit, and the journal of payments
// is read back by a restarted CLOB (its state in the data folder, like the sandbox's other state).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClobServer } from '../../sandbox/clob/server';
import { limitOrder, postOrder, startClobSandbox, type ClobSandbox } from '../helpers/sandbox-clob';

let sb: ClobSandbox;
let dir: string;
let clock = Date.now();
const journal = () => join(dir, 'reward-payments.jsonl');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rewards-payout-'));
  sb = await startClobSandbox({ now: () => clock, rewardSampleIntervalMs: 25, rewardJournalFile: journal() });
}, 120_000);
afterAll(async () => {
  await sb?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the daily payout', () => {
  it('pays the day that ended when the clock passes midnight, and the journal survives a restart', async () => {
    const [alice, bob] = sb.wallets as [(typeof sb.wallets)[0], (typeof sb.wallets)[0]];
    const [yes, no] = sb.binary.tokens.map((t) => t.tokenId) as [string, string];
    expect(sb.binary.id).toBe('90021'); // pays $100 a day
    // YES bid 0.40 (alice, 60) and YES ask 0.44 (bob's NO bid at 0.56, 100): both 2¢ from the midpoint of 0.42.
    await postOrder(sb, alice, limitOrder(yes, 'BUY', 0.4, 60));
    await postOrder(sb, bob, limitOrder(no, 'BUY', 0.56, 100));
    const before = await Promise.all([alice, bob].map((w) => sb.collateralOf(w.address)));
    const day = new Date(clock).toISOString().slice(0, 10);
    const midnight = Date.parse(`${day}T00:00:00Z`) + 86_400_000;
    clock = midnight + 1_000;

    await expect.poll(() => sb.server.rewardPayments.payments().length, { timeout: 30_000 }).toBe(2);
    const payments = sb.server.rewardPayments.payments();
    // Equal distances: the split is by size alone, 60 : 100 of $100.
    expect(payments.map((p) => [p.day, p.maker, p.amount])).toEqual(
      expect.arrayContaining([
        [day, alice.address, 37_500_000n],
        [day, bob.address, 62_500_000n],
      ]),
    );
    const after = await Promise.all([alice, bob].map((w) => sb.collateralOf(w.address)));
    expect([after[0]! - before[0]!, after[1]! - before[1]!]).toEqual([37_500_000n, 62_500_000n]);

    // The journal is on disk: a CLOB started again on the same data folder reads every payment back.
    await sb.server.rewardPayments.flush();
    await sb.server.stop();
    const restarted = await startClobServer({
      deployment: sb.chain,
      catalog: sb.catalog,
      marketData: sb.data,
      now: () => clock,
      rewardJournalFile: journal(),
    });
    try {
      expect(restarted.rewardPayments.payments()).toEqual(payments);
    } finally {
      await restarted.stop();
    }
  }, 120_000);
});
