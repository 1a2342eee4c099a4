// Split, merge, resolution and redeem on a real chain: the sandbox's anvil with Gnosis ConditionalTokens and its
// neg-risk adapter (the legacy paths, as the sandbox has no collateral adapters), every transaction built by
// accountTransactions for the key's own account, gas-checked with quoteGas and sent from the key.
import { Contract, Interface, Wallet, type JsonRpcProvider } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PmDeskError } from '../../packages/toolkit/src/model/errors';
import { accountTransactions, type ActionAccount, type ChainCall } from '../../packages/toolkit/src/accounts/actions';
import { providerGasReader, quoteGas } from '../../packages/toolkit/src/accounts/gas';
import { actionContractsFor, type ActionContracts } from '../../packages/toolkit/src/accounts/action-contracts';
import { tokenBalance } from '../../packages/toolkit/src/collateral/pusd';
import {
  mergeCalls,
  mergeableAmount,
  redeemCalls,
  splitCalls,
  type PositionMarket,
} from '../../packages/toolkit/src/positions/calls';
import { positionBalances, redeemPlan, resolutionOf } from '../../packages/toolkit/src/positions/resolution';
import {
  TX_OVERRIDES,
  conditionalTokensArtifact,
  sandboxProvider,
  startSandboxChain,
  type SandboxChain,
  type SandboxMarket,
} from '../../sandbox/chain/index.js';

let sandbox: SandboxChain;
let provider: JsonRpcProvider;
let contracts: ActionContracts;
let trader: Wallet;
let account: ActionAccount;
let standard: SandboxMarket;
let negRisk: SandboxMarket;

beforeAll(async () => {
  sandbox = await startSandboxChain();
  provider = sandboxProvider(sandbox.rpcUrl, sandbox.chainId);
  contracts = actionContractsFor({ name: 'sandbox', chainId: sandbox.chainId, contracts: { ...sandbox.contracts } });
  trader = new Wallet(sandbox.testWallets[0]!.privateKey, provider);
  account = { kind: 'eoa', address: trader.address, owner: trader.address };
  standard = sandbox.markets.find((m) => !m.negRisk)!;
  negRisk = sandbox.markets.find((m) => m.negRisk)!;
});

afterAll(async () => {
  provider?.destroy();
  await sandbox?.stop();
});

const marketOf = (m: SandboxMarket): PositionMarket => ({
  conditionId: m.conditionId,
  negRisk: m.negRisk,
  version: 'v1',
});

/** Builds the key's transactions for the calls, checks each one's gas against the key's POL, sends it and waits. */
async function act(calls: ChainCall[]): Promise<void> {
  const plan = await accountTransactions(account, calls, { chainId: sandbox.chainId, wallets: {} });
  for (const tx of plan.transactions) {
    const quote = await quoteGas(tx, providerGasReader(provider));
    const receipt = await (await trader.sendTransaction({ ...tx, gasLimit: quote.gasLimit, ...TX_OVERRIDES })).wait();
    expect(receipt?.status).toBe(1);
  }
}

const collateral = () => tokenBalance(provider, contracts.collateral!, trader.address);
const positions = (m: SandboxMarket) =>
  positionBalances(provider, contracts.conditionalTokens!, trader.address, m.tokenIds);

describe('split and merge from the key’s own account', () => {
  it('splits collateral into both outcomes on ConditionalTokens and merges them back, to the base unit', async () => {
    const [cash0, held0] = [await collateral(), await positions(standard)];
    await act(splitCalls(marketOf(standard), contracts, 10_000_000n));
    expect(await collateral()).toBe(cash0 - 10_000_000n);
    expect(await positions(standard)).toEqual(held0.map((h) => h + 10_000_000n));

    const mergeable = mergeableAmount(await positions(standard));
    await act(mergeCalls(marketOf(standard), contracts, mergeable));
    expect(await collateral()).toBe(cash0 - 10_000_000n + mergeable);
    expect(mergeableAmount(await positions(standard))).toBe(0n);
  });

  it('a neg-risk market splits and merges through the neg-risk adapter', async () => {
    const cash0 = await collateral();
    await act(splitCalls(marketOf(negRisk), contracts, 3_000_000n));
    expect(await positions(negRisk)).toEqual([3_000_000n, 3_000_000n]);
    await act(mergeCalls(marketOf(negRisk), contracts, 1_000_000n));
    expect(await positions(negRisk)).toEqual([2_000_000n, 2_000_000n]);
    expect(await collateral()).toBe(cash0 - 2_000_000n);
  });
});

