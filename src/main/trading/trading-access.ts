// The contract's trading operations on the order flow of src/main/trading: a wallet named by its label trades
// through the signer that holds its key; amounts cross the contract as dollars and shares (base units are
// converted once, here, for display only).
import { ErrorCode, PmDeskError } from '@pmdesk/toolkit/model';
import type { SignerClient } from '../wallets/signer-client';
import { findMarket } from './order-input';
import { previewOrder } from './preview';
import type { TradingAccount, TradingService as OrderFlow, TradingWallet } from './service';
import type { EventHub } from '../ipc/event-hub';
import type { TradingService, WalletSummary } from '../ipc/services';
import type { OpenOrder, PositionInfo, TradeInfo } from '../../shared/contract';
import type { TraderPosition } from '@pmdesk/toolkit/model';
import { TradeFacts, tradeDetails } from './trade-facts';

const BASE_UNITS = 1_000_000;
const dollars = (units: bigint) => Number(units) / BASE_UNITS;

function cancelledIds(result: unknown): string[] {
  const r = result as { canceled?: unknown } | null;
  return Array.isArray(r?.canceled)
    ? (r.canceled as unknown[]).filter((id): id is string => typeof id === 'string')
    : [];
}

/**
 * A trade as the wallet lived it: the exchange lists a trade from its taker's side, so when the wallet was a
 * maker its own leg (outcome, side, price, size) comes from the trade's maker orders.
 */
export function tradeAsSeenBy(address: string, r: Record<string, unknown>): TradeInfo {
  const status = String(r.status ?? '');
  // Pending until CONFIRMED; a FAILED trade will never settle, so it is not pending either.
  const base = {
    tradeId: String(r.id),
    conditionId: String(r.market ?? ''),
    status,
    matchedAt: Number(r.match_time ?? 0),
    pending: status !== 'CONFIRMED' && status !== 'FAILED',
  };
  const makers = Array.isArray(r.maker_orders) ? (r.maker_orders as Record<string, unknown>[]) : [];
  const mine =
    r.trader_side === 'MAKER'
      ? makers.filter((m) => String(m.maker_address ?? '').toLowerCase() === address.toLowerCase())
      : [];
  if (mine.length === 0) {
    return {
      ...base,
      tokenId: String(r.asset_id ?? ''),
      side: r.side === 'SELL' ? 'SELL' : 'BUY',
      price: Number(r.price),
      size: Number(r.size),
    };
  }
  const size = mine.reduce((sum, m) => sum + Number(m.matched_amount), 0);
  const first = mine[0]!;
  // Without a side on the leg: on the taker's outcome the maker did the opposite (a swap); on the other
  // outcome it did the same (two buys mint, two sells merge).
  const sameOutcome = String(first.asset_id ?? r.asset_id) === String(r.asset_id);
  const opposite = r.side === 'BUY' ? 'SELL' : 'BUY';
  const side =
    first.side === 'SELL' || first.side === 'BUY'
      ? first.side
      : sameOutcome
        ? opposite
        : r.side === 'SELL'
          ? 'SELL'
          : 'BUY';
  return {
    ...base,
    tokenId: String(first.asset_id ?? r.asset_id ?? ''),
    side,
    price: mine.reduce((sum, m) => sum + Number(m.price) * Number(m.matched_amount), 0) / (size || 1),
    size,
  };
}

/** An open order in the contract's shape, from the exchange's row (GET /data/orders or the user channel). */
export function openOrderOf(r: Record<string, unknown>): OpenOrder {
  return {
    orderId: String(r.id),
    conditionId: String(r.market ?? ''),
    tokenId: String(r.asset_id ?? ''),
    side: r.side === 'SELL' ? 'SELL' : 'BUY',
    price: Number(r.price),
    originalSize: Number(r.original_size),
    sizeMatched: Number(r.size_matched),
    orderType: String(r.order_type ?? ''),
    status: String(r.status ?? ''),
    createdAt: Number(r.created_at ?? 0),
    expiresAt: Number.isFinite(Number(r.expiration)) ? Number(r.expiration ?? 0) : 0,
  };
}

