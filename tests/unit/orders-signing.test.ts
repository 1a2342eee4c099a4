// EIP-712 order hashing and signing for versions 1, 2 and 3, networks, and the POST /order body.
import { describe, expect, it } from 'vitest';
import { TypedDataEncoder, Wallet, recoverAddress } from 'ethers';
import type { PmDeskError } from '../../packages/toolkit/src/model/errors';
import {
  AMOY,
  POLYGON,
  networkFor,
  parseNetworkProfile,
  verifyingContract,
  type NetworkProfile,
} from '../../packages/toolkit/src/chain/networks';
import {
  ORDER_TYPES_V1,
  ORDER_TYPES_V2,
  exchangeDomain,
  orderDigest,
  orderTypedMessage,
  type OrderV2Fields,
} from '../../packages/toolkit/src/orders/eip712';
import { OrderBuilder, newSalt, signOrder } from '../../packages/toolkit/src/orders/builder';
import { orderBody } from '../../packages/toolkit/src/orders/body';
import { privateKeySigner } from '../../packages/toolkit/src/orders/signer';

const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const signer = privateKeySigner(KEY);

const detail = async (run: () => Promise<unknown>): Promise<string> => {
  try {
    await run();
  } catch (error) {
    return (error as PmDeskError).detail;
  }
  return 'no error';
};

