// Where an owner's account wallets live, computed offline: the CREATE2 addresses of its proxy (type 1),
// Safe (type 2) and deposit wallet in both eras (type 3) from a chain's wallet factories (docs/protocol.md#address-derivation).
import { AbiCoder, concat, getAddress, getCreate2Address, isAddress, keccak256, toBeHex, zeroPadValue } from 'ethers';
import { invalidParameter } from '../model/errors';
import type { WalletConfig } from '../chain/wallet-config';

/** The account kinds, named as the trader knows them, with the signature type each one signs orders with. */
export const AccountKind = { EOA: 'eoa', PROXY: 'proxy', SAFE: 'safe', DEPOSIT_WALLET: 'deposit-wallet' } as const;
export type AccountKind = (typeof AccountKind)[keyof typeof AccountKind];
export const SIGNATURE_TYPE_OF: Readonly<Record<AccountKind, 0 | 1 | 2 | 3>> = {
  eoa: 0,
  proxy: 1,
  safe: 2,
  'deposit-wallet': 3,
};

/** Deposit wallets made before the factory's upgrade delegate straight to an implementation (UUPS); later ones go through a beacon. */
export type DepositWalletEra = 'beacon' | 'uups';

/** Every wallet an owner could trade through on one chain; a kind the chain has no factory for is absent. */
export interface DerivedAccounts {
  owner: string;
  proxy?: string;
  safe?: string;
  depositWallet?: { beacon?: string; uups?: string };
}

/** A checksummed address, or a clear refusal naming what was given. */
export function checkedAddress(value: string, what = 'address'): string {
  if (typeof value !== 'string' || !isAddress(value))
    throw invalidParameter(`${what} is not an address: ${String(value)}`);
  try {
    return getAddress(value);
  } catch {
    // A mixed-case address whose checksum is wrong is a typo, not a different address.
    throw invalidParameter(`${what} has a bad checksum: ${value}`);
  }
}

// ---- proxy (type 1): an EIP-1167-style clone built by FactoryLib.computeCreationCode(factory, implementation) ----

/** The 99-byte clone stub around the factory and implementation, then `cloneConstructor(bytes)` with empty bytes. */
const CLONE_HEAD = '0x3d3d606380380380913d393d73';
const CLONE_MIDDLE = '0x5af4602a57600080fd5b602d8060366000396000f3363d3d373d3d3d363d73';
const CLONE_TAIL = '0x5af43d82803e903d91602b57fd5bf3';
/** abi.encodeWithSignature("cloneConstructor(bytes)", new bytes(0)): selector, offset 0x20, length 0. */
const CLONE_CONSTRUCTOR_CALL = concat(['0x52e831dd', toBeHex(0x20, 32), toBeHex(0, 32)]);

/** The proxy factory's creation code for its clones: 167 bytes (proxy-factories FactoryLib). */
export function proxyInitCode(factory: string, implementation: string): string {
  return concat([
    CLONE_HEAD,
    checkedAddress(factory, 'proxy factory'),
    CLONE_MIDDLE,
    checkedAddress(implementation, 'proxy implementation'),
    CLONE_TAIL,
    CLONE_CONSTRUCTOR_CALL,
  ]);
}

export function proxyInitCodeHash(factory: string, implementation: string): string {
  return keccak256(proxyInitCode(factory, implementation));
}

/** The owner's proxy wallet: the salt is keccak256 of its 20 raw bytes (encodePacked). */
export function deriveProxyWallet(owner: string, config: WalletConfig): string | undefined {
  if (!config.proxyFactory || !config.proxyImplementation) return undefined;
  const salt = keccak256(checkedAddress(owner, 'owner'));
  return getCreate2Address(
    config.proxyFactory,
    salt,
    proxyInitCodeHash(config.proxyFactory, config.proxyImplementation),
  );
}

// ---- Safe (type 2): the 1-of-1 Gnosis Safe the Safe factory deploys for its owner ----

