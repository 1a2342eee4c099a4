// Issue 32 end to end on one sandbox: a trader buys, sells part, splits and merges, the market resolves, the
// trader redeems; the toolkit's book (read through Polymarket direct, fees from the chain's OrderFilled events)
// and the CLI's PnL, closed positions and accounting CSV equal what the chain and the exchange recorded, to the cent.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Contract, Wallet, ZeroHash } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { TX_OVERRIDES, conditionalTokensArtifact, sandboxProvider } from '../../sandbox/chain/index';
import { mined } from '../../sandbox/chain/deploy';
import type { CatalogMarket } from '../../sandbox/market/catalog';
import { PolymarketSource } from '../../packages/toolkit/src/polymarket/source';
import {
  feeLookup,
  feesFromChain,
  loadPortfolio,
  type LoadPortfolioOptions,
  type Portfolio,
} from '../../packages/toolkit/src/portfolio/index';
import { limitOrder, postOrder, type ClobSandbox } from '../helpers/sandbox-clob';
import { runPmdesk } from '../helpers/pmdesk-process';

const ERC20 = ['function balanceOf(address) view returns (uint256)'];

let sandbox: RunningSandbox;
let provider: ReturnType<typeof sandboxProvider>;
let market: CatalogMarket;
let trader: Wallet;
let profileFile: string;
let dir: string;
/** The trader's and the fee recipient's collateral before the first trade and after the redemption. */
const before = { trader: 0n, fees: 0n };
const after = { trader: 0n, fees: 0n };
let book: Portfolio;

