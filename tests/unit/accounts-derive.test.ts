// Offline CREATE2 derivations of proxy, Safe and deposit wallets against every vector in docs/protocol.md#address-derivation,
// the proxy init-code recipe against the published hash, and the wallet configs a network profile may carry.
import { describe, expect, it } from 'vitest';
import { getCreate2Address, keccak256 } from 'ethers';
import type { PmDeskError } from '../../packages/toolkit/src/model/errors';
import {
  deriveAccounts,
  deriveDepositWallet,
  deriveProxyWallet,
  deriveSafeWallet,
  depositWalletInitCode,
  proxyInitCode,
  proxyInitCodeHash,
} from '../../packages/toolkit/src/accounts/derive';
import { AMOY_WALLETS, POLYGON_WALLETS, type WalletConfig } from '../../packages/toolkit/src/chain/wallet-config';
import { AMOY, POLYGON, parseNetworkProfile, walletConfigFor } from '../../packages/toolkit/src/chain/networks';

/** docs/protocol.md#address-derivation "Test vectors": EOA, proxy, Safe, deposit (beacon), deposit (UUPS); '–' is absent. */
const VECTORS: [string, string | null, string | null, string | null, string | null][] = [
  [
    '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    '0x365f0CA36Ae1f641E02fE3B7743673da42A13A70',
    '0xd93B25cb943D14d0d34FBaF01Fc93a0f8b5F6E47',
    '0xBc0fF067b7740Eff76C1ca93c875Ba6B890d6B50',
    '0xdf8b9E8f9AB23f261F6e1B171B7454ae6E46Ba76',
  ],
  [
    '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    '0xd9d24e482c11F586cd9A1a53dC3eEc6dE3883862',
    '0x8ac5D4Bd2752AFc9F5CA531f19D617647216B893',
    null,
    '0x5F4f45aBd6e86C60B3Df2a4aF103f85256A2Ce6d',
  ],
  [
    '0x0000000000000000000000000000000000000001',
    '0x7754536ecd85c00b2E0CF9c1aA679340D8550756',
    '0x766b6851A199BF91Ae3fa13B1cfaC5187355118f',
    '0x94bF330955A0b957662fEaF878dE77bf25f76cD9',
    '0x57ffBc34De23124fAeb8387fcd689d314E57aCcD',
  ],
  [
    '0xA60601A4d903af91855C52BFB3814f6bA342f201',
    null,
    null,
    '0xC91A0e6CF447a271c942d0b02ce3fCc12195fe7f',
    '0x8b60BF0f650Bf7a0d93F10D72375b37De18F8c40',
  ],
  [
    '0x339a9731D4c1ea6861db006ad592b83E49C9398e',
    '0xBa734A6A711c9f13B8f7366572a4F9817a0dAC46',
    '0xD285A8131fFF17A8c1F1f0b7A206517120cc0ccD',
    null,
    null,
  ],
];

const detail = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    return (error as PmDeskError).detail;
  }
  return 'no error';
};

describe('the proxy init code (FactoryLib.computeCreationCode)', () => {
  it('is 167 bytes and hashes to the published 0xd21df8dc…a00b on Polygon', () => {
    const code = proxyInitCode(POLYGON_WALLETS.proxyFactory!, POLYGON_WALLETS.proxyImplementation!);
    expect((code.length - 2) / 2).toBe(167);
    expect(proxyInitCodeHash(POLYGON_WALLETS.proxyFactory!, POLYGON_WALLETS.proxyImplementation!)).toBe(
      '0xd21df8dc65880a8606f09fe0ce3df9b8869287ab0b058be05aa9e8af6330a00b',
    );
  });

  it('places the factory at byte 13 and the implementation at byte 64, and ends with cloneConstructor("")', () => {
    const factory = '0x1111111111111111111111111111111111111111';
    const implementation = '0x2222222222222222222222222222222222222222';
    const bytes = Buffer.from(proxyInitCode(factory, implementation).slice(2), 'hex');
    expect(bytes.subarray(13, 33).toString('hex')).toBe('11'.repeat(20));
    expect(bytes.subarray(64, 84).toString('hex')).toBe('22'.repeat(20));
    expect(bytes.subarray(99, 103).toString('hex')).toBe('52e831dd');
    expect(bytes.subarray(103).toString('hex')).toBe(`${'0'.repeat(62)}20${'0'.repeat(64)}`);
    // Another implementation is another hash: the recipe really uses what it is given.
    expect(proxyInitCodeHash(factory, implementation)).not.toBe(proxyInitCodeHash(factory, factory));
  });
});

