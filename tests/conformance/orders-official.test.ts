// Our signed orders, order hashes and POST /order bodies against the official clients, over a generated grid:
// every tick size, both sides, neg-risk on/off, both chains, signature types 0/1/2 with funders, prices at
// the bounds, awkward sizes. Version 1 is checked against @polymarket/clob-client@5.8.1 (and the v2 client's
// version-1 path); versions 2 and 3 against @polymarket/clob-client-v2@1.1.0.
import { afterEach, describe, expect, it } from 'vitest';
import { hashTypedData } from 'viem';
import { ClobClient as ClobClientV1, ExchangeOrderBuilder, Side as SideV1 } from '@polymarket/clob-client';
import { orderToJson as orderToJsonV1Official } from '@polymarket/clob-client/dist/utilities.js';
import { ClobClient as ClobClientV2, Side as SideV2, orderToJsonV2 } from '@polymarket/clob-client-v2';
import { OrderBuilder, type BuiltOrder, type SignatureType } from '../../packages/toolkit/src/orders/builder';
import { orderBody } from '../../packages/toolkit/src/orders/body';
import { privateKeySigner } from '../../packages/toolkit/src/orders/signer';
import { TICK_SIZES, V1_TICK_SIZES, type OrderSide, type TickSize } from '../../packages/toolkit/src/orders/rounding';
import type { OrderType } from '../../packages/toolkit/src/orders/price';
import { POLYGON, AMOY, type OrderVersion } from '../../packages/toolkit/src/chain/networks';
import { FUNDER, TEST_KEY, TOKEN_ID, outcome, pinClock, referenceSigner, unpinClock } from './reference';

const NOW = 1_780_449_126_930;
const RANDOM = 0.2718281828;
const OWNER = 'f1e2d3c4-0000-4000-8000-00000000abcd';
const BUILDER_CODE = `0x${'ab'.repeat(32)}`;
const METADATA = `0x${'0'.repeat(62)}2a`;
const TAKER = '0x9999999999999999999999999999999999999999';
const signer = privateKeySigner(TEST_KEY);

type Combo = { chainId: number; negRisk: boolean; signatureType: SignatureType; funder?: string };
/**
 * Every chain × neg-risk × signature type 0, 1, 2 (type 3 has its own suite, accounts-official.test.ts). A funder
 * with type 0, which the official clients sign as maker = funder, signer = key, is refused by ours (orders-signing).
 */
const COMBOS: Combo[] = [];
for (const chainId of [POLYGON.chainId, AMOY.chainId])
  for (const negRisk of [false, true])
    for (const [signatureType, funder] of [
      [0, undefined],
      [1, FUNDER],
      [2, FUNDER],
    ] as const)
      COMBOS.push({ chainId, negRisk, signatureType, funder });

const SIZES = [21.04, 0.001, 100, 12.8205, 2435.89, 5, 0.01, 33.33];
const AMOUNTS = [100, 9.9996, 1, 0.001, 949.9971, 21.04];
const ORDER_TYPES: OrderType[] = ['GTC', 'GTD', 'FOK', 'FAK'];

/** Prices at both bounds, the middle, and prices off the tick grid (rounded, never snapped, by the reference). */
function pricesFor(tick: TickSize): number[] {
  const t = parseFloat(tick);
  return [t, 1 - t, 0.5, 0.555, 0.12345, 0.9975, 0.0056];
}

interface Case {
  version: OrderVersion;
  tick: TickSize;
  side: OrderSide;
  price: number;
  size: number;
  combo: Combo;
  n: number;
}

function limitCases(version: OrderVersion): Case[] {
  const ticks = version === 1 ? V1_TICK_SIZES : TICK_SIZES;
  const cases: Case[] = [];
  let n = 0;
  for (const tick of ticks)
    for (const side of ['BUY', 'SELL'] as const)
      for (const price of pricesFor(tick))
        for (const size of SIZES) {
          // A stride coprime with the combo count spreads every combo over every tick, side and price.
          cases.push({ version, tick, side, price, size, combo: COMBOS[(n * 5) % COMBOS.length]!, n });
          n++;
        }
  // And every combo on the plainest order, for both sides.
  for (const combo of COMBOS)
    for (const side of ['BUY', 'SELL'] as const)
      cases.push({ version, tick: '0.01', side, price: 0.56, size: 21.04, combo, n: n++ });
  return cases;
}

