// A sandbox started with a data folder keeps its chain: the same contracts and markets, and what wallets did.
import { Contract, Wallet, ZeroHash, parseUnits } from 'ethers';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/index';
import { TX_OVERRIDES, sandboxProvider } from '../../sandbox/chain/index';

const ports = { rpc: 0, clob: 0, aggregator: 0 };

async function collateralOf(rpcUrl: string, chainId: number, token: string, owner: string): Promise<bigint> {
  const provider = sandboxProvider(rpcUrl, chainId);
  try {
    return (await new Contract(token, ['function balanceOf(address) view returns (uint256)'], provider).balanceOf!(
      owner,
    )) as bigint;
  } finally {
    provider.destroy();
  }
}

describe('sandbox data folder', () => {
  it('keeps contracts, markets and balances across a restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'pmdesk-sandbox-data-'));
    const first = await startSandbox({ ports, dataDir, simulate: 'off' });
    const wallet = first.profile.testWallets[1]!;
    const market = first.catalog.market('90031')!;
    const provider = sandboxProvider(first.deployment.rpcUrl, first.deployment.chainId);
    try {
      const ctf = new Contract(
        first.deployment.contracts.conditionalTokens,
        ['function splitPosition(address,bytes32,bytes32,uint256[],uint256)'],
        new Wallet(wallet.privateKey, provider),
      );
      await (
        await ctf.splitPosition!(
          first.deployment.contracts.collateral,
          ZeroHash,
          market.conditionId,
          [1, 2],
          parseUnits('7', 6),
          TX_OVERRIDES,
        )
      ).wait();
    } finally {
      provider.destroy();
    }
    const contracts = first.profile.contracts;
    const before = await collateralOf(
      first.deployment.rpcUrl,
      first.deployment.chainId,
      contracts.collateral,
      wallet.address,
    );
    await first.stop();

    const lines: string[] = [];
    const second = await startSandbox({ ports, dataDir, simulate: 'off', log: (l) => lines.push(l) });
    try {
      expect(lines).toContain(`reusing the deployment in ${dataDir}`);
      expect(second.profile.contracts).toEqual(contracts);
      expect(second.catalog.market('90031')!.conditionId).toBe(market.conditionId);
      expect(
        await collateralOf(second.deployment.rpcUrl, second.deployment.chainId, contracts.collateral, wallet.address),
      ).toBe(before);
      expect(before).toBe(parseUnits(String(100_000 - 7), 6));
    } finally {
      await second.stop();
    }
  }, 90_000);
});