describe('derivations against every vector row of docs/protocol.md#address-derivation (Polygon)', () => {
  for (const [owner, proxy, safe, beacon, uups] of VECTORS) {
    it(`derives the wallets of ${owner}`, () => {
      if (proxy) expect(deriveProxyWallet(owner, POLYGON_WALLETS)).toBe(proxy);
      if (safe) expect(deriveSafeWallet(owner, POLYGON_WALLETS)).toBe(safe);
      if (beacon) expect(deriveDepositWallet(owner, POLYGON_WALLETS, 'beacon')).toBe(beacon);
      if (uups) expect(deriveDepositWallet(owner, POLYGON_WALLETS, 'uups')).toBe(uups);
      // Lower-case input is the same owner.
      const all = deriveAccounts(owner.toLowerCase(), POLYGON_WALLETS);
      expect(all.owner).toBe(owner);
      if (proxy) expect(all.proxy).toBe(proxy);
      if (safe) expect(all.safe).toBe(safe);
      if (beacon) expect(all.depositWallet?.beacon).toBe(beacon);
      if (uups) expect(all.depositWallet?.uups).toBe(uups);
    });
  }

  it('the Safe vector is identical on Amoy, where there is no proxy and no deposit wallet', () => {
    const [owner, , safe] = VECTORS[0]!;
    expect(deriveAccounts(owner, AMOY_WALLETS)).toEqual({ owner, safe });
    expect(deriveProxyWallet(owner, AMOY_WALLETS)).toBeUndefined();
    expect(deriveDepositWallet(owner, AMOY_WALLETS, 'beacon')).toBeUndefined();
  });
});

describe('deposit-wallet init code', () => {
  it('carries the length of its 64-byte args in the prefix and the args at the end', () => {
    const owner = VECTORS[0]![0];
    const f = POLYGON_WALLETS.depositWalletFactory!;
    const beacon = depositWalletInitCode('beacon', f, POLYGON_WALLETS.depositWalletBeacon!, owner);
    const uups = depositWalletInitCode('uups', f, POLYGON_WALLETS.depositWalletImplementation!, owner);
    expect(beacon.slice(0, 22)).toBe('0x6100923d8160233d3973');
    expect(uups.slice(0, 22)).toBe('0x61007d3d8160233d3973');
    expect(beacon.endsWith(owner.slice(2).toLowerCase())).toBe(true);
    // The CREATE2 inputs recomputed by hand from the code: salt = keccak256(args).
    const args = beacon.slice(-128);
    expect(getCreate2Address(f, keccak256(`0x${args}`), keccak256(beacon))).toBe(VECTORS[0]![3]);
  });
});

describe('wallet configs from network profiles', () => {
  const sandbox: WalletConfig = {
    proxyFactory: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    proxyImplementation: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
    safeFactory: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
    safeInitCodeHash: `0x${'ab'.repeat(32)}`,
    depositWalletFactory: '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9',
    depositWalletBeacon: '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9',
    depositWalletImplementation: '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707',
  };

  it('parses a profile with wallets and derives from them, not from Polygon', () => {
    const profile = parseNetworkProfile({ name: 'sandbox', chainId: 31337, contracts: {}, wallets: sandbox });
    expect(profile.wallets).toEqual(sandbox);
    const owner = VECTORS[0]![0];
    const config = walletConfigFor(profile);
    const derived = deriveAccounts(owner, config);
    expect(derived.proxy).toBe(
      getCreate2Address(
        sandbox.proxyFactory!,
        keccak256(owner),
        proxyInitCodeHash(sandbox.proxyFactory!, sandbox.proxyImplementation!),
      ),
    );
    expect(derived.proxy).not.toBe(VECTORS[0]![1]);
    expect(derived.safe).not.toBe(VECTORS[0]![2]);
    expect(derived.depositWallet?.beacon).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });

  it('falls back to the built-in factories of the chain, and to none for an unknown chain', () => {
    expect(walletConfigFor(POLYGON)).toBe(POLYGON_WALLETS);
    expect(walletConfigFor(AMOY)).toBe(AMOY_WALLETS);
    expect(walletConfigFor(parseNetworkProfile({ chainId: 137, contracts: {} }))).toBe(POLYGON_WALLETS);
    expect(walletConfigFor(parseNetworkProfile({ chainId: 31337, contracts: {} }))).toEqual({});
    expect(deriveAccounts(VECTORS[0]![0], {})).toEqual({ owner: VECTORS[0]![0] });
  });

  it('refuses a profile whose wallets are not addresses, naming the field', () => {
    expect(
      detail(() => parseNetworkProfile({ chainId: 31337, contracts: {}, wallets: { proxyFactory: '0x12' } })),
    ).toBe('Invalid network profile: wallets.proxyFactory: not an address');
    expect(
      detail(() => parseNetworkProfile({ chainId: 31337, contracts: {}, wallets: { safeInitCodeHash: '0x12' } })),
    ).toBe('Invalid network profile: wallets.safeInitCodeHash: not 32 bytes of hex');
  });

  it('refuses an owner that is not an address, or a bad checksum, naming it', () => {
    expect(detail(() => deriveAccounts('0x1234', POLYGON_WALLETS))).toBe('owner is not an address: 0x1234');
    expect(detail(() => deriveAccounts('0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266', POLYGON_WALLETS))).toMatch(
      /^owner (is not an address|has a bad checksum)/,
    );
  });
});
