// The sandbox's liquidity rewards judged by Polymarket's own client (@polymarket/client 0.2.0): the markets that
// pay and their configs, order scoring single and batch, earnings per day and in total and the REWARD activity
// all parse with its schemas, and they carry what the sandbox's book and chain say. Two makers rest orders on
// the Bitcoin market (which pays $100 a day): each has one order that scores and one that does not (too far
// from the midpoint, too small); `npm run sandbox:rewards` ends the day and the chain's transfers are exactly the
// split the Q-score simplification gives (docs/sandbox.md#liquidity-rewards).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Contract, Interface, Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, createSecureClient, forkEnvironmentConfig } from '@polymarket/client';
import {
  fetchOrderScoring,
  fetchOrdersScoring,
  fetchRewardPercentages,
  listUserEarningsAndMarketsConfig,
  fetchTotalEarningsForUserForDay,
  listActivity,
  listCurrentRewards,
  listMarketRewards,
  listUserEarningsForDay,
} from '@polymarket/client/actions';
import { privateKey } from '@polymarket/client/viem';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { sandboxProvider } from '../../sandbox/chain/index';
import { REWARDS_FUNDER_KEY } from '../../sandbox/clob/reward-payout';
import { main as rewardsCli } from '../../sandbox/rewards-cli';
import type { CatalogMarket } from '../../sandbox/market/catalog';
import { ClobClient } from '../../packages/toolkit/src/clob/client';
import type { ApiCredentials } from '../../packages/toolkit/src/clob/auth';
import { privateKeySigner } from '../../packages/toolkit/src/orders/signer';
import {
  readMarketRewardConfig,
  readOrderScoring,
  readOrdersScoring,
  readRewardEarningsForDay,
  readRewardMarkets,
  readTotalRewardEarningsForDay,
} from '../../packages/toolkit/src/clob/rewards';
import { runPmdesk } from '../helpers/pmdesk-process';
import { credsOf, l2Request, limitOrder, postOrder, type ClobSandbox } from '../helpers/sandbox-clob';

