// The contract's trading operations on the order flow of src/main/trading: a wallet named by its label trades
// through the signer that holds its key; amounts cross the contract as dollars and shares (base units are
// converted once, here, for display only). What the order flow does not offer yet answers ERR_NOT_AVAILABLE.
import { ErrorCode, PmDeskError } from '../../shared/errors';
import type { SignerClient } from '../wallets/signer-client';
import { findMarket } from '../trading/order-input';
import type { TradingService as OrderFlow, TradingWallet } from '../trading/service';
import type { EventHub } from './event-hub';
import { ServiceUnavailable } from './router';
import type { TradingService, WalletSummary } from './services';

const BASE_UNITS = 1_000_000;
const dollars = (units: bigint) => Number(units) / BASE_UNITS;

function cancelledIds(result: unknown): string[] {
  const r = result as { canceled?: unknown } | null;
  return Array.isArray(r?.canceled) ? (r.canceled as unknown[]).filter((id): id is string => typeof id === 'string') : [];
}

export interface TradingWallets {
  list(): Promise<WalletSummary[]>;
  signer: SignerClient;
}

/** `hub`: every window or tab hears what any of them placed or cancelled, as `orderUpdate` events. */
export function tradingAccess(flow: OrderFlow, wallets: TradingWallets, hub?: EventHub): TradingService {
  const cancelled = (wallet: string, result: unknown) => {
    const ids = cancelledIds(result);
    for (const orderId of ids) hub?.emit('orderUpdate', { wallet, orderId, status: 'CANCELED' });
    return { cancelled: ids };
  };

  const walletNamed = async (label: string): Promise<TradingWallet & { kind: 'worker' }> => {
    const wanted = label.trim().toLowerCase();
    const found = (await wallets.list()).find((w) => w.label.toLowerCase() === wanted);
    if (!found) throw new PmDeskError(ErrorCode.NOT_FOUND, `There is no wallet named ${label.slice(0, 64)}.`);
    return { kind: 'worker', address: found.address, signer: wallets.signer };
  };

  return {
    placeOrder: async (input) => {
      const wallet = await walletNamed(input.wallet);
      const placed = await flow.executeOrder(
        {
          provider: 'polymarket',
          marketIdOrSlug: input.marketId,
          positionIdOrName: input.tokenId,
          buyOrSell: input.side,
          price: input.price,
          size: input.size,
          usdcFlowAbs: input.amountUsd,
        },
        wallet,
        { orderType: input.orderType, expiration: input.expiration },
      );
      if (placed.orderID) hub?.emit('orderUpdate', { wallet: input.wallet, orderId: placed.orderID, status: placed.status });
      return { orderId: placed.orderID ?? null, status: placed.status, pending: placed.pending };
    },
    cancelOrder: async ({ wallet, orderId }) => cancelled(wallet, await flow.cancelOrder(await walletNamed(wallet), orderId)),
    cancelAll: async ({ wallet }) => cancelled(wallet, await flow.cancelAll(await walletNamed(wallet))),
    cancelMarket: async ({ wallet, marketId, tokenId }) => {
      const trader = await walletNamed(wallet);
      const market = await findMarket(flow.aggregator, marketId);
      if (!market.conditionId) throw new PmDeskError(ErrorCode.NOT_FOUND, 'This market has no condition id to cancel by.');
      return cancelled(wallet, await flow.cancelMarketOrders(trader, { market: market.conditionId, ...(tokenId ? { asset_id: tokenId } : {}) }));
    },
    listOpenOrders: async () => {
      throw new ServiceUnavailable('Listing open orders is not available in this version of PM Desk yet.');
    },
    listTrades: async () => {
      throw new ServiceUnavailable('Listing trades is not available in this version of PM Desk yet.');
    },
    getBalances: async ({ wallet, marketId }) => {
      const { address } = await walletNamed(wallet);
      const markets = marketId ? [await findMarket(flow.aggregator, marketId)] : [];
      const balances = await flow.balances(address, markets);
      return { collateral: dollars(balances.collateral), outcomes: Object.fromEntries(Object.entries(balances.outcomes).map(([token, units]) => [token, dollars(units)])) };
    },
    getPositions: async ({ wallet }) => {
      const { address } = await walletNamed(wallet);
      return (await flow.positions(address)).map((p) => ({
        conditionId: p.conditionId ?? null,
        marketSlug: p.marketSlug ?? null,
        outcome: p.outcome,
        size: p.size,
        averagePrice: p.averagePrice ?? null,
        currentPrice: p.currentPrice,
        currentValue: p.currentValue,
      }));
    },
  };
}
