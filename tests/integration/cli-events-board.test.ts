// `pmdesk events board` against the sandbox's negative-risk Fed event: every outcome with its best bid and ask as
// the CLOB's own books say them, highest first, the sums in words; --watch prints the board again when a maker's
// order moves a book, and stops on Ctrl-C.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { parseTradingProfile } from '../../src/main/trading/profile';
import { priceUnits } from '../../src/shared/event-board';
import { runPmdesk, type PmdeskOptions, type PmdeskRun } from '../helpers/pmdesk-process';
import { makerOrder, marketMaker } from '../helpers/trading-sandbox';
import type { BoardAnswer } from '../../src/cli/board-commands';

const EVENT = '9001'; // Fed decision in December 2026: three outcomes, negative risk
const SLUG = 'fed-decision-in-december-2026';
const SLOW = 120_000;

let sandbox: RunningSandbox;

const direct = (args: string[], during?: PmdeskOptions['during']): Promise<PmdeskRun> => {
  const p = sandbox.profile as unknown as Record<string, string>;
  return runPmdesk(
    [
      '--source',
      'polymarket',
      '--gamma-url',
      p.gammaUrl!,
      '--data-url',
      p.dataUrl!,
      '--rtds-url',
      p.rtdsUrl!,
      '--clob-url',
      p.clobUrl!,
      ...args,
    ],
    during ? { during } : {},
  );
};

/** The best Yes bid and ask of a market as `markets book` prints its books. */
async function topOf(marketId: string, yesToken: string): Promise<{ bid: number | null; ask: number | null }> {
  const run = await direct(['markets', 'book', marketId, '--json']);
  const book = (JSON.parse(run.stdout) as Record<string, { bids: { price: number }[]; asks: { price: number }[] }>)[
    yesToken
  ]!;
  const bids = book.bids.map((l) => Number(l.price));
  const asks = book.asks.map((l) => Number(l.price));
  return { bid: bids.length ? Math.max(...bids) : null, ask: asks.length ? Math.min(...asks) : null };
}

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { rpc: 0, clob: 0, aggregator: 0, polymarket: 0 }, simulate: 'off', seed: 33 });
}, SLOW);
afterAll(() => sandbox?.stop());

describe('pmdesk events board', () => {
  it(
    'prints every outcome with the books the CLOB has, highest first, and the sums exact',
    async () => {
      const run = await direct(['events', 'board', EVENT, '--json']);
      expect(run.code).toBe(0);
      const answer = JSON.parse(run.stdout) as BoardAnswer;
      expect(answer.event).toMatchObject({ id: EVENT, negRisk: true });
      expect(answer.board.rows.map((r) => r.name).sort()).toEqual(['25 bps cut', '50+ bps cut', 'No change']);
      const prices = answer.board.rows.map((r) => r.price ?? -1);
      expect(prices).toEqual([...prices].sort((a, b) => b - a));
      let askUnits = 0;
      for (const row of answer.board.rows) {
        const top = await topOf(row.marketId, row.yesTokenId);
        expect({ name: row.name, bid: row.bestBid, ask: row.bestAsk }).toEqual({ name: row.name, ...top });
        if (top.ask !== null) askUnits += priceUnits(top.ask);
      }
      expect(answer.board.asks.units).toBe(askUnits);
      expect(answer.board.asksWords).toMatch(/^The Yes asks add up to /);

      // By slug, as text: the same rows and the sentences.
      const text = await direct(['events', 'board', SLUG]);
      expect(text.code).toBe(0);
      expect(text.stdout).toContain('Fed decision in December 2026? (event 9001, negative risk');
      for (const name of ['No change', '25 bps cut', '50+ bps cut']) expect(text.stdout).toContain(name);
      expect(text.stdout).toContain(answer.board.asksWords);
      expect(text.stdout).toContain(answer.board.bidsWords);
    },
    SLOW,
  );

  it('refuses an unknown slug with ERR_NOT_FOUND', async () => {
    const run = await direct(['events', 'board', 'no-such-event-anywhere', '--json']);
    expect(run.code).toBe(1);
    expect((JSON.parse(run.stderr) as { error: { code: string } }).error.code).toBe('ERR_NOT_FOUND');
  });

  it(
    '--watch prints the board again when a book moves, until Ctrl-C',
    async () => {
      const market = sandbox.catalog.market('90012')!; // 25 bps cut
      const yes = market.tokens[0].tokenId;
      const before = await topOf('90012', yes);
      // A Yes bid one cent over the best (under the best ask): the board's bid for this outcome must follow it.
      const bid = Math.round(((before.bid ?? 0.2) + 0.01) * 100) / 100;
      expect(before.ask === null || bid < before.ask).toBe(true);
      const maker = await marketMaker({ sandbox, profile: parseTradingProfile(sandbox.profile), stop: async () => {} });
      let stdout = '';
      const answers = () =>
        stdout
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as BoardAnswer);
      const bidOf = (a: BoardAnswer) => a.board.rows.find((r) => r.marketId === '90012')!.bestBid;
      const run = await direct(['events', 'board', EVENT, '--watch', '--every-ms', '500', '--json'], (child) => {
        child.stdout!.on('data', (d: Buffer) => {
          stdout += d.toString();
          const seen = answers();
          if (seen.length === 1 && bidOf(seen[0]!) === before.bid)
            void makerOrder(maker.client, { tokenId: yes, side: 'BUY', price: bid, size: 50 });
          if (seen.some((a) => bidOf(a) === bid)) child.kill('SIGINT');
        });
      });
      expect(run.code).toBe(0);
      const seen = answers();
      expect(bidOf(seen[0]!)).toBe(before.bid);
      expect(bidOf(seen[seen.length - 1]!)).toBe(bid);
    },
    SLOW,
  );
});
