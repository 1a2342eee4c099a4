// The order builder (docs/protocol.md#entities): holds a signer, a chain, a signature type and the account's wallet (the funder),
// and turns a trader's limit or market order into a signed exchange order of version 1, 2 or 3, with no network access.
import { isAddress } from 'ethers';
import { invalidParameter } from '../model/errors';
import {
  BYTES32_ZERO,
  ZERO_ADDRESS,
  networkFor,
  verifyingContract,
  type NetworkProfile,
  type OrderVersion,
} from '../chain/networks';
import {
  exchangeDomain,
  orderDigest,
  orderTypedMessage,
  ORDER_TYPES_V1,
  ORDER_TYPES_V2,
  type OrderV1Fields,
  type OrderV2Fields,
} from './eip712';
import { assertPriceInRange } from './price';
import {
  ROUNDING,
  V1_TICK_SIZES,
  limitOrderRawAmounts,
  marketOrderRawAmounts,
  toBaseUnits,
  type OrderSide,
  type RawAmounts,
  type TickSize,
} from './rounding';
import { signEip712, type ClobSigner } from './signer';
import { signAsDepositWallet } from './wallet-signature';

/**
 * EOA: the key's own address trades. POLY_PROXY (email/Magic) and POLY_GNOSIS_SAFE: the funder trades, the key
 * signs. POLY_1271: a deposit wallet trades and is also the order's signer; the key signs for it (ERC-1271).
 */
export const SignatureType = { EOA: 0, POLY_PROXY: 1, POLY_GNOSIS_SAFE: 2, POLY_1271: 3 } as const;
export type SignatureType = (typeof SignatureType)[keyof typeof SignatureType];
export const SIGNATURE_TYPE_NAMES: Readonly<Record<SignatureType, string>> = {
  0: 'EOA',
  1: 'POLY_PROXY',
  2: 'POLY_GNOSIS_SAFE',
  3: 'POLY_1271',
};
/** The official client's own words for a type 3 order on a version 1 exchange. */
export const POLY_1271_V1_UNSUPPORTED = 'signature type POLY_1271 is not supported for v1 orders';

export type SignedOrderV1 = OrderV1Fields & { signature: string };
export type SignedOrderV2 = OrderV2Fields & { signature: string };
export type SignedOrder = SignedOrderV1 | SignedOrderV2;

export interface BuiltOrder {
  version: OrderVersion;
  signedOrder: SignedOrder;
  /** The EIP-712 digest: the id the exchange gives the order. */
  orderHash: string;
  /** The exchange contract the signature is bound to. */
  verifyingContract: string;
}

/** Fields every order may carry; the ones of another version are ignored. */
interface CommonOrderInput {
  tokenId: string;
  side: OrderSide;
  /** Decimal string; drawn the official way when absent. Must fit a JSON number exactly (≤ 2^53 − 1). */
  salt?: string;
  /** Unix seconds; 0 means no expiry. */
  expiration?: number | string;
  /** Version 1 only. */
  feeRateBps?: number | string;
  nonce?: number | string;
  taker?: string;
  /** Versions 2 and 3 only: milliseconds, signed. */
  timestamp?: number | string;
  metadata?: string;
  builderCode?: string;
}

export interface LimitOrderInput extends CommonOrderInput {
  price: number;
  /** Shares. */
  size: number;
}

export interface MarketOrderInput extends CommonOrderInput {
  /** USDC for BUY, shares for SELL. */
  amount: number;
  /** The worst price accepted; the exchange client derives it from the book when the trader gives none. */
  price: number;
}

/** What the market says about the token: its tick, whether it is neg-risk, and the order version to sign. */
export interface MarketTerms {
  tickSize: TickSize;
  negRisk: boolean;
  version: OrderVersion;
}

export interface OrderBuilderOptions {
  signer: ClobSigner;
  chainId: number;
  signatureType?: SignatureType;
  /**
   * The account's wallet (proxy, Safe or deposit wallet) holding the funds: the order's maker, and for type 3
   * its signer too. Required for types 1, 2 and 3; refused with type 0, where the key's own address trades.
   */
  funder?: string;
  /** Custom network profiles (the local sandbox); Polygon and Amoy are built in. */
  networks?: readonly NetworkProfile[];
}

export class OrderBuilder {
  readonly signer: ClobSigner;
  readonly chainId: number;
  readonly signatureType: SignatureType;
  readonly funder: string | undefined;
  readonly network: NetworkProfile;

