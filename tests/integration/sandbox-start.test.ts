// The sandbox started whole (chain, contracts, catalog, history, aggregator) and read through the toolkit:
// the catalog's markets are on the chain, and a wallet's outcome tokens show up as its positions.
import { Contract, Wallet, ZeroHash, parseUnits } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AggregatorClient } from '../../packages/toolkit/src/aggregator/client';
import { silentLogger } from '../../packages/toolkit/src/base/logger';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { TX_OVERRIDES, sandboxProvider } from '../../sandbox/chain/index';

let sandbox: RunningSandbox;
let client: AggregatorClient;

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { rpc: 0, clob: 0, aggregator: 0 }, simulate: 'manual', bots: 4, seed: 5 });
  client = new AggregatorClient({ apiUrl: sandbox.profile.aggregatorUrl!, logger: silentLogger, timeoutMs: 10_000 });
}, 60_000);
afterAll(() => sandbox?.stop());

describe('the sandbox, started whole', () => {
  it('opens every catalog market on the chain and serves it', async () => {
    const events = await client.listOngoingEvents('polymarket');
    expect(events).toHaveLength(5);
    const onChain = new Set(sandbox.deployment.markets.map((m) => m.conditionId));
    for (const market of events.flatMap((e) => e.markets)) {
      expect(onChain.has(market.conditionId as string)).toBe(true);
      const tokens = sandbox.deployment.markets.find((m) => m.conditionId === market.conditionId)!.tokenIds;
      expect(market.position_tokens.map((t) => t.token_id)).toEqual(tokens);
    }
    expect(sandbox.profile).toMatchObject({ name: 'sandbox', chainId: 31338, orderVersion: 2 });
    expect(sandbox.profile.chainId).not.toBe(137);
  });

  it('shows a wallet its outcome tokens as positions, valued at the market price', async () => {
    const wallet = sandbox.profile.testWallets[2]!;
    const provider = sandboxProvider(sandbox.deployment.rpcUrl, sandbox.deployment.chainId);
    try {
      const signer = new Wallet(wallet.privateKey, provider);
      const market = sandbox.catalog.market('90021')!;
      const ctf = new Contract(
        sandbox.deployment.contracts.conditionalTokens,
        ['function splitPosition(address,bytes32,bytes32,uint256[],uint256)'],
        signer,
      );
      const tx = await ctf.splitPosition!(
        sandbox.deployment.contracts.collateral,
        ZeroHash,
        market.conditionId,
        [1, 2],
        parseUnits('12', 6),
        TX_OVERRIDES,
      );
      await tx.wait();
    } finally {
      provider.destroy();
    }
    const positions = await client.getTraderPositions('polymarket', wallet.address);
    expect(positions.map((p) => [p.outcome, p.size, p.marketSlug])).toEqual([
      ['Yes', 12, 'bitcoin-above-120k-on-december-31-2026'],
      ['No', 12, 'bitcoin-above-120k-on-december-31-2026'],
    ]);
    const [yes, no] = positions;
    expect(yes!.currentPrice + no!.currentPrice).toBeCloseTo(1, 6);
    expect(yes!.currentValue).toBeCloseTo(12 * yes!.currentPrice, 3);
    const trader = await client.getTrader('polymarket', wallet.address);
    expect(trader.user.name).toBe('sandbox-trader-3');
    expect(trader.stats.balanceInProtocol).toBe(100_000 - 12);
  });

  it('has bots quoting every market, and their trades settle on the chain and reach the tape', async () => {
    const books = await client.getOrderBooks('polymarket', '90021');
    const yes = books[sandbox.catalog.market('90021')!.tokens[0].tokenId]!;
    expect(yes.bids.length).toBeGreaterThan(0);
    expect(yes.asks.length).toBeGreaterThan(0);
    expect(Math.max(...yes.bids.map((l) => l.price))).toBeLessThan(Math.min(...yes.asks.map((l) => l.price)));

    const tape = () =>
      sandbox.catalog.events
        .flatMap((e) => e.markets)
        .reduce((n, m) => n + sandbox.marketData.fills(m.tokens[0].tokenId).length, 0);
    const before = tape();
    for (let i = 0; i < 12; i++) await sandbox.simulator!.tick();
    expect(sandbox.simulator!.problems).toEqual([]);
    expect(tape()).toBeGreaterThan(before);

    // The bots' trades count in their trader profiles (volume, trades, average prices).
    const fills = sandbox.clob.settledFills();
    expect(fills.length).toBeGreaterThan(0);
    const someone = fills[0]!.address;
    const profile = await client.getTrader('polymarket', someone);
    expect(profile.stats.totalTrades).toBeGreaterThan(0);
    expect(profile.stats.cumulativeVolume).toBeGreaterThan(0);
    const positions = await client.getTraderPositions('polymarket', someone);
    expect(positions.some((p) => typeof p.averagePrice === 'number' && p.averagePrice > 0 && p.averagePrice < 1)).toBe(
      true,
    );
  }, 120_000);
});
