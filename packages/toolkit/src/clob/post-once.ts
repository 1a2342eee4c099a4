// Posting one signed order so that it is never placed twice: a post with no definite answer is reconciled by the
// order's hash before anything else, and an outcome that still cannot be known is said plainly ("may be live").
import { ErrorCode, PmDeskError, isPmDeskError } from '../model/errors';
import type { BuiltOrder } from '../orders/builder';
import type { PostOrderOptions } from '../orders/body';
import type { OrderType } from '../orders/price';
import type { ClobService } from './service';

/** What became of a posted order; `reconciled` when it was learnt by looking the hash up, not from the post's answer. */
export interface PostedOrder {
  orderID: string | undefined;
  status: string;
  reconciled: boolean;
  /** The exchange's own answer to the post, when there was one to read. */
  response?: unknown;
}

/** The exchange contract's record of an order hash (getOrderStatus). */
export interface OrderOnChain {
  isFilledOrCancelled: boolean;
  remaining: bigint;
}

export interface PostOnceOptions {
  /** The order's outcome token: open orders and trades are read for it. */
  tokenId: string;
  /** The exchange contract's word on the hash, where a chain node is at hand (an exchange that lost its state). */
  chainStatus?: (orderHash: string) => Promise<OrderOnChain>;
  /** Told when a post got no definite answer, before the order is looked up. */
  onUnanswered?: (error: unknown) => void;
  /** The caller's method, for the error a trader reads. */
  methodName?: string;
}

/** Where the exchange or the chain knows the signed order from. */
export interface FoundOrder {
  status: string;
  where: 'order' | 'open orders' | 'trades' | 'chain';
}

/**
 * Posts one signed order. A definite answer is final. No answer (a timeout, a dropped connection, a 5xx, an
 * unreadable success, a 200 that is not an order answer) means the order may or may not be on the exchange: it is looked up by its hash (the order,
 * open orders, trades, then the chain) and only if nothing knows it is the SAME signed order sent again, which the
 * exchange would refuse as a duplicate rather than place twice. When the look-up itself cannot be done, the
 * answer is an "order in doubt" error carrying the hash (see `orderInDoubt`), never a plain failure.
 */
export async function postOrderOnce(
  client: ClobService,
  built: BuiltOrder,
  post: PostOrderOptions,
  options: PostOnceOptions,
): Promise<PostedOrder> {
  const methodName = options.methodName ?? 'postOrder';
  try {
    return fromResponse(await client.postOrder(built, post), false);
  } catch (error) {
    if (!unanswered(error)) throw error;
    options.onUnanswered?.(error);
  }
  const first = await lookUpOrDoubt(client, built, options, methodName);
  if (first) return { orderID: built.orderHash, status: first.status, reconciled: true };
  try {
    return fromResponse(await client.postOrder(built, post), true);
  } catch (error) {
    if (!unanswered(error) && !alreadyExists(error)) throw error;
    const second = await lookUpOrDoubt(client, built, options, methodName);
    if (second) return { orderID: built.orderHash, status: second.status, reconciled: true };
    // The exchange says it has this order but shows it nowhere: it exists somewhere the trader must look.
    if (alreadyExists(error)) throw orderInDoubt(built.orderHash, methodName, error);
    throw new PmDeskError(
      ErrorCode.NETWORK_ERROR,
      `The exchange did not answer the order twice and shows no order ${built.orderHash}: nothing was placed. Check the connection, then place it again.`,
      { methodName, cause: error },
    );
  }
}

/** One order of a batch: the signed order, its type, and the outcome token its open orders and trades are read for. */
export interface BatchOrder {
  order: BuiltOrder;
  orderType?: OrderType;
  tokenId: string;
}

/**
 * Posts a batch (POST /orders) with the same rule as one order: a definite answer is final, one per order; no
 * definite answer and every order is looked up by its hash; those known nowhere are sent once more as the SAME
 * signed orders; an order still unknown after a second unanswered post was not placed. When a look-up cannot be
 * done, the whole batch is in doubt and the error names every hash not yet accounted for.
 */
export async function postOrdersOnce(
  client: ClobService,
  batch: readonly BatchOrder[],
  post: Omit<PostOrderOptions, 'orderType'> = {},
  options: Omit<PostOnceOptions, 'tokenId'> = {},
): Promise<PostedOrder[]> {
  const methodName = options.methodName ?? 'postOrders';
  const send = async (orders: readonly BatchOrder[], reconciled: boolean) => {
    const answer = await client.postOrders(
      orders.map(({ order, orderType }) => ({ order, orderType })),
      post,
    );
    const list = Array.isArray(answer) ? answer : [];
    return orders.map((_, i) => fromResponse(list[i], reconciled));
  };
  try {
    return await send(batch, false);
  } catch (error) {
    if (!unanswered(error)) throw error;
    options.onUnanswered?.(error);
  }
  const results = new Map<BatchOrder, PostedOrder>();
  const lookUpAll = async (orders: readonly BatchOrder[]) => {
    for (const item of orders) {
      let found: FoundOrder | undefined;
      try {
        found = await findOrderByHash(client, item.order, { ...options, tokenId: item.tokenId });
      } catch (error) {
        const open = batch.filter((b) => !results.has(b)).map((b) => b.order.orderHash);
        throw batchInDoubt(open, methodName, error);
      }
      if (found) results.set(item, { orderID: item.order.orderHash, status: found.status, reconciled: true });
    }
  };
  await lookUpAll(batch);
  const unknown = batch.filter((b) => !results.has(b));
  if (unknown.length > 0) {
    try {
      (await send(unknown, true)).forEach((posted, i) => results.set(unknown[i]!, posted));
    } catch (error) {
      if (!unanswered(error)) throw error;
      await lookUpAll(unknown);
      // Still unknown after two unanswered posts and look-ups that answered: not placed.
      for (const item of unknown)
        if (!results.has(item)) results.set(item, { orderID: undefined, status: 'NOT_PLACED', reconciled: true });
    }
  }
  return batch.map((b) => results.get(b)!);
}

