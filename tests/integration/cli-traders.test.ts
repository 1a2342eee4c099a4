// `pmdesk traders leaderboard`, `pmdesk markets holders` and `pmdesk traders follow` against the sandbox's
// Polymarket server: real trades on its exchange rank the traders, fill the holders' list, and a followed
// wallet's order is printed as it happens.
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import type { CatalogMarket } from '../../sandbox/market/catalog';
import { runPmdesk, type PmdeskOptions, type PmdeskRun } from '../helpers/pmdesk-process';
import { limitOrder, postOrder, type ClobSandbox } from '../helpers/sandbox-clob';

let sandbox: RunningSandbox;
let sb: ClobSandbox;
let btc: CatalogMarket;
let taker: Wallet;
let maker: Wallet;

/** Waits on the real clock (the chain mines for real) until `check` holds. */
async function waitFor(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 3000; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`never happened: ${what}`);
}

function pmdesk(args: string[], during?: PmdeskOptions['during']): Promise<PmdeskRun> {
  const p = sandbox.profile;
  return runPmdesk(
    [
      '--source',
      'polymarket',
      '--gamma-url',
      p.gammaUrl,
      '--data-url',
      p.dataUrl,
      '--rtds-url',
      p.rtdsUrl,
      '--clob-url',
      p.clobUrl,
      ...args,
    ],
    { during },
  );
}

const tradesOf = async (wallet: Wallet) =>
  ((await (await fetch(`${sandbox.profile.dataUrl}/trades?user=${wallet.address}`)).json()) as unknown[]).length;

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { rpc: 0, clob: 0, aggregator: 0, polymarket: 0 }, simulate: 'off', seed: 7 });
  sb = { chain: sandbox.deployment, server: sandbox.clob } as unknown as ClobSandbox;
  btc = sandbox.catalog.market('90021')!;
  [taker, maker] = sandbox.profile.testWallets.map((w) => new Wallet(w.privateKey)) as [Wallet, Wallet];
  // The maker bids 0.60 for NO (a YES ask at 0.40); the taker buys 10 YES at 0.40.
  await postOrder(sb, maker, limitOrder(btc.tokens[1].tokenId, 'BUY', 0.6, 100));
  await postOrder(sb, taker, limitOrder(btc.tokens[0].tokenId, 'BUY', 0.4, 10));
  await waitFor(async () => (await tradesOf(taker)) >= 1, 'the first trade settled');
}, 90_000);
afterAll(() => sandbox?.stop());

describe('pmdesk traders and holders on the sandbox', () => {
  it('prints the leaderboard by volume and by profit, and refuses a metric or period it does not know', async () => {
    const byVolume = await pmdesk(['traders', 'leaderboard', '--by', 'volume', '--period', 'all', '--json']);
    expect(byVolume.code).toBe(0);
    const rows = JSON.parse(byVolume.stdout) as { rank: number; wallet: string; pnl: string; volume: string }[];
    // 10 shares at 0.40 each way: $4 traded by the taker and by the maker.
    expect(rows.find((r) => r.wallet === taker.address)).toMatchObject({ volume: '4000000' });
    expect(rows.map((r) => r.rank)).toEqual(rows.map((_, i) => i + 1));
    const text = await pmdesk(['traders', 'leaderboard', '--by', 'pnl', '--period', 'week', '--limit', '5']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/RANK\s+TRADER\s+ADDRESS\s+PNL\s+VOLUME/);
    expect(text.stdout).toContain(taker.address);
    expect(text.stdout).toContain('$4.00');
    // Dollars and cents, whatever fraction of a cent the Data API's figure carries.
    expect(text.stdout).not.toMatch(/\$\d+\.\d{3}/);
    for (const bad of [
      ['--by', 'profit'],
      ['--period', 'year'],
      ['--limit', '51'],
    ]) {
      const refused = await pmdesk(['traders', 'leaderboard', ...bad, '--json']);
      expect(refused.code).toBe(2);
      expect(JSON.parse(refused.stderr)).toMatchObject({ error: { code: 'ERR_INVALID_PARAM' } });
    }
  });

  it("lists a market's holders of both outcomes, by market id or condition id", async () => {
    const text = await pmdesk(['markets', 'holders', btc.id]);
    expect(text.code).toBe(0);
    const yesLine = text.stdout.split('\n').find((l) => l.includes(taker.address))!;
    expect(yesLine).toMatch(/^Yes\s+.*\s+10$/);
    const noLine = text.stdout.split('\n').find((l) => l.includes(maker.address))!;
    expect(noLine).toMatch(/^No\s+.*\s+10$/);
    const json = await pmdesk(['markets', 'holders', btc.conditionId, '--json']);
    expect(JSON.parse(json.stdout)).toEqual([
      {
        token: btc.tokens[0].tokenId,
        holders: [expect.objectContaining({ wallet: taker.address, amount: '10000000' })],
      },
      {
        token: btc.tokens[1].tokenId,
        holders: [expect.objectContaining({ wallet: maker.address, amount: '10000000' })],
      },
    ]);
  });

  it("prints a followed wallet's trade as it happens", async () => {
    let live = false;
    let ordered: Promise<string> | undefined;
    const run = await pmdesk(['traders', 'follow', taker.address, '--json', '--count', '1'], (child) => {
      child.stderr!.on('data', (d: Buffer) => {
        if (live || !d.toString().includes('"mode":"live"')) return;
        live = true;
        // The order goes in once the feed is open: printed from the feed (or the catch-up read), then exit 0.
        ordered = postOrder(sb, taker, limitOrder(btc.tokens[0].tokenId, 'BUY', 0.4, 6));
      });
    });
    await ordered;
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      wallet: taker.address,
      side: 'BUY',
      outcome: 'Yes',
      price: 0.4,
      size: '6000000',
      conditionId: btc.conditionId,
    });
  }, 60_000);

  it('refuses to follow what is not a wallet, before reading anything', async () => {
    const run = await pmdesk(['traders', 'follow', 'nobody', '--json']);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stderr)).toMatchObject({ error: { code: 'ERR_INVALID_PARAM' } });
  });
});