/** The v1-only extras rotate through absent, zero and set values. */
function v1Extras(n: number) {
  return {
    feeRateBps: [undefined, 0, 100, 1000][n % 4],
    nonce: [undefined, 0, 7][n % 3],
    expiration: [undefined, 0, 1_900_000_000][n % 3],
    taker: [undefined, TAKER][n % 2],
  };
}
function v2Extras(n: number) {
  return {
    expiration: [undefined, 0, 1_900_000_000][n % 3],
    metadata: [undefined, METADATA][n % 2],
    builderCode: [undefined, BUILDER_CODE][(n >> 1) % 2],
  };
}

function ourBuilder(combo: Combo): OrderBuilder {
  return new OrderBuilder({ signer, chainId: combo.chainId, signatureType: combo.signatureType, funder: combo.funder });
}

/** The official v1 client with its caches filled, so it builds without a server. */
function referenceV1(combo: Combo, tick: TickSize, fee: number) {
  const client = new ClobClientV1(
    'http://127.0.0.1:9',
    combo.chainId,
    referenceSigner,
    undefined,
    combo.signatureType as 0 | 1 | 2,
    combo.funder,
  );
  client.tickSizes[TOKEN_ID] = tick as never;
  (client as unknown as { tickSizeTimestamps: Record<string, number> }).tickSizeTimestamps[TOKEN_ID] = Date.now();
  client.negRisk[TOKEN_ID] = combo.negRisk;
  client.feeRates[TOKEN_ID] = fee;
  return client;
}

function referenceV2(combo: Combo, tick: TickSize, fee: number) {
  const client = new ClobClientV2({
    host: 'http://127.0.0.1:9',
    chain: combo.chainId as never,
    signer: referenceSigner,
    signatureType: combo.signatureType as never,
    funderAddress: combo.funder,
  });
  client.tickSizes[TOKEN_ID] = tick as never;
  client.negRisk[TOKEN_ID] = combo.negRisk;
  client.feeRates[TOKEN_ID] = fee;
  client.feeInfos[TOKEN_ID] = { rate: 0, exponent: 0 };
  return client;
}

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

/** viem's EIP-712 digest of the reference's own v2/v3 order, against the contract it should be bound to. */
function viemHashV2(ref: Record<string, unknown>, version: OrderVersion, chainId: number, contract: string): string {
  return hashTypedData({
    domain: {
      name: 'Polymarket CTF Exchange',
      version: String(version),
      chainId,
      verifyingContract: contract as `0x${string}`,
    },
    types: V2_TYPES,
    primaryType: 'Order',
    message: {
      salt: BigInt(ref.salt as string),
      maker: ref.maker as `0x${string}`,
      signer: ref.signer as `0x${string}`,
      tokenId: BigInt(ref.tokenId as string),
      makerAmount: BigInt(ref.makerAmount as string),
      takerAmount: BigInt(ref.takerAmount as string),
      side: ref.side === 'BUY' ? 0 : 1,
      signatureType: ref.signatureType as number,
      timestamp: BigInt(ref.timestamp as string),
      metadata: ref.metadata as `0x${string}`,
      builder: ref.builder as `0x${string}`,
    },
  });
}

function errorText(e: { ok: false; error: string }): string {
  // Ours read "[ERR_…] detail (Method: x)": compare the trader-facing sentence only.
  return e.error.replace(/^\[[A-Z_]+\] /, '').replace(/ \(Method: [^)]*\)$/, '');
}

afterEach(unpinClock);

