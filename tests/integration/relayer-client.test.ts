// The toolkit's relayer client against a real local server with scripted answers: a refusal, a submission that
// times out (sent once, never again, and the error says the relayer may have it), a state that never ends (the
// wait stops after its polls and says what is known), a failed transaction, a malformed answer, no credentials.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POLYGON_WALLETS } from '../../packages/toolkit/src/chain/wallet-config';
import type { PmDeskError } from '../../packages/toolkit/src/model/errors';
import { privateKeySigner } from '../../packages/toolkit/src/orders/signer';
import { RelayerClient } from '../../packages/toolkit/src/relayer/client';
import { buildSafeRequest, relayerRequestBody, type SafeRequest } from '../../packages/toolkit/src/relayer/requests';
import { builderHeaders } from '../../packages/toolkit/src/relayer/auth';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server';

const BUILDER = { key: 'b-key', secret: 'c2VjcmV0LWJ5dGVzLWZvci10ZXN0cw==', passphrase: 'b-pass' };
const OWNER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const HASH = `0x${'cd'.repeat(32)}`;
let server: FixtureServer;
let request: SafeRequest;
const noWait = async () => undefined;

async function fail(run: () => Promise<unknown>): Promise<PmDeskError> {
  try {
    await run();
  } catch (error) {
    return error as PmDeskError;
  }
  throw new Error('expected a failure');
}
function client(extra: Partial<ConstructorParameters<typeof RelayerClient>[0]> = {}): RelayerClient {
  return new RelayerClient({
    url: server.url,
    credentials: { kind: 'builder', builder: BUILDER },
    sleep: noWait,
    ...extra,
  });
}

beforeAll(async () => {
  server = await startFixtureServer();
  const signer = privateKeySigner('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
  request = await buildSafeRequest(
    { chainId: 137, wallets: POLYGON_WALLETS },
    { signer, calls: [{ to: '0xC011a7E12a19f7B1f670d46F03B03f3342E82DFB', data: '0x095ea7b3' }], nonce: '2' },
  );
});
afterAll(() => server.stop());
beforeEach(() => server.reset());

describe('submitting', () => {
  it('sends the exact body with builder headers that sign it, and reads the answer', async () => {
    server.json('POST', '/submit', { transactionID: 'tx-1', transactionHash: HASH, state: 'STATE_NEW' });
    expect(await client().submit(request)).toEqual({
      transactionID: 'tx-1',
      transactionHash: HASH,
      state: 'STATE_NEW',
    });
    const sent = server.last();
    expect(sent.body).toBe(relayerRequestBody(request));
    const expected = builderHeaders(
      BUILDER,
      { method: 'POST', path: '/submit', body: sent.body },
      Number(sent.headers['poly_builder_timestamp']),
    );
    expect(sent.headers['poly_builder_signature']).toBe(expected.POLY_BUILDER_SIGNATURE);
  });

  it('a refusal is a catalogued error and nothing is sent again', async () => {
    server.json('POST', '/submit', { error: 'invalid signature' }, 400);
    const error = await fail(() => client().submit(request));
    expect(error.code).toBe('ERR_INVALID_PARAM');
    expect(server.to('/submit')).toHaveLength(1);
  });

  it('a submission that times out is not sent twice, and the error says the relayer may have it', async () => {
    server.on('POST', '/submit', (_req, reply) => reply.hang());
    const error = await fail(() => client({ timeoutMs: 300 }).submit(request));
    expect(error.code).toBe('ERR_TIMEOUT');
    expect(error.message).toMatch(/may have received the SAFE request; it was not sent again/);
    expect(server.to('/submit')).toHaveLength(1);
  });

  it('without credentials nothing is sent', async () => {
    const error = await fail(() => new RelayerClient({ url: server.url }).submit(request));
    expect(error.code).toBe('ERR_INVALID_PARAM');
    expect(server.requests).toHaveLength(0);
  });
});

describe('following a transaction', () => {
  it('stops after its polls when the state never ends, and says what is known', async () => {
    server.json('GET', '/transaction', [{ transactionID: 'tx-2', transactionHash: HASH, state: 'STATE_EXECUTED' }]);
    const outcome = await client().waitForFinal(
      { transactionID: 'tx-2', transactionHash: '', state: 'STATE_NEW' },
      { maxPolls: 3 },
    );
    expect(outcome).toMatchObject({ final: false, succeeded: false, state: 'STATE_EXECUTED', transactionHash: HASH });
    expect(outcome.summary).toBe(`Submitted as ${HASH}, not yet mined (STATE_EXECUTED): pmdesk relayer tx tx-2`);
    expect(server.to('/transaction')).toHaveLength(3);
  });

  it('reports a mined transaction as sent with no gas, and a failed one as failed', async () => {
    server.json('GET', '/transaction', [{ transactionID: 'tx-3', transactionHash: HASH, state: 'STATE_MINED' }]);
    const mined = await client().waitForFinal({ transactionID: 'tx-3', transactionHash: '', state: 'STATE_NEW' });
    expect(mined).toMatchObject({ final: true, succeeded: true });
    expect(mined.summary).toBe(`Sent through Polymarket's relayer — no gas needed: mined as ${HASH}.`);
    expect(server.to('/transaction')).toHaveLength(1);
    server.json('GET', '/transaction', [{ transactionID: 'tx-3', transactionHash: HASH, state: 'STATE_FAILED' }]);
    const failed = await client().waitForFinal({ transactionID: 'tx-3', transactionHash: '', state: 'STATE_NEW' });
    expect(failed).toMatchObject({ final: true, succeeded: false });
    expect(failed.summary).toBe(`The relayer sent it as ${HASH}, and it failed on chain: nothing changed.`);
    // A failed transaction is final: one poll, no more.
    expect(server.to('/transaction')).toHaveLength(2);
  });

  it('refuses a malformed answer as a validation error', async () => {
    server.json('GET', '/nonce', { nonce: 'soon' });
    expect((await fail(() => client().nonce(OWNER, 'SAFE'))).code).toBe('ERR_VALIDATION');
    server.json('GET', '/deployed', { deployed: 'yes' });
    expect((await fail(() => client().deployed(OWNER))).code).toBe('ERR_VALIDATION');
  });
});
