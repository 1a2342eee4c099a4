// The pieces of a Gnosis Safe 1.3.0 transaction sent by its 1-of-1 owner (docs/protocol.md#on-chain-actions-per-account): the SafeTx
// EIP-712 typed data and hash, the owner's signature packed r‖s‖v (typed-data v 27/28, or eth_sign v 31/32),
// MultiSend's packed batch, `execTransaction` calldata, and the Safe's nonce read from the chain.
import {
  Interface,
  Signature,
  TypedDataEncoder,
  getBytes,
  hashMessage,
  recoverAddress,
  solidityPacked,
  concat,
  type TypedDataDomain,
} from 'ethers';
import { ErrorCode, PmDeskError, invalidParameter } from '../model/errors';
import { toHex } from '../base/bytes';
import { ZERO_ADDRESS } from '../chain/networks';
import type { TypedDataTypes } from '../orders/signer';
import { checkedAddress } from './derive';

/** Safe operations: a plain CALL, or a DELEGATECALL (only ever to MultiSend, to run a batch as the Safe). */
export const SafeOperation = { CALL: 0, DELEGATE_CALL: 1 } as const;
export type SafeOperation = (typeof SafeOperation)[keyof typeof SafeOperation];

/** One call the Safe makes; value is paid from the Safe's own balance. */
export interface SafeCall {
  to: string;
  data: string;
  value?: bigint;
}

/** The SafeTx message. Gas refund fields stay zero: the owner pays gas itself, nobody is refunded. */
export interface SafeTx {
  to: string;
  value: bigint;
  data: string;
  operation: SafeOperation;
  safeTxGas: bigint;
  baseGas: bigint;
  gasPrice: bigint;
  gasToken: string;
  refundReceiver: string;
  nonce: bigint;
}

export const SAFE_TX_TYPES: TypedDataTypes = {
  SafeTx: [
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'data', type: 'bytes' },
    { name: 'operation', type: 'uint8' },
    { name: 'safeTxGas', type: 'uint256' },
    { name: 'baseGas', type: 'uint256' },
    { name: 'gasPrice', type: 'uint256' },
    { name: 'gasToken', type: 'address' },
    { name: 'refundReceiver', type: 'address' },
    { name: 'nonce', type: 'uint256' },
  ],
};

export const SAFE_ABI = new Interface([
  'function execTransaction(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, bytes signatures) payable returns (bool success)',
  'function nonce() view returns (uint256)',
]);
export const MULTISEND_ABI = new Interface(['function multiSend(bytes transactions) payable']);

/** Safe 1.3.0's domain has no name and no version: only the chain and the Safe itself. */
export function safeDomain(chainId: number, safe: string): TypedDataDomain {
  return { chainId, verifyingContract: checkedAddress(safe, 'Safe') };
}

/** A SafeTx for one call (CALL straight to it) or several (DELEGATECALL to MultiSend with the packed batch). */
export function safeTxFor(calls: readonly SafeCall[], nonce: bigint, multiSend: string): SafeTx {
  if (calls.length === 0) throw invalidParameter('A Safe transaction needs at least one call.');
  const single = calls.length === 1 ? calls[0]! : undefined;
  return {
    to: single ? checkedAddress(single.to, 'call target') : checkedAddress(multiSend, 'MultiSend'),
    value: single ? (single.value ?? 0n) : 0n,
    data: single ? single.data : MULTISEND_ABI.encodeFunctionData('multiSend', [packMultiSend(calls)]),
    operation: single ? SafeOperation.CALL : SafeOperation.DELEGATE_CALL,
    safeTxGas: 0n,
    baseGas: 0n,
    gasPrice: 0n,
    gasToken: ZERO_ADDRESS,
    refundReceiver: ZERO_ADDRESS,
    nonce,
  };
}

/** MultiSend's batch: per call, packed `uint8 operation ‖ address to ‖ uint256 value ‖ uint256 dataLength ‖ bytes data`. */
export function packMultiSend(calls: readonly SafeCall[]): string {
  return concat(
    calls.map((call) => {
      const data = getBytes(call.data);
      return solidityPacked(
        ['uint8', 'address', 'uint256', 'uint256', 'bytes'],
        [SafeOperation.CALL, checkedAddress(call.to, 'call target'), call.value ?? 0n, data.length, data],
      );
    }),
  );
}

