// Orders for every account kind: who is maker and signer, the funder each signature type needs, and the type 3
// (deposit wallet) ERC-7739 signature: its 317-byte layout, the key it recovers to, and the typed-data path.
import { describe, expect, it } from 'vitest';
import { TypedDataEncoder, Wallet, keccak256, recoverAddress, toUtf8Bytes } from 'ethers';
import type { PmDeskError } from '../../packages/toolkit/src/model/errors';
import { OrderBuilder, signOrder, type SignedOrderV2 } from '../../packages/toolkit/src/orders/builder';
import { domainSeparator, orderStructHashV2 } from '../../packages/toolkit/src/orders/eip712';
import { privateKeySigner } from '../../packages/toolkit/src/orders/signer';
import {
  ORDER_TYPE_STRING,
  TYPED_DATA_SIGN_TYPES,
  depositWalletDigest,
} from '../../packages/toolkit/src/orders/wallet-signature';
import { createL1Headers, createL2Headers } from '../../packages/toolkit/src/clob/auth';

const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
/** The key's derived wallets on Polygon (docs/protocol.md#address-derivation row 1). */
const PROXY = '0x365f0CA36Ae1f641E02fE3B7743673da42A13A70';
const SAFE = '0xd93B25cb943D14d0d34FBaF01Fc93a0f8b5F6E47';
const DEPOSIT = '0xBc0fF067b7740Eff76C1ca93c875Ba6B890d6B50';
const signer = privateKeySigner(KEY);
const input = {
  tokenId: '1234',
  side: 'BUY' as const,
  price: 0.56,
  size: 21.04,
  salt: '479249096354',
  timestamp: '1780449126930',
};
const terms = { tickSize: '0.01' as const, negRisk: false };

const detail = async (run: () => unknown): Promise<string> => {
  try {
    await run();
  } catch (error) {
    return (error as PmDeskError).detail;
  }
  return 'no error';
};

describe('maker and signer per account kind', () => {
  it('makes the wallet the maker and the key the signer for types 1 and 2, in every version', async () => {
    for (const [signatureType, funder] of [
      [1, PROXY],
      [2, SAFE],
    ] as const)
      for (const version of [1, 2, 3] as const) {
        const built = await new OrderBuilder({ signer, chainId: 137, signatureType, funder }).buildLimitOrder(input, {
          ...terms,
          version,
        });
        expect(built.signedOrder).toMatchObject({ maker: funder, signer: ADDRESS, signatureType });
        expect(recoverAddress(built.orderHash, built.signedOrder.signature)).toBe(ADDRESS);
      }
  });

  it('makes the deposit wallet both maker and signer for type 3, versions 2 and 3', async () => {
    for (const version of [2, 3] as const) {
      const built = await new OrderBuilder({ signer, chainId: 137, signatureType: 3, funder: DEPOSIT }).buildLimitOrder(
        input,
        { ...terms, version },
      );
      expect(built.signedOrder).toMatchObject({ maker: DEPOSIT, signer: DEPOSIT, signatureType: 3 });
    }
  });

  it('refuses a wallet type without a funder, a funder with type 0, a funder that is not an address, and type 3 on version 1', async () => {
    for (const signatureType of [1, 2, 3] as const) {
      expect(await detail(() => new OrderBuilder({ signer, chainId: 137, signatureType }))).toMatch(
        new RegExp(
          `^signature type ${signatureType} \\(POLY_[A-Z_0-9]+\\) trades from a wallet: give that wallet's address as the funder$`,
        ),
      );
    }
    expect(await detail(() => new OrderBuilder({ signer, chainId: 137, funder: PROXY }))).toBe(
      `a funder (${PROXY}) was given with signature type 0 (EOA), where the key's own address trades: give the signature type of that wallet (1 proxy, 2 Safe, 3 deposit wallet)`,
    );
    expect(await detail(() => new OrderBuilder({ signer, chainId: 137, signatureType: 1, funder: '0x12' }))).toBe(
      'the funder is not an address: 0x12',
    );
    const b = new OrderBuilder({ signer, chainId: 137, signatureType: 3, funder: DEPOSIT });
    expect(await detail(() => b.buildLimitOrder(input, { ...terms, version: 1 }))).toBe(
      'signature type POLY_1271 is not supported for v1 orders',
    );
    expect(await detail(() => b.buildMarketOrder({ ...input, amount: 5 }, { ...terms, version: 1 }))).toBe(
      'signature type POLY_1271 is not supported for v1 orders',
    );
  });
});

