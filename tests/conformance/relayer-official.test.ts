// Relayer requests against Polymarket's own relayer client: @polymarket/builder-relayer-client@0.0.10 runs every
// transaction type (PROXY, SAFE, SAFE-CREATE, WALLET, WALLET-CREATE) against a recording server on 127.0.0.1, and
// PM Desk's builders, given what that server answered, must produce the very same /submit body text, signature and
// builder HMAC headers. The relayer API-key headers are compared with @polymarket/client's `relayerApiKey`.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Interface } from 'ethers';
import { createWalletClient, http } from 'viem';
import { polygon } from 'viem/chains';
import { RelayClient, RelayerTxType } from '@polymarket/builder-relayer-client';
// The builder-signing-sdk the relayer client itself depends on (0.0.8), not the newer one at the top level.
import { BuilderConfig } from '@polymarket/builder-relayer-client/node_modules/@polymarket/builder-signing-sdk';
import * as polymarketClient from '@polymarket/client';
import { relayerApiKey } from '@polymarket/client';
import { deriveAccounts } from '../../packages/toolkit/src/accounts/derive';
import { POLYGON_WALLETS } from '../../packages/toolkit/src/chain/wallet-config';
import { privateKeySigner } from '../../packages/toolkit/src/orders/signer';
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
import { startFixtureServer, type FixtureServer, type RecordedRequest } from '../helpers/fixture-server';
import { TEST_ADDRESS, TEST_KEY, account } from './reference';

const BUILDER = {
  key: '019a0000-1111-2222-3333-444455556666',
  secret: 'c2VjcmV0LWJ5dGVzLWZvci10ZXN0cy0xMjM0NTY3OA==',
  passphrase: 'builder-pass',
};
// Lower case, as a relayer may answer it: the body echoes it unchanged, the hash takes its bytes.
const RELAY = '0x1f9c8a3c1e2bd4a6b0c7d8e9f0a1b2c3d4e5f6a7';
const NETWORK: RelayerNetwork = { chainId: 137, wallets: POLYGON_WALLETS };
const WALLETS = deriveAccounts(TEST_ADDRESS, POLYGON_WALLETS);
const ours = privateKeySigner(TEST_KEY);

const erc20 = new Interface(['function approve(address spender, uint256 amount)']);
const erc1155 = new Interface(['function setApprovalForAll(address operator, bool approved)']);
const PUSD = '0xC011a7E12a19f7B1f670d46F03B03f3342E82DFB';
const CTF = '0x4D97DCd97eC945f40cF65F87097ACe5EA0476045';
const EXCHANGE = '0xE111180000d2663C0091e4f400237545B87B996B';
const APPROVE = { to: PUSD, data: erc20.encodeFunctionData('approve', [EXCHANGE, 2n ** 256n - 1n]) };
const APPROVE_ALL = { to: CTF, data: erc1155.encodeFunctionData('setApprovalForAll', [EXCHANGE, true]) };
/** The official client's shape of a call: value a decimal string. */
const txn = (call: { to: string; data: string }) => ({ ...call, value: '0' });

let server: FixtureServer;
/** What the recording server answers, set per test. */
const answers = { relayNonce: '7', nonce: '3', deployed: true, estimate: '0x2dc6c0' as string | undefined };

function officialClient(type: RelayerTxType): RelayClient {
  // Polygon's id with the RPC on the recording server: the official client never reaches a real host.
  const chain = { ...polygon, rpcUrls: { default: { http: [`${server.url}/rpc`] } } };
  const wallet = createWalletClient({ account, chain, transport: http(`${server.url}/rpc`) });
  return new RelayClient(server.url, 137, wallet, new BuilderConfig({ localBuilderCreds: BUILDER }), type, { chain });
}

/** The one /submit the official client made, and the builder headers PM Desk computes for the body it built. */
function submitted(): RecordedRequest {
  const submits = server.to('/submit');
  expect(submits).toHaveLength(1);
  return submits[0]!;
}
function expectSameSubmit(request: RelayerRequest): void {
  const sent = submitted();
  const body = relayerRequestBody(request);
  expect(body).toBe(sent.body);
  const timestamp = Number(sent.headers['poly_builder_timestamp']);
  const headers = builderHeaders(BUILDER, { method: 'POST', path: '/submit', body }, timestamp);
  expect({
    POLY_BUILDER_API_KEY: sent.headers['poly_builder_api_key'],
    POLY_BUILDER_PASSPHRASE: sent.headers['poly_builder_passphrase'],
    POLY_BUILDER_SIGNATURE: sent.headers['poly_builder_signature'],
    POLY_BUILDER_TIMESTAMP: sent.headers['poly_builder_timestamp'],
  }).toEqual(headers);
}

beforeAll(async () => {
  server = await startFixtureServer();
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await server.stop();
});
beforeEach(() => {
  server.reset();
  Object.assign(answers, { relayNonce: '7', nonce: '3', deployed: true, estimate: '0x2dc6c0' });
  server
    .on('GET', '/relay-payload', (_req, reply) => reply.json(200, { address: RELAY, nonce: answers.relayNonce }))
    .on('GET', '/nonce', (_req, reply) => reply.json(200, { nonce: answers.nonce }))
    .on('GET', '/deployed', (_req, reply) => reply.json(200, { deployed: answers.deployed }))
    .json('POST', '/submit', {
      transactionID: '0190f1c2-relayed',
      transactionHash: `0x${'ab'.repeat(32)}`,
      state: 'STATE_NEW',
    })
    .json('GET', '/transactions', [])
    .on('POST', '/rpc', (req, reply) => {
      const call = JSON.parse(req.body) as { id: number; method: string };
      if (call.method === 'eth_chainId') return reply.json(200, { jsonrpc: '2.0', id: call.id, result: '0x89' });
      if (call.method === 'eth_estimateGas' && answers.estimate)
        return reply.json(200, { jsonrpc: '2.0', id: call.id, result: answers.estimate });
      reply.json(200, { jsonrpc: '2.0', id: call.id, error: { code: -32000, message: 'execution reverted' } });
    });
});