/** The owner's Safe: the salt is keccak256 of the address left-padded to 32 bytes (abi.encode). */
export function deriveSafeWallet(owner: string, config: WalletConfig): string | undefined {
  if (!config.safeFactory || !config.safeInitCodeHash) return undefined;
  const salt = keccak256(zeroPadValue(checkedAddress(owner, 'owner'), 32));
  return getCreate2Address(config.safeFactory, salt, config.safeInitCodeHash);
}

// ---- deposit wallet (type 3): a Solady ERC-1967 clone with immutable args (factory, walletId) ----

const abi = AbiCoder.defaultAbiCoder();
/** `abi.encode(factory, bytes32(owner))`: 64 bytes, appended to the clone and hashed for the salt. */
function depositWalletArgs(factory: string, owner: string): string {
  return abi.encode(
    ['address', 'bytes32'],
    [checkedAddress(factory, 'deposit-wallet factory'), zeroPadValue(checkedAddress(owner, 'owner'), 32)],
  );
}
/** A 10-byte big-endian prefix plus `len(args) << 56`: the clone's constructor copies that many trailing bytes. */
function prefixWithLength(prefix: bigint, argsLength: number): string {
  return toBeHex(prefix + (BigInt(argsLength) << 56n), 10);
}
const BEACON_PREFIX = 0x6100523d8160233d3973n;
const BEACON_BODY = concat([
  '0x60195155f3363d3d373d3d363d602036600436635c60da',
  '0x1b60e01b36527fa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6c',
  '0xb3582b35133d50545afa5036515af43d6000803e604d573d6000fd5b3d6000f3',
]);
const UUPS_PREFIX = 0x61003d3d8160233d3973n;
const UUPS_BODY = concat([
  '0x6009',
  '0x5155f3363d3d373d3d363d7f360894a13ba1a3210667c828492db98dca3e2076',
  '0xcc3735a920a3ca505d382bbc545af43d6000803e6038573d6000fd5b3d6000f3',
]);

/** The creation code of an owner's deposit wallet in one era. */
export function depositWalletInitCode(era: DepositWalletEra, factory: string, target: string, owner: string): string {
  const args = depositWalletArgs(factory, owner);
  const argsLength = (args.length - 2) / 2;
  return era === 'beacon'
    ? concat([
        prefixWithLength(BEACON_PREFIX, argsLength),
        checkedAddress(target, 'deposit-wallet beacon'),
        BEACON_BODY,
        args,
      ])
    : concat([
        prefixWithLength(UUPS_PREFIX, argsLength),
        checkedAddress(target, 'deposit-wallet implementation'),
        UUPS_BODY,
        args,
      ]);
}

/** The owner's deposit wallet in one era; absent when the chain has no factory or no beacon/implementation for it. */
export function deriveDepositWallet(owner: string, config: WalletConfig, era: DepositWalletEra): string | undefined {
  const target = era === 'beacon' ? config.depositWalletBeacon : config.depositWalletImplementation;
  if (!config.depositWalletFactory || !target) return undefined;
  const salt = keccak256(depositWalletArgs(config.depositWalletFactory, owner));
  return getCreate2Address(
    config.depositWalletFactory,
    salt,
    keccak256(depositWalletInitCode(era, config.depositWalletFactory, target, owner)),
  );
}

/** Every kind's address for one owner on one chain, offline. */
export function deriveAccounts(owner: string, config: WalletConfig): DerivedAccounts {
  const checked = checkedAddress(owner, 'owner');
  const beacon = deriveDepositWallet(checked, config, 'beacon');
  const uups = deriveDepositWallet(checked, config, 'uups');
  return {
    owner: checked,
    ...optional('proxy', deriveProxyWallet(checked, config)),
    ...optional('safe', deriveSafeWallet(checked, config)),
    ...(beacon || uups ? { depositWallet: { ...optional('beacon', beacon), ...optional('uups', uups) } } : {}),
  };
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}
