// The average-cost book: realized PnL in exact base units through buys, partial sales, splits, merges,
// redemptions and losses; the PnL series' pricing; the accounting CSV; reconciliation with Polymarket's figures.
import { describe, expect, it } from 'vitest';
import type { TraderActivity } from '../../packages/toolkit/src/model/market-model';
import {
  feeLookup,
  accountingCsv,
  accountingRows,
  buildPortfolio,
  ledgerEntries,
  pnlSeries,
  reconcile,
} from '../../packages/toolkit/src/portfolio/index';

const C = `0x${'ab'.repeat(32)}`;
const YES = '111';

function row(over: Partial<TraderActivity>): TraderActivity {
  return {
    type: 'TRADE',
    timestamp: 1_800_000_000,
    conditionId: C,
    tokenId: YES,
    title: 'Will it rain, in "Paris"?',
    slug: 'rain',
    outcome: 'Yes',
    outcomeIndex: 0,
    side: 'BUY',
    size: 10,
    price: 0.4,
    usdcSize: 4,
    transactionHash: '0x01',
    ...over,
  };
}

// Newest first, as the Data API answers.
const activity: TraderActivity[] = [
  row({
    type: 'REDEEM',
    timestamp: 60,
    tokenId: '',
    outcome: '',
    outcomeIndex: null,
    side: null,
    price: null,
    size: 12,
    usdcSize: 12,
    transactionHash: '0x06',
  }),
  row({
    type: 'MERGE',
    timestamp: 50,
    tokenId: '',
    outcome: '',
    outcomeIndex: null,
    side: null,
    price: null,
    size: 2,
    usdcSize: 2,
    transactionHash: '0x05',
  }),
  row({
    type: 'SPLIT',
    timestamp: 40,
    tokenId: '',
    outcome: '',
    outcomeIndex: null,
    side: null,
    price: null,
    size: 4,
    usdcSize: 4,
    transactionHash: '0x04',
  }),
  row({ timestamp: 30, side: 'SELL', size: 3.333333, price: 0.7, usdcSize: 2.333333, transactionHash: '0x03' }),
  row({ timestamp: 20, size: 3.333333, price: 0.3, usdcSize: 0.999999, transactionHash: '0x02' }),
  row({ timestamp: 10, transactionHash: '0x01' }),
  row({
    type: 'REWARD',
    timestamp: 70,
    tokenId: '',
    outcome: '',
    outcomeIndex: null,
    side: null,
    price: null,
    size: 0,
    usdcSize: 0.25,
    transactionHash: '0x07',
  }),
];
const fees = new Map([
  ['0x01', 70_000n],
  ['0x03', 50_000n],
]);

