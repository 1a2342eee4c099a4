// Level 1 and level 2 headers against both official clients for the same timestamp and nonce, their
// published vectors, and a whole POST /order as each official client puts it on the wire (body bytes and
// headers), against ours, captured by a real HTTP server on loopback.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ClobClient as ClobClientV1,
  createL1Headers as officialL1V1,
  createL2Headers as officialL2V1,
  Side as SideV1,
} from '@polymarket/clob-client';
import {
  ClobClient as ClobClientV2,
  createL1Headers as officialL1V2,
  createL2Headers as officialL2V2,
  Side as SideV2,
  OrderType,
} from '@polymarket/clob-client-v2';
import {
  buildHmacSignature,
  createL1Headers,
  createL2Headers,
  type ApiCredentials,
} from '../../packages/toolkit/src/clob/auth';
import { ClobClient } from '../../packages/toolkit/src/clob/client';
import { privateKeySigner } from '../../packages/toolkit/src/orders/signer';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server';
import { FUNDER, TEST_KEY, TOKEN_ID, pinClock, referenceSigner, unpinClock } from './reference';

const signer = privateKeySigner(TEST_KEY);
const CREDS: ApiCredentials = {
  key: '00000000-1111-2222-3333-444444444444',
  secret: 'c2VjcmV0LWJ5dGVzLWZvci10ZXN0cy0xMjM0NTY3OA==',
  passphrase: 'pp',
};

afterEach(unpinClock);

describe('level 1 headers', () => {
  it('reproduce the official vector (Amoy, ts 10000000, nonce 23)', async () => {
    const headers = await createL1Headers(signer, 80002, 23, 10_000_000);
    expect(headers.POLY_SIGNATURE.startsWith('0xf62319a9')).toBe(true);
    expect(headers.POLY_SIGNATURE.endsWith('a1aedc1b')).toBe(true);
  });

  it('equal both official clients on both chains for many timestamps and nonces', async () => {
    for (const chainId of [137, 80002])
      for (const [ts, nonce] of [
        [10_000_000, 23],
        [1_780_000_000, 0],
        [1, 1012],
        [1_999_999_999, 2 ** 40],
      ] as const) {
        const ours = await createL1Headers(signer, chainId, nonce, ts);
        expect(ours).toEqual(await officialL1V1(referenceSigner, chainId as never, nonce, ts));
        expect(ours).toEqual(await officialL1V2(referenceSigner, chainId as never, nonce, ts));
      }
  });

  it('default the nonce to 0', async () => {
    expect((await createL1Headers(signer, 137, undefined, 5)).POLY_NONCE).toBe('0');
    expect(await createL1Headers(signer, 137, undefined, 5)).toEqual(
      await officialL1V2(referenceSigner, 137 as never, undefined, 5),
    );
  });
});

describe('level 2 headers', () => {
  it('reproduce the official HMAC vector', () => {
    expect(buildHmacSignature(`${'A'.repeat(43)}=`, 1_000_000, 'test-sign', '/orders', '{"hash": "0x123"}')).toBe(
      'ZwAdJKvoYRlEKDkNMwd5BuwNNtg93kNaR_oU2HrfVvc=',
    );
  });

  it('equal both official clients for secrets in base64 and base64url, with and without bodies', async () => {
    const secrets = [
      CREDS.secret,
      'ab-_cd-_ef-_gh-_ij-_kl-_mn-_op-_qr-_st-_uv-_wx-_yz==',
      'AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA',
      '/+/+',
    ];
    const requests = [
      { method: 'GET', requestPath: '/data/orders' },
      { method: 'POST', requestPath: '/order', body: '{"order":{"salt":1},"owner":"k","orderType":"GTC"}' },
      { method: 'DELETE', requestPath: '/orders', body: '["0xa","0xb"]' },
      { method: 'GET', requestPath: '/data/order/0xabc' },
      { method: 'POST', requestPath: '/v1/heartbeats', body: '{"heartbeat_id":"é ✓"}' },
    ];
    for (const secret of secrets)
      for (const request of requests)
        for (const ts of [1_000_000, 1_780_000_000]) {
          const creds = { ...CREDS, secret };
          const ours = await createL2Headers(signer, creds, request, ts);
          expect(ours).toEqual(await officialL2V1(referenceSigner, creds, request, ts));
          expect(ours).toEqual(await officialL2V2(referenceSigner, creds, request, ts));
        }
  });

  it('refuse a secret that is not base64, without echoing it', () => {
    expect(() => buildHmacSignature('not base64!!', 1, 'GET', '/')).toThrow('The API secret is not valid base64.');
    expect(() => buildHmacSignature('', 1, 'GET', '/')).toThrow('The API secret is empty.');
  });
});