describe('limit orders, version 1, against @polymarket/clob-client@5.8.1', () => {
  it('signs the same orders, hashes and POST bodies over the grid', async () => {
    let compared = 0;
    let refused = 0;
    for (const c of limitCases(1)) {
      const { salt } = pinClock(NOW, RANDOM);
      const x = v1Extras(c.n);
      const fee = x.feeRateBps ?? 0;
      const ref = await outcome(() =>
        referenceV1(c.combo, c.tick, fee).createOrder(
          { tokenID: TOKEN_ID, price: c.price, size: c.size, side: c.side === 'BUY' ? SideV1.BUY : SideV1.SELL, ...x },
          { tickSize: c.tick as never, negRisk: c.combo.negRisk },
        ),
      );
      const ours = await outcome(() =>
        ourBuilder(c.combo).buildLimitOrder(
          { tokenId: TOKEN_ID, side: c.side, price: c.price, size: c.size, salt, ...x, feeRateBps: fee },
          { tickSize: c.tick, negRisk: c.combo.negRisk, version: 1 },
        ),
      );
      unpinClock();
      expect(ours.ok, JSON.stringify({ c, ref, ours })).toBe(ref.ok);
      if (!ref.ok || !ours.ok) {
        expect(errorText(ours as { ok: false; error: string })).toBe(errorText(ref as { ok: false; error: string }));
        refused++;
        continue;
      }
      const r = ref.value as unknown as Record<string, unknown>;
      const built: BuiltOrder = ours.value;
      expect(built.signedOrder).toEqual({ ...r, salt: String(r.salt), side: r.side === 0 ? 'BUY' : 'SELL' });
      const network = c.combo.chainId === 137 ? POLYGON : AMOY;
      const contract = c.combo.negRisk ? network.contracts.negRiskExchange : network.contracts.exchange;
      const exchange = new ExchangeOrderBuilder(contract, c.combo.chainId, referenceSigner);
      expect(built.orderHash).toBe(exchange.buildOrderHash(exchange.buildOrderTypedData(ref.value as never)));
      expect(built.verifyingContract).toBe(contract);
      const orderType = ORDER_TYPES[c.n % 4]!;
      expect(JSON.stringify(orderBody(built, OWNER, { orderType, deferExec: c.n % 2 === 0 }))).toBe(
        JSON.stringify(orderToJsonV1Official(ref.value as never, OWNER, orderType as never, c.n % 2 === 0, false)),
      );
      compared++;
    }
    // The grid must really exercise both paths.
    expect(compared).toBeGreaterThan(300);
    expect(refused).toBeGreaterThan(0);
  });
});

for (const version of [1, 2, 3] as const) {
  describe(`limit orders, version ${version}, against @polymarket/clob-client-v2@1.1.0`, () => {
    it('signs the same orders, hashes and POST bodies over the grid', async () => {
      let compared = 0;
      for (const c of limitCases(version)) {
        const { salt, timestamp } = pinClock(NOW, RANDOM);
        const x = version === 1 ? v1Extras(c.n) : v2Extras(c.n);
        const fee = ('feeRateBps' in x ? x.feeRateBps : undefined) ?? 0;
        const ref = await outcome(() =>
          referenceV2(c.combo, c.tick, fee).createOrder(
            {
              tokenID: TOKEN_ID,
              price: c.price,
              size: c.size,
              side: c.side === 'BUY' ? SideV2.BUY : SideV2.SELL,
              ...x,
            } as never,
            { tickSize: c.tick as never, negRisk: c.combo.negRisk, version },
          ),
        );
        const ours = await outcome(() =>
          ourBuilder(c.combo).buildLimitOrder(
            {
              tokenId: TOKEN_ID,
              side: c.side,
              price: c.price,
              size: c.size,
              salt,
              timestamp,
              ...x,
              ...(version === 1 ? { feeRateBps: fee } : {}),
            },
            { tickSize: c.tick, negRisk: c.combo.negRisk, version },
          ),
        );
        unpinClock();
        expect(ours.ok, JSON.stringify({ c, ref, ours })).toBe(ref.ok);
        if (!ref.ok || !ours.ok) {
          expect(errorText(ours as { ok: false; error: string })).toBe(errorText(ref as { ok: false; error: string }));
          continue;
        }
        const r = ref.value as unknown as Record<string, unknown>;
        const built = ours.value;
        expect(built.signedOrder).toEqual({ ...r, salt: String(r.salt) });
        if (version !== 1) {
          expect(built.orderHash).toBe(viemHashV2(r, version, c.combo.chainId, built.verifyingContract));
          const network = c.combo.chainId === 137 ? POLYGON : AMOY;
          const expected =
            version === 3
              ? network.contracts.exchangeV3
              : c.combo.negRisk
                ? network.contracts.negRiskExchangeV2
                : network.contracts.exchangeV2;
          expect(built.verifyingContract).toBe(expected);
          const orderType = ORDER_TYPES[c.n % 4]!;
          const postOnly = (orderType === 'GTC' || orderType === 'GTD') && c.n % 3 === 0;
          expect(JSON.stringify(orderBody(built, OWNER, { orderType, postOnly, deferExec: c.n % 2 === 0 }))).toBe(
            JSON.stringify(orderToJsonV2(ref.value as never, OWNER, orderType as never, postOnly, c.n % 2 === 0)),
          );
        }
        compared++;
      }
      expect(compared).toBeGreaterThan(300);
    });
  });
}

