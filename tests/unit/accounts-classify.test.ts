// Classifying a wallet for a key (docs/protocol.md#accounts-and-signature-types) and choosing the account a key trades from, with a chain
// reader that answers from a fixed table.
import { describe, expect, it } from 'vitest';
import type { PmDeskError } from '../../packages/toolkit/src/model/errors';
import {
  accountForOverride,
  classifyAccount,
  findAccounts,
  type ChainRead,
} from '../../packages/toolkit/src/accounts/classify';
import { AMOY_WALLETS, POLYGON_WALLETS } from '../../packages/toolkit/src/chain/wallet-config';

const KEY = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const PROXY = '0x365f0CA36Ae1f641E02fE3B7743673da42A13A70';
const SAFE = '0xd93B25cb943D14d0d34FBaF01Fc93a0f8b5F6E47';
const BEACON = '0xBc0fF067b7740Eff76C1ca93c875Ba6B890d6B50';
const UUPS = '0xdf8b9E8f9AB23f261F6e1B171B7454ae6E46Ba76';
const STRANGER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

const fail = async (run: () => unknown): Promise<PmDeskError> => {
  try {
    await run();
  } catch (error) {
    return error as PmDeskError;
  }
  throw new Error('expected a refusal');
};

/** A chain where the given addresses have code and/or collateral; every read is counted. */
function chain(state: Record<string, { code?: string; balance?: bigint }>): ChainRead & { reads: string[] } {
  const reads: string[] = [];
  const at = (address: string) => state[address.toLowerCase()] ?? {};
  return {
    reads,
    getCode: async (address) => (reads.push(`code ${address}`), at(address).code ?? '0x'),
    collateralBalance: async (address) => (reads.push(`balance ${address}`), at(address).balance ?? 0n),
  };
}
const s = (entries: [string, { code?: string; balance?: bigint }][]) =>
  Object.fromEntries(entries.map(([a, v]) => [a.toLowerCase(), v]));

describe('classifyAccount', () => {
  it('names each kind with its signature type, case-insensitively', () => {
    expect(classifyAccount(KEY, KEY.toLowerCase(), POLYGON_WALLETS)).toEqual({
      address: KEY,
      kind: 'eoa',
      signatureType: 0,
    });
    expect(classifyAccount(KEY.toLowerCase(), PROXY.toLowerCase(), POLYGON_WALLETS)).toEqual({
      address: PROXY,
      kind: 'proxy',
      signatureType: 1,
    });
    expect(classifyAccount(KEY, SAFE, POLYGON_WALLETS)).toEqual({ address: SAFE, kind: 'safe', signatureType: 2 });
    expect(classifyAccount(KEY, BEACON, POLYGON_WALLETS)).toEqual({
      address: BEACON,
      kind: 'deposit-wallet',
      signatureType: 3,
      era: 'beacon',
    });
    expect(classifyAccount(KEY, UUPS.toUpperCase().replace('0X', '0x'), POLYGON_WALLETS)).toEqual({
      address: UUPS,
      kind: 'deposit-wallet',
      signatureType: 3,
      era: 'uups',
    });
  });

  it("refuses another key's wallet, or a kind the chain has no factory for, naming the address", async () => {
    const error = await fail(() => classifyAccount(STRANGER, PROXY, POLYGON_WALLETS));
    expect(error.code).toBe('ERR_INVALID_PARAM');
    expect(error.detail).toBe(
      `The wallet ${PROXY} does not match the signer ${STRANGER} or any supported deterministic wallet address (proxy, Safe, deposit wallet) on this chain.`,
    );
    // Amoy has no proxy factory: the Polygon proxy of the same key is no account there.
    expect((await fail(() => classifyAccount(KEY, PROXY, AMOY_WALLETS))).detail).toMatch(
      new RegExp(`^The wallet ${PROXY} does not match`),
    );
    expect(classifyAccount(KEY, SAFE, AMOY_WALLETS).kind).toBe('safe');
    expect((await fail(() => classifyAccount(KEY, '0xnope', POLYGON_WALLETS))).detail).toBe(
      'wallet is not an address: 0xnope',
    );
  });
});

