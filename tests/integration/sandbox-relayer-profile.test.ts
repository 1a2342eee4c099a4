// `npm run sandbox` runs the relayer too: the profile names `relayerUrl` and a relayer API key per test wallet,
// so the ready-made Safe and deposit wallet act gaslessly with no login; Polymarket's relayer client reads the
// sandbox relayer's nonces, relay payload, deployment answers and transaction states unchanged.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Interface, MaxUint256 } from 'ethers';
import { createWalletClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { polygon } from 'viem/chains';
import { RelayClient, RelayerTxType } from '@polymarket/builder-relayer-client';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { privateKeySigner } from '../../packages/toolkit/src/orders/signer';
import {
  buildSafeRequest,
  buildWalletBatchRequest,
  relayerRequestBody,
  type RelayerNetwork,
  type RelayerRequest,
} from '../../packages/toolkit/src/relayer/requests';
import { relayerApiKeyHeaders } from '../../packages/toolkit/src/relayer/auth';
import { RelayerClient } from '../../packages/toolkit/src/relayer/client';

const erc20 = new Interface(['function approve(address spender, uint256 amount)']);

let sandbox: RunningSandbox;
let network: RelayerNetwork;

function keyOf(owner: string): string {
  const wallet = sandbox.profile.testWallets.find((w) => w.address === owner);
  if (!wallet) throw new Error(`no test wallet ${owner}`);
  return wallet.privateKey;
}
async function submit(request: RelayerRequest, owner: string): Promise<{ transactionID: string; state: string }> {
  const apiKey = sandbox.profile.relayerApiKeys.find((k) => k.address === owner)!;
  const body = relayerRequestBody(request);
  const res = await fetch(`${sandbox.profile.relayerUrl}/submit`, {
    method: 'POST',
    body,
    headers: { ...relayerApiKeyHeaders(apiKey), 'content-type': 'application/json' },
  });
  const json = (await res.json()) as { transactionID: string; state: string; error?: string };
  expect(res.status, json.error).toBe(200);
  return json;
}
/** Polymarket's client, pointed at the sandbox relayer; its chain is Polygon's id with the RPC on 127.0.0.1 (never used for reads here). */
function officialClient(privateKey: `0x${string}`): RelayClient {
  const chain = { ...polygon, rpcUrls: { default: { http: [sandbox.profile.rpcUrl] } } };
  const wallet = createWalletClient({
    account: privateKeyToAccount(privateKey),
    chain,
    transport: http(sandbox.profile.rpcUrl),
  });
  return new RelayClient(sandbox.profile.relayerUrl, 137, wallet, undefined, RelayerTxType.SAFE, { chain });
}

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { rpc: 0, clob: 0, aggregator: 0 }, simulate: 'off', seed: 11 });
  network = {
    chainId: sandbox.profile.chainId,
    wallets: sandbox.profile.wallets,
    multiSend: sandbox.profile.wallets.multiSend,
  };
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
}, 180_000);
afterAll(async () => {
  vi.restoreAllMocks();
  await sandbox?.stop();
});

describe('the sandbox profile’s relayer', () => {
  it('names the relayer and a key for every test wallet', () => {
    expect(sandbox.profile.relayerUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.profile.relayerApiKeys.map((k) => k.address)).toEqual(
      sandbox.profile.testWallets.map((w) => w.address),
    );
  });

  it('runs the ready-made Safe’s and deposit wallet’s approvals with the profile’s keys, read back by Polymarket’s client', async () => {
    const spender = sandbox.profile.contracts.collateralOnramp;
    const call = {
      to: sandbox.profile.contracts.collateral,
      data: erc20.encodeFunctionData('approve', [spender, MaxUint256]),
    };
    for (const account of sandbox.profile.testAccounts.filter((a) => a.kind !== 'proxy')) {
      const key = keyOf(account.owner);
      const official = officialClient(key as `0x${string}`);
      expect(await official.getDeployed(account.address)).toBe(true);
      const type = account.kind === 'safe' ? 'SAFE' : 'WALLET';
      const { nonce } = await official.getNonce(account.owner, type);
      const signer = privateKeySigner(key);
      const block = await fetch(sandbox.profile.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: ['latest', false] }),
      });
      const now = Number(((await block.json()) as { result: { timestamp: string } }).result.timestamp);
      const request =
        account.kind === 'safe'
          ? await buildSafeRequest(network, { signer, calls: [call], nonce })
          : await buildWalletBatchRequest(network, {
              signer,
              wallet: account.address,
              calls: [call],
              nonce,
              deadline: now + 600,
            });
      const { transactionID } = await submit(request, account.owner);
      // Polymarket's own poll: it returns the transaction once it is mined or confirmed.
      const done = await official.pollUntilState(
        transactionID,
        ['STATE_MINED', 'STATE_CONFIRMED'],
        'STATE_FAILED',
        400,
        25,
      );
      expect(done?.proxyAddress).toBe(account.address);
      expect(done?.type).toBe(type);
      expect((await official.getNonce(account.owner, type)).nonce).toBe(String(BigInt(nonce) + 1n));
    }
    const payload = await officialClient(
      keyOf(sandbox.profile.testWallets[0]!.address) as `0x${string}`,
    ).getRelayPayload(sandbox.profile.testWallets[0]!.address, 'PROXY');
    expect(payload).toEqual({ address: sandbox.relayer.relayAddress, nonce: '0' });
  });

  it("the toolkit's relayer client does the whole round with the profile's key: nonce, submit, follow to mined", async () => {
    const safe = sandbox.profile.testAccounts.find((a) => a.kind === 'safe')!;
    const apiKey = sandbox.profile.relayerApiKeys.find((k) => k.address === safe.owner)!;
    const relayer = new RelayerClient({ url: sandbox.profile.relayerUrl, credentials: { kind: 'api-key', apiKey } });
    expect(await relayer.deployed(safe.address)).toBe(true);
    const nonce = await relayer.nonce(safe.owner, 'SAFE');
    const call = {
      to: sandbox.profile.contracts.collateral,
      data: erc20.encodeFunctionData('approve', [sandbox.profile.contracts.exchange, 5n]),
    };
    const submitted = await relayer.submit(
      await buildSafeRequest(network, { signer: privateKeySigner(keyOf(safe.owner)), calls: [call], nonce }),
    );
    const outcome = await relayer.waitForFinal(submitted, { maxPolls: 400, intervalMs: 25 });
    expect(outcome).toMatchObject({ final: true, succeeded: true });
    expect(outcome.summary).toMatch(/^Sent through Polymarket's relayer — no gas needed: mined as 0x[0-9a-f]{64}\.$/);
    expect((await relayer.transactions()).map((t) => t.transactionID)).toContain(submitted.transactionID);
  });
});