export interface TradingWallets {
  list(): Promise<WalletSummary[]>;
  signer: SignerClient;
  /** The Polymarket account a key trades from on this network; without it every key trades from its own address. */
  accountOf?(owner: string): Promise<TradingAccount>;
}

/** A PM Desk wallet (in the signer) by its label, as the order flow trades with it: from its Polymarket account on this network. */
export async function tradingWalletNamed(
  wallets: TradingWallets,
  label: string,
): Promise<TradingWallet & { kind: 'worker' }> {
  const wanted = label.trim().toLowerCase();
  const found = (await wallets.list()).find((w) => w.label.toLowerCase() === wanted);
  if (!found) throw new PmDeskError(ErrorCode.NOT_FOUND, `There is no wallet named ${label.slice(0, 64)}.`);
  const account = await wallets.accountOf?.(found.address);
  return { kind: 'worker', address: found.address, signer: wallets.signer, ...(account ? { account } : {}) };
}

/** The wallet's trades with their question, outcome, fee and transaction (each market's facts read once). */
export async function describedTrades(
  address: string,
  rows: readonly Record<string, unknown>[],
  facts: TradeFacts,
): Promise<TradeInfo[]> {
  await facts.loadAll(rows.map((r) => String(r.market ?? '')));
  return rows.map((r) => {
    const trade = tradeAsSeenBy(address, r);
    return tradeDetails(address, r, trade, facts.cached(trade.conditionId));
  });
}

/**
 * A position as the account tables show it: its question (the source's title, else the exchange's), its token
 * (the source's, else the outcome of that name) and the source's market id that opens it (found by its slug).
 */
export async function describedPosition(
  p: TraderPosition,
  facts: TradeFacts,
  marketIdOf: (slug: string) => Promise<string | null>,
): Promise<PositionInfo> {
  const known = p.conditionId ? await facts.load(p.conditionId) : undefined;
  const tokenId =
    p.tokenId ??
    Object.entries(known?.outcomes ?? {}).find(([, name]) => name.toLowerCase() === p.outcome.toLowerCase())?.[0] ??
    null;
  const slug = p.marketSlug ?? known?.slug ?? null;
  return {
    conditionId: p.conditionId ?? null,
    marketSlug: p.marketSlug ?? null,
    outcome: p.outcome,
    size: p.size,
    averagePrice: p.averagePrice ?? null,
    currentPrice: p.currentPrice,
    currentValue: p.currentValue,
    redeemable: p.redeemable === true,
    question: p.title || known?.question || null,
    marketId: slug ? await marketIdOf(slug) : null,
    tokenId,
    ...(p.negativeRisk ? { negRisk: true, eventSlug: p.eventSlug ?? null } : {}),
  };
}

