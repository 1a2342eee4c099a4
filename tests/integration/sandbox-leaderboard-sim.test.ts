// The sandbox's simulated traders make the trader boards worth reading: after some steps of the seeded market
// simulator, the leaderboard (read through the toolkit, as the app and the CLI read it) ranks several bots with
// different profit and volume, a market they traded has holders of both outcomes, and more steps change the board.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { TraderBoards, type LeaderboardEntry } from '../../packages/toolkit/src/polymarket/traders';

let sandbox: RunningSandbox;
let boards: TraderBoards;

/** Steps the simulator until the leaderboard (all time, by volume) answers `enough`, waiting for settlement. */
async function stepUntil(enough: (rows: LeaderboardEntry[]) => boolean, what: string): Promise<LeaderboardEntry[]> {
  for (let i = 0; i < 400; i++) {
    const rows = await boards.getLeaderboard({ by: 'volume', period: 'all', limit: 50 });
    if (enough(rows)) return rows;
    if (i % 5 === 0) await sandbox.simulator!.tick();
    else await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`never happened: ${what}`);
}

beforeAll(async () => {
  sandbox = await startSandbox({
    ports: { rpc: 0, clob: 0, aggregator: 0, polymarket: 0 },
    simulate: 'manual',
    bots: 4,
    seed: 21,
  });
  boards = new TraderBoards({ baseUrl: sandbox.profile.dataUrl });
}, 120_000);
afterAll(() => sandbox?.stop());

describe('the leaderboard under the simulated traders', () => {
  it('ranks several bots with different profit and volume, and moves as they trade', async () => {
    const first = await stepUntil((rows) => rows.length >= 4, 'four traders on the board');
    expect(new Set(first.map((r) => r.volume)).size).toBeGreaterThan(1);
    const byProfit = await boards.getLeaderboard({ by: 'pnl', period: 'all', limit: 50 });
    expect(new Set(byProfit.map((r) => r.pnl)).size).toBeGreaterThan(1);
    // Best first on each metric.
    const volumes = first.map((r) => BigInt(r.volume));
    expect([...volumes].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0))).toEqual(volumes);
    const profits = byProfit.map((r) => BigInt(r.pnl));
    expect([...profits].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0))).toEqual(profits);
    // Today's board is not empty either: the bots trade now.
    expect((await boards.getLeaderboard({ by: 'volume', period: 'day' })).length).toBeGreaterThanOrEqual(4);

    const total = (rows: LeaderboardEntry[]) => rows.reduce((sum, r) => sum + BigInt(r.volume), 0n);
    const before = total(first);
    const later = await stepUntil((rows) => total(rows) > before, 'more volume after more steps');
    expect(total(later)).toBeGreaterThan(before);
  }, 120_000);
});
