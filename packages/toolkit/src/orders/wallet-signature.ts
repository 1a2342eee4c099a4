// The signature a deposit wallet (signature type 3, POLY_1271) gives an order: the owner's key signs an ERC-7739
// TypedDataSign wrapping of the order under the exchange's domain, and the exchange checks it through the wallet's
// ERC-1271 isValidSignature. Byte for byte what @polymarket/clob-client-v2@1.1.0 sends (docs/protocol.md#order-signing).
import { AbiCoder, TypedDataEncoder, keccak256, toUtf8Bytes } from 'ethers';
import { toHex } from '../base/bytes';
import type { OrderVersion } from '../chain/networks';
import { BYTES32_ZERO } from '../chain/networks';
import {
  ORDER_TYPES_V2,
  domainSeparator,
  exchangeDomain,
  orderStructHashV2,
  orderTypedMessage,
  type OrderV2Fields,
} from './eip712';
import { signEip712, type ClobSigner, type TypedDataTypes } from './signer';

/** The deposit wallet's own EIP-712 name and version, which the wrapping names as the app that verifies. */
export const DEPOSIT_WALLET_DOMAIN_NAME = 'DepositWallet';
export const DEPOSIT_WALLET_DOMAIN_VERSION = '1';

/** `Order(uint256 salt,…,bytes32 builder)`: 186 characters, appended to the signature so the wallet can rebuild the type. */
export const ORDER_TYPE_STRING = TypedDataEncoder.from(ORDER_TYPES_V2).encodeType('Order');

export const TYPED_DATA_SIGN_TYPES: TypedDataTypes = {
  TypedDataSign: [
    { name: 'contents', type: 'Order' },
    { name: 'name', type: 'string' },
    { name: 'version', type: 'string' },
    { name: 'chainId', type: 'uint256' },
    { name: 'verifyingContract', type: 'address' },
    { name: 'salt', type: 'bytes32' },
  ],
  Order: ORDER_TYPES_V2.Order!,
};

const TYPED_DATA_SIGN_TYPEHASH = keccak256(
  toUtf8Bytes(TypedDataEncoder.from(TYPED_DATA_SIGN_TYPES).encodeType('TypedDataSign')),
);
const NAME_HASH = keccak256(toUtf8Bytes(DEPOSIT_WALLET_DOMAIN_NAME));
const VERSION_HASH = keccak256(toUtf8Bytes(DEPOSIT_WALLET_DOMAIN_VERSION));
const TYPE_STRING_HEX = toHex(toUtf8Bytes(ORDER_TYPE_STRING));
const TYPE_STRING_LENGTH_HEX = ORDER_TYPE_STRING.length.toString(16).padStart(4, '0');
const abi = AbiCoder.defaultAbiCoder();

/** The digest the owner's key signs: TypedDataSign{contents: order, the wallet's domain fields} under the exchange domain. */
export function depositWalletDigest(
  version: OrderVersion,
  chainId: number,
  contract: string,
  order: OrderV2Fields,
): string {
  const structHash = keccak256(
    abi.encode(
      ['bytes32', 'bytes32', 'bytes32', 'bytes32', 'uint256', 'address', 'bytes32'],
      [
        TYPED_DATA_SIGN_TYPEHASH,
        orderStructHashV2(order),
        NAME_HASH,
        VERSION_HASH,
        chainId,
        order.signer,
        BYTES32_ZERO,
      ],
    ),
  );
  return keccak256(`0x1901${domainSeparator(version, chainId, contract).slice(2)}${structHash.slice(2)}`);
}

/**
 * The 317-byte type 3 signature: the owner's 65-byte signature ‖ exchange domain separator ‖ the order's struct
 * hash ‖ the Order type string ‖ its length as 2 bytes. The order's `signer` is the wallet itself.
 */
export async function signAsDepositWallet(
  signer: ClobSigner,
  version: OrderVersion,
  chainId: number,
  contract: string,
  order: OrderV2Fields,
): Promise<string> {
  const digest = depositWalletDigest(version, chainId, contract, order);
  const inner = await signEip712(signer, digest, () => ({
    domain: exchangeDomain(version, chainId, contract),
    types: TYPED_DATA_SIGN_TYPES,
    value: {
      contents: orderTypedMessage(version, order),
      name: DEPOSIT_WALLET_DOMAIN_NAME,
      version: DEPOSIT_WALLET_DOMAIN_VERSION,
      chainId,
      verifyingContract: order.signer,
      salt: BYTES32_ZERO,
    },
  }));
  return `0x${inner.slice(2)}${domainSeparator(version, chainId, contract).slice(2)}${orderStructHashV2(order).slice(2)}${TYPE_STRING_HEX}${TYPE_STRING_LENGTH_HEX}`;
}
