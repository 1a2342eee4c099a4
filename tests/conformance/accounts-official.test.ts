// Orders and auth headers for proxy (type 1), Safe (type 2) and deposit-wallet (type 3) accounts against the
// official clients: the same inputs through @polymarket/clob-client-v2@1.1.0 (every order version it signs for
// the type; version 1 also through @polymarket/clob-client@5.8.1) and through ours give byte-identical signed
// orders, order hashes, POST bodies and headers. Every expectation is the official client's output at test time.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hashTypedData } from 'viem';
import { ClobClient as ClobClientV1, Side as SideV1 } from '@polymarket/clob-client';
import { orderToJson as orderToJsonV1Official } from '@polymarket/clob-client/dist/utilities.js';
import {
  ClobClient as ClobClientV2,
  OrderType,
  Side as SideV2,
  createL1Headers as officialL1V2,
  createL2Headers as officialL2V2,
  orderToJsonV2,
} from '@polymarket/clob-client-v2';
import { deriveAccounts } from '../../packages/toolkit/src/accounts/derive';
import { POLYGON_WALLETS } from '../../packages/toolkit/src/chain/wallet-config';
import { AMOY, POLYGON, type OrderVersion } from '../../packages/toolkit/src/chain/networks';
import { createL1Headers, createL2Headers, type ApiCredentials } from '../../packages/toolkit/src/clob/auth';
import { ClobClient } from '../../packages/toolkit/src/clob/client';
import { orderBody } from '../../packages/toolkit/src/orders/body';
import { OrderBuilder, type SignatureType } from '../../packages/toolkit/src/orders/builder';
import type { OrderType as OurOrderType } from '../../packages/toolkit/src/orders/price';
import { TICK_SIZES, V1_TICK_SIZES, type OrderSide, type TickSize } from '../../packages/toolkit/src/orders/rounding';
import { privateKeySigner } from '../../packages/toolkit/src/orders/signer';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server';
import { TEST_ADDRESS, TEST_KEY, TOKEN_ID, outcome, pinClock, referenceSigner, unpinClock } from './reference';

const NOW = 1_780_449_126_930;
const RANDOM = 0.5772156649;
const OWNER = 'a1b2c3d4-0000-4000-8000-00000000beef';
const CREDS: ApiCredentials = {
  key: '00000000-1111-2222-3333-444444444444',
  secret: 'c2VjcmV0LWJ5dGVzLWZvci10ZXN0cy0xMjM0NTY3OA==',
  passphrase: 'pp',
};
const signer = privateKeySigner(TEST_KEY);

/** The test key's real wallets on Polygon, as a trader would configure them. */
const WALLETS = deriveAccounts(TEST_ADDRESS, POLYGON_WALLETS);
const ACCOUNTS: { signatureType: SignatureType; funder: string }[] = [
  { signatureType: 1, funder: WALLETS.proxy! },
  { signatureType: 2, funder: WALLETS.safe! },
  { signatureType: 3, funder: WALLETS.depositWallet!.beacon! },
  { signatureType: 3, funder: WALLETS.depositWallet!.uups! },
];

const V2_TYPES = {
  Order: [
    { name: 'salt', type: 'uint256' },
    { name: 'maker', type: 'address' },
    { name: 'signer', type: 'address' },
    { name: 'tokenId', type: 'uint256' },
    { name: 'makerAmount', type: 'uint256' },
    { name: 'takerAmount', type: 'uint256' },
    { name: 'side', type: 'uint8' },
    { name: 'signatureType', type: 'uint8' },
    { name: 'timestamp', type: 'uint256' },
    { name: 'metadata', type: 'bytes32' },
    { name: 'builder', type: 'bytes32' },
  ],
} as const;
const V1_TYPES = {
  Order: [
    { name: 'salt', type: 'uint256' },
    { name: 'maker', type: 'address' },
    { name: 'signer', type: 'address' },
    { name: 'taker', type: 'address' },
    { name: 'tokenId', type: 'uint256' },
    { name: 'makerAmount', type: 'uint256' },
    { name: 'takerAmount', type: 'uint256' },
    { name: 'expiration', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'feeRateBps', type: 'uint256' },
    { name: 'side', type: 'uint8' },
    { name: 'signatureType', type: 'uint8' },
  ],
} as const;