describe('the type 3 (POLY_1271) signature', () => {
  it('is 317 bytes: the key over TypedDataSign ‖ exchange domain separator ‖ order struct hash ‖ type string ‖ its length', async () => {
    const built = await new OrderBuilder({ signer, chainId: 137, signatureType: 3, funder: DEPOSIT }).buildLimitOrder(
      input,
      { ...terms, version: 3 },
    );
    const order = built.signedOrder as SignedOrderV2;
    const sig = Buffer.from(order.signature.slice(2), 'hex');
    expect(sig.length).toBe(317);
    expect(ORDER_TYPE_STRING.length).toBe(186);
    const contract = built.verifyingContract;
    expect(`0x${sig.subarray(65, 97).toString('hex')}`).toBe(domainSeparator(3, 137, contract));
    expect(`0x${sig.subarray(97, 129).toString('hex')}`).toBe(orderStructHashV2(order));
    expect(sig.subarray(129, 315).toString('utf8')).toBe(ORDER_TYPE_STRING);
    expect(sig.readUInt16BE(315)).toBe(186);
    // The inner signature is the key's, over the nested typed data as ethers encodes it independently.
    const inner = `0x${sig.subarray(0, 65).toString('hex')}`;
    const nested = TypedDataEncoder.hash(
      { name: 'Polymarket CTF Exchange', version: '3', chainId: 137, verifyingContract: contract },
      TYPED_DATA_SIGN_TYPES,
      {
        contents: { ...order, side: 0 },
        name: 'DepositWallet',
        version: '1',
        chainId: 137,
        verifyingContract: DEPOSIT,
        salt: `0x${'0'.repeat(64)}`,
      },
    );
    expect(depositWalletDigest(3, 137, contract, order)).toBe(nested);
    expect(recoverAddress(nested, inner)).toBe(ADDRESS);
    // The order hash stays the exchange's plain EIP-712 digest of the order.
    expect(built.orderHash).not.toBe(nested);
    expect(keccak256(toUtf8Bytes(ORDER_TYPE_STRING))).toBe(
      '0xbb86318a2138f5fa8ae32fbe8e659f8fcf13cc6ae4014a707893055433818589',
    );
  });

  it('comes out the same through the typed-data path of a plain ethers Wallet, and through signOrder', async () => {
    for (const version of [2, 3] as const) {
      const fast = await new OrderBuilder({
        signer,
        chainId: 80002,
        signatureType: 3,
        funder: DEPOSIT,
      }).buildLimitOrder(input, { ...terms, version, negRisk: true });
      const slow = await new OrderBuilder({
        signer: new Wallet(KEY),
        chainId: 80002,
        signatureType: 3,
        funder: DEPOSIT,
      }).buildLimitOrder(input, { ...terms, version, negRisk: true });
      expect(slow).toEqual(fast);
      const { signature, ...fields } = fast.signedOrder;
      expect((await signOrder(signer, version, 80002, fast.verifyingContract, fields)).signedOrder.signature).toBe(
        signature,
      );
      expect(
        await detail(() => signOrder(signer, version, 80002, fast.verifyingContract, { ...fields, maker: ADDRESS })),
      ).toBe('a deposit-wallet (POLY_1271) order must have maker = signer = the wallet');
    }
  });
});

describe('which address authenticates', () => {
  it("is the key's own by default, and the given address when told, on both levels", async () => {
    const l1 = await createL1Headers(signer, 137, 0, 1_700_000_000);
    expect(l1.POLY_ADDRESS).toBe(ADDRESS);
    const bound = await createL1Headers(signer, 137, 0, 1_700_000_000, PROXY);
    expect(bound.POLY_ADDRESS).toBe(PROXY);
    // The key still signs, over a ClobAuth naming the wallet.
    const digest = TypedDataEncoder.hash(
      { name: 'ClobAuthDomain', version: '1', chainId: 137 },
      {
        ClobAuth: [
          { name: 'address', type: 'address' },
          { name: 'timestamp', type: 'string' },
          { name: 'nonce', type: 'uint256' },
          { name: 'message', type: 'string' },
        ],
      },
      {
        address: PROXY,
        timestamp: '1700000000',
        nonce: 0,
        message: 'This message attests that I control the given wallet',
      },
    );
    expect(recoverAddress(digest, bound.POLY_SIGNATURE)).toBe(ADDRESS);
    const creds = { key: 'k', secret: 'c2VjcmV0', passphrase: 'p' };
    expect((await createL2Headers(signer, creds, { method: 'GET', requestPath: '/data/orders' }, 1)).POLY_ADDRESS).toBe(
      ADDRESS,
    );
    expect(
      (await createL2Headers(signer, creds, { method: 'GET', requestPath: '/data/orders' }, 1, DEPOSIT)).POLY_ADDRESS,
    ).toBe(DEPOSIT);
  });
});
