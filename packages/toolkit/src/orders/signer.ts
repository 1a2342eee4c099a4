// What the toolkit needs from a wallet: its address and EIP-712 signatures. A key held in this process
// signs a digest directly (the fast path); any other signer (ethers Wallet, a worker, a hardware wallet)
// goes through signTypedData with the full typed data.
import { SigningKey, TypedDataEncoder, computeAddress, type TypedDataDomain, type TypedDataField } from 'ethers';
import { invalidParameter } from '../model/errors';
import { fromHex } from '../base/bytes';
import { primitives } from './primitives';

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
const DIGEST = /^0x[0-9a-fA-F]{64}$/;

export function privateKeySigner(privateKey: string): ClobSigner {
  const hex = privateKey.startsWith('0x') ? privateKey : `0x${privateKey}`;
  if (!/^0x[0-9a-fA-F]{64}$/.test(hex)) throw invalidParameter('The private key must be 32 bytes of hex.');
  const address = computeAddress(new SigningKey(hex).publicKey);
  const sign = primitives.digestSigner(fromHex(hex));
  const signDigest = (digest: string): string => {
    if (!DIGEST.test(digest)) throw invalidParameter('a digest to sign must be 32 bytes of hex');
    return sign(fromHex(digest));
  };
  return {
    getAddress: async () => address,
    signDigest,
    signTypedData: async (domain, types, value) => signDigest(TypedDataEncoder.hash(domain, types, value)),
  };
}

/** The typed data behind a digest, built only for signers that need it (the fast path never does). */
export interface TypedData {
  domain: TypedDataDomain;
  types: TypedDataTypes;
  value: Record<string, unknown>;
}

/** Signs a digest with the fast path when the signer has one, else with the typed data it came from. */
export async function signEip712(signer: ClobSigner, digest: string, typedData: () => TypedData): Promise<string> {
  if (signer.signDigest) return signer.signDigest(digest);
  const { domain, types, value } = typedData();
  return signer.signTypedData(domain, types, value);
}
