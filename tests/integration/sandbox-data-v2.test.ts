// The sandbox's Data API v2 feeds (/v2/positions, /v2/trades, /v2/activity) over real HTTP, from the same trades
// and chain balances as the v1 paths beside them: the `{data, pagination}` envelope with an exact has_more and an
// opaque server cursor bound to the request's filters, strict snake_case rows, the limit and 20-condition caps
// refused with a 400, closed positions folded in by status; and Polymarket direct reading them without a fallback.
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import type { CatalogMarket } from '../../sandbox/market/catalog';
import { PolymarketSource } from '../../packages/toolkit/src/polymarket/source';
import type { Logger } from '../../packages/toolkit/src/base/logger';
import { limitOrder, postOrder, type ClobSandbox } from '../helpers/sandbox-clob';

interface Page {
  data: Record<string, unknown>[];
  pagination: { limit: number; offset: number; has_more: boolean; next_cursor: string | null };
}

let sandbox: RunningSandbox;
let base: string;
let sb: ClobSandbox;
let btc: CatalogMarket;
let taker: Wallet;
let maker: Wallet;

async function get(path: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${base}${path}`);
  return { status: response.status, body: await response.json() };
}
const page = async (path: string) => (await get(path)).body as Page;

/** Waits for a settlement the exchange mines in its own time (asked again and again, not timed). */
async function until(check: () => Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { rpc: 0, clob: 0, aggregator: 0, polymarket: 0 }, simulate: 'off', seed: 13 });
  base = sandbox.profile.dataUrl;
  sb = { chain: sandbox.deployment, server: sandbox.clob } as unknown as ClobSandbox;
  btc = sandbox.catalog.market('90021')!;
  [taker, maker] = sandbox.profile.testWallets.map((w) => new Wallet(w.privateKey)) as [Wallet, Wallet];
  // Two fills: the taker buys 10 YES at 0.40, then 6 more, each against a resting NO bid at 0.60.
  for (const size of [10, 6]) {
    await postOrder(sb, maker, limitOrder(btc.tokens[1].tokenId, 'BUY', 0.6, size));
    await postOrder(sb, taker, limitOrder(btc.tokens[0].tokenId, 'BUY', 0.4, size));
  }
  await until(async () => (await page(`/v2/trades?user=${taker.address}`)).data.length === 2, 20_000);
}, 120_000);
afterAll(() => sandbox?.stop());

describe('the sandbox’s v2 feeds', () => {
  it('serves trades as v2 rows from the same trades as /trades, walked by an opaque cursor to an exact end', async () => {
    const v1 = (await get(`/trades?user=${taker.address}`)).body as Record<string, unknown>[];
    const first = await page(`/v2/trades?user=${taker.address}&limit=1`);
    expect(first.pagination).toMatchObject({ limit: 1, has_more: true });
    expect(first.data[0]).toEqual({
      proxy_wallet: taker.address,
      side: 'BUY',
      token_id: btc.tokens[0].tokenId,
      condition_id: btc.conditionId,
      size: 6,
      price: 0.4,
      timestamp: v1[0]!.timestamp,
      title: btc.question,
      slug: btc.slug,
      icon: '',
      event_slug: v1[0]!.eventSlug,
      outcome: 'Yes',
      outcome_index: 0,
      name: expect.any(String),
      pseudonym: expect.any(String),
      bio: expect.any(String),
      profile_image: expect.any(String),
      profile_image_optimized: '',
      transaction_hash: v1[0]!.transactionHash,
    });
    const second = await page(`/v2/trades?user=${taker.address}&limit=1&cursor=${first.pagination.next_cursor}`);
    expect(second.data.map((r) => [r.size, r.transaction_hash])).toEqual([[10, v1[1]!.transactionHash]]);
    expect(second.pagination).toMatchObject({ has_more: false, next_cursor: null });
    // Makers' sides too when asked: the maker's NO buys at 0.60.
    const both = await page(`/v2/trades?condition_id=${btc.conditionId}&taker_only=false`);
    expect(
      both.data.filter((r) => r.proxy_wallet === maker.address).map((r) => [r.side, r.outcome_index, r.price]),
    ).toEqual([
      ['BUY', 1, 0.6],
      ['BUY', 1, 0.6],
    ]);
  });

  it('refuses offsets, a limit past 1000, more than 20 distinct condition ids and a cursor with other filters', async () => {
    const first = await page(`/v2/trades?user=${taker.address}&limit=1`);
    const twenty = Array.from({ length: 20 }, (_, i) => `0x${(i + 1).toString(16).padStart(64, '0')}`);
    const cases: [string, number][] = [
      [`/v2/trades?user=${taker.address}&offset=1`, 400],
      [`/v2/trades?user=${taker.address}&limit=1001`, 400],
      [`/v2/activity?user=${taker.address}&condition_id=${[...twenty, btc.conditionId].join(',')}`, 400],
      // The same 20 in two cases are 20 distinct ids.
      [
        `/v2/activity?user=${taker.address}&condition_id=${[...twenty, twenty[0]!.toUpperCase().replace('0X', '0x')].join(',')}`,
        200,
      ],
      [`/v2/trades?user=${maker.address}&limit=1&cursor=${first.pagination.next_cursor}`, 400],
      [`/v2/trades?user=${taker.address}&cursor=not-a-cursor`, 400],
      [`/v2/positions?user=${taker.address}&status=LOST`, 400],
      [`/v2/activity?user=${taker.address}&type=PARLAY`, 400],
      ['/v2/nothing', 404],
    ];
    for (const [path, status] of cases) expect((await get(path)).status, path).toBe(status);
  });

  it('serves activity with usdc_size, and positions with their status and flags, closed ones folded in', async () => {
    const activity = await page(`/v2/activity?user=${taker.address}`);
    expect(activity.data.map((r) => [r.type, r.side, r.size, r.usdc_size])).toEqual([
      ['TRADE', 'BUY', 6, 2.4],
      ['TRADE', 'BUY', 10, 4],
    ]);
    const open = await page(`/v2/positions?user=${taker.address}`);
    expect(open.data).toEqual([
      expect.objectContaining({
        token_id: btc.tokens[0].tokenId,
        current_size: 16,
        avg_price: 0.4,
        current_value: expect.any(Number),
        status: 'OPEN',
        redeemable: false,
        mergeable: false,
        opposite_token_id: btc.tokens[1].tokenId,
        outcome_index: 0,
      }),
    ]);
    expect((await page(`/v2/activity?user=${taker.address}&type=REDEEM`)).data).toEqual([]);
    expect((await page(`/v2/positions?user=${taker.address}&status=REDEEMABLE`)).data).toEqual([]);
    expect((await page(`/v2/positions?user=${taker.address}&status=CLOSED`)).data).toEqual([]);
    // The taker sells all 16 YES back to a bid: the position moves from OPEN to CLOSED with what it made.
    await postOrder(sb, maker, limitOrder(btc.tokens[0].tokenId, 'BUY', 0.5, 16));
    await postOrder(sb, taker, limitOrder(btc.tokens[0].tokenId, 'SELL', 0.5, 16));
    await until(
      async () => (await page(`/v2/positions?user=${taker.address}&status=CLOSED`)).data.length === 1,
      20_000,
    );
    const closed = await page(`/v2/positions?user=${taker.address}&status=CLOSED`);
    expect(closed.data[0]).toMatchObject({
      token_id: btc.tokens[0].tokenId,
      status: 'CLOSED',
      current_size: 0,
      realized_pnl: 1.6,
      total_size: 16,
    });
    expect((await page(`/v2/positions?user=${taker.address}`)).data).toEqual([]);
  });

  it('is what Polymarket direct reads: no fallback, the same rows as the v1 paths give', async () => {
    const warnings: string[] = [];
    const logger: Logger = { debug() {}, warn: (m) => warnings.push(m), error() {} };
    const p = sandbox.profile;
    const direct = new PolymarketSource({
      gammaUrl: p.gammaUrl,
      dataUrl: p.dataUrl,
      clobUrl: p.clobUrl,
      logger,
      timeoutMs: 10_000,
    });
    const trades = await direct.getTraderTrades(maker.address);
    const v1 = (await get(`/trades?user=${maker.address}&takerOnly=false`)).body as Record<string, unknown>[];
    expect(trades.map((t) => [t.side, t.tokenId, t.size, t.price, t.transactionHash])).toEqual(
      v1.map((r) => [r.side, r.asset, r.size, r.price, r.transactionHash]),
    );
    const positions = await direct.getTraderPositions('polymarket', maker.address);
    expect(positions.map((x) => [x.tokenId, x.size]).sort()).toEqual(
      [
        [btc.tokens[0].tokenId, 16],
        [btc.tokens[1].tokenId, 16],
      ].sort(),
    );
    expect((await direct.getTraderActivity(maker.address)).length).toBe(3);
    expect(warnings).toEqual([]);
  });

  it('marks a resolved market’s held shares REDEEMABLE (still in the default OPEN list), the loser’s too', async () => {
    await sandbox.resolveMarket(btc.id, 0);
    const redeemable = await page(`/v2/positions?user=${maker.address}&status=REDEEMABLE`);
    expect(redeemable.data.map((r) => [r.outcome, r.status, r.redeemable, r.current_price]).sort()).toEqual([
      ['No', 'REDEEMABLE', true, 0],
      ['Yes', 'REDEEMABLE', true, 1],
    ]);
    expect((await page(`/v2/positions?user=${maker.address}`)).data).toHaveLength(2);
  });
});