function batchInDoubt(hashes: readonly string[], methodName: string, cause: unknown): PmDeskError {
  if (hashes.length === 1) return orderInDoubt(hashes[0]!, methodName, cause);
  return new PmDeskError(
    ErrorCode.NETWORK_ERROR,
    `Orders ${hashes.join(', ')} may be live: the exchange did not answer the batch and they could not be looked up. Check each with \`pmdesk order get <hash>\` before placing them again.`,
    { methodName, context: { orderInDoubt: true, orderHash: hashes[0], orderHashes: [...hashes] }, cause },
  );
}

/** Where the exchange or the chain knows this signed order from, if anywhere; throws when it cannot be asked. */
export async function findOrderByHash(
  client: ClobService,
  built: BuiltOrder,
  options: PostOnceOptions,
): Promise<FoundOrder | undefined> {
  const hash = built.orderHash.toLowerCase();
  try {
    const order = (await client.getOrder(built.orderHash)) as { id?: string; status?: string } | null;
    if (order && typeof order === 'object' && order.id?.toLowerCase() === hash)
      return { status: order.status ?? 'LIVE', where: 'order' };
  } catch (error) {
    if (!(isPmDeskError(error) && error.statusCode === 404)) throw error;
  }
  const open = (await client.getOpenOrders({ asset_id: options.tokenId })) as { id?: string; status?: string }[];
  const resting = open.find((o) => o.id?.toLowerCase() === hash);
  if (resting) return { status: resting.status ?? 'LIVE', where: 'open orders' };
  const trades = (await client.getTrades({ asset_id: options.tokenId })) as {
    taker_order_id?: string;
    maker_orders?: { order_id?: string }[];
  }[];
  if (
    trades.some(
      (t) =>
        t.taker_order_id?.toLowerCase() === hash || t.maker_orders?.some((m) => m.order_id?.toLowerCase() === hash),
    )
  ) {
    return { status: 'MATCHED', where: 'trades' };
  }
  if (!options.chainStatus) return undefined;
  // Only the chain knows it (an exchange that lost its state): it cannot be placed again, and the contract tells
  // done from partly filled but not filled from cancelled.
  const onChain = await options.chainStatus(built.orderHash);
  if (onChain.isFilledOrCancelled) return { status: 'FILLED_OR_CANCELLED', where: 'chain' };
  if (onChain.remaining > 0n) return { status: 'PARTIALLY_FILLED', where: 'chain' };
  return undefined;
}

async function lookUpOrDoubt(
  client: ClobService,
  built: BuiltOrder,
  options: PostOnceOptions,
  methodName: string,
): Promise<FoundOrder | undefined> {
  try {
    return await findOrderByHash(client, built, options);
  } catch (error) {
    throw orderInDoubt(built.orderHash, methodName, error);
  }
}

/**
 * The answer when a post had no definite answer and the order could not be looked up: it may be live. The hash
 * and the command to check travel in the message and in the context (`orderInDoubt`, `orderHash`), so that a
 * script, the CLI's exit status and the terminal all tell it from a clean failure.
 */
export function orderInDoubt(orderHash: string, methodName: string, cause?: unknown): PmDeskError {
  return new PmDeskError(
    ErrorCode.NETWORK_ERROR,
    `Order ${orderHash} may be live: the exchange did not answer the post and the order could not be looked up. Check it with \`pmdesk order get ${orderHash}\` before placing it again.`,
    { methodName, context: { orderInDoubt: true, orderHash }, cause },
  );
}

/** Whether an error (or its JSON copy from another process) says an order may be live. */
export function isOrderInDoubt(error: unknown): boolean {
  const context = (error as { context?: { orderInDoubt?: unknown } } | null)?.context;
  return typeof context === 'object' && context !== null && context.orderInDoubt === true;
}

function fromResponse(response: unknown, reconciled: boolean): PostedOrder {
  const r = (response ?? {}) as { success?: boolean; orderID?: string; status?: string };
  return {
    orderID: r.success === false || !r.orderID ? undefined : r.orderID,
    status: r.status ?? '',
    reconciled,
    response,
  };
}

/**
 * No definite answer: the request may have reached the exchange. Only a 4xx refusal is definite; no answer at
 * all, a server error, or a success whose body could not be read or is not an order answer (ERR_VALIDATION with
 * status 200) may each hide a placed order.
 */
export function unanswered(error: unknown): boolean {
  if (!isPmDeskError(error)) return false;
  // Refused before anything was sent (a missing credential, a post-only FOK): nothing to look up.
  if (error.statusCode === undefined) return error.code !== ErrorCode.INVALID_PARAMETER;
  return !(error.statusCode >= 400 && error.statusCode < 500);
}

function alreadyExists(error: unknown): boolean {
  return isPmDeskError(error) && /already exists/i.test(JSON.stringify(error.responseData ?? error.detail));
}
