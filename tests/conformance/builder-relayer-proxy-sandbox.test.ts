// Polymarket's relayer client (@polymarket/builder-relayer-client 0.0.10) unchanged, for a proxy account on the
// sandbox chain. That client knows only Polygon's proxy factory, implementation and relay hub (it derives the proxy
// wallet from their init-code hash and signs the rlx: hash naming that hub), so this test stands the sandbox's own
// ProxyWalletFactory, ProxyWallet and RelayHub at Polygon's addresses (anvil moves the code) and points a sandbox
// relayer at them. A key with no gas then submits approvals and a split through the sandbox relayer, executed on
// chain through the hub. The chain keeps the sandbox's id: a PROXY signature names no chain.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AbiCoder, Contract, Interface, MaxUint256, Wallet, ZeroHash, concat, type JsonRpcProvider } from 'ethers';
import { createWalletClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { polygon } from 'viem/chains';
import { RelayClient, RelayerTxType } from '@polymarket/builder-relayer-client';
// The builder-signing-sdk the relayer client itself depends on (0.0.8), not the newer one at the top level.
import { BuilderConfig } from '@polymarket/builder-relayer-client/node_modules/@polymarket/builder-signing-sdk';
import { startChain, type Chain } from '../../sandbox/chain/anvil';
import { compileContracts } from '../../sandbox/chain/compile';
import { deploySandbox, sandboxProvider, TX_OVERRIDES, type Deployment } from '../../sandbox/chain/deploy';
import { relocateContract } from '../../sandbox/chain/relocate';
import { proxyWalletAddress } from '../../sandbox/chain/wallet-addresses';
import { startRelayer, type SandboxRelayer } from '../../sandbox/relayer/server';
import { POLYGON_WALLETS } from '../../packages/toolkit/src/chain/wallet-config';
import { POLYGON_RELAY_HUB } from '../../packages/toolkit/src/relayer/requests';

const BUILDER = { key: 'sandbox-builder', secret: 'c2FuZGJveC1idWlsZGVyLXNlY3JldA==', passphrase: 'sandbox-pass' };
const RELAY_KEY = '0x5f5a012f7403e3eeeb3feefae2b1af22cb80a888765b94cb487c793036200aac'; // keccak256("pmdesk builder relayer proxy test")
const erc20 = new Interface([
  'function approve(address spender, uint256 amount)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function balanceOf(address owner) view returns (uint256)',
  'function mint(address to, uint256 amount)',
]);
const ctf = new Interface([
  'function splitPosition(address collateralToken, bytes32 parentCollectionId, bytes32 conditionId, uint256[] partition, uint256 amount)',
  'function balanceOf(address owner, uint256 id) view returns (uint256)',
]);

let chain: Chain;
let deployment: Deployment;
let provider: JsonRpcProvider;
let relayer: SandboxRelayer;
const owner = Wallet.createRandom();

beforeAll(async () => {
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  chain = await startChain();
  deployment = await deploySandbox(chain);
  provider = sandboxProvider(deployment.rpcUrl, deployment.chainId);
  const operator = new Wallet(deployment.operator.privateKey, provider);
  const compiled = compileContracts();
  const deploy = async (artifact: { abi: unknown; bytecode: string }, types: string[] = [], args: unknown[] = []) => {
    const sent = await operator.sendTransaction({
      data: concat([artifact.bytecode, AbiCoder.defaultAbiCoder().encode(types, args)]),
      gasLimit: 5_000_000n,
      ...TX_OVERRIDES,
    });
    const receipt = await sent.wait();
    return receipt!.contractAddress!;
  };
  // Polygon's implementation and hub first, then a factory that names both, moved to Polygon's factory address.
  await relocateContract(provider, await deploy(compiled.ProxyWallet), POLYGON_WALLETS.proxyImplementation!);
  await relocateContract(provider, await deploy(compiled.RelayHub), POLYGON_RELAY_HUB);
  await relocateContract(
    provider,
    await deploy(
      compiled.ProxyWalletFactory,
      ['address', 'address'],
      [POLYGON_RELAY_HUB, POLYGON_WALLETS.proxyImplementation],
    ),
    POLYGON_WALLETS.proxyFactory!,
  );
  const wallets = {
    ...deployment.wallets,
    proxyFactory: POLYGON_WALLETS.proxyFactory!,
    proxyImplementation: POLYGON_WALLETS.proxyImplementation!,
    relayHub: POLYGON_RELAY_HUB,
  };
  relayer = await startRelayer({
    rpcUrl: deployment.rpcUrl,
    chainId: deployment.chainId,
    wallets,
    relayKey: RELAY_KEY,
    builders: [BUILDER],
  });
  // The proxy wallet's pUSD, minted to it before it exists (the owner never holds gas or pUSD).
  const proxy = proxyWalletAddress(POLYGON_WALLETS.proxyFactory!, POLYGON_WALLETS.proxyImplementation!, owner.address);
  await (
    await new Contract(deployment.contracts.collateral, erc20, operator).getFunction('mint')(
      proxy,
      10_000_000n,
      TX_OVERRIDES,
    )
  ).wait();
}, 180_000);
afterAll(async () => {
  vi.restoreAllMocks();
  await relayer?.stop();
  provider?.destroy();
  await chain?.stop();
});

function officialClient(): RelayClient {
  // Polygon's id, as the client insists, with the RPC on the sandbox chain (it only estimates gas there).
  const rpc = deployment.rpcUrl;
  const chain137 = { ...polygon, rpcUrls: { default: { http: [rpc] } } };
  const wallet = createWalletClient({
    account: privateKeyToAccount(owner.privateKey as `0x${string}`),
    chain: chain137,
    transport: http(rpc),
  });
  return new RelayClient(
    relayer.url,
    137,
    wallet,
    new BuilderConfig({ localBuilderCreds: BUILDER }),
    RelayerTxType.PROXY,
    { chain: chain137 },
  );
}

describe('@polymarket/builder-relayer-client 0.0.10 runs a proxy account through the sandbox relayer', () => {
  it('approves and splits 2 pUSD from a proxy wallet made on first use; the owner pays nothing', async () => {
    const proxy = proxyWalletAddress(
      POLYGON_WALLETS.proxyFactory!,
      POLYGON_WALLETS.proxyImplementation!,
      owner.address,
    );
    const market = deployment.markets.find((m) => !m.negRisk)!;
    const read = async (to: string, iface: Interface, fn: string, args: unknown[]) =>
      iface.decodeFunctionResult(
        fn,
        await provider.call({ to, data: iface.encodeFunctionData(fn, args) }),
      )[0] as bigint;
    expect(await provider.getCode(proxy)).toBe('0x');
    const client = officialClient();
    expect(await client.getRelayPayload(owner.address, 'PROXY')).toEqual({ address: relayer.relayAddress, nonce: '0' });

    const calls = [
      {
        to: deployment.contracts.collateral,
        data: erc20.encodeFunctionData('approve', [deployment.contracts.conditionalTokens, MaxUint256]),
        value: '0',
      },
      {
        to: deployment.contracts.conditionalTokens,
        data: ctf.encodeFunctionData('splitPosition', [
          deployment.contracts.collateral,
          ZeroHash,
          market.conditionId,
          [1, 2],
          2_000_000n,
        ]),
        value: '0',
      },
    ];
    const response = await client.execute(calls, 'approve and split');
    const done = await response.wait();
    expect(done?.state).toMatch(/^STATE_(MINED|CONFIRMED)$/);
    expect(done?.proxyAddress).toBe(proxy);

    expect(
      await read(deployment.contracts.collateral, erc20, 'allowance', [proxy, deployment.contracts.conditionalTokens]),
    ).toBe(MaxUint256);
    expect(await read(deployment.contracts.collateral, erc20, 'balanceOf', [proxy])).toBe(8_000_000n);
    for (const tokenId of market.tokenIds)
      expect(await read(deployment.contracts.conditionalTokens, ctf, 'balanceOf', [proxy, BigInt(tokenId)])).toBe(
        2_000_000n,
      );
    expect(await provider.getBalance(owner.address)).toBe(0n);
    expect(await client.getRelayPayload(owner.address, 'PROXY')).toEqual({ address: relayer.relayAddress, nonce: '1' });
  });
});
