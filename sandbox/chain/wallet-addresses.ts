// Where an EOA's Polymarket accounts live on the sandbox chain: the CREATE2 formulas of docs/protocol.md#address-derivation
// (proxy wallet, Safe, beacon-era deposit wallet) computed off chain, for the CLOB (which account a key's
// owner controls) and the deployment record. The contracts compute the same in WalletAddresses.sol.
import { AbiCoder, concat, getCreate2Address, keccak256, solidityPacked, toBeHex, zeroPadValue } from 'ethers';

/** The sandbox's account contracts, as the deployment record and the network profile carry them. */
export interface SandboxWallets {
  proxyFactory: string;
  proxyImplementation: string;
  safeFactory: string;
  safeMasterCopy: string;
  /** keccak256(Safe proxy creation code ‖ abi.encode(masterCopy)): every Safe's init-code hash. */
  safeInitCodeHash: string;
  depositWalletFactory: string;
  depositWalletBeacon: string;
  depositWalletImplementation: string;
  /** Safe batches: execTransaction delegatecalls multiSend(bytes) here (operation 1). */
  multiSend: string;
  /** The GSN v1 relay hub the proxy factory takes relayed calls from (a PROXY request's `relayHub`). */
  relayHub: string;
}

export type AccountKind = 'proxy' | 'safe' | 'deposit';

/** The order signature type each account kind trades with. */
export const SIGNATURE_TYPE_OF: Record<AccountKind, 1 | 2 | 3> = { proxy: 1, safe: 2, deposit: 3 };

const abi = AbiCoder.defaultAbiCoder();

/** FactoryLib's clone stub around (factory, implementation), then cloneConstructor(bytes) with empty bytes. */
export function proxyWalletCreationCode(factory: string, implementation: string): string {
  const cloneConstructor = concat(['0x52e831dd', abi.encode(['bytes'], ['0x'])]);
  return concat([
    '0x3d3d606380380380913d393d73',
    factory,
    '0x5af4602a57600080fd5b602d8060366000396000f3363d3d373d3d3d363d73',
    implementation,
    '0x5af43d82803e903d91602b57fd5bf3',
    cloneConstructor,
  ]);
}

export function proxyWalletAddress(factory: string, implementation: string, owner: string): string {
  const salt = keccak256(solidityPacked(['address'], [owner]));
  return getCreate2Address(factory, salt, keccak256(proxyWalletCreationCode(factory, implementation)));
}

export function safeInitCodeHash(proxyCreationCode: string, masterCopy: string): string {
  return keccak256(concat([proxyCreationCode, abi.encode(['address'], [masterCopy])]));
}

export function safeAddress(factory: string, initCodeHash: string, owner: string): string {
  return getCreate2Address(factory, keccak256(abi.encode(['address'], [owner])), initCodeHash);
}

/** Solady's ERC-1967 beacon proxy with abi.encode(factory, bytes32(owner)) as immutable arguments. */
export function depositWalletAddress(factory: string, beacon: string, owner: string): string {
  const args = abi.encode(['address', 'bytes32'], [factory, zeroPadValue(owner, 32)]);
  const argsLength = BigInt((args.length - 2) / 2);
  const prefix = toBeHex(0x6100523d8160233d3973n + (argsLength << 56n), 10);
  const initCode = concat([
    prefix,
    beacon,
    '0x60195155f3363d3d373d3d363d602036600436635c60da',
    '0x1b60e01b36527fa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6c',
    '0xb3582b35133d50545afa5036515af43d6000803e604d573d6000fd5b3d6000f3',
    args,
  ]);
  return getCreate2Address(factory, keccak256(args), keccak256(initCode));
}

/** The account of each kind `owner` has or will have on the sandbox chain. */
export function accountAddress(wallets: SandboxWallets, kind: AccountKind, owner: string): string {
  if (kind === 'proxy') return proxyWalletAddress(wallets.proxyFactory, wallets.proxyImplementation, owner);
  if (kind === 'safe') return safeAddress(wallets.safeFactory, wallets.safeInitCodeHash, owner);
  return depositWalletAddress(wallets.depositWalletFactory, wallets.depositWalletBeacon, owner);
}

/** Which of `owner`'s accounts `address` is, if any (case-insensitive). */
export function accountKindOf(wallets: SandboxWallets, owner: string, address: string): AccountKind | undefined {
  const kinds: AccountKind[] = ['proxy', 'safe', 'deposit'];
  return kinds.find((kind) => accountAddress(wallets, kind, owner).toLowerCase() === address.toLowerCase());
}