let sandbox: RunningSandbox;
let environment: ReturnType<typeof forkEnvironmentConfig>;
let sb: ClobSandbox;
let btc: CatalogMarket;
let maker: Wallet;
let bidder: Wallet;
const ids: Record<'near' | 'far' | 'ask' | 'small', string> = { near: '', far: '', ask: '', small: '' };
let dir: string;
let paidDay = '';

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { rpc: 0, clob: 0, aggregator: 0, polymarket: 0 }, simulate: 'off', seed: 5 });
  const p = sandbox.profile;
  environment = forkEnvironmentConfig({
    name: 'sandbox',
    chainId: p.chainId,
    rpc: p.rpcUrl,
    gamma: { rest: p.gammaUrl },
    data: { rest: p.dataUrl },
    clob: { rest: p.clobUrl, market: { ws: `${p.wsUrl}/market` }, user: { ws: `${p.wsUrl}/user` } },
    rtds: { ws: p.rtdsUrl },
  });
  btc = sandbox.catalog.market('90021')!;
  sb = { chain: sandbox.deployment, server: sandbox.clob } as unknown as ClobSandbox;
  [maker, bidder] = p.testWallets.map((w) => new Wallet(w.privateKey)) as [Wallet, Wallet];
  const [yes, no] = btc.tokens.map((t) => t.tokenId) as [string, string];
  // YES bid 0.41 (bidder, 10: too small) and YES ask 0.44 (bidder's NO bid at 0.56, 100): the midpoint is 0.425.
  // The maker's YES bid at 0.40 (60) is 2.5¢ away and scores; its bid at 0.30 is too far.
  ids.near = await postOrder(sb, maker, limitOrder(yes, 'BUY', 0.4, 60));
  ids.far = await postOrder(sb, maker, limitOrder(yes, 'BUY', 0.3, 60));
  ids.ask = await postOrder(sb, bidder, limitOrder(no, 'BUY', 0.56, 100));
  ids.small = await postOrder(sb, bidder, limitOrder(yes, 'BUY', 0.41, 10));
  dir = await mkdtemp(join(tmpdir(), 'rewards-official-'));
  await writeFile(join(dir, 'profile.json'), JSON.stringify(p));
}, 120_000);
afterAll(async () => {
  await sandbox?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function secureClient(wallet: Wallet) {
  return createSecureClient({
    environment,
    signer: privateKey(wallet.privateKey as never),
    wallet: wallet.address,
  } as never);
}

describe('@polymarket/client 0.2.0 reads the sandbox’s liquidity rewards', () => {
  it('the markets that pay, with their daily rate, maximum spread and minimum size; others pay nothing', async () => {
    const client = createPublicClient({ environment });
    const current = (await listCurrentRewards(client).firstPage()).items;
    expect(current.map((r) => r.conditionId).sort()).toEqual(
      ['90012', '90021', '90031'].map((id) => sandbox.catalog.market(id)!.conditionId).sort(),
    );
    const btcReward = current.find((r) => r.conditionId === btc.conditionId)!;
    expect(btcReward).toMatchObject({ rewardsMaxSpread: 3.5 });
    expect(Number(btcReward.rewardsMinSize)).toBe(50);
    expect(Number(btcReward.totalDailyRate)).toBe(100);
    expect(btcReward.rewardsConfig?.[0]?.assetAddress).toBe(sandbox.profile.contracts.collateral);
    const configs = (await listMarketRewards(client, { conditionId: btc.conditionId as never }).firstPage()).items;
    expect(configs).toHaveLength(1);
    expect(configs[0]!.tokens.map((t) => t.tokenId)).toEqual(btc.tokens.map((t) => t.tokenId));
    expect(Number(configs[0]!.rewardsConfig?.[0]?.ratePerDay)).toBe(100);
    const fed = sandbox.catalog.market('90011')!;
    expect((await listMarketRewards(client, { conditionId: fed.conditionId as never }).firstPage()).items).toEqual([]);
    // Gamma says the same terms, and 0 and 0 for the market that pays nothing.
    const gamma = async (id: string) =>
      (await (await fetch(`${sandbox.profile.gammaUrl}/markets/${id}`)).json()) as Record<string, unknown>;
    expect(await gamma('90021')).toMatchObject({ rewardsMinSize: 50, rewardsMaxSpread: 3.5 });
    expect(await gamma('90011')).toMatchObject({ rewardsMinSize: 0, rewardsMaxSpread: 0 });
  });

  it('order scoring from the live book, single and batch, and the rule that fails', async () => {
    const client = await secureClient(maker);
    expect(await fetchOrderScoring(client, { orderId: ids.near })).toBe(true);
    expect(await fetchOrderScoring(client, { orderId: ids.far })).toBe(false);
    expect(await fetchOrdersScoring(client, { orderIds: [ids.near, ids.far] })).toEqual({
      [ids.near]: true,
      [ids.far]: false,
    });
    const reason = async (wallet: Wallet, id: string) =>
      (
        await l2Request(
          sandbox.clob.url,
          wallet,
          credsOf(sb, wallet),
          'GET',
          '/order-scoring',
          undefined,
          `?order_id=${id}`,
        )
      ).body as { scoring: boolean; reason?: string };
    expect(await reason(maker, ids.far)).toEqual({ scoring: false, reason: 'TOO_FAR' });
    expect(await reason(bidder, ids.small)).toEqual({ scoring: false, reason: 'TOO_SMALL' });
    expect(await reason(bidder, ids.ask)).toEqual({ scoring: true });
    // The current share of the market's weight: maker 60 × 200² of 60 × 200² + 100 × 400² (the bidder's ask).
    expect(await fetchRewardPercentages(client)).toEqual({ [btc.conditionId]: 13.04 });
    const configs = (
      await listUserEarningsAndMarketsConfig(client, { date: new Date().toISOString().slice(0, 10) }).firstPage()
    ).items;
    expect(configs.find((c) => c.conditionId === btc.conditionId)).toMatchObject({
      earningPercentage: 13.04,
      question: btc.question,
    });
    // Someone else's order is not the caller's to ask about.
    expect(await reason(bidder, ids.near)).toEqual({ scoring: false, reason: 'NOT_RESTING' });
  });

  it('the payout splits the day’s rate by weight and pays it on chain; earnings and activity say the same', async () => {
    const profileFile = join(dir, 'profile.json');
    let printed = '';
    expect(await rewardsCli(['--profile', profileFile, '--json'], (t) => (printed += t))).toBe(0);
    const report = JSON.parse(printed) as {
      day: string;
      total: string;
      payments: { maker: string; amount: string; transactionHash: string }[];
    };
    // Weights: size × (3.5¢ − distance)² in half ticks: maker 60 × 200², bidder 100 × 400². $100 split, rounded down.
    const expected = { [maker.address]: 13_043_478n, [bidder.address]: 86_956_521n };
    expect(Object.fromEntries(report.payments.map((p) => [p.maker, BigInt(p.amount)]))).toEqual(expected);
    expect(report.total).toBe('99999999');
    paidDay = report.day;

    // Each payment is a real pUSD transfer from the funder, as the chain records it.
    const provider = sandboxProvider(sandbox.profile.rpcUrl, sandbox.profile.chainId);
    try {
      const erc20 = new Interface(['event Transfer(address indexed from, address indexed to, uint256 value)']);
      for (const payment of report.payments) {
        const receipt = (await provider.getTransactionReceipt(payment.transactionHash))!;
        const transfer = receipt.logs.map((l) => erc20.parseLog(l)).find((l) => l?.name === 'Transfer')!;
        expect(receipt.to).toBe(sandbox.profile.contracts.collateral);
        expect([transfer.args[0], transfer.args[1], transfer.args[2]]).toEqual([
          new Wallet(REWARDS_FUNDER_KEY).address,
          payment.maker,
          expected[payment.maker],
        ]);
      }
      const pusd = new Contract(
        sandbox.profile.contracts.collateral,
        ['function balanceOf(address) view returns (uint256)'],
        provider,
      );
      // The funder is minted exactly what it pays: nothing is left with it.
      expect(await pusd.getFunction('balanceOf')(new Wallet(REWARDS_FUNDER_KEY).address)).toBe(0n);
    } finally {
      provider.destroy();
    }

    const client = await secureClient(maker);
    const earnings = (await listUserEarningsForDay(client, { date: report.day }).firstPage()).items;
    expect(earnings).toHaveLength(1);
    expect(earnings[0]).toMatchObject({ conditionId: btc.conditionId, makerAddress: maker.address });
    expect(String(earnings[0]!.earnings)).toBe('13.043478');
    const total = await fetchTotalEarningsForUserForDay(client, { date: report.day });
    expect(total.map((t) => String(t.earnings))).toEqual(['13.043478']);
    expect(await fetchTotalEarningsForUserForDay(client, { date: '2020-01-01' })).toEqual([]);

    const activity = (
      await listActivity(createPublicClient({ environment }), {
        user: maker.address as never,
        type: ['REWARD'] as never,
      } as never).firstPage()
    ).items as unknown as { type: string; amount: unknown; transactionHash: string; wallet: string }[];
    expect(activity).toHaveLength(1);
    expect(activity[0]).toMatchObject({
      type: 'REWARD',
      transactionHash: report.payments.find((p) => p.maker === maker.address)!.transactionHash,
    });
    expect(String(activity[0]!.amount)).toBe('13.043478');
  });
});

describe('PM Desk’s toolkit reads the same rewards, in exact base units', () => {
  /** A toolkit client with the maker's level 2 credentials, as the app and the CLI build it. */
  async function toolkitClient(wallet: Wallet): Promise<ClobClient> {
    const base = { host: sandbox.profile.clobUrl, chainId: sandbox.deployment.chainId, throwOnError: true };
    const signer = privateKeySigner(wallet.privateKey);
    const creds = (await new ClobClient({ ...base, signer }).createOrDeriveApiKey()) as ApiCredentials;
    return new ClobClient({ ...base, signer, creds });
  }

  it('markets that pay, a market’s config, scoring and the day’s earnings', async () => {
    const clob = await toolkitClient(maker);
    const markets = await readRewardMarkets(clob);
    expect(markets.find((m) => m.conditionId === btc.conditionId)).toEqual({
      conditionId: btc.conditionId,
      dailyRate: 100_000_000n,
      maxSpreadCents: 3.5,
      minSize: 50,
    });
    expect(markets).toHaveLength(3);
    expect(await readMarketRewardConfig(clob, sandbox.catalog.market('90011')!.conditionId)).toBeUndefined();
    const config = (await readMarketRewardConfig(clob, btc.conditionId))!;
    expect(config).toMatchObject({ question: btc.question, dailyRate: 100_000_000n, minSize: 50 });
    expect(config.tokens.map((t) => t.tokenId)).toEqual(btc.tokens.map((t) => t.tokenId));
    expect(await readOrderScoring(clob, ids.near)).toBe(true);
    expect(await readOrdersScoring(clob, [ids.near, ids.far, 'unknown'])).toEqual({
      [ids.near]: true,
      [ids.far]: false,
      unknown: false,
    });
    expect(paidDay).not.toBe('');
    expect(await readRewardEarningsForDay(clob, paidDay)).toEqual([
      {
        date: paidDay,
        conditionId: btc.conditionId,
        maker: maker.address,
        earnings: 13_043_478n,
        assetAddress: sandbox.profile.contracts.collateral,
      },
    ]);
    expect((await readTotalRewardEarningsForDay(clob, paidDay)).map((t) => t.earnings)).toEqual([13_043_478n]);
    await expect(readRewardEarningsForDay(clob, '28/11/2026')).rejects.toMatchObject({ code: 'ERR_INVALID_PARAM' });
  });
});

describe('the pmdesk CLI (built) on the sandbox', () => {
  const pmdesk = (args: string[]) => {
    const creds = sandbox.clob.apiKeyFor(maker.address);
    return runPmdesk(['--network', join(dir, 'profile.json'), ...args], {
      env: {
        PMDESK_PRIVATE_KEY: maker.privateKey,
        PMDESK_API_KEY: creds.apiKey,
        PMDESK_API_SECRET: creds.secret,
        PMDESK_API_PASSPHRASE: creds.passphrase,
      },
    });
  };

  it('rewards markets: daily rate, maximum spread and minimum size, as a table and as JSON', async () => {
    const json = await pmdesk(['--json', 'rewards', 'markets']);
    expect(json.stderr).toBe('');
    const rows = JSON.parse(json.stdout) as { conditionId: string; dailyRate: string; dailyRateUsd: string }[];
    expect(rows.find((r) => r.conditionId === btc.conditionId)).toEqual({
      conditionId: btc.conditionId,
      dailyRate: '100000000',
      dailyRateUsd: '100.00',
      maxSpreadCents: 3.5,
      minSize: 50,
    });
    const text = await pmdesk(['rewards', 'markets']);
    expect(text.stdout).toMatch(new RegExp(`${btc.conditionId}\\s+\\$100\\.00\\s+3\\.5¢\\s+50`));
  });

  it('rewards earnings: per market and in total for the day, what the chain paid', async () => {
    expect(paidDay).not.toBe('');
    const json = await pmdesk(['--json', 'rewards', 'earnings', '--day', paidDay]);
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout)).toMatchObject({
      day: paidDay,
      markets: [{ conditionId: btc.conditionId, maker: maker.address, earnings: '13043478', earningsUsd: '13.043478' }],
      total: '13043478',
      totalUsd: '13.043478',
    });
    expect((await pmdesk(['rewards', 'earnings', '--day', paidDay])).stdout).toContain(
      `total on ${paidDay}: $13.043478`,
    );
    const bad = await pmdesk(['rewards', 'earnings', '--day', 'yesterday']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('ERR_INVALID_PARAM');
  });

  it('order scoring: each open order, scoring or why not', async () => {
    const json = await pmdesk(['--json', 'order', 'scoring']);
    expect(json.stderr).toBe('');
    const rows = JSON.parse(json.stdout) as { orderId: string; scoring: boolean; reason?: string }[];
    expect(rows.map((r) => [r.orderId, r.scoring, r.reason]).sort()).toEqual(
      [
        [ids.near, true, undefined],
        [ids.far, false, 'too-far'],
      ].sort(),
    );
    const text = (await pmdesk(['order', 'scoring'])).stdout;
    expect(text).toMatch(new RegExp(`${ids.far}.*no\\s+too far from the midpoint`));
  });
});