/** viem's digest of the official client's own order, against the contract ours says it signed for. */
function officialHash(r: Record<string, unknown>, version: OrderVersion, chainId: number, contract: string): string {
  const domain = {
    name: 'Polymarket CTF Exchange',
    version: String(version),
    chainId,
    verifyingContract: contract as `0x${string}`,
  };
  const side = r.side === 'BUY' || r.side === 0 ? 0 : 1;
  const common = {
    salt: BigInt(r.salt as string),
    maker: r.maker as `0x${string}`,
    signer: r.signer as `0x${string}`,
    tokenId: BigInt(r.tokenId as string),
    makerAmount: BigInt(r.makerAmount as string),
    takerAmount: BigInt(r.takerAmount as string),
    side,
    signatureType: r.signatureType as number,
  };
  if (version === 1) {
    return hashTypedData({
      domain,
      types: V1_TYPES,
      primaryType: 'Order',
      message: {
        ...common,
        taker: r.taker as `0x${string}`,
        expiration: BigInt(r.expiration as string),
        nonce: BigInt(r.nonce as string),
        feeRateBps: BigInt(r.feeRateBps as string),
      },
    });
  }
  return hashTypedData({
    domain,
    types: V2_TYPES,
    primaryType: 'Order',
    message: {
      ...common,
      timestamp: BigInt(r.timestamp as string),
      metadata: r.metadata as `0x${string}`,
      builder: r.builder as `0x${string}`,
    },
  });
}

function officialV2(chainId: number, signatureType: SignatureType, funder: string, tick: TickSize, negRisk: boolean) {
  const client = new ClobClientV2({
    host: 'http://127.0.0.1:9',
    chain: chainId as never,
    signer: referenceSigner,
    signatureType: signatureType as never,
    funderAddress: funder,
  });
  client.tickSizes[TOKEN_ID] = tick as never;
  client.negRisk[TOKEN_ID] = negRisk;
  client.feeRates[TOKEN_ID] = 0;
  client.feeInfos[TOKEN_ID] = { rate: 0, exponent: 0 };
  return client;
}

function officialV1(
  chainId: number,
  signatureType: 1 | 2,
  funder: string,
  tick: TickSize,
  negRisk: boolean,
  fee: number,
) {
  const client = new ClobClientV1('http://127.0.0.1:9', chainId, referenceSigner, undefined, signatureType, funder);
  client.tickSizes[TOKEN_ID] = tick as never;
  (client as unknown as { tickSizeTimestamps: Record<string, number> }).tickSizeTimestamps[TOKEN_ID] = Date.now();
  client.negRisk[TOKEN_ID] = negRisk;
  client.feeRates[TOKEN_ID] = fee;
  return client;
}

const errorText = (e: { ok: false; error: string }): string =>
  e.error.replace(/^\[[A-Z_]+\] /, '').replace(/ \(Method: [^)]*\)$/, '');
const ORDER_TYPES: OurOrderType[] = ['GTC', 'GTD', 'FOK', 'FAK'];

afterEach(unpinClock);

