// The sandbox relayer on a real sandbox chain: a key that holds no gas at all deploys its Safe and its deposit
// wallet and runs approvals from both and from its proxy wallet (through the sandbox's GSN relay hub) through the
// relayer (requests built and signed by the toolkit exactly as Polymarket's relayer client builds them),
// authenticated by builder HMAC or a relayer API key; the relayer refuses a forged signature, a stale nonce, a
// wallet that is not the sender's, a wallet with an action in flight, and bad auth without sending anything, and
// answers /submit while an earlier transaction is still unmined.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Interface, MaxUint256, Wallet, type JsonRpcProvider } from 'ethers';
import { startChain, type Chain } from '../../sandbox/chain/anvil';
import { deploySandbox, sandboxProvider, type Deployment } from '../../sandbox/chain/deploy';
import { startRelayer, relayedWallets, type SandboxRelayer } from '../../sandbox/relayer/server';
import { privateKeySigner } from '../../packages/toolkit/src/orders/signer';
import { deriveAccounts } from '../../packages/toolkit/src/accounts/derive';
import {
  buildProxyRequest,
  buildSafeCreateRequest,
  buildSafeRequest,
  buildWalletBatchRequest,
  buildWalletCreateRequest,
  relayerRequestBody,
  type RelayerNetwork,
  type RelayerRequest,
} from '../../packages/toolkit/src/relayer/requests';
import { builderHeaders, relayerApiKeyHeaders } from '../../packages/toolkit/src/relayer/auth';

const BUILDER = { key: 'sandbox-builder', secret: 'c2FuZGJveC1idWlsZGVyLXNlY3JldA==', passphrase: 'sandbox-pass' };
const RELAY_KEY = '0x2bba99c0dc5a50b1d1fff8912d45f9da13c389ff022d79e5067162e981da0179'; // keccak256("pmdesk relayer test"): no dev key's nonces
const erc20 = new Interface([
  'function approve(address spender, uint256 amount)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function transfer(address to, uint256 amount)',
]);
const erc1155 = new Interface([
  'function setApprovalForAll(address operator, bool approved)',
  'function isApprovedForAll(address owner, address operator) view returns (bool)',
]);

let chain: Chain;
let deployment: Deployment;
let relayer: SandboxRelayer;
let provider: JsonRpcProvider;
let network: RelayerNetwork;
const owner = Wallet.createRandom();
const signer = privateKeySigner(owner.privateKey);
const apiKey = { key: 'relayer-key-1', address: owner.address };

