// What the toolkit needs from a wallet: its address and EIP-712 signatures. A key held in this process
// signs a digest directly (the fast path); any other signer (ethers Wallet, a worker, a hardware wallet)
// goes through signTypedData with the full typed data.
import { SigningKey, TypedDataEncoder, computeAddress, type TypedDataDomain, type TypedDataField } from 'ethers';
import { invalidParameter } from '../../../shared/errors';

export type TypedDataTypes = Record<string, TypedDataField[]>;

export interface ClobSigner {
  getAddress(): Promise<string>;
  signTypedData(domain: TypedDataDomain, types: TypedDataTypes, value: Record<string, unknown>): Promise<string>;
  /** Signs an already computed EIP-712 digest; when present the toolkit skips re-encoding the typed data. */
  signDigest?(digest: string): string;
}

/**
 * A signer over a private key in this process (hex, with or without 0x). The key stays inside the closure:
 * it never appears in the object's enumerable fields, JSON or inspection.
 */
export function privateKeySigner(privateKey: string): ClobSigner {
  const hex = privateKey.startsWith('0x') ? privateKey : `0x${privateKey}`;
  if (!/^0x[0-9a-fA-F]{64}$/.test(hex)) throw invalidParameter('The private key must be 32 bytes of hex.');
  const key = new SigningKey(hex);
  const address = computeAddress(key.publicKey);
  const signDigest = (digest: string): string => key.sign(digest).serialized;
  return {
    getAddress: async () => address,
    signDigest,
    signTypedData: async (domain, types, value) => signDigest(TypedDataEncoder.hash(domain, types, value)),
  };
}

/** Signs a digest with the fast path when the signer has one, else with the typed data it came from. */
export async function signEip712(
  signer: ClobSigner,
  digest: string,
  domain: TypedDataDomain,
  types: TypedDataTypes,
  value: Record<string, unknown>,
): Promise<string> {
  return signer.signDigest ? signer.signDigest(digest) : signer.signTypedData(domain, types, value);
}
