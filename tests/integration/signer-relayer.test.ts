// The signer worker signs Polymarket relayer requests with the key it holds exactly as the toolkit signs them with
// the plain key: the same PROXY, SAFE and WALLET bodies for a money action whose calls the worker builds from the
// sandbox chain, and the same SAFE-CREATE / WALLET-CREATE; the toolkit's bodies are themselves checked byte for byte
// against Polymarket's relayer client (tests/conformance/relayer-official.test.ts). An account that is not the key's,
// a nonce that is not a whole number and a proxy "deployment" are refused before anything is signed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress } from 'ethers';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { sandboxProvider } from '../../sandbox/chain/index';
import { parseNetworkProfile, walletConfigFor, type NetworkProfile } from '../../packages/toolkit/src/chain/networks';
import { actionContractsFor } from '../../packages/toolkit/src/accounts/action-contracts';
import { moneyActionCalls } from '../../packages/toolkit/src/positions/money-calls';
import { privateKeySigner } from '../../packages/toolkit/src/orders/signer';
import { relayerRequestBody, type RelayerNetwork } from '../../packages/toolkit/src/relayer/requests';
import { buildRelayedCalls, buildRelayedDeployment } from '../../packages/toolkit/src/relayer/account-relay';
import { startSignerThread } from '../../src/main/wallets/signer-thread';
import type { SignerClient } from '../../src/main/wallets/signer-client';
import { FAST_SCRYPT, PASSWORD } from '../helpers/trading-sandbox';

const RELAY = '0x000000000000000000000000000000000000bEEF';
const DEADLINE = '2000000000';
const ACTION = { action: 'wrap' as const, amount: '1000000' };

let sandbox: RunningSandbox;
let signer: SignerClient;
let network: NetworkProfile;
let relayerNetwork: RelayerNetwork;

const KINDS = { proxy: 'proxy', safe: 'safe', deposit: 'deposit-wallet' } as const;
const accountOf = (kind: 'proxy' | 'safe' | 'deposit') => sandbox.profile.testAccounts.find((a) => a.kind === kind)!;
const keyOf = (owner: string) =>
  sandbox.profile.testWallets.find((w) => getAddress(w.address) === getAddress(owner))!.privateKey;

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { rpc: 0, clob: 0, aggregator: 0 }, simulate: 'off' });
  network = parseNetworkProfile(sandbox.profile);
  relayerNetwork = {
    chainId: network.chainId,
    wallets: walletConfigFor(network),
    multiSend: actionContractsFor(network).multiSend,
  };
  signer = startSignerThread();
  for (const kind of ['proxy', 'safe', 'deposit'] as const) {
    const { keystore } = await signer.importPrivateKey(keyOf(accountOf(kind).owner), PASSWORD, FAST_SCRYPT);
    await signer.unlock(keystore, PASSWORD);
  }
}, 180_000);

afterAll(async () => {
  await signer?.close();
  await sandbox?.stop();
});

function workerRequest(
  kind: 'proxy' | 'safe' | 'deposit',
  what: 'deploy' | 'action',
  extra: Record<string, unknown> = {},
) {
  const account = accountOf(kind);
  return signer.signRelayerRequest(account.owner, {
    what,
    account: { kind: KINDS[kind], address: account.address, wallets: walletConfigFor(network) },
    chainId: network.chainId,
    multiSend: relayerNetwork.multiSend,
    action: ACTION,
    contracts: actionContractsFor(network),
    rpcUrl: sandbox.profile.rpcUrl,
    reads: { nonce: '3', relay: RELAY },
    deadline: DEADLINE,
    ...extra,
  });
}

describe('relayer requests signed in the signer worker', () => {
  it.each(['proxy', 'safe', 'deposit'] as const)(
    "signs a %s account's wrap byte for byte as the toolkit does with the plain key",
    async (kind) => {
      const account = accountOf(kind);
      const fromWorker = await workerRequest(kind, 'action');
      const provider = sandboxProvider(sandbox.profile.rpcUrl, sandbox.profile.chainId);
      try {
        const { calls, amount } = await moneyActionCalls(
          provider,
          actionContractsFor(network),
          account.address,
          ACTION,
        );
        const plain = await buildRelayedCalls(relayerNetwork, privateKeySigner(keyOf(account.owner)), {
          account: { kind: KINDS[kind], address: account.address, owner: account.owner },
          calls,
          reads: { nonce: '3', relay: RELAY },
          deadline: DEADLINE,
        });
        expect(fromWorker.request.type).toBe({ proxy: 'PROXY', safe: 'SAFE', deposit: 'WALLET' }[kind]);
        expect(relayerRequestBody(fromWorker.request)).toBe(relayerRequestBody(plain));
        expect(fromWorker.amount).toBe(amount.toString());
      } finally {
        provider.destroy();
      }
    },
  );

  it.each(['safe', 'deposit'] as const)("signs a %s's deployment as the toolkit does", async (kind) => {
    const account = accountOf(kind);
    const fromWorker = await workerRequest(kind, 'deploy');
    const plain = await buildRelayedDeployment(relayerNetwork, privateKeySigner(keyOf(account.owner)), KINDS[kind]);
    expect(fromWorker.request.type).toBe(kind === 'safe' ? 'SAFE-CREATE' : 'WALLET-CREATE');
    expect(relayerRequestBody(fromWorker.request)).toBe(relayerRequestBody(plain!));
  });

  it("refuses another key's account, a nonce that is not a whole number and a proxy deployment, signing nothing", async () => {
    const other = await workerRequest('safe', 'action', {
      account: { kind: 'safe', address: accountOf('deposit').address, wallets: walletConfigFor(network) },
    }).catch((e: unknown) => e);
    expect((other as { code: string }).code).toBe('ERR_INVALID_PARAM');
    const nonce = await workerRequest('safe', 'action', { reads: { nonce: '1.5' } }).catch((e: unknown) => e);
    expect((nonce as { code: string }).code).toBe('ERR_INVALID_PARAM');
    expect((nonce as Error).message).toMatch(/nonce/);
    const proxy = await workerRequest('proxy', 'deploy').catch((e: unknown) => e);
    expect((proxy as { code: string }).code).toBe('ERR_INVALID_PARAM');
  });
});