type Auth = 'builder' | 'api-key' | 'none';
async function post(
  path: string,
  body: string,
  auth: Auth,
  tamper?: (h: Record<string, string>) => void,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const headers: Record<string, string> =
    auth === 'builder'
      ? { ...builderHeaders(BUILDER, { method: 'POST', path, body }) }
      : auth === 'api-key'
        ? { ...relayerApiKeyHeaders(apiKey) }
        : {};
  tamper?.(headers);
  const res = await fetch(`${relayer.url}${path}`, {
    method: 'POST',
    body,
    headers: { ...headers, 'content-type': 'application/json' },
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}
async function get<T>(path: string, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetch(`${relayer.url}${path}`, { headers });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}
async function relayed(
  request: RelayerRequest,
  auth: Auth = 'builder',
): Promise<{ state: string; transactionHash: string }> {
  const answer = await post('/submit', relayerRequestBody(request), auth);
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  // Answered once sent; followed, as Polymarket's clients follow it, until it is confirmed or failed (bounded).
  for (let poll = 0; poll < 1200; poll++) {
    const [record] = await get<Array<{ state: string; transactionHash: string }>>(
      `/transaction?id=${String(answer.json.transactionID)}`,
    );
    if (['STATE_CONFIRMED', 'STATE_FAILED', 'STATE_INVALID'].includes(record!.state)) return record!;
    await new Promise((done) => setTimeout(done, 25));
  }
  throw new Error(`transaction ${String(answer.json.transactionID)} never reached a final state`);
}
const proxyNetwork = (): RelayerNetwork => ({ ...network, relayHub: deployment.wallets.relayHub });
const approve = () => ({
  to: deployment.contracts.collateral,
  data: erc20.encodeFunctionData('approve', [deployment.contracts.exchange, MaxUint256]),
});
const approveAll = () => ({
  to: deployment.contracts.conditionalTokens,
  data: erc1155.encodeFunctionData('setApprovalForAll', [deployment.contracts.exchange, true]),
});
async function allowance(holder: string): Promise<bigint> {
  return BigInt(
    await provider.call({
      to: deployment.contracts.collateral,
      data: erc20.encodeFunctionData('allowance', [holder, deployment.contracts.exchange]),
    }),
  );
}

beforeAll(async () => {
  chain = await startChain();
  deployment = await deploySandbox(chain);
  provider = sandboxProvider(deployment.rpcUrl, deployment.chainId);
  relayer = await startRelayer({
    rpcUrl: deployment.rpcUrl,
    chainId: deployment.chainId,
    wallets: deployment.wallets,
    relayKey: RELAY_KEY,
    apiKeys: [apiKey],
    builders: [BUILDER],
  });
  network = { chainId: deployment.chainId, wallets: deployment.wallets, multiSend: deployment.wallets.multiSend };
}, 120_000);
afterAll(async () => {
  await relayer?.stop();
  provider?.destroy();
  await chain?.stop();
});

describe('the sandbox relayer runs a gasless key’s actions', () => {
  const wallets = () => relayedWallets(deployment.wallets, owner.address);

  it('deploys the Safe (SAFE-CREATE) and runs a batch from it (SAFE), the relay account paying the gas', async () => {
    expect(await provider.getBalance(owner.address)).toBe(0n);
    expect(await get(`/deployed?address=${wallets().safe}`)).toEqual({ deployed: false });
    expect((await relayed(await buildSafeCreateRequest(network, { signer }))).state).toBe('STATE_CONFIRMED');
    expect(await get(`/deployed?address=${wallets().safe}`)).toEqual({ deployed: true });

    const { nonce } = await get<{ nonce: string }>(`/nonce?address=${owner.address}&type=SAFE`);
    expect(nonce).toBe('0');
    const request = await buildSafeRequest(network, { signer, calls: [approve(), approveAll()], nonce });
    expect((await relayed(request)).state).toBe('STATE_CONFIRMED');
    expect(await allowance(wallets().safe)).toBe(MaxUint256);
    expect(await get(`/nonce?address=${owner.address}&type=SAFE`)).toEqual({ nonce: '1' });

    // The same request again is stale: refused, never sent twice.
    const before = await provider.getTransactionCount(relayer.relayAddress);
    const replay = await post('/submit', relayerRequestBody(request), 'builder');
    expect(replay.status).toBe(400);
    expect(String(replay.json.error)).toMatch(/nonce/);
    expect(await provider.getTransactionCount(relayer.relayAddress)).toBe(before);
    expect(await provider.getBalance(owner.address)).toBe(0n);
  });

  it('deploys the deposit wallet (WALLET-CREATE) and runs a Batch from it (WALLET), with a relayer API key', async () => {
    expect((await relayed(await buildWalletCreateRequest(network, { signer }), 'api-key')).state).toBe(
      'STATE_CONFIRMED',
    );
    const { nonce } = await get<{ nonce: string }>(`/nonce?address=${owner.address}&type=WALLET`);
    const block = await provider.getBlock('latest');
    const request = await buildWalletBatchRequest(network, {
      signer,
      wallet: wallets().depositWallet,
      calls: [approve()],
      nonce,
      deadline: block!.timestamp + 600,
    });
    expect((await relayed(request, 'api-key')).state).toBe('STATE_CONFIRMED');
    expect(await allowance(wallets().depositWallet)).toBe(MaxUint256);
  });

  it('reports a batch whose call reverts on chain as STATE_FAILED', async () => {
    const { nonce } = await get<{ nonce: string }>(`/nonce?address=${owner.address}&type=WALLET`);
    const block = await provider.getBlock('latest');
    // The deposit wallet holds no pUSD: transferring some reverts inside the batch.
    const transfer = {
      to: deployment.contracts.collateral,
      data: erc20.encodeFunctionData('transfer', [owner.address, 1_000_000n]),
    };
    const request = await buildWalletBatchRequest(network, {
      signer,
      wallet: wallets().depositWallet,
      calls: [transfer],
      nonce,
      deadline: block!.timestamp + 600,
    });
    const record = await relayed(request);
    expect(record.state).toBe('STATE_FAILED');
    expect(record.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('runs a PROXY batch through the relay hub: the proxy wallet is made on first use and its nonce moves on', async () => {
    const proxyWallet = deriveAccounts(owner.address, deployment.wallets).proxy!;
    expect(await provider.getCode(proxyWallet)).toBe('0x');
    const payload = await get<{ address: string; nonce: string }>(`/relay-payload?address=${owner.address}&type=PROXY`);
    expect(payload).toEqual({ address: relayer.relayAddress, nonce: '0' });
    const request = await buildProxyRequest(proxyNetwork(), {
      signer,
      calls: [approve(), approveAll()],
      relay: payload.address,
      nonce: payload.nonce,
      gasLimit: 1_000_000n,
    });
    expect(request.proxyWallet).toBe(proxyWallet);
    expect((await relayed(request)).state).toBe('STATE_CONFIRMED');
    expect(await allowance(proxyWallet)).toBe(MaxUint256);
    expect(await get(`/nonce?address=${owner.address}&type=PROXY`)).toEqual({ nonce: '1' });
    expect(await get(`/relay-payload?address=${owner.address}&type=PROXY`)).toEqual({
      address: relayer.relayAddress,
      nonce: '1',
    });

    // Sent again, it is stale: refused, never run twice.
    const replay = await post('/submit', relayerRequestBody(request), 'builder');
    expect(replay.status).toBe(400);
    expect(String(replay.json.error)).toMatch(/nonce 0 is not/);
    expect(await provider.getBalance(owner.address)).toBe(0n);
  });

  it('reports a PROXY batch whose call reverts as STATE_FAILED with its hash; the hub still used the nonce', async () => {
    const { nonce } = await get<{ nonce: string }>(`/nonce?address=${owner.address}&type=PROXY`);
    // The proxy wallet holds no pUSD: transferring some reverts inside the relayed call.
    const transfer = {
      to: deployment.contracts.collateral,
      data: erc20.encodeFunctionData('transfer', [owner.address, 1_000_000n]),
    };
    const request = await buildProxyRequest(proxyNetwork(), {
      signer,
      calls: [transfer],
      relay: relayer.relayAddress,
      nonce,
      gasLimit: 500_000n,
    });
    const record = await relayed(request);
    expect(record.state).toBe('STATE_FAILED');
    expect(record.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await get(`/nonce?address=${owner.address}&type=PROXY`)).toEqual({ nonce: String(BigInt(nonce) + 1n) });
  });

  it('answers /submit while an earlier transaction is not mined yet, and refuses a second action for a wallet in flight', async () => {
    // Blocks are held: whatever the relayer sends waits in the pool until the test mines.
    const other = Wallet.createRandom();
    const otherSigner = privateKeySigner(other.privateKey);
    const accounts = relayedWallets(deployment.wallets, other.address);
    await provider.send('evm_setAutomine', [false]);
    try {
      const block = await provider.getBlockNumber();
      const first = await post(
        '/submit',
        relayerRequestBody(await buildSafeCreateRequest(network, { signer: otherSigner })),
        'builder',
      );
      expect(first.status, JSON.stringify(first.json)).toBe(200);
      expect(first.json.state).toBe('STATE_EXECUTED');
      // Before, the relayer held every later /submit until the first was mined and confirmed.
      const second = await post(
        '/submit',
        relayerRequestBody(await buildWalletCreateRequest(network, { signer: otherSigner })),
        'builder',
      );
      expect(second.status, JSON.stringify(second.json)).toBe(200);
      expect(second.json.state).toBe('STATE_EXECUTED');
      // The Safe's creation is in flight: creating it again would send it twice.
      const again = await post(
        '/submit',
        relayerRequestBody(await buildSafeCreateRequest(network, { signer: otherSigner })),
        'builder',
      );
      expect(again.status).toBe(400);
      expect(again.json.error).toBe('wallet has in-flight action');
      expect(await provider.getBlockNumber()).toBe(block);
      expect(await provider.getCode(accounts.safe)).toBe('0x');

      await provider.send('evm_mine', []);
      for (const answer of [first, second]) {
        const id = String(answer.json.transactionID);
        let state = '';
        for (let poll = 0; poll < 1200 && state !== 'STATE_CONFIRMED'; poll++) {
          state = (await get<Array<{ state: string }>>(`/transaction?id=${id}`))[0]!.state;
          if (state !== 'STATE_CONFIRMED') await new Promise((done) => setTimeout(done, 25));
        }
        expect(state).toBe('STATE_CONFIRMED');
      }
      expect(await provider.getCode(accounts.safe)).not.toBe('0x');
      expect(await provider.getCode(accounts.depositWallet)).not.toBe('0x');
    } finally {
      await provider.send('evm_setAutomine', [true]);
    }
  }, 20_000);

  it('lists the builder’s own transactions on GET /transactions', async () => {
    const headers = { ...builderHeaders(BUILDER, { method: 'GET', path: '/transactions' }) };
    const mine = await get<Array<{ type: string; from: string }>>('/transactions', headers);
    expect(mine.map((t) => t.type)).toEqual([
      'SAFE-CREATE',
      'SAFE',
      'WALLET',
      'PROXY',
      'PROXY',
      'SAFE-CREATE',
      'WALLET-CREATE',
    ]);
    expect(mine.slice(0, 5).every((t) => t.from === owner.address)).toBe(true);
    expect(mine.slice(5).every((t) => t.from !== owner.address)).toBe(true);
  });
});

describe('the sandbox relayer refuses, sending nothing', () => {
  it('a signature that is not the owner’s, bad builder auth, an API key for another address, and no auth', async () => {
    const before = await provider.getTransactionCount(relayer.relayAddress);
    const stranger = privateKeySigner(Wallet.createRandom().privateKey);
    // A request the owner did not sign: built by another key, then claimed as the owner's.
    const forged = { ...(await buildWalletCreateRequest(network, { signer: stranger })) };
    const safeRequest = await buildSafeRequest(network, { signer, calls: [approve()], nonce: '1' });
    const otherSig = await buildSafeRequest({ ...network }, { signer: stranger, calls: [approve()], nonce: '0' });
    const tampered = relayerRequestBody({ ...safeRequest, signature: otherSig.signature });
    const bad = await post('/submit', tampered, 'builder');
    expect(bad.status).toBe(400);
    expect(bad.json.error).toBe('invalid signature');

    expect(
      (await post('/submit', relayerRequestBody(safeRequest), 'builder', (h) => (h.POLY_BUILDER_SIGNATURE = 'AAAA')))
        .status,
    ).toBe(401);
    expect((await post('/submit', relayerRequestBody(safeRequest), 'none')).status).toBe(401);
    expect((await post('/submit', relayerRequestBody(forged), 'api-key')).status).toBe(401);
    expect((await post('/submit', '{"type":"SAFE"', 'builder')).status).toBe(400);
    expect(await provider.getTransactionCount(relayer.relayAddress)).toBe(before);
  });

  it('WALLET: a nonce not the wallet’s in Polymarket’s words, a wallet not the sender’s, a wallet not deployed', async () => {
    const before = await provider.getTransactionCount(relayer.relayAddress);
    const { nonce } = await get<{ nonce: string }>(`/nonce?address=${owner.address}&type=WALLET`);
    const deadline = (await provider.getBlock('latest'))!.timestamp + 600;
    const ahead = await buildWalletBatchRequest(network, {
      signer,
      wallet: relayedWallets(deployment.wallets, owner.address).depositWallet,
      calls: [approve()],
      nonce: BigInt(nonce) + 1n,
      deadline,
    });
    const early = await post('/submit', relayerRequestBody(ahead), 'builder');
    // @polymarket/client reads the two numbers from this text: a stale batch is retried, a gap is not.
    expect(early).toEqual({
      status: 400,
      json: { error: `batch nonce ${BigInt(nonce) + 1n} does not match on-chain nonce ${nonce}` },
    });
    const stranger = Wallet.createRandom();
    const theirs = relayedWallets(deployment.wallets, stranger.address).depositWallet;
    const undeployed = await buildWalletBatchRequest(network, {
      signer: privateKeySigner(stranger.privateKey),
      wallet: theirs,
      calls: [approve()],
      nonce: '0',
      deadline,
    });
    expect(await post('/submit', relayerRequestBody(undeployed), 'builder')).toEqual({
      status: 400,
      json: { error: 'the deposit wallet is not deployed' },
    });
    // The owner claiming the stranger's wallet (the toolkit would not build it: the body is edited).
    const notMine = await post('/submit', relayerRequestBody({ ...undeployed, from: owner.address }), 'builder');
    expect(notMine).toEqual({ status: 400, json: { error: 'depositWallet is not the sender’s deposit wallet' } });
    expect(await provider.getTransactionCount(relayer.relayAddress)).toBe(before);
  });

  it('PROXY: a signature that is not the owner’s, a stale nonce, another wallet, a hub or relay not the sandbox’s', async () => {
    const before = await provider.getTransactionCount(relayer.relayAddress);
    const payload = await get<{ address: string; nonce: string }>(`/relay-payload?address=${owner.address}&type=PROXY`);
    const request = await buildProxyRequest(proxyNetwork(), {
      signer,
      calls: [approve()],
      relay: payload.address,
      nonce: payload.nonce,
      gasLimit: 500_000n,
    });
    const stranger = await buildProxyRequest(proxyNetwork(), {
      signer: privateKeySigner(Wallet.createRandom().privateKey),
      calls: [approve()],
      relay: payload.address,
      nonce: payload.nonce,
      gasLimit: 500_000n,
    });
    const refusal = async (body: RelayerRequest) => {
      const answer = await post('/submit', relayerRequestBody(body), 'builder');
      expect(answer.status).toBe(400);
      return String(answer.json.error);
    };
    expect(await refusal({ ...request, signature: stranger.signature })).toBe('invalid signature');
    expect(await refusal({ ...request, nonce: String(BigInt(payload.nonce) + 1n) })).toMatch(
      /^nonce \d+ is not the sender’s relay nonce \d+$/,
    );
    expect(await refusal({ ...request, proxyWallet: stranger.proxyWallet })).toBe(
      'proxyWallet is not the sender’s proxy wallet',
    );
    expect(await refusal({ ...request, to: deployment.wallets.safeFactory })).toBe('to is not the proxy factory');
    const hubless = await buildProxyRequest(
      { ...network, relayHub: relayer.relayAddress },
      { signer, calls: [approve()], relay: payload.address, nonce: payload.nonce, gasLimit: 500_000n },
    );
    expect(await refusal(hubless)).toBe('relayHub is not the sandbox relay hub');
    expect(await provider.getTransactionCount(relayer.relayAddress)).toBe(before);
  });
});
