// The signer worker's checks for accounts: it signs a deposit-wallet (type 3) order's TypedDataSign wrapping, a
// proxy or Safe order, and a ClobAuth naming an account only for the key's OWN derivations on the chain whose
// factories it is given; another key's account, or no factories at all, is refused before anything is signed.
import { describe, expect, it } from 'vitest';
import { recoverAddress } from 'ethers';
import { ErrorCode } from '../../packages/toolkit/src/model/errors';
import { POLYGON_WALLETS } from '../../packages/toolkit/src/chain/wallet-config';
import { createL1Headers } from '../../packages/toolkit/src/clob/auth';
import { OrderBuilder } from '../../packages/toolkit/src/orders/builder';
import { depositWalletDigest } from '../../packages/toolkit/src/orders/wallet-signature';
import type { OrderV2Fields } from '../../packages/toolkit/src/orders/eip712';
import { SignerClient } from '../../src/main/wallets/signer-client';
import type { SignerReplyMessage, SignerRequestMessage, SignerTransport } from '../../src/main/wallets/signer-protocol';
import { SignerService } from '../../src/main/wallets/signer-service';

const TOKEN = '00112233445566778899aabbccddeeff';
const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
/** ADDRESS's accounts on Polygon (docs/protocol.md#address-derivation row 1), and another key's (row 2). */
const PROXY = '0x365f0CA36Ae1f641E02fE3B7743673da42A13A70';
const SAFE = '0xd93B25cb943D14d0d34FBaF01Fc93a0f8b5F6E47';
const DEPOSIT = '0xBc0fF067b7740Eff76C1ca93c875Ba6B890d6B50';
const DEPOSIT_UUPS = '0xdf8b9E8f9AB23f261F6e1B171B7454ae6E46Ba76';
const OTHER_SAFE = '0x8ac5D4Bd2752AFc9F5CA531f19D617647216B893';
const OTHER_DEPOSIT = '0x5F4f45aBd6e86C60B3Df2a4aF103f85256A2Ce6d';

/** A SignerService and a SignerClient joined in memory (the worker's own code, without a thread). */
async function signerWithKey(): Promise<SignerClient> {
  let toWorker: (message: unknown) => void = () => {};
  let toMain: (message: unknown) => void = () => {};
  new SignerService(TOKEN, {
    send: (m: SignerReplyMessage) => queueMicrotask(() => toMain(m)),
    onMessage: (l) => (toWorker = l),
  });
  const transport: SignerTransport = {
    send: (m: SignerRequestMessage) => queueMicrotask(() => toWorker(m)),
    onMessage: (l) => (toMain = l),
    onExit: () => {},
    close: async () => {},
  };
  const client = new SignerClient(transport, TOKEN);
  const { keystore } = await client.importPrivateKey(KEY, 'a long enough password', { scryptN: 2 ** 4 });
  await client.unlock(keystore, 'a long enough password');
  return client;
}

const input = {
  tokenId: '1234',
  side: 'BUY' as const,
  price: 0.5,
  size: 10,
  salt: '479249096354',
  timestamp: '1780449126930',
};
const terms = { tickSize: '0.01' as const, negRisk: false, version: 2 as const };

async function refusal(run: () => Promise<unknown>): Promise<{ code: string; detail: string }> {
  try {
    await run();
  } catch (error) {
    return error as { code: string; detail: string };
  }
  throw new Error('expected a refusal');
}

