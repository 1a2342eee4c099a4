// Relayer request building refuses what the relayer or the wallet would refuse, before anything is signed or
// sent: no calls, a nonce or deadline that is not a whole number, a wallet that is not the key's, a signature
// that is not the owner's, a chain without the factory, empty credentials. What it signs is checked elsewhere
// (tests/conformance/relayer-official.test.ts) against Polymarket's own relayer client.
import { describe, expect, it } from 'vitest';
import { Wallet, getBytes, hashMessage, recoverAddress } from 'ethers';
import { deriveAccounts } from '../../packages/toolkit/src/accounts/derive';
import { AMOY_WALLETS, POLYGON_WALLETS } from '../../packages/toolkit/src/chain/wallet-config';
import type { PmDeskError } from '../../packages/toolkit/src/model/errors';
import { privateKeySigner, type ClobSigner } from '../../packages/toolkit/src/orders/signer';
import {
  buildProxyRequest,
  buildSafeRequest,
  buildWalletBatchRequest,
  proxyRelayHash,
  type RelayerNetwork,
} from '../../packages/toolkit/src/relayer/requests';
import { builderHeaders, relayerApiKeyHeaders, relayerAuthHeaders } from '../../packages/toolkit/src/relayer/auth';

const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const OWNER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const OTHER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const POLYGON: RelayerNetwork = { chainId: 137, wallets: POLYGON_WALLETS };
const CALL = { to: '0xC011a7E12a19f7B1f670d46F03B03f3342E82DFB', data: '0x095ea7b3' };
const RELAY = '0x000000000000000000000000000000000000beef';
const signer = privateKeySigner(KEY);

async function fail(run: () => Promise<unknown>): Promise<PmDeskError> {
  try {
    await run();
  } catch (error) {
    return error as PmDeskError;
  }
  throw new Error('expected a refusal');
}

/** A signer that claims the owner's address but signs with another key: a worker bound to the wrong key. */
const impostor: ClobSigner = { ...privateKeySigner(OTHER_KEY), getAddress: async () => OWNER };

describe('relayer requests refuse bad input before signing', () => {
  it('refuses no calls, a fractional or negative nonce, and calldata that is not hex', async () => {
    expect((await fail(() => buildProxyRequest(POLYGON, { signer, calls: [], relay: RELAY, nonce: 1 }))).code).toBe(
      'ERR_INVALID_PARAM',
    );
    expect(
      (await fail(() => buildProxyRequest(POLYGON, { signer, calls: [CALL], relay: RELAY, nonce: '1.5' }))).code,
    ).toBe('ERR_INVALID_PARAM');
    expect((await fail(() => buildSafeRequest(POLYGON, { signer, calls: [CALL], nonce: -1 }))).code).toBe(
      'ERR_INVALID_PARAM',
    );
    expect(
      (await fail(() => buildSafeRequest(POLYGON, { signer, calls: [{ to: CALL.to, data: 'approve' }], nonce: 0 })))
        .code,
    ).toBe('ERR_INVALID_PARAM');
  });

  it('refuses a relay that is not an address and a chain without a proxy factory', async () => {
    expect(
      (await fail(() => buildProxyRequest(POLYGON, { signer, calls: [CALL], relay: 'relay-1', nonce: 0 }))).message,
    ).toMatch(/relay/);
    const amoy = await fail(() =>
      buildProxyRequest({ chainId: 80002, wallets: AMOY_WALLETS }, { signer, calls: [CALL], relay: RELAY, nonce: 0 }),
    );
    expect(amoy.code).toBe('ERR_INVALID_PARAM');
    expect(amoy.message).toMatch(/no proxy factory/);
  });

  it("refuses a deposit wallet that is not the key's own, and a signature that is not the owner's", async () => {
    const stranger = deriveAccounts('0x70997970C51812dc3A010C7d01b50e0d17dc79C8', POLYGON_WALLETS).depositWallet!.uups!;
    const notOurs = await fail(() =>
      buildWalletBatchRequest(POLYGON, { signer, wallet: stranger, calls: [CALL], nonce: 0, deadline: 1 }),
    );
    expect(notOurs.code).toBe('ERR_INVALID_PARAM');
    const own = deriveAccounts(OWNER, POLYGON_WALLETS).depositWallet!.beacon!;
    expect(
      (
        await fail(() =>
          buildWalletBatchRequest(POLYGON, { signer: impostor, wallet: own, calls: [CALL], nonce: 0, deadline: 1 }),
        )
      ).message,
    ).toMatch(/not the owner/);
    expect(
      (await fail(() => buildSafeRequest(POLYGON, { signer: impostor, calls: [CALL], nonce: 0 }))).message,
    ).toMatch(/not the owner/);
    expect(
      (await fail(() => buildProxyRequest(POLYGON, { signer: impostor, calls: [CALL], relay: RELAY, nonce: 0 })))
        .message,
    ).toMatch(/not the owner/);
  });

  it('signs a PROXY request by personal_sign of the rlx: hash, through signMessage when the signer has one', async () => {
    const wallet = new Wallet(KEY);
    const viaMessage = {
      getAddress: async () => OWNER,
      signTypedData: () => Promise.reject(new Error('unused')),
      signMessage: (bytes: Uint8Array) => wallet.signMessage(bytes),
    };
    const request = await buildProxyRequest(POLYGON, {
      signer: viaMessage,
      calls: [CALL],
      relay: RELAY,
      nonce: 4,
      gasLimit: 250000,
    });
    const hash = proxyRelayHash({
      from: OWNER,
      to: request.to,
      data: request.data,
      relayerFee: '0',
      gasPrice: '0',
      gasLimit: '250000',
      nonce: '4',
      relayHub: request.signatureParams.relayHub,
      relay: RELAY,
    });
    expect(recoverAddress(hashMessage(getBytes(hash)), request.signature)).toBe(OWNER);
    expect(request.signature).toBe(
      (await buildProxyRequest(POLYGON, { signer, calls: [CALL], relay: RELAY, nonce: 4, gasLimit: 250000 })).signature,
    );
  });
});

describe('relayer auth headers', () => {
  it('refuses empty builder credentials and an API key address that is not an address', () => {
    expect(() =>
      builderHeaders({ key: 'k', secret: ' ', passphrase: 'p' }, { method: 'GET', path: '/transactions' }),
    ).toThrow(/secret is empty/);
    expect(() => relayerApiKeyHeaders({ key: 'k', address: 'me' })).toThrow(/not an address/);
  });

  it('picks the headers by the kind of credentials, and never puts the builder secret in them', () => {
    const builder = { key: 'k', secret: 'c2VjcmV0', passphrase: 'p' };
    const headers = relayerAuthHeaders(
      { kind: 'builder', builder },
      { method: 'POST', path: '/submit', body: '{}' },
      1_700_000_000,
    );
    expect(Object.keys(headers).sort()).toEqual([
      'POLY_BUILDER_API_KEY',
      'POLY_BUILDER_PASSPHRASE',
      'POLY_BUILDER_SIGNATURE',
      'POLY_BUILDER_TIMESTAMP',
    ]);
    expect(Object.values(headers)).not.toContain(builder.secret);
    expect(
      relayerAuthHeaders(
        { kind: 'api-key', apiKey: { key: 'rk', address: OWNER } },
        { method: 'GET', path: '/transactions' },
      ),
    ).toEqual({ RELAYER_API_KEY: 'rk', RELAYER_API_KEY_ADDRESS: OWNER });
  });
});