describe('market orders against both official clients', () => {
  it('prices, rounds and signs market orders the same way, with the same hashes and bodies', async () => {
    let compared = 0;
    let n = 0;
    for (const version of [1, 2, 3] as const) {
      const ticks = version === 1 ? V1_TICK_SIZES : TICK_SIZES;
      for (const tick of ticks)
        for (const side of ['BUY', 'SELL'] as const)
          for (const price of [parseFloat(tick), 1 - parseFloat(tick), 0.56, 0.5, 0.0057])
            for (const amount of AMOUNTS) {
              const combo = COMBOS[(n * 5) % COMBOS.length]!;
              n++;
              const { salt, timestamp } = pinClock(NOW, RANDOM);
              const orderInput = {
                tokenID: TOKEN_ID,
                amount,
                price,
                side: side === 'BUY' ? SideV2.BUY : SideV2.SELL,
                orderType: 'FOK',
              };
              const ref = await outcome(async () =>
                version === 1 && n % 2 === 0
                  ? (referenceV1(combo, tick, 0).createMarketOrder({ ...orderInput } as never, {
                      tickSize: tick as never,
                      negRisk: combo.negRisk,
                    }) as Promise<unknown>)
                  : (referenceV2(combo, tick, 0).createMarketOrder({ ...orderInput } as never, {
                      tickSize: tick as never,
                      negRisk: combo.negRisk,
                      version,
                    }) as Promise<unknown>),
              );
              const ours = await outcome(() =>
                ourBuilder(combo).buildMarketOrder(
                  { tokenId: TOKEN_ID, side, amount, price, salt, timestamp },
                  { tickSize: tick, negRisk: combo.negRisk, version },
                ),
              );
              unpinClock();
              expect(ours.ok, JSON.stringify({ version, tick, side, price, amount, ref, ours })).toBe(ref.ok);
              if (!ref.ok || !ours.ok) continue;
              const r = ref.value as Record<string, unknown>;
              const normalized = {
                ...r,
                salt: String(r.salt),
                side: r.side === 0 || r.side === 'BUY' ? 'BUY' : 'SELL',
              };
              expect(ours.value.signedOrder).toEqual(normalized);
              const built = ours.value;
              if (version === 1) {
                const exchange = new ExchangeOrderBuilder(built.verifyingContract, combo.chainId, referenceSigner);
                expect(built.orderHash).toBe(
                  exchange.buildOrderHash(
                    exchange.buildOrderTypedData({ ...normalized, side: normalized.side === 'BUY' ? 0 : 1 } as never),
                  ),
                );
              } else {
                expect(built.orderHash).toBe(viemHashV2(normalized, version, combo.chainId, built.verifyingContract));
                const orderType = (['FOK', 'FAK'] as const)[n % 2]!;
                expect(JSON.stringify(orderBody(built, OWNER, { orderType, deferExec: n % 3 === 0 }))).toBe(
                  JSON.stringify(orderToJsonV2(r as never, OWNER, orderType as never, false, n % 3 === 0)),
                );
              }
              compared++;
            }
    }
    expect(compared).toBeGreaterThan(200);
  });
});
