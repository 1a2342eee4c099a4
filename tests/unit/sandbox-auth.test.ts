// The sandbox CLOB's L1/L2 checks against headers made by Polymarket's official clients (v1 and v2):
// what the official clients sign, the sandbox accepts; anything tampered with, it refuses.
import { describe, expect, it } from 'vitest';
import { createL1Headers as createL1V2, createL2Headers as createL2V2 } from '@polymarket/clob-client-v2';
import { createL1Headers as createL1V1, createL2Headers as createL2V1 } from '@polymarket/clob-client';
import { privateKeyToAccount } from 'viem/accounts';
import type { AuthError } from '../../sandbox/clob/auth';
import { deriveCredentials, hmacSignature, verifyL1, verifyL2 } from '../../sandbox/clob/auth';

const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const account = privateKeyToAccount(KEY);
const signer = {
  account,
  signTypedData: (args: Parameters<typeof account.signTypedData>[0]) => account.signTypedData(args),
} as never;
const CHAIN = 31338;
const lower = (h: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), String(v)]));

describe('sandbox L1 auth', () => {
  it.each([
    ['clob-client-v2', createL1V2],
    ['clob-client', createL1V1],
  ])('accepts the headers %s makes, and proves the nonce', async (_name, create) => {
    const now = Math.floor(Date.now() / 1000);
    const headers = lower(await create(signer, CHAIN as never, 7, now));
    expect(verifyL1(headers, CHAIN, now)).toEqual({ address: account.address, nonce: 7n });
  });

  it('refuses another chain, a tampered signature, a stale timestamp, missing headers', async () => {
    const now = Math.floor(Date.now() / 1000);
    const headers = lower(await createL1V2(signer, CHAIN as never, 0, now));
    const refused = (h: Record<string, string>, at = now) => {
      try {
        verifyL1(h, CHAIN, at);
      } catch (error) {
        return (error as AuthError).status;
      }
      return 'accepted';
    };
    expect(refused(headers)).toBe('accepted');
    expect(refused(lower(await createL1V2(signer, 80002 as never, 0, now)))).toBe(401);
    expect(
      refused({ ...headers, poly_signature: headers.poly_signature!.replace(/.$/, (c) => (c === '0' ? '1' : '0')) }),
    ).toBe(401);
    expect(refused({ ...headers, poly_nonce: '1' })).toBe(401);
    expect(refused({ ...headers, poly_address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' })).toBe(401);
    expect(refused(headers, now + 301)).toBe(401);
    const { poly_signature: _dropped, ...missing } = headers;
    expect(refused(missing)).toBe(401);
    expect(refused({ ...headers, poly_nonce: '-1' })).toBe(400);
  });

  it('with an account check, takes ClobAuth for one of the signer’s accounts and answers the signing EOA', async () => {
    const now = Math.floor(Date.now() / 1000);
    const wallet = '0x365f0CA36Ae1f641E02fE3B7743673da42A13A70';
    const controls = (eoa: string, address: string) =>
      eoa === account.address && address.toLowerCase() === wallet.toLowerCase();
    const forWallet = lower(await createL1V2(signer, CHAIN as never, 0, now, wallet as never));
    expect(verifyL1(forWallet, CHAIN, now, controls)).toEqual({ address: account.address, nonce: 0n });
    // Without the check, or for an address the signer does not control, it is refused.
    expect(() => verifyL1(forWallet, CHAIN, now)).toThrow('Invalid L1 Request headers');
    const forOther = lower(
      await createL1V2(signer, CHAIN as never, 0, now, '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as never),
    );
    expect(() => verifyL1(forOther, CHAIN, now, controls)).toThrow('Invalid L1 Request headers');
  });

  it('reproduces the official L1 vector', async () => {
    const headers = lower(await createL1V2(signer, 80002 as never, 23, 10_000_000));
    expect(headers.poly_signature).toMatch(/^0xf62319a9.*aedc1b$/);
    expect(verifyL1(headers, 80002, 10_000_000).nonce).toBe(23n);
  });
});

describe('sandbox L2 auth', () => {
  const creds = deriveCredentials('server-secret', account.address, 0n);
  const lookup = (key: string) => (key === creds.apiKey ? { ...creds, address: account.address } : undefined);
  const official = { key: creds.apiKey, secret: creds.secret, passphrase: creds.passphrase };

  it.each([
    ['clob-client-v2', createL2V2],
    ['clob-client', createL2V1],
  ])('accepts the headers %s makes over method, path and body', async (_name, create) => {
    const now = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ order: { salt: 1 }, owner: creds.apiKey, orderType: 'GTC' });
    const headers = lower(await create(signer, official, { method: 'POST', requestPath: '/order', body }, now));
    expect(verifyL2(headers, { method: 'POST', path: '/order', body }, lookup, now)).toEqual({
      address: account.address,
      apiKey: creds.apiKey,
    });
  });

  it('refuses a changed body, path or method, a wrong passphrase, an unknown key, a stale timestamp', async () => {
    const now = Math.floor(Date.now() / 1000);
    const headers = lower(
      await createL2V2(signer, official, { method: 'DELETE', requestPath: '/order', body: '{"orderID":"0x1"}' }, now),
    );
    const request = { method: 'DELETE', path: '/order', body: '{"orderID":"0x1"}' };
    const verdict = (h: Record<string, string>, r = request, at = now) => {
      try {
        verifyL2(h, r, lookup, at);
        return 'accepted';
      } catch (error) {
        return (error as AuthError).message;
      }
    };
    expect(verdict(headers)).toBe('accepted');
    expect(verdict(headers, { ...request, body: '{"orderID":"0x2"}' })).toBe('Unauthorized/Invalid api key');
    expect(verdict(headers, { ...request, path: '/orders' })).toBe('Unauthorized/Invalid api key');
    expect(verdict(headers, { ...request, method: 'POST' })).toBe('Unauthorized/Invalid api key');
    expect(verdict({ ...headers, poly_passphrase: 'x' })).toBe('Unauthorized/Invalid api key');
    expect(verdict({ ...headers, poly_api_key: 'nope' })).toBe('Unauthorized/Invalid api key');
    expect(verdict(headers, request, now - 301)).toMatch(/^Invalid timestamp/);
  });

  it('with an account check, takes POLY_ADDRESS naming one of the key owner’s accounts, and no other address', async () => {
    const now = Math.floor(Date.now() / 1000);
    const wallet = '0x365f0CA36Ae1f641E02fE3B7743673da42A13A70';
    const controls = (eoa: string, address: string) =>
      eoa === account.address && address.toLowerCase() === wallet.toLowerCase();
    const headers = lower(await createL2V2(signer, official, { method: 'GET', requestPath: '/data/orders' }, now));
    const request = { method: 'GET', path: '/data/orders', body: '' };
    expect(verifyL2({ ...headers, poly_address: wallet }, request, lookup, now, controls)).toEqual({
      address: account.address,
      apiKey: creds.apiKey,
    });
    expect(() => verifyL2({ ...headers, poly_address: wallet }, request, lookup, now)).toThrow(
      'Unauthorized/Invalid api key',
    );
    expect(() =>
      verifyL2(
        { ...headers, poly_address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
        request,
        lookup,
        now,
        controls,
      ),
    ).toThrow('Unauthorized/Invalid api key');
  });

  it('reproduces the official HMAC vector', () => {
    expect(hmacSignature(`${'A'.repeat(43)}=`, '1000000', 'test-sign', '/orders', '{"hash": "0x123"}')).toBe(
      'ZwAdJKvoYRlEKDkNMwd5BuwNNtg93kNaR_oU2HrfVvc=',
    );
  });

  it('derives the same credentials for the same address and nonce, and others otherwise', () => {
    expect(deriveCredentials('s', account.address, 0n)).toEqual(
      deriveCredentials('s', account.address.toLowerCase(), 0n),
    );
    expect(deriveCredentials('s', account.address, 1n).apiKey).not.toBe(creds.apiKey);
    expect(deriveCredentials('other', account.address, 0n).apiKey).not.toBe(
      deriveCredentials('s', account.address, 0n).apiKey,
    );
    expect(creds.apiKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
