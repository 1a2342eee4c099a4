// The exact JSON body of POST /order (and each element of POST /orders). Key order matters: the L2 HMAC
// signs this very string, and it follows the official client of each version byte for byte.
import { invalidParameter } from '../model/errors';
import type { OrderVersion } from '../chain/networks';
import type { OrderType } from './price';
import type { BuiltOrder, SignedOrderV1, SignedOrderV2 } from './builder';

export interface PostOrderOptions {
  orderType?: OrderType;
  /** Rest on the book only; GTC and GTD only. */
  postOnly?: boolean;
  /** Let the exchange match later instead of at once. */
  deferExec?: boolean;
}

export type OrderBody = Record<string, unknown>;

/** Post-only orders must be able to rest on the book: GTC and GTD only. Each official client words it its own way. */
export function assertPostOnlyAllowed(version: OrderVersion, orderType: OrderType, postOnly: boolean): void {
  if (postOnly && orderType !== 'GTC' && orderType !== 'GTD') {
    const message =
      version === 1
        ? 'postOnly is only supported for GTC and GTD orders'
        : 'postOnly is not supported for FOK/FAK orders';
    throw invalidParameter(message, 'postOrder');
  }
}

/**
 * Version 1 follows `@polymarket/clob-client@5.8.1` (deferExec first, postOnly last); versions 2 and 3
 * follow `@polymarket/clob-client-v2@1.1.0` (deferExec and postOnly first). `owner` is the API key.
 */
export function orderBody(built: BuiltOrder, owner: string, options: PostOrderOptions = {}): OrderBody {
  const orderType = options.orderType ?? 'GTC';
  const postOnly = options.postOnly ?? false;
  const deferExec = options.deferExec ?? false;
  assertPostOnlyAllowed(built.version, orderType, postOnly);
  if (built.version === 1) {
    const o = built.signedOrder as SignedOrderV1;
    return {
      deferExec,
      order: {
        salt: parseInt(o.salt, 10),
        maker: o.maker,
        signer: o.signer,
        taker: o.taker,
        tokenId: o.tokenId,
        makerAmount: o.makerAmount,
        takerAmount: o.takerAmount,
        side: o.side,
        expiration: o.expiration,
        nonce: o.nonce,
        feeRateBps: o.feeRateBps,
        signatureType: o.signatureType,
        signature: o.signature,
      },
      owner,
      orderType,
      postOnly,
    };
  }
  const o = built.signedOrder as SignedOrderV2;
  return {
    deferExec,
    postOnly,
    order: {
      salt: parseInt(o.salt, 10),
      maker: o.maker,
      signer: o.signer,
      tokenId: o.tokenId,
      makerAmount: o.makerAmount,
      takerAmount: o.takerAmount,
      side: o.side,
      signatureType: o.signatureType,
      timestamp: o.timestamp,
      expiration: o.expiration,
      metadata: o.metadata,
      builder: o.builder,
      signature: o.signature,
    },
    owner,
    orderType,
  };
}