/** The inverse of packMultiSend, for checking a batch before it is signed (and in tests). */
export function unpackMultiSend(packed: string): Array<SafeCall & { operation: number }> {
  const bytes = getBytes(packed);
  const out: Array<SafeCall & { operation: number }> = [];
  let at = 0;
  const hex = (from: number, to: number) => `0x${toHex(bytes.subarray(from, to))}`;
  while (at < bytes.length) {
    if (at + 85 > bytes.length) throw invalidParameter('The MultiSend batch ends in the middle of a call header.');
    const operation = bytes[at]!;
    const to = checkedAddress(hex(at + 1, at + 21), 'call target');
    const value = BigInt(hex(at + 21, at + 53));
    const length = Number(BigInt(hex(at + 53, at + 85)));
    if (at + 85 + length > bytes.length) throw invalidParameter('The MultiSend batch ends in the middle of call data.');
    out.push({ operation, to, value, data: hex(at + 85, at + 85 + length) });
    at += 85 + length;
  }
  return out;
}

/**
 * What the owner signs: the typed data (for `signTypedData`) and its EIP-712 hash (the Safe's `getTransactionHash`).
 * Numbers are decimal strings so the message crosses to the signer worker as plain JSON.
 */
export function safeTxTypedData(
  chainId: number,
  safe: string,
  tx: SafeTx,
): { domain: TypedDataDomain; types: TypedDataTypes; value: Record<string, unknown>; hash: string } {
  const domain = safeDomain(chainId, safe);
  const value: Record<string, unknown> = {
    to: tx.to,
    value: tx.value.toString(),
    data: tx.data,
    operation: tx.operation,
    safeTxGas: tx.safeTxGas.toString(),
    baseGas: tx.baseGas.toString(),
    gasPrice: tx.gasPrice.toString(),
    gasToken: tx.gasToken,
    refundReceiver: tx.refundReceiver,
    nonce: tx.nonce.toString(),
  };
  return { domain, types: SAFE_TX_TYPES, value, hash: TypedDataEncoder.hash(domain, SAFE_TX_TYPES, value) };
}

/**
 * How the owner signed. 'typed-data': EIP-712 over the SafeTx, v is 27/28 as-is. 'eth-sign': `personal_sign`
 * of the SafeTx hash (what Polymarket's relayer client does); Safe reads v > 30 as eth_sign, so v is raised by 4.
 */
export type SafeSignatureKind = 'typed-data' | 'eth-sign';

/** The 65-byte `r ‖ s ‖ v` Safe expects from one owner; mixing the two kinds is what gives GS026 on chain. */
export function packSafeSignature(signature: string, kind: SafeSignatureKind): string {
  let parsed: Signature;
  try {
    parsed = Signature.from(signature);
  } catch {
    throw invalidParameter('The owner signature is not a 65-byte ECDSA signature.');
  }
  // Signature.from normalises v to 27/28 whatever the signer produced (0/1 included).
  const v = parsed.v + (kind === 'eth-sign' ? 4 : 0);
  return concat([parsed.r, parsed.s, `0x${v.toString(16).padStart(2, '0')}`]);
}

/** The owner a packed Safe signature belongs to, the way the Safe itself recovers it (v > 30: eth_sign). */
export function recoverSafeSigner(safeTxHash: string, packed: string): string {
  const bytes = getBytes(packed);
  if (bytes.length !== 65) throw invalidParameter(`A packed Safe signature is 65 bytes, got ${bytes.length}.`);
  const v = bytes[64]!;
  const r = `0x${toHex(bytes.subarray(0, 32))}`;
  const s = `0x${toHex(bytes.subarray(32, 64))}`;
  if (v > 30) return recoverAddress(hashMessage(getBytes(safeTxHash)), { r, s, v: v - 4 });
  if (v === 27 || v === 28) return recoverAddress(safeTxHash, { r, s, v });
  throw invalidParameter(`A packed Safe signature from an owner key has v 27, 28, 31 or 32, got ${v}.`);
}

/** `execTransaction(...)` calldata: the SafeTx fields and the packed signatures. */
export function execTransactionData(tx: SafeTx, signatures: string): string {
  return SAFE_ABI.encodeFunctionData('execTransaction', [
    tx.to,
    tx.value,
    tx.data,
    tx.operation,
    tx.safeTxGas,
    tx.baseGas,
    tx.gasPrice,
    tx.gasToken,
    tx.refundReceiver,
    signatures,
  ]);
}

/** What reads one contract call: an ethers provider fits (its `call`). */
export interface ContractCallReader {
  call(tx: { to: string; data: string }): Promise<string>;
}

/** The Safe's `nonce()`, the one its next transaction must carry; the answer is checked to be one word. */
export async function readSafeNonce(rpc: ContractCallReader, safe: string): Promise<bigint> {
  const answer = await rpc.call({ to: checkedAddress(safe, 'Safe'), data: SAFE_ABI.encodeFunctionData('nonce') });
  if (typeof answer !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(answer)) {
    throw new PmDeskError(
      ErrorCode.VALIDATION_ERROR,
      `nonce() on the Safe ${safe} answered ${String(answer).slice(0, 80)}, not one 32-byte word (is a Safe deployed there?).`,
      {
        methodName: 'readSafeNonce',
      },
    );
  }
  return BigInt(answer);
}