  constructor(options: OrderBuilderOptions) {
    this.signer = options.signer;
    this.chainId = options.chainId;
    this.signatureType = options.signatureType ?? SignatureType.EOA;
    if (![0, 1, 2, 3].includes(this.signatureType)) {
      throw invalidParameter(
        `signature type ${String(this.signatureType)} is not supported (0 EOA, 1 POLY_PROXY, 2 POLY_GNOSIS_SAFE, 3 POLY_1271)`,
      );
    }
    this.funder = checkFunder(this.signatureType, options.funder);
    this.network = networkFor(options.chainId, options.networks);
  }

  async buildLimitOrder(input: LimitOrderInput, terms: MarketTerms): Promise<BuiltOrder> {
    this.checkTerms(terms, 'buildLimitOrder');
    assertPriceInRange(input.price, terms.tickSize, 'buildLimitOrder');
    // `return await`: an async function returning a promise pays two extra microtask turns to adopt it.
    return await this.sign(
      input,
      limitOrderRawAmounts(input.side, input.size, input.price, ROUNDING[terms.tickSize]),
      terms,
      false,
    );
  }

  async buildMarketOrder(input: MarketOrderInput, terms: MarketTerms): Promise<BuiltOrder> {
    this.checkTerms(terms, 'buildMarketOrder');
    assertPriceInRange(input.price, terms.tickSize, 'buildMarketOrder');
    return await this.sign(
      input,
      marketOrderRawAmounts(input.side, input.amount, input.price, ROUNDING[terms.tickSize]),
      terms,
      true,
    );
  }

  private checkTerms(terms: MarketTerms, methodName: string): void {
    if (terms.version === 1 && this.signatureType === SignatureType.POLY_1271)
      throw invalidParameter(POLY_1271_V1_UNSUPPORTED, methodName);
    if (terms.version === 1 && !V1_TICK_SIZES.includes(terms.tickSize)) {
      // The 0.005 and 0.0025 ticks came with version 2: a version 1 exchange has no rounding rule for them.
      throw invalidParameter(
        `invalid tick size (${terms.tickSize}) for order version 1, must be one of ${V1_TICK_SIZES.join(', ')}`,
        methodName,
      );
    }
  }

  private async sign(
    input: CommonOrderInput,
    raw: RawAmounts,
    terms: MarketTerms,
    market: boolean,
  ): Promise<BuiltOrder> {
    if (input.side !== 'BUY' && input.side !== 'SELL')
      throw invalidParameter(`side must be BUY or SELL, got ${String(input.side)}`);
    const signerAddress = await this.signer.getAddress();
    const salt = checkSalt(input.salt ?? newSalt());
    const maker = this.funder ?? signerAddress;
    // A deposit wallet signs its own orders (ERC-1271); every other kind names the key as the signer.
    const orderSigner = this.signatureType === SignatureType.POLY_1271 ? maker : signerAddress;
    const makerAmount = toBaseUnits(raw.maker);
    const takerAmount = toBaseUnits(raw.taker);
    // Market orders never expire on their own: they fill or die at once.
    const expiration = market ? '0' : intText(input.expiration, 'expiration');
    // Literal objects, not spreads of a shared part: V8 builds these far faster, and this runs once per order.
    // The key order is the signed order's order as printed by `order build`.
    const fields: OrderV1Fields | OrderV2Fields =
      terms.version === 1
        ? {
            salt,
            maker,
            signer: orderSigner,
            tokenId: input.tokenId,
            makerAmount,
            takerAmount,
            side: input.side,
            signatureType: this.signatureType,
            taker: input.taker || ZERO_ADDRESS,
            expiration,
            nonce: intText(input.nonce, 'nonce'),
            feeRateBps: intText(input.feeRateBps, 'feeRateBps'),
          }
        : {
            salt,
            maker,
            signer: orderSigner,
            tokenId: input.tokenId,
            makerAmount,
            takerAmount,
            side: input.side,
            signatureType: this.signatureType,
            timestamp: input.timestamp === undefined ? String(Date.now()) : intText(input.timestamp, 'timestamp'),
            expiration,
            metadata: input.metadata ?? BYTES32_ZERO,
            builder: input.builderCode ?? BYTES32_ZERO,
          };
    return await signFields(
      this.signer,
      terms.version,
      this.chainId,
      verifyingContract(this.network, terms.version, terms.negRisk),
      fields,
    );
  }
}

/** The funder each signature type needs: a wallet for 1, 2 and 3, none for 0 (said before anything is signed). */
function checkFunder(signatureType: SignatureType, funder: string | undefined): string | undefined {
  const name = `signature type ${signatureType} (${SIGNATURE_TYPE_NAMES[signatureType]})`;
  if (signatureType === SignatureType.EOA) {
    if (funder) {
      throw invalidParameter(
        `a funder (${funder}) was given with ${name}, where the key's own address trades: give the signature type of that wallet (1 proxy, 2 Safe, 3 deposit wallet)`,
      );
    }
    return undefined;
  }
  if (!funder) throw invalidParameter(`${name} trades from a wallet: give that wallet's address as the funder`);
  if (!isAddress(funder)) throw invalidParameter(`the funder is not an address: ${funder}`);
  return funder;
}

