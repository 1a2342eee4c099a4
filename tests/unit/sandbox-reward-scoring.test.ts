// The sandbox's liquidity-reward rules on their own: which resting orders score on a book and why not, what an
// order weighs in the day's split, and the payment journal read back after a restart.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { orderWeight, scoreOrder } from '../../sandbox/clob/reward-scoring';
import { rewardProgramme, rewardTerms } from '../../sandbox/market/reward-programme';
import { RewardJournal } from '../../sandbox/market/reward-journal';

const btc = { id: '90021', closed: false };
const shares = (n: number) => BigInt(n) * 1_000_000n;
// A book with a YES bid at 0.40 and a YES ask at 0.44: the midpoint is 0.42.
const top = { bid: 4000, ask: 4400 };

describe('scoring on the live book', () => {
  it('scores an order within 3.5¢ of the midpoint with at least the minimum size', () => {
    expect(scoreOrder(btc, { outcome: 0, price: 4000, remaining: shares(50) }, top)).toEqual({
      scoring: true,
      distance: 400,
    });
    // A NO bid at 0.56 is a YES ask at 0.44, 2¢ from the midpoint too.
    expect(scoreOrder(btc, { outcome: 1, price: 5600, remaining: shares(60) }, top).scoring).toBe(true);
  });

  it('says which rule fails', () => {
    expect(scoreOrder(btc, { outcome: 0, price: 3800, remaining: shares(60) }, top)).toMatchObject({
      scoring: false,
      reason: 'TOO_FAR',
    });
    // Exactly at the maximum spread weighs nothing, so it does not score.
    expect(scoreOrder(btc, { outcome: 0, price: 4000, remaining: shares(60) }, { bid: 4000, ask: 4700 }).reason).toBe(
      'TOO_FAR',
    );
    expect(scoreOrder(btc, { outcome: 0, price: 4000, remaining: shares(50) - 1n }, top).reason).toBe('TOO_SMALL');
    expect(scoreOrder(btc, { outcome: 0, price: 4000, remaining: shares(60) }, { bid: 4000 }).reason).toBe(
      'NO_MIDPOINT',
    );
    expect(scoreOrder({ id: '90011', closed: false }, { outcome: 0, price: 4000, remaining: shares(60) }, top)).toEqual(
      {
        scoring: false,
        reason: 'NO_REWARDS',
      },
    );
    expect(scoreOrder({ ...btc, closed: true }, { outcome: 0, price: 4000, remaining: shares(60) }, top).reason).toBe(
      'NO_REWARDS',
    );
    expect(scoreOrder(btc, undefined, top).reason).toBe('NOT_RESTING');
  });

  it('weighs size times the square of the room left to the maximum spread', () => {
    const programme = rewardProgramme(btc)!;
    expect(orderWeight(programme, shares(60), 400)).toBe(shares(60) * 300n * 300n);
    expect(orderWeight(programme, shares(60), 700)).toBe(0n);
  });

  it('Gamma and the aggregator say 0 and 0 for a market that pays nothing', () => {
    expect(rewardTerms(btc)).toEqual({ rewardsMinSize: 50, rewardsMaxSpread: 3.5 });
    expect(rewardTerms({ id: '90011', closed: false })).toEqual({ rewardsMinSize: 0, rewardsMaxSpread: 0 });
  });
});

describe('the reward journal', () => {
  it('reads back every payment after a restart, exactly, and skips a torn last line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'reward-journal-'));
    try {
      const file = join(dir, 'reward-payments.jsonl');
      const first = new RewardJournal(file);
      const payment = {
        day: '2026-11-28',
        paidAt: 1_795_000_000,
        marketId: '90021',
        conditionId: `0x${'ab'.repeat(32)}`,
        maker: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        amount: 13_043_478n,
        share: 13.04,
        transactionHash: `0x${'cd'.repeat(32)}`,
      };
      first.record(payment);
      await first.flush();
      await writeFile(file, '{"day": "2026-11-2', { flag: 'a' });
      const second = new RewardJournal(file);
      expect(await second.load()).toBe(1);
      expect(second.payments()).toEqual([payment]);
      expect(second.paymentsTo((a) => a.toLowerCase() === payment.maker.toLowerCase())).toHaveLength(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
