// Resolving a market on a running sandbox: from outside through the admin route and `npm run sandbox:resolve`
// (which prints the payouts), and in-process with sandbox.resolveMarket. The CLOB closes the market (its resting
// orders cancelled, new ones refused), Gamma, the aggregator, the CLOB's reads and the Data API's positions
// (redeemable, worth 1 or 0) show it resolved, the chain holds the reported payouts, and a holder's
// redeemPositions pays exactly what its winning shares are worth.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Contract, Wallet, ZeroHash } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { TX_OVERRIDES, conditionalTokensArtifact, sandboxProvider } from '../../sandbox/chain/index';
import { mined } from '../../sandbox/chain/deploy';
import { main as resolveCli } from '../../sandbox/resolve-cli';
import { limitOrder, signedOrderJson, type ClobSandbox } from '../helpers/sandbox-clob';
import { WsTestClient } from '../helpers/ws-test-client';

const usdc = (n: number) => BigInt(Math.round(n * 1e6));

let sandbox: RunningSandbox;
let dir: string;
let profileFile: string;
let provider: ReturnType<typeof sandboxProvider>;

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { rpc: 0, clob: 0, aggregator: 0, polymarket: 0 }, simulate: 'off' });
  dir = await mkdtemp(join(tmpdir(), 'pmdesk-resolve-'));
  profileFile = join(dir, 'profile.json');
  await writeFile(profileFile, JSON.stringify(sandbox.profile));
  provider = sandboxProvider(sandbox.deployment.rpcUrl, sandbox.deployment.chainId);
}, 60_000);
afterAll(async () => {
  provider?.destroy();
  await sandbox?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A test wallet that splits `amount` pUSD into as many Yes and No shares of a market, straight on the chain. */
async function holder(index: number, conditionId: string, amount: bigint) {
  const wallet = new Wallet(sandbox.deployment.testWallets[index]!.privateKey, provider);
  const ctf = new Contract(sandbox.deployment.contracts.conditionalTokens, conditionalTokensArtifact().abi, wallet);
  await mined(
    ctf.getFunction('splitPosition')(
      sandbox.deployment.contracts.collateral,
      ZeroHash,
      conditionId,
      [1, 2],
      amount,
      TX_OVERRIDES,
    ),
  );
  const pusd = new Contract(
    sandbox.deployment.contracts.collateral,
    ['function balanceOf(address) view returns (uint256)'],
    provider,
  );
  return {
    wallet,
    ctf,
    pusd: () => pusd.getFunction('balanceOf')(wallet.address) as Promise<bigint>,
    shares: (tokenId: string) => ctf.getFunction('balanceOf')(wallet.address, tokenId) as Promise<bigint>,
    redeem: () =>
      mined(
        ctf.getFunction('redeemPositions')(
          sandbox.deployment.contracts.collateral,
          ZeroHash,
          conditionId,
          [1, 2],
          TX_OVERRIDES,
        ),
      ),
  };
}

async function placeBuy(wallet: Wallet, tokenId: string, price: number, size: number) {
  const apiKey = sandbox.clob.apiKeyFor(wallet.address).apiKey;
  const order = await signedOrderJson(
    { chain: sandbox.deployment } as unknown as ClobSandbox,
    wallet,
    limitOrder(tokenId, 'BUY', price, size),
  );
  return {
    apiKey,
    response: await sandbox.clob.placeOrder(
      { deferExec: false, postOnly: false, order, owner: apiKey, orderType: 'GTC' },
      apiKey,
    ),
  };
}

const adminResolve = (body: unknown, method = 'POST') =>
  fetch(`${sandbox.profile.gammaUrl}/admin/resolve`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: method === 'POST' ? JSON.stringify(body) : undefined,
  });
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whichever JSON the servers answer
const getJson = async (url: string): Promise<any> => (await fetch(url)).json();

describe('resolving a market on a running sandbox', () => {
  it('resolves through `sandbox:resolve` (the admin route), closes the market everywhere, and a Yes holder redeems 1 pUSD a share', async () => {
    const market = sandbox.catalog.market('90051')!;
    const [yes, no] = [market.tokens[0].tokenId, market.tokens[1].tokenId];
    const h = await holder(4, market.conditionId, usdc(50));
    const resting = await placeBuy(h.wallet, yes, 0.1, 10);
    expect(resting.response).toMatchObject({ success: true, status: 'live' });

    let printed = '';
    expect(await resolveCli(['--profile', profileFile, market.slug, 'yes'], (t) => (printed += t))).toBe(0);
    expect(printed).toContain(`resolved 90051 (${market.slug}): Yes wins`);
    expect(printed).toContain('Yes: payout 1/1 = 1 pUSD per share');
    expect(printed).toContain('No: payout 0/1 = 0 pUSD per share');
    expect(printed).toContain('1 resting order(s) cancelled');

    // The CLOB: the resting order is gone, a new one is refused, the market reads closed with its winner.
    expect(sandbox.clob.openOrderIds(resting.apiKey)).toEqual([]);
    expect((await placeBuy(h.wallet, no, 0.1, 10)).response).toMatchObject({
      success: false,
      errorMsg: 'the market is not accepting orders',
    });
    expect((await getJson(`${sandbox.profile.clobUrl}/clob-markets/${market.conditionId}`)).ao).toBe(false);
    const clobMarket = await getJson(`${sandbox.profile.clobUrl}/markets/${market.conditionId}`);
    expect(clobMarket).toMatchObject({ closed: true, accepting_orders: false });
    expect(clobMarket.tokens.map((t: { winner: boolean; price: number }) => [t.winner, t.price])).toEqual([
      [true, 1],
      [false, 0],
    ]);

    // Gamma and the aggregator.
    const gamma = await getJson(`${sandbox.profile.gammaUrl}/markets/90051`);
    expect(gamma).toMatchObject({ closed: true, acceptingOrders: false, umaResolutionStatus: 'resolved' });
    expect(JSON.parse(gamma.outcomePrices)).toEqual(['1', '0']);
    expect(Date.parse(gamma.closedTime)).not.toBeNaN();
    const aggregated = await getJson(`${sandbox.profile.aggregatorUrl}/v1/markets/90051?protocol=polymarket`);
    expect(aggregated).toMatchObject({ closed: true, accepting_orders: false });
    expect(aggregated.position_tokens.map((t: { price: string; winner: boolean }) => [t.price, t.winner])).toEqual([
      ['1', true],
      ['0', false],
    ]);

    // The Data API: both positions redeemable, worth their payout.
    const positions = await getJson(
      `${sandbox.profile.dataUrl}/positions?user=${h.wallet.address}&market=${market.conditionId}&redeemable=true`,
    );
    expect(
      positions
        .map((p: { outcome: string; curPrice: number; redeemable: boolean; size: number }) => [
          p.outcome,
          p.curPrice,
          p.redeemable,
          p.size,
        ])
        .sort(),
    ).toEqual([
      ['No', 0, true, 50],
      ['Yes', 1, true, 50],
    ]);
    expect(
      await getJson(
        `${sandbox.profile.dataUrl}/positions?user=${h.wallet.address}&market=${market.conditionId}&redeemable=false`,
      ),
    ).toEqual([]);

    // The chain holds the payouts; redeeming pays the 50 Yes shares and nothing for the 50 No.
    expect(await h.ctf.getFunction('payoutDenominator')(market.conditionId)).toBe(1n);
    const before = await h.pusd();
    await h.redeem();
    expect((await h.pusd()) - before).toBe(usdc(50));
    expect([await h.shares(yes), await h.shares(no)]).toEqual([0n, 0n]);
  });

  it('resolves in-process with sandbox.resolveMarket: a No win pays the No shares', async () => {
    const market = sandbox.catalog.market('90031')!;
    const h = await holder(3, market.conditionId, usdc(20));
    // A market-channel subscriber with custom features hears of it.
    const ws = await WsTestClient.open(`${sandbox.profile.wsUrl}/market`);
    ws.send({ type: 'market', assets_ids: [market.tokens[0].tokenId], custom_feature_enabled: true });
    await ws.sync();
    const report = await sandbox.resolveMarket('90031', 1);
    try {
      expect(await ws.next((m) => m.event_type === 'market_resolved')).toMatchObject({
        market: market.conditionId,
        assets_ids: [market.tokens[0].tokenId, market.tokens[1].tokenId],
        winning_asset_id: market.tokens[1].tokenId,
        winning_outcome: 'No',
      });
    } finally {
      ws.close();
    }
    expect(report).toMatchObject({
      marketId: '90031',
      conditionId: market.conditionId,
      winner: { index: 1, name: 'No', tokenId: market.tokens[1].tokenId },
      payoutDenominator: '1',
      cancelledOrders: [],
    });
    expect(report.payouts.map((p) => [p.outcome, p.numerator, p.perShare])).toEqual([
      ['Yes', '0', '0'],
      ['No', '1', '1'],
    ]);
    expect(report.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    const before = await h.pusd();
    await h.redeem();
    expect((await h.pusd()) - before).toBe(usdc(20));
  });

  it('refuses a second resolution, unknown markets and outcomes, and anything but POST', async () => {
    const again = await adminResolve({ market: '90051', outcome: 'No' });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error: string }).error).toMatch(/already resolved/);
    expect(await (await adminResolve({ market: '90041', outcome: 'Maybe' })).json()).toEqual({
      error: 'unknown outcome "Maybe": one of Yes, No',
    });
    expect((await adminResolve({ market: 'no-such-market', outcome: 'Yes' })).status).toBe(400);
    expect((await adminResolve({ outcome: 'Yes' })).status).toBe(400);
    expect((await adminResolve(undefined, 'GET')).status).toBe(405);
    expect(sandbox.catalog.market('90041')!.closed).toBe(false);
    expect(await resolveCli(['--profile', profileFile, '90051'], () => {})).toBe(2);
  });
});