describe('order hash', () => {
  it("reproduces the official client's fixed version 1 vector", () => {
    const a = '0x1111111111111111111111111111111111111111';
    const hash = orderDigest(1, 137, '0x0000000000000000000000000000000000000001', {
      salt: '1',
      maker: a,
      signer: a,
      taker: '0x0000000000000000000000000000000000000000',
      tokenId: '101',
      makerAmount: '1000000',
      takerAmount: '2000000',
      expiration: '0',
      nonce: '2',
      feeRateBps: '0',
      side: 'BUY',
      signatureType: 0,
    });
    expect(hash).toBe('0xeb162c6cc7aa28ad096a7c40fb9556d41fa1730d71103ba7103589ae1f18d942');
  });

  it("equals ethers' generic EIP-712 encoder for versions 2 and 3, which differ only in the domain", () => {
    const order: OrderV2Fields = {
      salt: '479249096354',
      maker: ADDRESS,
      signer: ADDRESS,
      tokenId: '1234',
      makerAmount: '10520000',
      takerAmount: '21040000',
      side: 'SELL',
      signatureType: 2,
      timestamp: '1780449126930',
      expiration: '0',
      metadata: `0x${'00'.repeat(31)}07`,
      builder: `0x${'ab'.repeat(32)}`,
    };
    const v2 = orderDigest(2, 80002, AMOY.contracts.exchangeV2, order);
    const v3 = orderDigest(3, 80002, AMOY.contracts.exchangeV3, order);
    expect(v2).toBe(
      TypedDataEncoder.hash(
        exchangeDomain(2, 80002, AMOY.contracts.exchangeV2),
        ORDER_TYPES_V2,
        orderTypedMessage(2, order),
      ),
    );
    expect(v3).toBe(
      TypedDataEncoder.hash(
        exchangeDomain(3, 80002, AMOY.contracts.exchangeV3),
        ORDER_TYPES_V2,
        orderTypedMessage(3, order),
      ),
    );
    expect(v2).not.toBe(v3);
    // Expiration travels with a version 2 order but is not signed.
    expect(orderDigest(2, 80002, AMOY.contracts.exchangeV2, { ...order, expiration: '1900000000' })).toBe(v2);
  });

  it('encodes integers at every width the encoder switches on as ethers does (double halves up to 15 digits, BigInt beyond)', () => {
    const widths = [
      '0',
      '1',
      '4294967295',
      '4294967296',
      '999999999999999',
      '1000000000000000',
      '9007199254740991',
      `${(1n << 256n) - 1n}`,
      '00042',
    ];
    for (const [i, n] of widths.entries()) {
      const order: OrderV2Fields = {
        salt: n,
        maker: ADDRESS,
        signer: ADDRESS,
        tokenId: widths[(i + 1) % widths.length]!,
        makerAmount: widths[(i + 2) % widths.length]!,
        takerAmount: n,
        side: 'BUY',
        signatureType: 1,
        timestamp: widths[(i + 3) % widths.length]!,
        expiration: '0',
        metadata: `0x${'00'.repeat(32)}`,
        builder: `0x${'00'.repeat(32)}`,
      };
      expect(orderDigest(2, 137, POLYGON.contracts.exchangeV2, order)).toBe(
        TypedDataEncoder.hash(
          exchangeDomain(2, 137, POLYGON.contracts.exchangeV2),
          ORDER_TYPES_V2,
          orderTypedMessage(2, order),
        ),
      );
    }
    expect(() =>
      orderDigest(2, 137, POLYGON.contracts.exchangeV2, {
        salt: `${1n << 256n}`,
        maker: ADDRESS,
        signer: ADDRESS,
        tokenId: '1',
        makerAmount: '1',
        takerAmount: '1',
        side: 'BUY',
        signatureType: 0,
        timestamp: '1',
        expiration: '0',
        metadata: `0x${'00'.repeat(32)}`,
        builder: `0x${'00'.repeat(32)}`,
      }),
    ).toThrow(/does not fit in uint256/);
  });

  it('refuses malformed fields instead of encoding them', async () => {
    const order: OrderV2Fields = {
      salt: '1',
      maker: ADDRESS,
      signer: ADDRESS,
      tokenId: '1',
      makerAmount: '1',
      takerAmount: '1',
      side: 'BUY',
      signatureType: 0,
      timestamp: '1',
      expiration: '0',
      metadata: '0x00',
      builder: `0x${'00'.repeat(32)}`,
    };
    expect(() => orderDigest(2, 137, POLYGON.contracts.exchangeV2, order)).toThrow(/metadata must be 32 bytes/);
    expect(() =>
      orderDigest(2, 137, POLYGON.contracts.exchangeV2, {
        ...order,
        metadata: order.builder,
        maker: '0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      }),
    ).toThrow(/maker is not a valid address/);
    expect(() =>
      orderDigest(2, 137, POLYGON.contracts.exchangeV2, { ...order, metadata: order.builder, tokenId: '-1' }),
    ).toThrow(/tokenId/);
  });
});

describe('order builder', () => {
  const terms = { tickSize: '0.01', negRisk: false } as const;
  const input = {
    tokenId: '1234',
    side: 'BUY',
    price: 0.56,
    size: 21.04,
    salt: '12345',
    timestamp: '1780449126930',
  } as const;

  it('signs so that the signature recovers to the signing wallet, for every version', async () => {
    for (const version of [1, 2, 3] as const) {
      const built = await new OrderBuilder({ signer, chainId: 137 }).buildLimitOrder(input, { ...terms, version });
      expect(recoverAddress(built.orderHash, built.signedOrder.signature)).toBe(ADDRESS);
      expect(built.signedOrder.maker).toBe(ADDRESS);
      expect(built.signedOrder.makerAmount).toBe('11782400');
    }
  });

  it('gives the same signature through the typed-data path of a plain ethers Wallet', async () => {
    const wallet = new Wallet(KEY);
    for (const version of [1, 2, 3] as const) {
      const fast = await new OrderBuilder({ signer, chainId: 80002 }).buildLimitOrder(input, {
        ...terms,
        version,
        negRisk: true,
      });
      const slow = await new OrderBuilder({ signer: wallet, chainId: 80002 }).buildLimitOrder(input, {
        ...terms,
        version,
        negRisk: true,
      });
      expect(slow).toEqual(fast);
    }
  });

  it('makes the funder the maker for proxy and safe wallets', async () => {
    const funder = '0x1234567890AbcdEF1234567890aBcdef12345678';
    const built = await new OrderBuilder({ signer, chainId: 137, signatureType: 2, funder }).buildLimitOrder(input, {
      ...terms,
      version: 2,
    });
    expect(built.signedOrder).toMatchObject({ maker: funder, signer: ADDRESS, signatureType: 2 });
  });

  it('signs against the right exchange for each version and market kind', async () => {
    const b = new OrderBuilder({ signer, chainId: 137 });
    const contract = async (version: 1 | 2 | 3, negRisk: boolean) =>
      (await b.buildLimitOrder(input, { tickSize: '0.01', negRisk, version })).verifyingContract;
    expect(await contract(1, false)).toBe('0x4bFb41d5B3570DeFd03C39a9A4D8dE6Bd8B8982E');
    expect(await contract(1, true)).toBe('0xC5d563A36AE78145C45a50134d48A1215220f80a');
    expect(await contract(2, false)).toBe('0xE111180000d2663C0091e4f400237545B87B996B');
    expect(await contract(2, true)).toBe('0xe2222d279d744050d28e00520010520000310F59');
    expect(await contract(3, false)).toBe('0xe3333700cA9d93003F00f0F71f8515005F6c00Aa');
    expect(await contract(3, true)).toBe('0xe3333700cA9d93003F00f0F71f8515005F6c00Aa');
  });

  it('refuses a signer that is not the signing wallet, out-of-range prices, big salts and type 4', async () => {
    const built = await new OrderBuilder({ signer, chainId: 137 }).buildLimitOrder(input, { ...terms, version: 2 });
    const other = { ...built.signedOrder, signer: '0x1111111111111111111111111111111111111111' };
    expect(await detail(() => signOrder(signer, 2, 137, built.verifyingContract, other))).toBe('signer does not match');
    const b = new OrderBuilder({ signer, chainId: 137 });
    expect(await detail(() => b.buildLimitOrder({ ...input, price: 0.995 }, { ...terms, version: 2 }))).toBe(
      'invalid price (0.995), min: 0.01 - max: 0.99',
    );
    expect(
      await detail(() => b.buildLimitOrder({ ...input, salt: '9007199254740992' }, { ...terms, version: 2 })),
    ).toMatch(/^salt must be an integer/);
    expect(() => new OrderBuilder({ signer, chainId: 137, signatureType: 4 as never })).toThrow(
      /signature type 4 is not supported/,
    );
  });

  it('refuses the version 2 ticks for a version 1 order', async () => {
    const b = new OrderBuilder({ signer, chainId: 137 });
    expect(
      await detail(() =>
        b.buildLimitOrder({ ...input, price: 0.505 }, { tickSize: '0.005', negRisk: false, version: 1 }),
      ),
    ).toBe('invalid tick size (0.005) for order version 1, must be one of 0.1, 0.01, 0.001, 0.0001');
    expect(
      await detail(() =>
        b.buildMarketOrder({ ...input, amount: 1, price: 0.5 }, { tickSize: '0.0025', negRisk: false, version: 1 }),
      ),
    ).toMatch(/^invalid tick size/);
    expect(
      (await b.buildLimitOrder({ ...input, price: 0.505 }, { tickSize: '0.005', negRisk: false, version: 2 }))
        .signedOrder.makerAmount,
    ).toBe('10625200');
  });

  it('gives market orders no expiration and a v1 order its fee, nonce and taker', async () => {
    const b = new OrderBuilder({ signer, chainId: 137 });
    const m = await b.buildMarketOrder(
      { tokenId: '1', side: 'BUY', amount: 100, price: 0.5, expiration: 99 },
      { ...terms, version: 1 },
    );
    expect(m.signedOrder).toMatchObject({
      expiration: '0',
      makerAmount: '100000000',
      takerAmount: '200000000',
      nonce: '0',
      feeRateBps: '0',
    });
    const l = await b.buildLimitOrder(
      { ...input, feeRateBps: 100, nonce: 3, expiration: 1900000000, taker: ADDRESS },
      { ...terms, version: 1 },
    );
    expect(l.signedOrder).toMatchObject({ feeRateBps: '100', nonce: '3', expiration: '1900000000', taker: ADDRESS });
  });

  it('draws salts as a random number scaled by the time', () => {
    const salt = Number(newSalt(1_000_000));
    expect(Number.isInteger(salt)).toBe(true);
    expect(salt).toBeGreaterThanOrEqual(0);
    expect(salt).toBeLessThanOrEqual(1_000_000);
  });
});

describe('networks', () => {
  it('knows Polygon and Amoy, takes custom profiles, and refuses anything else', () => {
    expect(networkFor(137)).toBe(POLYGON);
    expect(networkFor(80002)).toBe(AMOY);
    const sandbox: NetworkProfile = {
      name: 'sandbox',
      chainId: 31337,
      orderVersion: 2,
      contracts: { ...POLYGON.contracts, exchangeV2: ADDRESS },
    };
    expect(verifyingContract(networkFor(31337, [sandbox]), 2, false)).toBe(ADDRESS);
    expect(() => networkFor(1)).toThrow(/Invalid network/);
    expect(() => new OrderBuilder({ signer, chainId: 5 })).toThrow(/Invalid network/);
  });

  it('reads a custom profile from JSON, keeping only what it names, and says which address is missing', () => {
    const profile = parseNetworkProfile({
      chainId: 31337,
      orderVersion: 2,
      clobUrl: 'http://127.0.0.1:4811',
      contracts: { exchangeV2: ADDRESS, negRiskExchangeV2: '0x1111111111111111111111111111111111111111' },
      testWallets: ['ignored'],
    });
    expect(profile).toEqual({
      name: 'custom',
      chainId: 31337,
      orderVersion: 2,
      clobUrl: 'http://127.0.0.1:4811',
      contracts: { exchangeV2: ADDRESS, negRiskExchangeV2: '0x1111111111111111111111111111111111111111' },
    });
    expect(verifyingContract(profile, 2, false)).toBe(ADDRESS);
    expect(() => verifyingContract(profile, 3, false)).toThrow(
      'The network profile custom has no exchangeV3 address for order version 3.',
    );
    expect(() => parseNetworkProfile({ chainId: 31337, contracts: { exchange: '0x12' } })).toThrow(
      'Invalid network profile: contracts.exchange: not an address',
    );
    expect(() => parseNetworkProfile({ chainId: -1, contracts: {} })).toThrow(
      /^\[ERR_INVALID_PARAM\] Invalid network profile: chainId/,
    );
    expect(() => parseNetworkProfile({ chainId: 1, orderVersion: 4, contracts: {} })).toThrow(/orderVersion/);
  });
});

describe('POST /order body', () => {
  it('puts the keys in the official order for each version, salt as a number', async () => {
    const b = new OrderBuilder({ signer, chainId: 137 });
    const input = {
      tokenId: '1234',
      side: 'BUY',
      price: 0.56,
      size: 21.04,
      salt: '12345',
      timestamp: '1780449126930',
    } as const;
    const v1 = orderBody(await b.buildLimitOrder(input, { tickSize: '0.01', negRisk: false, version: 1 }), 'key');
    expect(Object.keys(v1)).toEqual(['deferExec', 'order', 'owner', 'orderType', 'postOnly']);
    expect(Object.keys(v1.order as object)).toEqual([
      'salt',
      'maker',
      'signer',
      'taker',
      'tokenId',
      'makerAmount',
      'takerAmount',
      'side',
      'expiration',
      'nonce',
      'feeRateBps',
      'signatureType',
      'signature',
    ]);
    const built2 = await b.buildLimitOrder(input, { tickSize: '0.01', negRisk: false, version: 2 });
    const v2 = orderBody(built2, 'key', { orderType: 'GTD', postOnly: true });
    expect(Object.keys(v2)).toEqual(['deferExec', 'postOnly', 'order', 'owner', 'orderType']);
    expect(v2).toMatchObject({
      postOnly: true,
      orderType: 'GTD',
      order: { salt: 12345, side: 'BUY', signatureType: 0 },
    });
    expect(() => orderBody(built2, 'key', { orderType: 'FOK', postOnly: true })).toThrow(
      /postOnly is not supported for FOK\/FAK orders/,
    );
    expect(ORDER_TYPES_V1.Order).toHaveLength(12);
  });
});
