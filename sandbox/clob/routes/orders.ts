// The CLOB's order routes (level 2): post one or a batch, cancel by id, all, or by market and token, read open
// orders and one order, and the heartbeat dead-man switch that cancels everything when a client goes silent.
import { randomUUID } from 'node:crypto';
import { HttpError, parseJson } from '../http';
import { cancelOrders, placeOrder } from '../placement';
import { NOTIFY_CANCEL, type Caller, type OrderResponse } from '../records';
import { pathId, type ClobRequest, type PrivateRoutes } from '../routing';
import type { ClobState } from '../state';
import { openOrderJson } from '../views';

/** GET /data/order/{id}: the one private route with an id in its path. */
export const ORDER_BY_ID_PREFIX = '/data/order/';

export const ORDER_ROUTES: PrivateRoutes = {
  'POST /order': (state, caller, { raw }) => postOrder(state, caller, raw),
  'POST /orders': (state, caller, { raw }) => postOrders(state, caller, raw),
  'DELETE /order': (state, caller, { raw }) => {
    const body = parseJson(raw) as { orderID?: unknown } | undefined;
    if (!body || typeof body !== 'object' || typeof body.orderID !== 'string')
      throw new HttpError(400, 'Invalid order payload: orderID');
    const id = body.orderID;
    return state.exclusive(async () => cancelOrders(state, caller, [id]));
  },
  'DELETE /orders': (state, caller, { raw }) => {
    const ids = parseJson(raw);
    if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string') || ids.length > 3000)
      throw new HttpError(400, 'Invalid order payload: a list of order ids');
    return state.exclusive(async () => cancelOrders(state, caller, ids as string[]));
  },
  'DELETE /cancel-all': (state, caller) =>
    state.exclusive(async () =>
      cancelOrders(
        state,
        caller,
        state.liveOrdersOf(caller.apiKey).map((o) => o.id),
      ),
    ),
  'DELETE /cancel-market-orders': (state, caller, { raw }) => {
    const body = (parseJson(raw) ?? {}) as { market?: unknown; asset_id?: unknown };
    if (
      typeof body !== 'object' ||
      (body.market !== undefined && typeof body.market !== 'string') ||
      (body.asset_id !== undefined && typeof body.asset_id !== 'string')
    ) {
      throw new HttpError(400, 'Invalid payload: market and asset_id must be strings');
    }
    const ids = state
      .liveOrdersOf(caller.apiKey)
      .filter(
        (o) =>
          (body.market === undefined || o.market.conditionId === body.market) &&
          (body.asset_id === undefined || o.tokenId === body.asset_id),
      )
      .map((o) => o.id);
    return state.exclusive(async () => cancelOrders(state, caller, ids));
  },
  'GET /data/orders': (state, caller, { q }) => {
    const id = q.get('id');
    const market = q.get('market');
    const asset = q.get('asset_id');
    const rows = state
      .liveOrdersOf(caller.apiKey)
      .filter(
        (o) => (!id || o.id === id) && (!market || o.market.conditionId === market) && (!asset || o.tokenId === asset),
      )
      .map((o) => openOrderJson(o));
    return state.page(rows, q);
  },
  'GET /data/pre-migration-orders': (state, _caller, { q }) => state.page([], q),
  'POST /v1/heartbeats': (state, caller, { raw }) => heartbeat(state, caller, raw),
  'POST /heartbeats': (state, caller, { raw }) => heartbeat(state, caller, raw),
};

/** GET /data/order/{id}: one of the caller's orders, whatever its status. */
export function orderById(state: ClobState, caller: Caller, { path }: ClobRequest): unknown {
  const record = state.orders.get(pathId(path, ORDER_BY_ID_PREFIX)!);
  if (!record || record.owner !== caller.apiKey) throw new HttpError(404, 'order not found');
  return openOrderJson(record);
}

async function postOrder(state: ClobState, caller: Caller, raw: string): Promise<OrderResponse> {
  const body = parseJson(raw);
  const response = await state.exclusive(() => placeOrder(state, body, caller));
  // One rule for refusals: HTTP 400 whose body is the order response (success false) plus `error`.
  if (!response.success) throw new HttpError(400, response.errorMsg, { ...response });
  return response;
}

async function postOrders(state: ClobState, caller: Caller, raw: string): Promise<OrderResponse[]> {
  const list = parseJson(raw);
  if (!Array.isArray(list) || list.length === 0 || list.length > 15)
    throw new HttpError(400, 'Invalid payload: a list of 1 to 15 orders');
  // A batch answers 200 with one response per order; refused ones carry success false and errorMsg.
  const responses: OrderResponse[] = [];
  for (const body of list) responses.push(await state.exclusive(() => placeOrder(state, body, caller)));
  return responses;
}

/**
 * POST /v1/heartbeats: the first beat ("" or null) starts the dead-man switch and every answer names the id
 * to send next; once started, silence for heartbeatTimeoutMs cancels all of the owner's orders.
 */
function heartbeat(state: ClobState, caller: Caller, raw: string): { heartbeat_id: string } {
  const body = parseJson(raw) as { heartbeat_id?: unknown } | undefined;
  if (!body || typeof body !== 'object' || !('heartbeat_id' in body))
    throw new HttpError(400, 'Invalid payload: heartbeat_id');
  const sent = body.heartbeat_id;
  if (sent !== null && typeof sent !== 'string') throw new HttpError(400, 'Invalid payload: heartbeat_id');
  if (state.heartbeatsFailing) throw new HttpError(503, 'heartbeats unavailable (sandbox fault)');
  const current = state.heartbeats.get(caller.apiKey);
  if (sent && current && sent !== current.id) throw new HttpError(400, 'Invalid heartbeat id');
  if (sent && !current) throw new HttpError(400, 'Invalid heartbeat id');
  if (current) clearTimeout(current.timer);
  const id = randomUUID();
  const timer = setTimeout(() => {
    state.heartbeats.delete(caller.apiKey);
    if (state.stopped) return;
    void state.exclusive(async () => {
      const result = cancelOrders(
        state,
        caller,
        state.liveOrdersOf(caller.apiKey).map((o) => o.id),
      );
      for (const orderId of result.canceled)
        state.notify(caller.apiKey, NOTIFY_CANCEL, { order_id: orderId, reason: 'heartbeat timeout' });
    });
  }, state.heartbeatTimeoutMs);
  timer.unref();
  state.heartbeats.set(caller.apiKey, { id, timer });
  return { heartbeat_id: id };
}