/** Signs order fields for one exchange contract; refuses fields whose signer is not the signing wallet. */
export async function signOrder(
  signer: ClobSigner,
  version: OrderVersion,
  chainId: number,
  contract: string,
  fields: OrderV1Fields | OrderV2Fields,
): Promise<BuiltOrder> {
  // A deposit wallet is its own orders' signer: the key behind it is not named in the order (as the official client skips the check).
  if (fields.signatureType === SignatureType.POLY_1271) {
    if (fields.maker !== fields.signer)
      throw invalidParameter('a deposit-wallet (POLY_1271) order must have maker = signer = the wallet', 'signOrder');
  } else if (fields.signer !== (await signer.getAddress())) {
    throw invalidParameter('signer does not match', 'signOrder');
  }
  return signFields(signer, version, chainId, contract, fields);
}

/** Hashes and signs; the typed data is built only for a signer without a digest path. */
async function signFields(
  signer: ClobSigner,
  version: OrderVersion,
  chainId: number,
  contract: string,
  fields: OrderV1Fields | OrderV2Fields,
): Promise<BuiltOrder> {
  const orderHash = orderDigest(version, chainId, contract, fields);
  if (fields.signatureType === SignatureType.POLY_1271) {
    if (version === 1) throw invalidParameter(POLY_1271_V1_UNSUPPORTED, 'signOrder');
    const signature = await signAsDepositWallet(signer, version, chainId, contract, fields as OrderV2Fields);
    return { version, signedOrder: withSignature(fields, signature), orderHash, verifyingContract: contract };
  }
  // A key in this process signs the digest at once, with no promise to wait for.
  const signature = signer.signDigest
    ? signer.signDigest(orderHash)
    : await signEip712(signer, orderHash, () => ({
        domain: exchangeDomain(version, chainId, contract),
        types: version === 1 ? ORDER_TYPES_V1 : ORDER_TYPES_V2,
        value: orderTypedMessage(version, fields),
      }));
  return { version, signedOrder: withSignature(fields, signature), orderHash, verifyingContract: contract };
}

/** The fields plus their signature, in the same key order, spelled out (see the note on literals above). */
function withSignature(f: OrderV1Fields | OrderV2Fields, signature: string): SignedOrder {
  if ('nonce' in f) {
    return {
      salt: f.salt,
      maker: f.maker,
      signer: f.signer,
      tokenId: f.tokenId,
      makerAmount: f.makerAmount,
      takerAmount: f.takerAmount,
      side: f.side,
      signatureType: f.signatureType,
      taker: f.taker,
      expiration: f.expiration,
      nonce: f.nonce,
      feeRateBps: f.feeRateBps,
      signature,
    };
  }
  return {
    salt: f.salt,
    maker: f.maker,
    signer: f.signer,
    tokenId: f.tokenId,
    makerAmount: f.makerAmount,
    takerAmount: f.takerAmount,
    side: f.side,
    signatureType: f.signatureType,
    timestamp: f.timestamp,
    expiration: f.expiration,
    metadata: f.metadata,
    builder: f.builder,
    signature,
  };
}

/** The salt as the official clients draw it: a random number scaled by the current time in ms (docs/protocol.md#entities). */
export function newSalt(now: number = Date.now()): string {
  return String(Math.round(Math.random() * now));
}

function checkSalt(salt: string): string {
  // The POST body carries the salt as a JSON number: beyond 2^53 − 1 it would no longer equal the signed one.
  // Up to 16 digits a double compares exactly against 2^53 − 1 (it is representable, rounding is monotonic).
  if (!/^[0-9]+$/.test(salt) || (salt.length <= 16 ? Number(salt) : BigInt(salt)) > Number.MAX_SAFE_INTEGER) {
    throw invalidParameter(`salt must be an integer from 0 to ${Number.MAX_SAFE_INTEGER}, got ${salt}`);
  }
  return salt;
}

/** Optional integer fields go out as decimal strings; absent, empty or 0 is "0" (as the reference clients do). */
function intText(value: number | string | undefined, field: string): string {
  if (value === undefined || value === '' || value === 0) return '0';
  const text = String(value);
  if (!/^[0-9]+$/.test(text)) throw invalidParameter(`${field} must be a non-negative integer, got ${text}`);
  return text;
}