/** Polls (bounded, on the real clock: the chain mines for real) until the Data API shows `count` trades of a wallet. */
async function settled(address: string, count: number): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const rows = (await (await fetch(`${sandbox.profile.dataUrl}/trades?user=${address}`)).json()) as unknown[];
    if (rows.length >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${address}: fewer than ${count} settled trades`);
}

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { rpc: 0, clob: 0, aggregator: 0, polymarket: 0 }, simulate: 'off', seed: 32 });
  provider = sandboxProvider(sandbox.deployment.rpcUrl, sandbox.deployment.chainId);
  // The tech market charges the taker 0.04 × shares × p(1 − p) at match time.
  market = sandbox.catalog.market('90041')!;
  const [yes, no] = market.tokens.map((t) => t.tokenId) as [string, string];
  const [t, maker, bidder] = sandbox.profile.testWallets.map((w) => new Wallet(w.privateKey, provider)) as [
    Wallet,
    Wallet,
    Wallet,
  ];
  trader = t;
  const sb = { chain: sandbox.deployment, server: sandbox.clob } as unknown as ClobSandbox;
  const collateral = new Contract(sandbox.deployment.contracts.collateral, ERC20, provider);
  const balance = (who: string) => collateral.getFunction('balanceOf')(who) as Promise<bigint>;
  before.trader = await balance(trader.address);
  before.fees = await balance(sandbox.deployment.feeRecipient);

  // Buy 12 Yes at 0.40 (a No bid at 0.60), sell 5 at 0.50 into a Yes bid.
  await postOrder(sb, maker, limitOrder(no, 'BUY', 0.6, 12));
  await postOrder(sb, trader, limitOrder(yes, 'BUY', 0.4, 12));
  await settled(trader.address, 1);
  await postOrder(sb, bidder, limitOrder(yes, 'BUY', 0.5, 5));
  await postOrder(sb, trader, limitOrder(yes, 'SELL', 0.5, 5));
  await settled(trader.address, 2);
  // Split $5 into 5 of each, merge 3 pairs back; Yes wins; the trader redeems what is left.
  const ctf = new Contract(sandbox.deployment.contracts.conditionalTokens, conditionalTokensArtifact().abi, trader);
  const pusd = sandbox.deployment.contracts.collateral;
  await mined(ctf.getFunction('splitPosition')(pusd, ZeroHash, market.conditionId, [1, 2], 5_000_000n, TX_OVERRIDES));
  await mined(ctf.getFunction('mergePositions')(pusd, ZeroHash, market.conditionId, [1, 2], 3_000_000n, TX_OVERRIDES));
  await sandbox.resolveMarket(market.id, 0);
  await mined(ctf.getFunction('redeemPositions')(pusd, ZeroHash, market.conditionId, [1, 2], TX_OVERRIDES));
  after.trader = await balance(trader.address);
  after.fees = await balance(sandbox.deployment.feeRecipient);

  const source = new PolymarketSource({
    gammaUrl: sandbox.profile.gammaUrl!,
    dataUrl: sandbox.profile.dataUrl!,
    clobUrl: sandbox.profile.clobUrl!,
  });
  const exchanges = [sandbox.deployment.contracts.exchange, sandbox.deployment.contracts.negRiskExchange];
  const feesFor: LoadPortfolioOptions['feesFor'] = async (rows) =>
    feeLookup(
      await feesFromChain(
        provider,
        exchanges,
        trader.address,
        rows.map((r) => r.transactionHash),
      ),
    );
  const closed = await source.data.getPositions(trader.address, { status: 'CLOSED' });
  book = await loadPortfolio(source, trader.address, {
    feesFor,
    theirs: {
      closed: closed.map((c) => ({
        tokenId: c.asset,
        conditionId: c.conditionId ?? '',
        realizedPnl: c.realizedPnl ?? 0,
        outcomeIndex: c.outcomeIndex,
        outcome: c.outcome,
      })),
      value: await source.data.getValue(trader.address),
    },
  });

  dir = mkdtempSync(join(tmpdir(), 'pmdesk-ledger-'));
  profileFile = join(dir, 'sandbox.json');
  writeFileSync(profileFile, JSON.stringify({ ...sandbox.profile, source: 'polymarket' }));
}, 180_000);
afterAll(async () => {
  provider?.destroy();
  await sandbox?.stop();
});

describe('the trader’s book against the chain and the exchange', () => {
  it('realizes to the base unit what the chain paid, with the fees the exchange charged', () => {
    expect(book.open).toEqual([]);
    // −4.80 bought, +2.50 sold, −5.00 split, +3.00 merged, +9.00 redeemed.
    expect(book.totals.realized).toBe(4_700_000n);
    // 0.04 × 12 × 0.4 × 0.6 on the buy and 0.04 × 5 × 0.5 × 0.5 on the sale, as the fee recipient received.
    expect(book.totals.fees).toBe(165_200n);
    expect(book.totals.fees).toBe(after.fees - before.fees);
    expect(book.totals.realized - book.totals.fees).toBe(after.trader - before.trader);
  });

  it('says how each position closed, and why Polymarket’s figures differ where they do', () => {
    const how = Object.fromEntries(book.closed.map((c) => [c.outcome || String(c.outcomeIndex), c.how]));
    expect(how).toEqual({ Yes: 'redeemed', No: 'lost' });
    expect(book.closed.reduce((s, c) => s + c.realizedPnl, 0n)).toBe(4_700_000n);
    // Polymarket's closed positions share the merge at 0.50 a side, the book by cost: the same total, split differently.
    expect(book.reconciliation.map((r) => r.reason)).toEqual([
      expect.stringMatching(/^Split, merged or converted shares/),
      expect.stringMatching(/^Split, merged or converted shares/),
    ]);
    expect(book.reconciliation.reduce((s, r) => s + r.difference, 0n)).toBe(0n);
  });
});

describe('pmdesk on the same sandbox', () => {
  const cli = (args: string[]) => runPmdesk(['--network', profileFile, ...args]);

  it('traders pnl and traders positions --closed give the same figures', async () => {
    const pnl = await cli(['--json', 'traders', 'pnl', trader.address]);
    expect(pnl.code, pnl.stderr).toBe(0);
    const parsed = JSON.parse(pnl.stdout) as {
      totals: Record<string, string>;
      series: { exact: boolean }[];
      byTag: { label: string; realized: string; fees: string }[];
    };
    expect(parsed.totals).toMatchObject({ realized: '4700000', fees: '165200', unrealized: '0' });
    // Per event tag, from Gamma's event of the market traded (Tech, AI): the one market counts in each of them.
    expect(parsed.byTag.map((g) => ({ label: g.label, realized: g.realized, fees: g.fees }))).toEqual(
      expect.arrayContaining([
        { label: 'Tech', realized: '4700000', fees: '165200' },
        { label: 'AI', realized: '4700000', fees: '165200' },
      ]),
    );
    expect(parsed.byTag).toHaveLength(2);
    expect(parsed.series.at(-1)).toMatchObject({ exact: true });
    const closed = await cli(['traders', 'positions', trader.address, '--closed']);
    expect(closed.code, closed.stderr).toBe(0);
    expect(closed.stdout).toMatch(/redeemed/);
    expect(closed.stdout).toMatch(/lost/);
  });

  it('export activity writes a CSV whose rows sum to the realized PnL and the fees, and never overwrites unasked', async () => {
    const file = join(dir, 'activity.csv');
    const args = ['export', 'activity', trader.address, '--from', '2020-01-01', '--to', '2099-12-31', '--csv', file];
    const first = await cli(args);
    expect(first.code, first.stderr).toBe(0);
    const lines = readFileSync(file, 'utf8').split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('Date (UTC),Type,Market,Outcome,Shares,Price,Amount (USD),Fee (USD),Transaction hash');
    const rows = lines.slice(1).map((l) => l.split(','));
    expect(rows.map((r) => r[1]).sort()).toEqual(['MERGE', 'REDEEM', 'SPLIT', 'TRADE BUY', 'TRADE SELL']);
    const units = (text: string) => BigInt(text.replace('.', ''));
    expect(rows.reduce((s, r) => s + units(r[6]!), 0n)).toBe(4_700_000n);
    expect(rows.reduce((s, r) => s + units(r[7]!), 0n)).toBe(165_200n);
    expect(rows.every((r) => /^0x[0-9a-f]{64}$/.test(r[8]!))).toBe(true);

    writeFileSync(file, 'kept');
    const refused = await cli(args);
    expect(refused.code).toBe(2);
    expect(readFileSync(file, 'utf8')).toBe('kept');
    const replaced = await cli([...args, '--force']);
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(readFileSync(file, 'utf8').split('\r\n')).toHaveLength(7);
    // A range before any activity is a header alone.
    const empty = await cli([
      'export',
      'activity',
      trader.address,
      '--from',
      '2020-01-01',
      '--to',
      '2020-01-02',
      '--csv',
      join(dir, 'none.csv'),
    ]);
    expect(empty.code, empty.stderr).toBe(0);
    expect(readFileSync(join(dir, 'none.csv'), 'utf8').split('\r\n').filter(Boolean)).toHaveLength(1);
  });

  it("export snapshot saves Polymarket's accounting snapshot as the Data API serves it", async () => {
    const file = join(dir, 'snapshot.zip');
    const done = await cli(['--json', 'export', 'snapshot', trader.address, '--zip', file]);
    expect(done.code, done.stderr).toBe(0);
    const served = Buffer.from(
      await (await fetch(`${sandbox.profile.dataUrl}/v1/accounting/snapshot?user=${trader.address}`)).arrayBuffer(),
    );
    const saved = readFileSync(file);
    expect(saved.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    expect(saved.includes('positions.csv')).toBe(true);
    expect(saved.includes('equity.csv')).toBe(true);
    // The same archive, but for the moment it was made at (equity's timestamp): the positions file is the same.
    expect(saved.length).toBe(served.length);
    expect(JSON.parse(done.stdout)).toMatchObject({ address: trader.address, file, bytes: saved.length });
    // Never over a file unasked; never from the aggregator, which has none.
    const again = await cli(['export', 'snapshot', trader.address, '--zip', file]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/exists: pass --force/);
    const aggregator = await cli(['--source', 'aggregator', 'export', 'snapshot', trader.address, '--zip', `${file}2`]);
    expect(aggregator.stderr).toMatch(/ERR_NOT_AVAILABLE/);
  });

  it('exports the account PMDESK_PRIVATE_KEY trades from; refuses bad dates; the aggregator has no activity', async () => {
    const own = join(dir, 'own.csv');
    const run = await runPmdesk(
      ['--network', profileFile, 'export', 'activity', '--from', '2020-01-01', '--to', '2099-12-31', '--csv', own],
      { env: { PMDESK_PRIVATE_KEY: sandbox.profile.testWallets[0]!.privateKey } },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(trader.address);
    expect(readFileSync(own, 'utf8').split('\r\n').filter(Boolean)).toHaveLength(6);

    const bad = await cli([
      '--json',
      'export',
      'activity',
      trader.address,
      '--from',
      'soon',
      '--to',
      '2099-12-31',
      '--csv',
      join(dir, 'bad.csv'),
    ]);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stderr.trim())).toMatchObject({ error: { code: 'ERR_INVALID_PARAM' } });
    const aggregator = await cli(['--json', '--source', 'aggregator', 'traders', 'pnl', trader.address]);
    expect(aggregator.code).toBe(1);
    expect(JSON.parse(aggregator.stderr.trim())).toMatchObject({ error: { code: 'ERR_NOT_AVAILABLE' } });
  });
});