describe('findAccounts', () => {
  it('with nothing on chain: lists every candidate, derived, and falls back to the key itself', async () => {
    const read = chain({});
    const found = await findAccounts(KEY, { chainRead: read, config: POLYGON_WALLETS });
    expect(found.candidates.map((c) => [c.kind, c.address, c.foundBy, c.era])).toEqual([
      ['eoa', KEY, 'key', undefined],
      ['deposit-wallet', BEACON, 'derivation', 'beacon'],
      ['deposit-wallet', UUPS, 'derivation', 'uups'],
      ['safe', SAFE, 'derivation', undefined],
      ['proxy', PROXY, 'derivation', undefined],
    ]);
    expect(found.chosen).toMatchObject({ address: KEY, signatureType: 0 });
    expect(found.reason).toBe('key');
    expect(found.alsoInUse).toEqual([]);
    // The key's own code is never asked for; every wallet's is.
    expect(read.reads.filter((r) => r.startsWith('code'))).toHaveLength(4);
  });

  it('picks a funded wallet over a merely deployed one, and says which others are in use', async () => {
    const read = chain(
      s([
        [SAFE, { code: '0x6080' }],
        [PROXY, { balance: 5_000_000n }],
        [KEY, { balance: 1n }],
      ]),
    );
    const found = await findAccounts(KEY, { chainRead: read, config: POLYGON_WALLETS });
    expect(found.chosen).toMatchObject({
      address: PROXY,
      kind: 'proxy',
      signatureType: 1,
      balance: 5_000_000n,
      deployed: false,
      foundBy: 'derivation',
    });
    expect(found.reason).toBe('funded');
    expect(found.alsoInUse.map((c) => c.address)).toEqual([SAFE]);
  });

  it('picks a deployed wallet when none holds funds: the deposit wallet first, in the UUPS era too', async () => {
    const found = await findAccounts(KEY, {
      chainRead: chain(
        s([
          [UUPS, { code: '0x3d' }],
          [SAFE, { code: '0x60' }],
        ]),
      ),
      config: POLYGON_WALLETS,
    });
    expect(found.chosen).toMatchObject({ address: UUPS, signatureType: 3, era: 'uups', deployed: true });
    expect(found.reason).toBe('deployed');
    expect(found.alsoInUse.map((c) => c.kind)).toEqual(['safe']);
  });

  it("takes the profile's wallet first, even when another holds more, and refuses one the key cannot sign for", async () => {
    const read = chain(s([[PROXY, { balance: 9n }]]));
    const found = await findAccounts(KEY, {
      profileWallet: SAFE.toLowerCase(),
      chainRead: read,
      config: POLYGON_WALLETS,
    });
    expect(found.chosen).toMatchObject({ address: SAFE, kind: 'safe', foundBy: 'profile' });
    expect(found.reason).toBe('profile');
    expect(found.alsoInUse.map((c) => c.address)).toEqual([PROXY]);
    const profileKey = await findAccounts(KEY, { profileWallet: KEY, chainRead: read, config: POLYGON_WALLETS });
    expect(profileKey.chosen).toMatchObject({ address: KEY, foundBy: 'profile', signatureType: 0 });
    const error = await fail(() =>
      findAccounts(KEY, { profileWallet: STRANGER, chainRead: chain({}), config: POLYGON_WALLETS }),
    );
    expect(error.detail).toMatch(new RegExp(`^The wallet ${STRANGER} does not match the signer ${KEY}`));
  });

  it('refuses chain answers of the wrong shape, naming the address', async () => {
    const bad: ChainRead = { getCode: async () => 'nothing', collateralBalance: async () => 0n };
    const error = await fail(() => findAccounts(KEY, { chainRead: bad, config: AMOY_WALLETS }));
    expect(error.code).toBe('ERR_VALIDATION');
    expect(error.detail).toBe(`getCode for ${SAFE} answered nothing, not hex bytes.`);
    const negative: ChainRead = { getCode: async () => '0x', collateralBalance: async () => -1n };
    expect((await fail(() => findAccounts(KEY, { chainRead: negative, config: AMOY_WALLETS }))).detail).toMatch(
      /collateralBalance for 0x[0-9a-fA-F]{40} answered -1/,
    );
  });
});

describe('accountForOverride', () => {
  it('takes the key, its wallet of a type, or a given address of the key, checked against the type', () => {
    expect(accountForOverride(KEY, {}, POLYGON_WALLETS)).toEqual({ address: KEY, kind: 'eoa', signatureType: 0 });
    expect(accountForOverride(KEY, { signatureType: 0 }, POLYGON_WALLETS).address).toBe(KEY);
    expect(accountForOverride(KEY, { signatureType: 1 }, POLYGON_WALLETS)).toEqual({
      address: PROXY,
      kind: 'proxy',
      signatureType: 1,
    });
    expect(accountForOverride(KEY, { signatureType: 2 }, POLYGON_WALLETS).address).toBe(SAFE);
    expect(accountForOverride(KEY, { signatureType: 3 }, POLYGON_WALLETS)).toEqual({
      address: BEACON,
      kind: 'deposit-wallet',
      signatureType: 3,
      era: 'beacon',
    });
    expect(accountForOverride(KEY, { account: UUPS }, POLYGON_WALLETS)).toMatchObject({
      signatureType: 3,
      era: 'uups',
    });
    expect(accountForOverride(KEY, { account: SAFE.toLowerCase(), signatureType: 2 }, POLYGON_WALLETS).address).toBe(
      SAFE,
    );
    expect(accountForOverride(KEY, { account: KEY, signatureType: 0 }, POLYGON_WALLETS).signatureType).toBe(0);
  });

  it('refuses an address the key does not control, a type that does not fit it, and a type the chain cannot derive', async () => {
    expect(
      (await fail(() => accountForOverride(KEY, { account: STRANGER, signatureType: 2 }, POLYGON_WALLETS))).detail,
    ).toMatch(new RegExp(`^The wallet ${STRANGER} does not match the signer ${KEY}`));
    expect(
      (await fail(() => accountForOverride(KEY, { account: SAFE, signatureType: 1 }, POLYGON_WALLETS))).detail,
    ).toBe(`The account ${SAFE} is the key's Safe (signature type 2), not a signature type 1 account.`);
    expect(
      (await fail(() => accountForOverride(KEY, { account: KEY, signatureType: 3 }, POLYGON_WALLETS))).detail,
    ).toBe(`The account ${KEY} is the key's own address (signature type 0), not a signature type 3 account.`);
    expect((await fail(() => accountForOverride(KEY, { signatureType: 1 }, AMOY_WALLETS))).detail).toBe(
      'This chain has no proxy wallet factory: signature type 1 cannot be derived here.',
    );
    expect((await fail(() => accountForOverride(KEY, { signatureType: 4 }, POLYGON_WALLETS))).detail).toBe(
      'The signature type must be 0 (EOA), 1 (proxy), 2 (Safe) or 3 (deposit wallet), got 4.',
    );
  });
});