describe('POST /order on the wire', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer();
    server.json('POST', '/order', { success: true, orderID: '0xid', status: 'live' });
    server.on('GET', '/tick-size', (req, reply) =>
      reply.json(200, { minimum_tick_size: req.query.get('token_id') === TOKEN_ID ? 0.001 : 0.1 }),
    );
    server.json('GET', '/fee-rate', { base_fee: 0 });
  });
  afterAll(() => server.stop());

  const captured = () => {
    const r = server.last();
    return {
      body: r.body,
      signature: r.headers.poly_signature,
      timestamp: r.headers.poly_timestamp,
      address: r.headers.poly_address,
      key: r.headers.poly_api_key,
    };
  };

  it('sends the same bytes and headers as @polymarket/clob-client-v2 for versions 2 and 3', async () => {
    for (const version of [2, 3] as const)
      for (const [orderType, postOnly] of [
        [OrderType.GTC, false],
        [OrderType.GTD, true],
        [OrderType.FAK, false],
      ] as const) {
        const { salt, timestamp } = pinClock(1_780_449_126_930, 0.31415926);
        const official = new ClobClientV2({
          host: server.url,
          chain: 137 as never,
          signer: referenceSigner,
          creds: CREDS,
          signatureType: 1 as never,
          funderAddress: FUNDER,
        });
        official.tickSizes[TOKEN_ID] = '0.001' as never;
        const signed = await official.createOrder(
          { tokenID: TOKEN_ID, price: 0.56, size: 21.04, side: SideV2.SELL },
          { tickSize: '0.01' as never, negRisk: true, version },
        );
        await official.postOrder(signed, orderType, postOnly, true);
        const theirs = captured();

        const ours = new ClobClient({
          host: server.url,
          chainId: 137,
          signer,
          creds: CREDS,
          signatureType: 1,
          funder: FUNDER,
        });
        const order = await ours.createOrder(
          { tokenId: TOKEN_ID, side: 'SELL', price: 0.56, size: 21.04, salt, timestamp },
          { tickSize: '0.01', negRisk: true, version },
        );
        await ours.postOrder(order, { orderType, postOnly, deferExec: true });
        unpinClock();
        expect(captured()).toEqual(theirs);
      }
  });

  it('sends the same bytes and headers as @polymarket/clob-client@5.8.1 for version 1', async () => {
    for (const orderType of [OrderType.GTC, OrderType.FOK]) {
      const { salt } = pinClock(1_780_449_126_930, 0.61803398);
      const official = new ClobClientV1(server.url, 80002, referenceSigner, CREDS, 2, FUNDER);
      official.tickSizes[TOKEN_ID] = '0.001' as never;
      (official as unknown as { tickSizeTimestamps: Record<string, number> }).tickSizeTimestamps[TOKEN_ID] = Date.now();
      official.feeRates[TOKEN_ID] = 0;
      const signed = await official.createOrder(
        { tokenID: TOKEN_ID, price: 0.056, size: 21.04, side: SideV1.BUY, nonce: 3 },
        { tickSize: '0.001' as never, negRisk: false },
      );
      await official.postOrder(signed, orderType as never);
      const theirs = captured();

      const ours = new ClobClient({
        host: server.url,
        chainId: 80002,
        signer,
        creds: CREDS,
        signatureType: 2,
        funder: FUNDER,
      });
      const order = await ours.createOrder(
        { tokenId: TOKEN_ID, side: 'BUY', price: 0.056, size: 21.04, salt, nonce: 3, feeRateBps: 0 },
        { tickSize: '0.001', negRisk: false, version: 1 },
      );
      await ours.postOrder(order, { orderType });
      unpinClock();
      expect(captured()).toEqual(theirs);
    }
  });
});