/** `hub`: every window or tab hears what any of them placed or cancelled, as `orderUpdate` events. */
export function tradingAccess(
  flow: OrderFlow,
  wallets: TradingWallets,
  hub?: EventHub,
  facts = new TradeFacts(flow),
): TradingService {
  const cancelled = (wallet: string, result: unknown) => {
    const ids = cancelledIds(result);
    for (const orderId of ids) hub?.emit('orderUpdate', { wallet, orderId, status: 'CANCELED' });
    return { cancelled: ids };
  };

  const walletNamed = (label: string) => tradingWalletNamed(wallets, label);

  /** The source's market id by slug, found once per market (null when the source does not know it). */
  const marketIds = new Map<string, Promise<string | null>>();
  const marketIdOf = (slug: string): Promise<string | null> => {
    let found = marketIds.get(slug);
    if (!found) {
      found = findMarket(flow.markets, slug).then(
        (m) => m.id,
        () => (marketIds.delete(slug), null),
      );
      marketIds.set(slug, found);
    }
    return found;
  };

  /** The exchange filters by condition id; the contract names markets by the source's id. */
  const marketFilter = async (marketId: string | undefined): Promise<{ market?: string }> => {
    if (!marketId) return {};
    const market = await findMarket(flow.markets, marketId);
    if (!market.conditionId)
      throw new PmDeskError(ErrorCode.NOT_FOUND, 'This market has no condition id to filter by.');
    return { market: market.conditionId };
  };

  return {
    previewOrder: async (input) => previewOrder(flow, input, await walletNamed(input.wallet)),
    // The order hash stays in main: the page learns only whether the click will find the order made.
    readyOrder: async (input) => ({ ready: (await flow.readyOrder(input, await walletNamed(input.wallet))).ready }),
    placeOrder: async (input) => {
      const wallet = await walletNamed(input.wallet);
      // Each approval (with its transaction) and new credentials reach every window as they happen.
      const placed = await flow.executeOrder(input, wallet, (notice) =>
        hub?.emit('notice', {
          wallet: input.wallet,
          kind: notice.kind,
          message: notice.message,
          ...(notice.txHash ? { txHash: notice.txHash } : {}),
        }),
      );
      if (placed.orderID)
        hub?.emit('orderUpdate', { wallet: input.wallet, orderId: placed.orderID, status: placed.status });
      return { orderId: placed.orderID ?? null, status: placed.status, pending: placed.pending };
    },
    cancelOrder: async ({ wallet, orderId }) =>
      cancelled(wallet, await flow.cancelOrder(await walletNamed(wallet), orderId)),
    cancelAll: async ({ wallet }) => cancelled(wallet, await flow.cancelAll(await walletNamed(wallet))),
    cancelMarket: async ({ wallet, marketId, tokenId }) => {
      const trader = await walletNamed(wallet);
      const market = await findMarket(flow.markets, marketId);
      if (!market.conditionId)
        throw new PmDeskError(ErrorCode.NOT_FOUND, 'This market has no condition id to cancel by.');
      return cancelled(
        wallet,
        await flow.cancelMarketOrders(trader, {
          market: market.conditionId,
          ...(tokenId ? { asset_id: tokenId } : {}),
        }),
      );
    },
    listOpenOrders: async ({ wallet, marketId }) => {
      const trader = await walletNamed(wallet);
      const rows = await flow.openOrders(trader, await marketFilter(marketId));
      return rows.map(openOrderOf);
    },
    listTrades: async ({ wallet, marketId }) => {
      const trader = await walletNamed(wallet);
      const rows = await flow.trades(trader, await marketFilter(marketId));
      return describedTrades(flow.fundsAddress(trader), rows, facts);
    },
    getBalances: async ({ wallet, marketId, tokenIds }) => {
      const trader = await walletNamed(wallet);
      const markets = marketId ? [await findMarket(flow.markets, marketId)] : [];
      // Every holding the trader's positions name, besides the open market's outcomes.
      const held = tokenIds?.length ? [{ tokens: tokenIds.map((token_id) => ({ token_id })) }] : [];
      const balances = await flow.balances(flow.fundsAddress(trader), [...markets, ...held]);
      return {
        collateral: dollars(balances.collateral),
        outcomes: Object.fromEntries(
          Object.entries(balances.outcomes).map(([token, units]) => [token, dollars(units)]),
        ),
      };
    },
    getPositions: async ({ wallet }) => {
      const trader = await walletNamed(wallet);
      const positions = await flow.positions(flow.fundsAddress(trader));
      return Promise.all(positions.map((p) => describedPosition(p, facts, marketIdOf)));
    },
  };
}

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export const LOCKED_NO_CREDENTIALS = (label: string) =>
  `The wallet ${label.slice(0, 64)} is locked and has no exchange credentials yet: unlock it to follow its orders.`;

/**
 * Runs `work` that needs the wallet's level 2 credentials; when it fails and the wallet is locked, the reason is
 * almost surely that there were none to load and the wallet cannot sign to derive them: say that instead.
 */
export async function withCredentials<T>(
  wallets: TradingWallets,
  wallet: TradingWallet & { kind: 'worker' },
  label: string,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const unlocked = await wallets.signer.unlocked().catch(() => [] as string[]);
    if (!unlocked.some((a) => sameAddress(a, wallet.address)))
      throw new PmDeskError(ErrorCode.UNAUTHORIZED, LOCKED_NO_CREDENTIALS(label));
    throw error;
  }
}
