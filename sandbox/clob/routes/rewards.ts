// The CLOB's rewards and order-scoring routes. The sandbox pays no liquidity rewards, so every answer is the
// right shape and empty (no order scores): clients that read them work unchanged.
import { HttpError, parseJson } from '../http';
import { NOT_FOUND, pathId, type ClobRequest, type PrivateRoutes } from '../routing';
import type { ClobState } from '../state';

/** GET /rewards/markets/current and /rewards/markets/{id}: public, no authentication. */
export function marketRewardRoutes(state: ClobState, { key, path, q }: ClobRequest): unknown {
  if (key === 'GET /rewards/markets/current') return state.page([], q);
  if (key.startsWith('GET ') && pathId(path, '/rewards/markets/') !== undefined) return state.page([], q);
  return NOT_FOUND;
}

export const REWARD_ROUTES: PrivateRoutes = {
  'GET /rewards/user': (state, _caller, { q }) => state.page([], q),
  'GET /rewards/user/markets': (state, _caller, { q }) => state.page([], q),
  'GET /rewards/user/total': () => [],
  'GET /rewards/user/percentages': () => ({}),
  'GET /order-scoring': () => ({ scoring: false }),
  'POST /orders-scoring': (_state, _caller, { raw }) => {
    const ids = parseJson(raw);
    if (!Array.isArray(ids)) throw new HttpError(400, 'Invalid payload: a list of order ids');
    return Object.fromEntries(ids.map((id) => [String(id), false]));
  },
};