describe('PROXY: the rlx: relay hash, personal_sign', () => {
  it('a batch with the gas the chain estimated is the official request, byte for byte', async () => {
    await officialClient(RelayerTxType.PROXY).execute([txn(APPROVE), txn(APPROVE_ALL)], 'approvals');
    const request = await buildProxyRequest(NETWORK, {
      signer: ours,
      calls: [APPROVE, APPROVE_ALL],
      relay: RELAY,
      nonce: '7',
      gasLimit: BigInt(answers.estimate!),
      metadata: 'approvals',
    });
    expect(request.proxyWallet).toBe(WALLETS.proxy);
    expectSameSubmit(request);
  });

  it('with no estimate both fall back to a 10,000,000 gas limit', async () => {
    answers.estimate = undefined;
    answers.relayNonce = '12';
    await officialClient(RelayerTxType.PROXY).execute([txn(APPROVE)]);
    const request = await buildProxyRequest(NETWORK, { signer: ours, calls: [APPROVE], relay: RELAY, nonce: 12 });
    expect(request.signatureParams.gasLimit).toBe('10000000');
    expectSameSubmit(request);
  });
});

describe('SAFE: the SafeTx hash, personal_sign, v + 4', () => {
  it('one call goes straight from the Safe', async () => {
    await officialClient(RelayerTxType.SAFE).execute([txn(APPROVE)], 'one');
    const request = await buildSafeRequest(NETWORK, { signer: ours, calls: [APPROVE], nonce: '3', metadata: 'one' });
    expect(request.signatureParams.operation).toBe('0');
    expectSameSubmit(request);
  });

  it('several calls are delegated to MultiSend', async () => {
    answers.nonce = '41';
    await officialClient(RelayerTxType.SAFE).execute([txn(APPROVE), txn(APPROVE_ALL)]);
    const request = await buildSafeRequest(NETWORK, { signer: ours, calls: [APPROVE, APPROVE_ALL], nonce: 41n });
    expect(request.signatureParams.operation).toBe('1');
    expect(request.proxyWallet).toBe(WALLETS.safe);
    expectSameSubmit(request);
  });
});

describe('SAFE-CREATE: the factory CreateProxy typed data', () => {
  it('deploying the Safe is the official request, byte for byte', async () => {
    answers.deployed = false;
    await officialClient(RelayerTxType.SAFE).deploy();
    expectSameSubmit(await buildSafeCreateRequest(NETWORK, { signer: ours }));
  });
});

describe('WALLET: the deposit wallet Batch typed data', () => {
  it.each([
    ['beacon', WALLETS.depositWallet!.beacon!],
    ['UUPS', WALLETS.depositWallet!.uups!],
  ])('a batch for the %s-era wallet is the official request, byte for byte', async (_era, wallet) => {
    answers.nonce = '5';
    const deadline = '1780449726';
    const calls = [APPROVE, APPROVE_ALL].map((c) => ({ target: c.to, value: '0', data: c.data }));
    await officialClient(RelayerTxType.SAFE).executeDepositWalletBatch(calls, wallet, deadline);
    expectSameSubmit(
      await buildWalletBatchRequest(NETWORK, {
        signer: ours,
        wallet,
        calls: [APPROVE, APPROVE_ALL],
        nonce: '5',
        deadline,
      }),
    );
  });

  it('deploying the deposit wallet (WALLET-CREATE) is the official request', async () => {
    await officialClient(RelayerTxType.SAFE).deployDepositWallet();
    expectSameSubmit(await buildWalletCreateRequest(NETWORK, { signer: ours }));
  });
});

describe('auth headers', () => {
  it('GET /transactions carries the same builder HMAC headers (no body)', async () => {
    await officialClient(RelayerTxType.SAFE).getTransactions();
    const sent = server.to('/transactions')[0]!;
    const headers = builderHeaders(
      BUILDER,
      { method: 'GET', path: '/transactions' },
      Number(sent.headers['poly_builder_timestamp']),
    );
    expect(sent.headers['poly_builder_signature']).toBe(headers.POLY_BUILDER_SIGNATURE);
    expect(sent.headers['poly_builder_api_key']).toBe(headers.POLY_BUILDER_API_KEY);
  });

  it('@polymarket/client encodes the same proxy and MultiSend calldata for a batch', async () => {
    // Exported at run time, not in its type declarations.
    const { encodeProxyCall, encodeSafeMultisendCall } = polymarketClient as unknown as Record<
      'encodeProxyCall' | 'encodeSafeMultisendCall',
      (calls: unknown) => string
    >;
    const calls = [APPROVE, APPROVE_ALL];
    const proxy = await buildProxyRequest(NETWORK, { signer: ours, calls, relay: RELAY, nonce: 0 });
    expect(proxy.data).toBe(encodeProxyCall(calls));
    const safe = await buildSafeRequest(NETWORK, { signer: ours, calls, nonce: 0 });
    expect(safe.data).toBe(encodeSafeMultisendCall(calls));
  });

  it('a relayer API key sends the headers @polymarket/client sends', async () => {
    const apiKey = { key: '019a1234-5678-7abc-8def-0123456789ab', address: TEST_ADDRESS };
    const authorization = relayerApiKey(apiKey as never) as unknown as { authorize(): Promise<Record<string, string>> };
    const official = await authorization.authorize();
    expect(relayerApiKeyHeaders(apiKey)).toEqual(official);
  });
});