describe('the average-cost book', () => {
  const { entries, feesUnknown } = ledgerEntries(
    activity,
    (r) => fees.get(r.transactionHash) ?? (r.transactionHash === '0x02' ? 0n : undefined),
  );
  const resolutions = [{ conditionId: C, payouts: [1, 0], resolvedAt: 55 }];

  it('closes every lot with its realized PnL to the base unit and says how each closed', () => {
    expect(feesUnknown).toBe(0);
    const book = buildPortfolio(entries, { address: '0xabc', resolutions });
    expect(book.open).toEqual([]);
    // Yes: bought 10 @ 4.000000 and 3.333333 @ 0.999999 (13.333333 for 4.999999), sold 3.333333 for 2.333333
    // (cost 4.999999 × 3.333333 / 13.333333 = 1.249999 down), +4 from the split (2.000000), merged 2
    // (cost of 2 of 14: (3.750000 + 2.000000) × 2 / 14 = 0.821428), redeemed the last 12 for 12.000000.
    const yes = book.closed.filter((c) => c.outcomeIndex === 0);
    const no = book.closed.filter((c) => c.outcomeIndex === 1);
    expect(yes).toHaveLength(1);
    // The merge's $2 shared by cost: Yes 0.821428 against No 1.000000 → Yes 0.901960, No 1.098040.
    expect(yes[0]).toMatchObject({ how: 'redeemed', cost: 6_999_999n, proceeds: 2_333_333n + 901_960n + 12_000_000n });
    // No: 4 from the split at 2.000000, 2 merged, the other 2 worthless at the redemption.
    expect(no[0]).toMatchObject({ how: 'lost', cost: 2_000_000n });
    // Everything that went in and came out: −4 −0.999999 +2.333333 −4 (split) +2 (merge) +12 (redeem).
    expect(book.totals.realized).toBe(7_333_334n);
    expect(book.totals.fees).toBe(120_000n);
    expect(book.totals.rewards).toBe(250_000n);
    expect(book.totals.net).toBe(7_333_334n - 120_000n + 250_000n);
  });

  it('values open lots at the price given and marks series points as estimated until all is realized', () => {
    const open = entries.filter((e) => e.timestamp <= 30);
    const now = buildPortfolio(open, { address: '0xabc', prices: new Map([[YES, 0.5]]) });
    expect(now.open[0]).toMatchObject({
      shares: 10_000_000n,
      cost: 3_750_000n,
      value: 5_000_000n,
      unrealizedPnl: 1_250_000n,
    });
    const series = pnlSeries(entries, { range: 'all', now: 86_400 * 2, resolutions, prices: new Map() });
    const last = series[series.length - 1]!;
    expect(last).toMatchObject({ exact: true, realized: 7_333_334n, total: 7_463_334n, estimate: '' });
    const early = pnlSeries(open, { range: 'all', now: 35, priceAt: () => 0.6 });
    expect(early[0]).toMatchObject({ exact: false, pricing: 'price-history', unrealized: 6_000_000n - 4_000_000n });
  });

  it('writes an RFC 4180 CSV whose amounts sum to the realized PnL and fees to the fees', () => {
    const rows = accountingRows(entries, { from: 0, to: 100 });
    const csv = accountingCsv(rows);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('Date (UTC),Type,Market,Outcome,Shares,Price,Amount (USD),Fee (USD),Transaction hash');
    expect(lines[1]).toBe(
      '1970-01-01T00:00:10.000Z,TRADE BUY,"Will it rain, in ""Paris""?",Yes,10.000000,0.4,-4.000000,0.070000,0x01',
    );
    const cents = (s: string) => BigInt(s.replace('.', ''));
    const amounts = rows.filter((r) => r.type !== 'REWARD').reduce((s, r) => s + cents(r.amount), 0n);
    expect(amounts).toBe(7_333_334n);
    expect(rows.reduce((s, r) => s + cents(r.fee), 0n)).toBe(120_000n);
    expect(accountingRows(entries, { from: 35, to: 55 }).map((r) => r.type)).toEqual(['SPLIT', 'MERGE']);
  });

  it('returns each difference with Polymarket with a reason', () => {
    const book = buildPortfolio(entries, { address: '0xabc', resolutions });
    const yes = book.closed.find((c) => c.outcomeIndex === 0)!;
    const diffs = reconcile(book, {
      closed: [{ tokenId: YES, conditionId: C, realizedPnl: Number(yes.realizedPnl) / 1e6 }],
      value: 1.5,
    });
    expect(diffs.map((d) => d.subject)).toEqual([`closed:${C}:1`, 'value']);
    expect(diffs[0]!.reason).toMatch(/loss by resolution/);
    expect(diffs[1]).toMatchObject({ ours: 0n, theirs: 1_500_000n, difference: -1_500_000n });
  });

  it("puts a transaction's fee on its first row only (a taker order over several levels is several rows)", () => {
    const lookup = feeLookup(new Map([['0xaa', 90_000n]]));
    const level = (price: number) => row({ price, transactionHash: '0xaa' });
    expect([lookup(level(0.4)), lookup(level(0.41)), lookup(row({ transactionHash: '0xbb' }))]).toEqual([
      90_000n,
      0n,
      undefined,
    ]);
  });
});