describe('resolution and redeem', () => {
  it('reads unresolved, refuses to redeem, then after reportPayouts reads the payouts and redeems exactly what the plan says', async () => {
    await act(splitCalls(marketOf(standard), contracts, 5_000_000n));
    const before = await resolutionOf(provider, contracts.conditionalTokens!, standard.conditionId);
    expect(before).toEqual({ state: 'unresolved' });
    let refused: PmDeskError | undefined;
    try {
      redeemCalls(marketOf(standard), contracts, before, await positions(standard));
    } catch (error) {
      refused = error as PmDeskError;
    }
    expect(refused?.detail).toMatch(/not resolved yet/);

    // The operator is the sandbox markets' oracle: the first outcome (YES) wins.
    const oracle = new Wallet(sandbox.operator.privateKey, provider);
    const ctf = new Contract(
      contracts.conditionalTokens!,
      new Interface(conditionalTokensArtifact().abi as never),
      oracle,
    );
    await (await ctf.getFunction('reportPayouts')(standard.questionId, [1, 0], TX_OVERRIDES)).wait();

    const after = await resolutionOf(provider, contracts.conditionalTokens!, standard.conditionId);
    expect(after).toEqual({ state: 'resolved', numerators: [1n, 0n], denominator: 1n });
    const held = await positions(standard);
    const plan = redeemPlan(held, after);
    expect(plan.result).toBe('won');
    expect(plan.payout).toBe(held[0]);
    expect(plan.label).toBe(`Won $${(Number(held[0]) / 1e6).toFixed(2)}`);

    const cash = await collateral();
    await act(redeemCalls(marketOf(standard), contracts, after, held));
    expect(await collateral()).toBe(cash + plan.payout);
    expect(await positions(standard)).toEqual([0n, 0n]);
  });

  it('an unknown condition is ERR_NOT_FOUND', async () => {
    const missing = await resolutionOf(provider, contracts.conditionalTokens!, `0x${'12'.repeat(32)}`).catch(
      (e: PmDeskError) => e,
    );
    expect((missing as PmDeskError).code).toBe('ERR_NOT_FOUND');
  });
});

describe('gas check', () => {
  it('refuses before sending when the key has no POL, in one sentence', async () => {
    const broke = Wallet.createRandom().connect(provider);
    const [call] = splitCalls(marketOf(standard), contracts, 1n);
    const approve: ChainCall = {
      to: contracts.collateral!,
      data: new Interface(['function approve(address,uint256)']).encodeFunctionData('approve', [call!.to, 1n]),
    };
    const plan = await accountTransactions({ kind: 'eoa', address: broke.address, owner: broke.address }, [approve], {
      chainId: sandbox.chainId,
      wallets: {},
    });
    const error = await quoteGas(plan.transactions[0]!, providerGasReader(provider)).catch((e: PmDeskError) => e);
    expect((error as PmDeskError).code).toBe('ERR_INVALID_PARAM');
    expect((error as PmDeskError).detail).toMatch(
      new RegExp(`^The key ${broke.address} has 0 POL; this needs about 0\\.0000\\d+ POL for gas\\.$`),
    );
  });

  it('a transaction the chain would refuse is reported before sending', async () => {
    const broke = Wallet.createRandom();
    const plan = await accountTransactions(
      { kind: 'eoa', address: broke.address, owner: broke.address },
      splitCalls(marketOf(standard), contracts, 1_000_000n),
      {
        chainId: sandbox.chainId,
        wallets: {},
      },
    );
    const error = await quoteGas(plan.transactions[0]!, providerGasReader(provider)).catch((e: PmDeskError) => e);
    expect((error as PmDeskError).code).toBe('ERR_API_REQUEST');
    expect((error as PmDeskError).detail).toMatch(/^The chain would refuse this transaction, so nothing was sent/);
  });
});