describe('signed orders per account kind against @polymarket/clob-client-v2@1.1.0', () => {
  it('signs the same limit and market orders, hashes and POST bodies for types 1, 2 and 3 in every version', async () => {
    const compared: Record<string, number> = {};
    let refused = 0;
    let n = 0;
    for (const version of [1, 2, 3] as const)
      for (const { signatureType, funder } of ACCOUNTS)
        for (const chainId of [POLYGON.chainId, AMOY.chainId])
          for (const negRisk of [false, true])
            for (const tick of version === 1 ? V1_TICK_SIZES : TICK_SIZES)
              for (const side of ['BUY', 'SELL'] as OrderSide[])
                for (const market of [false, true]) {
                  n++;
                  const price = [parseFloat(tick), 0.56, 1 - parseFloat(tick), 0.12345][n % 4]!;
                  const size = [21.04, 0.001, 100, 12.8205][n % 4]!;
                  const expiration = market ? undefined : [undefined, 1_900_000_000][n % 2];
                  const { salt, timestamp } = pinClock(NOW, RANDOM);
                  const official = officialV2(chainId, signatureType, funder, tick, negRisk);
                  const apiSide = side === 'BUY' ? SideV2.BUY : SideV2.SELL;
                  const ref = await outcome(
                    async () =>
                      (market
                        ? official.createMarketOrder(
                            {
                              tokenID: TOKEN_ID,
                              amount: size,
                              price,
                              side: apiSide,
                              orderType: OrderType.FOK,
                            } as never,
                            { tickSize: tick as never, negRisk, version },
                          )
                        : official.createOrder({ tokenID: TOKEN_ID, price, size, side: apiSide, expiration } as never, {
                            tickSize: tick as never,
                            negRisk,
                            version,
                          })) as Promise<unknown>,
                  );
                  const ours = await outcome(async () => {
                    const builder = new OrderBuilder({ signer, chainId, signatureType, funder });
                    const terms = { tickSize: tick, negRisk, version };
                    return market
                      ? builder.buildMarketOrder(
                          { tokenId: TOKEN_ID, side, amount: size, price, salt, timestamp },
                          terms,
                        )
                      : builder.buildLimitOrder(
                          { tokenId: TOKEN_ID, side, price, size, salt, timestamp, expiration },
                          terms,
                        );
                  });
                  unpinClock();
                  expect(
                    ours.ok,
                    JSON.stringify({ version, signatureType, chainId, negRisk, tick, side, market, ref, ours }),
                  ).toBe(ref.ok);
                  if (!ref.ok || !ours.ok) {
                    expect(errorText(ours as { ok: false; error: string })).toBe(
                      errorText(ref as { ok: false; error: string }),
                    );
                    refused++;
                    continue;
                  }
                  const r = ref.value as Record<string, unknown>;
                  const normalized = {
                    ...r,
                    salt: String(r.salt),
                    side: r.side === 0 || r.side === 'BUY' ? 'BUY' : 'SELL',
                  };
                  const built = ours.value;
                  expect(built.signedOrder).toEqual(normalized);
                  expect(built.orderHash).toBe(officialHash(r, version, chainId, built.verifyingContract));
                  if (signatureType === 3) {
                    expect(built.signedOrder).toMatchObject({ maker: funder, signer: funder });
                    expect(built.signedOrder.signature).toHaveLength(2 + 317 * 2);
                  } else {
                    expect(built.signedOrder).toMatchObject({ maker: funder, signer: TEST_ADDRESS });
                  }
                  if (version !== 1) {
                    const orderType = market ? (['FOK', 'FAK'] as const)[n % 2]! : (['GTC', 'GTD'] as const)[n % 2]!;
                    const postOnly = !market && n % 3 === 0;
                    expect(
                      JSON.stringify(orderBody(built, OWNER, { orderType, postOnly, deferExec: n % 2 === 0 })),
                    ).toBe(JSON.stringify(orderToJsonV2(r as never, OWNER, orderType as never, postOnly, n % 2 === 0)));
                  }
                  const key = `v${version} type ${signatureType}`;
                  compared[key] = (compared[key] ?? 0) + 1;
                }
    // Every supported (version, type) pair was really compared; type 3 on version 1 was refused by both.
    expect(Object.keys(compared).sort()).toEqual([
      'v1 type 1',
      'v1 type 2',
      'v2 type 1',
      'v2 type 2',
      'v2 type 3',
      'v3 type 1',
      'v3 type 2',
      'v3 type 3',
    ]);
    for (const count of Object.values(compared)) expect(count).toBeGreaterThan(30);
    expect(refused).toBeGreaterThanOrEqual(2 * 2 * 2 * V1_TICK_SIZES.length * 2 * 2);
  });

  it('signs version 1 orders for types 1 and 2 exactly as @polymarket/clob-client@5.8.1, body included', async () => {
    let compared = 0;
    for (const { signatureType, funder } of ACCOUNTS.filter((a) => a.signatureType !== 3))
      for (const chainId of [POLYGON.chainId, AMOY.chainId])
        for (const negRisk of [false, true])
          for (const tick of V1_TICK_SIZES)
            for (const side of ['BUY', 'SELL'] as OrderSide[]) {
              const { salt } = pinClock(NOW, RANDOM);
              const extras = {
                nonce: compared % 3,
                feeRateBps: [0, 100][compared % 2]!,
                expiration: [0, 1_900_000_000][compared % 2]!,
              };
              const signed = await officialV1(
                chainId,
                signatureType as 1 | 2,
                funder,
                tick,
                negRisk,
                extras.feeRateBps,
              ).createOrder(
                {
                  tokenID: TOKEN_ID,
                  price: 0.5,
                  size: 33.33,
                  side: side === 'BUY' ? SideV1.BUY : SideV1.SELL,
                  ...extras,
                },
                { tickSize: tick as never, negRisk },
              );
              const built = await new OrderBuilder({ signer, chainId, signatureType, funder }).buildLimitOrder(
                { tokenId: TOKEN_ID, side, price: 0.5, size: 33.33, salt, ...extras },
                { tickSize: tick, negRisk, version: 1 },
              );
              unpinClock();
              const r = signed as unknown as Record<string, unknown>;
              expect(built.signedOrder).toEqual({ ...r, salt: String(r.salt), side: r.side === 0 ? 'BUY' : 'SELL' });
              expect(built.orderHash).toBe(officialHash(r, 1, chainId, built.verifyingContract));
              const orderType = ORDER_TYPES[compared % 4]!;
              expect(JSON.stringify(orderBody(built, OWNER, { orderType, deferExec: compared % 2 === 0 }))).toBe(
                JSON.stringify(
                  orderToJsonV1Official(signed as never, OWNER, orderType as never, compared % 2 === 0, false),
                ),
              );
              compared++;
            }
    expect(compared).toBe(2 * 2 * 2 * V1_TICK_SIZES.length * 2);
  });
});

