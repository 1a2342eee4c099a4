// The CLOB's trader reads (level 2): the caller's trades, its notifications, and its balance and allowances as
// the exchange sees them; plus the public builder-trades list (empty in the sandbox).
import { fundsHolder } from '../accounts';
import { HttpError, type Query } from '../http';
import type { Caller, TradeRecord } from '../records';
import { NOT_FOUND, type ClobRequest, type PrivateRoutes } from '../routing';
import type { ClobState } from '../state';
import { refreshShareView, seenShares } from '../share-views';
import { tradeJson } from '../views';

/** GET /builder/trades: no builder attribution in the sandbox, so an empty page of the right shape. */
export function builderTradeRoutes(state: ClobState, { key, q }: ClobRequest): unknown {
  if (key === 'GET /builder/trades') return { ...state.page([], q) };
  return NOT_FOUND;
}

export const TRADE_ROUTES: PrivateRoutes = {
  'GET /data/trades': (state, caller, { q }) => tradeList(state, caller, q),
  'GET /notifications': (state, caller) =>
    (state.notifications.get(caller.apiKey) ?? []).map((n) => ({
      id: n.id,
      type: n.type,
      owner: n.owner,
      payload: n.payload,
      timestamp: n.timestamp,
    })),
  'DELETE /notifications': (state, caller, { q }) => {
    const ids = new Set((q.get('ids') ?? '').split(',').filter(Boolean));
    const list = state.notifications.get(caller.apiKey) ?? [];
    state.notifications.set(caller.apiKey, ids.size ? list.filter((n) => !ids.has(String(n.id))) : []);
    state.changed();
    return 'OK';
  },
  'GET /balance-allowance': (state, caller, { q }) => balanceAllowance(state, caller, q, false),
  'GET /balance-allowance/update': (state, caller, { q }) => balanceAllowance(state, caller, q, true),
};

function tradeList(state: ClobState, caller: Caller, q: Query) {
  const id = q.get('id');
  const market = q.get('market');
  const asset = q.get('asset_id');
  const makerAddress = q.get('maker_address')?.toLowerCase();
  const bound = (name: string) => {
    const text = q.get(name);
    if (text === null) return undefined;
    if (!/^\d{1,12}$/.test(text)) throw new HttpError(400, `Invalid ${name}`);
    return Number(text);
  };
  const before = bound('before');
  const after = bound('after');
  // The official v2 client polls one trade id at a time after a match: a lookup, not a scan.
  const source = id ? [state.tradesById.get(id)].filter((t): t is TradeRecord => t !== undefined) : state.trades;
  const rows = source
    .filter((t) => t.owner === caller.apiKey || t.makers.some((m) => m.owner === caller.apiKey))
    .filter(
      (t) =>
        (!id || t.id === id) &&
        (!market || t.market.conditionId === market) &&
        (!asset || t.tokenId === asset || t.makers.some((m) => m.tokenId === asset)) &&
        (!makerAddress ||
          t.makerAddress.toLowerCase() === makerAddress ||
          t.makers.some((m) => m.makerAddress.toLowerCase() === makerAddress)) &&
        (before === undefined || t.matchTime < before) &&
        (after === undefined || t.matchTime > after),
    )
    .map((t) => tradeJson(t, caller.apiKey));
  return state.page(rows, q);
}

/** Version 1 answers {balance, allowance}; versions 2 and 3 {balance, allowances: {spender: amount}}. */
async function balanceAllowance(state: ClobState, caller: Caller, q: Query, refresh: boolean) {
  const assetType = q.get('asset_type');
  if (assetType !== 'COLLATERAL' && assetType !== 'CONDITIONAL')
    throw new HttpError(400, 'Invalid asset_type: COLLATERAL or CONDITIONAL');
  const signatureType = q.get('signature_type') ?? '0';
  if (!['0', '1', '2', '3', '-1'].includes(signatureType)) throw new HttpError(400, 'Invalid signature_type');
  const { deployment } = state.options;
  // The funds live at the key owner's account of that signature type (proxy, Safe, deposit wallet).
  const holder = fundsHolder(deployment.wallets, caller.address, signatureType);
  const spenders = [
    deployment.contracts.exchange,
    deployment.contracts.negRiskExchange,
    deployment.contracts.negRiskAdapter,
  ];
  let tokenId: string | undefined;
  if (assetType === 'CONDITIONAL') {
    tokenId = q.get('token_id') ?? undefined;
    if (!tokenId) throw new HttpError(400, 'Invalid token_id: required for CONDITIONAL');
    state.tokenParam(tokenId);
  }
  const cacheKey = `${holder.toLowerCase()}:${tokenId ?? 'collateral'}`;
  if (refresh && tokenId) refreshShareView(state, holder, tokenId);
  let view = state.balanceCache.get(cacheKey);
  if (refresh || !view || Object.keys(view.allowances).length < spenders.length) {
    const balance = (await (tokenId
      ? state.ctf.getFunction('balanceOf')(holder, tokenId)
      : state.collateral.getFunction('balanceOf')(holder))) as bigint;
    const allowances: Record<string, bigint> = {};
    for (const spender of spenders) {
      allowances[spender] = tokenId
        ? ((await state.ctf.getFunction('isApprovedForAll')(holder, spender)) as boolean)
          ? (1n << 256n) - 1n
          : 0n
        : ((await state.collateral.getFunction('allowance')(holder, spender)) as bigint);
    }
    view = { balance, allowances };
    state.balanceCache.set(cacheKey, view);
  }
  // Until refreshed, a fill's shares are as unseen here as by the order checks.
  if (tokenId) view = { ...view, balance: seenShares(state, holder, tokenId, view.balance) };
  if (deployment.orderVersion === 1)
    return {
      balance: view.balance.toString(),
      allowance: (view.allowances[deployment.contracts.exchange] ?? 0n).toString(),
    };
  return {
    balance: view.balance.toString(),
    allowances: Object.fromEntries(Object.entries(view.allowances).map(([k, v]) => [k, v.toString()])),
  };
}
