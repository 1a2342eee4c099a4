// Signed orders for the sandbox's own bots, made with ethers and the sandbox's typed-data shapes (never the
// toolkit's order builder), and written as the POST /order JSON of the deployment's order version.
// Amounts are exact: a price on the tick grid (1e-4 units) times a size in hundredths of a share.
import type { Wallet } from 'ethers';
import type { OrderVersion } from '../chain/deploy';
import { ORDER_TYPES, SIDE, exchangeDomain, signedMessage, type ExchangeOrder } from '../chain/order-typed-data';

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
const ZERO_BYTES32 = `0x${'0'.repeat(64)}`;

export interface BotOrder {
  tokenId: string;
  side: 'BUY' | 'SELL';
  /** Price in 1e-4 units, on the market's tick grid. */
  price: number;
  /** Size in hundredths of a share. */
  sizeCents: number;
}

export interface OrderVenue {
  chainId: number;
  orderVersion: OrderVersion;
  /** The exchange that verifies this market's orders (the neg-risk exchange for neg-risk markets). */
  verifyingContract: string;
  /** Version 1 signs the market's fee rate (GET /fee-rate); later versions sign none. */
  feeRateBps?: number;
}

/** Base units: shares × 1e6 and collateral × 1e6, exact. */
export function orderAmounts(order: BotOrder): { makerAmount: bigint; takerAmount: bigint } {
  const shares = BigInt(order.sizeCents) * 10_000n;
  const collateral = BigInt(order.sizeCents) * BigInt(order.price);
  return order.side === 'BUY'
    ? { makerAmount: collateral, takerAmount: shares }
    : { makerAmount: shares, takerAmount: collateral };
}

let saltCounter = 0;

export async function signBotOrder(
  wallet: Wallet,
  venue: OrderVenue,
  order: BotOrder,
  now: number,
): Promise<{ order: ExchangeOrder; json: Record<string, unknown> }> {
  const { makerAmount, takerAmount } = orderAmounts(order);
  const exchangeOrder: ExchangeOrder = {
    salt: BigInt(now) * 1000n + BigInt(saltCounter++ % 1000),
    maker: wallet.address,
    signer: wallet.address,
    taker: ZERO_ADDRESS,
    tokenId: BigInt(order.tokenId),
    makerAmount,
    takerAmount,
    expiration: 0n,
    nonce: 0n,
    feeRateBps: venue.orderVersion === 1 ? BigInt(venue.feeRateBps ?? 0) : 0n,
    side: SIDE[order.side],
    signatureType: 0,
    timestamp: BigInt(now),
    metadata: ZERO_BYTES32,
    builder: ZERO_BYTES32,
    signature: '',
  };
  exchangeOrder.signature = await wallet.signTypedData(
    exchangeDomain(venue.orderVersion, venue.chainId, venue.verifyingContract),
    ORDER_TYPES[venue.orderVersion],
    signedMessage(venue.orderVersion, exchangeOrder),
  );
  return { order: exchangeOrder, json: orderJson(venue.orderVersion, exchangeOrder, order.side) };
}

/** The order as the official clients put it in POST /order: v1 with taker/nonce/fee, v2/v3 with timestamp/metadata/builder. */
function orderJson(version: OrderVersion, o: ExchangeOrder, side: 'BUY' | 'SELL'): Record<string, unknown> {
  if (version === 1) {
    return {
      salt: Number(o.salt),
      maker: o.maker,
      signer: o.signer,
      taker: o.taker,
      tokenId: o.tokenId.toString(),
      makerAmount: o.makerAmount.toString(),
      takerAmount: o.takerAmount.toString(),
      side,
      expiration: o.expiration.toString(),
      nonce: o.nonce.toString(),
      feeRateBps: o.feeRateBps.toString(),
      signatureType: o.signatureType,
      signature: o.signature,
    };
  }
  return {
    salt: Number(o.salt),
    maker: o.maker,
    signer: o.signer,
    tokenId: o.tokenId.toString(),
    makerAmount: o.makerAmount.toString(),
    takerAmount: o.takerAmount.toString(),
    side,
    signatureType: o.signatureType,
    timestamp: o.timestamp.toString(),
    expiration: o.expiration.toString(),
    metadata: o.metadata,
    builder: o.builder,
    signature: o.signature,
  };
}

/** The full POST /order body, keys in the official clients' order. */
export function postOrderBody(
  version: OrderVersion,
  order: Record<string, unknown>,
  owner: string,
  orderType: string,
): string {
  return version === 1
    ? JSON.stringify({ deferExec: false, order, owner, orderType, postOnly: false })
    : JSON.stringify({ deferExec: false, postOnly: false, order, owner, orderType });
}