describe('the signer signs for the key’s own accounts only', () => {
  it('signs a type 3 order for the key’s own deposit wallet (both eras): the key signs the TypedDataSign digest', async () => {
    const client = await signerWithKey();
    for (const wallet of [DEPOSIT, DEPOSIT_UUPS]) {
      const signer = client.clobSigner(ADDRESS, POLYGON_WALLETS);
      const built = await new OrderBuilder({ signer, chainId: 137, signatureType: 3, funder: wallet }).buildLimitOrder(
        input,
        terms,
      );
      expect(built.signedOrder).toMatchObject({ maker: wallet, signer: wallet, signatureType: 3 });
      const inner = built.signedOrder.signature.slice(0, 132);
      expect(
        recoverAddress(
          depositWalletDigest(2, 137, built.verifyingContract, built.signedOrder as unknown as OrderV2Fields),
          inner,
        ),
      ).toBe(ADDRESS);
    }
  });

  it('refuses a type 3 order for another key’s deposit wallet, and any type 3 order without the chain’s factories', async () => {
    const client = await signerWithKey();
    const other = await refusal(() =>
      new OrderBuilder({
        signer: client.clobSigner(ADDRESS, POLYGON_WALLETS),
        chainId: 137,
        signatureType: 3,
        funder: OTHER_DEPOSIT,
      }).buildLimitOrder(input, terms),
    );
    expect(other).toMatchObject({
      code: ErrorCode.INVALID_PARAMETER,
      detail: expect.stringMatching(`only for this key's own deposit wallet: ${OTHER_DEPOSIT}`),
    });
    const blind = await refusal(() =>
      new OrderBuilder({
        signer: client.clobSigner(ADDRESS),
        chainId: 137,
        signatureType: 3,
        funder: DEPOSIT,
      }).buildLimitOrder(input, terms),
    );
    expect(blind.detail).toMatch(/only for this key's own deposit wallet/);
  });

  it('signs proxy and Safe orders for the key’s own wallets, refuses another key’s Safe and a type that does not match the wallet', async () => {
    const client = await signerWithKey();
    const signer = client.clobSigner(ADDRESS, POLYGON_WALLETS);
    for (const [signatureType, funder] of [
      [1, PROXY],
      [2, SAFE],
    ] as const) {
      const built = await new OrderBuilder({ signer, chainId: 137, signatureType, funder }).buildLimitOrder(
        input,
        terms,
      );
      expect(recoverAddress(built.orderHash, built.signedOrder.signature)).toBe(ADDRESS);
    }
    expect(
      (
        await refusal(() =>
          new OrderBuilder({ signer, chainId: 137, signatureType: 2, funder: OTHER_SAFE }).buildLimitOrder(
            input,
            terms,
          ),
        )
      ).detail,
    ).toMatch(`own Safe: ${OTHER_SAFE} is not it`);
    expect(
      (
        await refusal(() =>
          new OrderBuilder({ signer, chainId: 137, signatureType: 1, funder: SAFE }).buildLimitOrder(input, terms),
        )
      ).detail,
    ).toMatch(/own proxy wallet/);
    expect(
      (
        await refusal(() =>
          new OrderBuilder({
            signer: client.clobSigner(ADDRESS),
            chainId: 137,
            signatureType: 2,
            funder: SAFE,
          }).buildLimitOrder(input, terms),
        )
      ).detail,
    ).toMatch(/own Safe/);
  });

  it('still signs the key’s own type 0 orders without factories', async () => {
    const client = await signerWithKey();
    const built = await new OrderBuilder({ signer: client.clobSigner(ADDRESS), chainId: 137 }).buildLimitOrder(
      input,
      terms,
    );
    expect(recoverAddress(built.orderHash, built.signedOrder.signature)).toBe(ADDRESS);
  });

  it('signs ClobAuth for the key or one of its own accounts, never for another address', async () => {
    const client = await signerWithKey();
    const signer = client.clobSigner(ADDRESS, POLYGON_WALLETS);
    for (const address of [ADDRESS, PROXY, SAFE, DEPOSIT]) {
      expect((await createL1Headers(signer, 137, 0, 1760000000, address)).POLY_ADDRESS).toBe(address);
    }
    expect(await refusal(() => createL1Headers(signer, 137, 0, 1760000000, OTHER_SAFE))).toMatchObject({
      code: ErrorCode.INVALID_PARAMETER,
      detail: 'signer does not match',
    });
    expect((await refusal(() => createL1Headers(client.clobSigner(ADDRESS), 137, 0, 1760000000, SAFE))).detail).toBe(
      'signer does not match',
    );
  });
});