describe('auth headers per account kind', () => {
  it("level 1: the key's address by default, or the wallet named as `address`, exactly as v2's createL1Headers", async () => {
    for (const chainId of [137, 80002])
      for (const address of [undefined, TEST_ADDRESS, ...ACCOUNTS.map((a) => a.funder)])
        for (const [nonce, ts] of [
          [0, 1_780_000_000],
          [7, 10_000_000],
        ] as const) {
          const ours = await createL1Headers(signer, chainId, nonce, ts, address);
          expect(ours).toEqual(await officialL1V2(referenceSigner, chainId as never, nonce, ts, address));
          expect(ours.POLY_ADDRESS).toBe(address ?? TEST_ADDRESS);
        }
  });

  it("level 2: the key's address, as v2's createL2Headers sends for every kind", async () => {
    const request = { method: 'POST', requestPath: '/order', body: '{"order":{"salt":1}}' };
    expect(await createL2Headers(signer, CREDS, request, 1_780_000_000)).toEqual(
      await officialL2V2(referenceSigner, CREDS, request, 1_780_000_000),
    );
  });
});

describe('on the wire, per account kind', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer();
    server.json('POST', '/order', { success: true, orderID: '0xid', status: 'live' });
    server.json('POST', '/auth/api-key', CREDS);
    server.json('GET', '/balance-allowance', { balance: '0', allowances: {} });
    server.json('GET', '/tick-size', { minimum_tick_size: 0.01 });
  });
  afterAll(() => server.stop());

  const captured = () => {
    const r = server.last();
    const h = r.headers;
    return {
      path: r.path,
      query: r.query.toString(),
      body: r.body,
      headers: [h.poly_address, h.poly_signature, h.poly_timestamp, h.poly_nonce, h.poly_api_key, h.poly_passphrase],
    };
  };

  it('POST /order, POST /auth/api-key and GET /balance-allowance: same bytes and headers as @polymarket/clob-client-v2', async () => {
    let compared = 0;
    for (const { signatureType, funder } of ACCOUNTS)
      for (const version of [2, 3] as const) {
        const { salt, timestamp } = pinClock(NOW, RANDOM);
        const official = new ClobClientV2({
          host: server.url,
          chain: 137 as never,
          signer: referenceSigner,
          creds: CREDS,
          signatureType: signatureType as never,
          funderAddress: funder,
        });
        official.tickSizes[TOKEN_ID] = '0.01' as never;
        const ours = new ClobClient({ host: server.url, chainId: 137, signer, creds: CREDS, signatureType, funder });

        const signed = await official.createOrder(
          { tokenID: TOKEN_ID, price: 0.56, size: 21.04, side: SideV2.BUY },
          { tickSize: '0.01' as never, negRisk: false, version },
        );
        await official.postOrder(signed, OrderType.GTC, false, false);
        const theirs = captured();
        const order = await ours.createOrder(
          { tokenId: TOKEN_ID, side: 'BUY', price: 0.56, size: 21.04, salt, timestamp },
          { tickSize: '0.01', negRisk: false, version },
        );
        await ours.postOrder(order, { orderType: 'GTC' });
        expect(captured()).toEqual(theirs);

        await official.createApiKey(3);
        const theirKey = captured();
        await ours.createApiKey(3);
        expect(captured()).toEqual(theirKey);

        await official.getBalanceAllowance({ asset_type: 'COLLATERAL' as never });
        const theirBalance = captured();
        await ours.getBalanceAllowance({ asset_type: 'COLLATERAL' });
        expect(captured()).toEqual(theirBalance);
        expect(theirBalance.query).toContain(`signature_type=${signatureType}`);
        unpinClock();
        compared++;
      }
    expect(compared).toBe(ACCOUNTS.length * 2);
  });
});
