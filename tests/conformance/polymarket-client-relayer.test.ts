// Polymarket's own TypeScript client (@polymarket/client 0.2.0) as the judge of the sandbox relayer: its secure
// client for the sandbox's ready-made Safe and deposit wallet, authenticated by the relayer API key the profile
// gives, runs `setupTradingApprovals` gaslessly: it signs as Polymarket's relayer expects, the sandbox relayer
// checks and executes, and the client follows it (on the v1 paths) until STATE_CONFIRMED. The owners pay no gas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Interface, MaxUint256, type JsonRpcProvider } from 'ethers';
import WebSocket from 'ws';
import { createSecureClient, forkEnvironmentConfig, relayerApiKey } from '@polymarket/client';
import { privateKey } from '@polymarket/client/viem';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { sandboxProvider } from '../../sandbox/chain/index';

const erc20 = new Interface(['function allowance(address owner, address spender) view returns (uint256)']);
const erc1155 = new Interface(['function isApprovedForAll(address owner, address operator) view returns (bool)']);

let sandbox: RunningSandbox;
let provider: JsonRpcProvider;
let environment: ReturnType<typeof forkEnvironmentConfig>;

beforeAll(async () => {
  (globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;
  sandbox = await startSandbox({ ports: { rpc: 0, clob: 0, aggregator: 0, polymarket: 0 }, simulate: 'off', seed: 9 });
  const p = sandbox.profile;
  provider = sandboxProvider(p.rpcUrl, p.chainId);
  // Every URL and contract the client would take from production points at the sandbox. The sandbox has no
  // PositionManager: the client's approval check reads isApprovedForAll there, so ConditionalTokens stands in.
  environment = forkEnvironmentConfig({
    name: 'sandbox',
    chainId: p.chainId,
    rpc: p.rpcUrl,
    gamma: { rest: p.gammaUrl },
    data: { rest: p.dataUrl },
    clob: { rest: p.clobUrl, market: { ws: `${p.wsUrl}/market` }, user: { ws: `${p.wsUrl}/user` } },
    rtds: { ws: p.rtdsUrl },
    relayer: { rest: p.relayerUrl },
    relayerPollFrequencyMs: 50,
    walletDerivation: {
      depositWalletFactory: p.wallets.depositWalletFactory,
      depositWalletBeacon: p.wallets.depositWalletBeacon,
      depositWalletImplementation: p.wallets.depositWalletImplementation,
      proxyFactory: p.wallets.proxyFactory,
      proxyImplementation: p.wallets.proxyImplementation,
      safeFactory: p.wallets.safeFactory,
      safeInitCodeHash: p.wallets.safeInitCodeHash,
    },
    contracts: {
      collateralToken: p.contracts.collateral,
      conditionalTokens: p.contracts.conditionalTokens,
      standardExchange: p.contracts.exchange,
      negRiskExchange: p.contracts.negRiskExchange,
      negRiskAdapter: p.contracts.negRiskAdapter,
      safeMultisend: p.wallets.multiSend,
      positionManager: p.contracts.conditionalTokens,
    },
  } as never);
}, 180_000);
afterAll(async () => {
  provider?.destroy();
  await sandbox?.stop();
});

describe('@polymarket/client 0.2.0 acts gaslessly through the sandbox relayer', () => {
  it.each(['safe', 'deposit'] as const)('setupTradingApprovals for the %s account: approved on chain, the owner paid nothing', async (kind) => {
    const p = sandbox.profile;
    const account = p.testAccounts.find((a) => a.kind === kind)!;
    const owner = p.testWallets.find((w) => w.address === account.owner)!;
    const apiKey = p.relayerApiKeys.find((k) => k.address === account.owner)!;
    const client = (await createSecureClient({ environment, signer: privateKey(owner.privateKey), wallet: account.address, apiKey: relayerApiKey(apiKey as never) } as never)) as unknown as {
      setupTradingApprovals(): Promise<void>;
    };
    const read = async (to: string, iface: Interface, fn: string, args: unknown[]) => iface.decodeFunctionResult(fn, await provider.call({ to, data: iface.encodeFunctionData(fn, args) }))[0] as unknown;
    // Targets the sandbox's own set-up did not approve: Polymarket's collateral adapter and auto-redeem operator.
    const { collateralAdapter, autoRedeemOperator } = (environment as unknown as { contracts: Record<string, string> }).contracts as Record<'collateralAdapter' | 'autoRedeemOperator', string>;
    expect(await read(p.contracts.collateral, erc20, 'allowance', [account.address, collateralAdapter])).toBe(0n);
    expect(await read(p.contracts.conditionalTokens, erc1155, 'isApprovedForAll', [account.address, autoRedeemOperator])).toBe(false);
    const ownerBalance = await provider.getBalance(owner.address);
    const relayed = await provider.getTransactionCount(sandbox.relayer.relayAddress);

    await client.setupTradingApprovals();

    expect(await read(p.contracts.collateral, erc20, 'allowance', [account.address, collateralAdapter])).toBe(MaxUint256);
    expect(await read(p.contracts.conditionalTokens, erc1155, 'isApprovedForAll', [account.address, autoRedeemOperator])).toBe(true);
    expect(await provider.getBalance(owner.address)).toBe(ownerBalance);
    expect(await provider.getTransactionCount(sandbox.relayer.relayAddress)).toBe(relayed + 1);

    // Everything approved now: a second run finds nothing to do and sends nothing.
    await client.setupTradingApprovals();
    expect(await provider.getTransactionCount(sandbox.relayer.relayAddress)).toBe(relayed + 1);
  });
});
