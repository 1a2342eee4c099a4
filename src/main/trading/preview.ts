// What an order would do before anything is signed: the order flow's own plan and pre-trade checks, priced
// against the exchange's book, tick size and fee rate, as the ticket shows it (the contract's OrderPreview).
import type { OrderPreview } from '../../shared/contract';
import { isPmDeskError } from '@pmdesk/toolkit/model';
import { roundDown, roundNormal } from '@pmdesk/toolkit';
import { describeFeeTerms, unitsToDollars } from './order-fees';
import { formatDollars } from './checks';
import type { OrderIntent } from './order-input';
import { walkBook, type BookFill } from './book-walk';
import type { TradingService, TradingWallet } from './service';

type Problem = OrderPreview['problems'][number];

/** Dollars to the cent's ten-thousandth (the collateral's 6 decimals), so sums of levels do not show float dust. */
const money = (x: number): number => roundNormal(x, 6);
const decimalsOf = (tick: string): number => tick.split('.')[1]?.length ?? 0;

/**
 * The preview of one order for one wallet. A locked wallet still gets one (with its WALLET_LOCKED problem):
 * nothing here signs. Fees: on version 2/3 exchanges the taker fee the exchange takes at match time on the
 * order's expected fills (trading/order-fees.ts; a BUY's balance check includes it); on version 1 the signed
 * rate (GET /fee-rate, bps) × min(price, 1 − price) × shares, 0 when the exchange reports none.
 */
export async function previewOrder(
  flow: TradingService,
  input: OrderIntent,
  wallet: TradingWallet,
): Promise<OrderPreview> {
  const { market, token, plan, fee, missing, problems: checks } = await flow.prepareOrder(input, wallet);
  const problems: Problem[] = checks.map((p) => ({ check: p.check, blocking: p.blocking, message: p.message }));
  const tickSize = market.tickSize ?? (await flow.exchangeTickSize(token.token_id));
  const decimals = decimalsOf(tickSize);
  // The trader's figures in the ticket's words: prices in cents on the tick, dollars as "$1,234.50".
  const cents = (p: number): string => `${Number((p * 100).toFixed(Math.max(0, decimals - 2)))}¢`;
  const dollars = (usd: number): string => formatDollars(BigInt(Math.round(usd * 1_000_000)));

  let price: number;
  let shares: number;
  let cost: number;
  if (plan.kind === 'limit') {
    // The rounding table: the builder rounds a limit price to the tick's decimals (an off-tick price is also
    // a PRICE_OFF_TICK problem above, since the order would not be what the trader typed).
    price = roundNormal(plan.price, decimals);
    shares = plan.size;
    cost = money(price * shares);
  } else {
    let fill: BookFill | undefined;
    try {
      fill = walkBook(await flow.exchangeBook(token.token_id), plan.side, plan.amount, plan.price);
    } catch (error) {
      if (!isPmDeskError(error)) throw error;
      problems.push({
        check: 'BOOK_UNAVAILABLE',
        blocking: false,
        message: `The exchange's book for "${token.name}" could not be read: the figures are estimated from the outcome's last price.`,
      });
    }
    if (fill && fill.worstPrice !== undefined) {
      price = roundNormal(plan.price ?? fill.worstPrice, decimals);
      shares = roundDown(fill.shares, 2);
      cost = money(fill.dollars);
      if (fill.unfilled > 1e-9) {
        const short =
          plan.side === 'BUY'
            ? `${dollars(money(plan.amount - fill.unfilled))} of the ${dollars(plan.amount)}`
            : `${roundDown(plan.amount - fill.unfilled, 2)} of the ${plan.amount} shares`;
        problems.push(
          plan.orderType === 'FOK'
            ? {
                check: 'NOT_ENOUGH_LIQUIDITY',
                blocking: true,
                message: `The book can fill only ${short}${plan.price ? ` at ${cents(plan.price)} or better` : ''}: a fill-or-kill order would not be placed. Trade less, or use FAK to take what is there.`,
              }
            : {
                check: 'NOT_ENOUGH_LIQUIDITY',
                blocking: false,
                message: `The book can fill only ${short}${plan.price ? ` at ${cents(plan.price)} or better` : ''}: the rest of this FAK order is cancelled.`,
              },
        );
      }
    } else {
      if (fill) {
        problems.push({
          check: 'NOT_ENOUGH_LIQUIDITY',
          blocking: true,
          message: `The book has no ${plan.side === 'BUY' ? 'asks' : 'bids'}${plan.price ? ` at ${cents(plan.price)} or better` : ''} for "${token.name}": a market order would not fill. Place a limit order instead.`,
        });
      }
      price = roundNormal(plan.price ?? plan.estimatedPrice, decimals);
      shares = plan.estimatedSize;
      cost = money(plan.side === 'BUY' ? plan.amount : plan.amount * price);
    }
  }

  let fees: number;
  let feeTerms: string | undefined;
  let feeUnknown = false;
  if (flow.profile.network.orderVersion === 1) {
    // Version 1 signs the market's rate (GET /fee-rate, bps) and charges rate × min(p, 1 − p) × shares.
    let feeRateBps = 0;
    try {
      feeRateBps = await flow.exchangeFeeRateBps(token.token_id);
    } catch (error) {
      if (!isPmDeskError(error)) throw error;
    }
    fees = money((feeRateBps / 10_000) * Math.min(price, 1 - price) * shares);
    if (feeRateBps > 0) feeTerms = `fee ${feeRateBps / 100} %·min(p, 1−p)`;
  } else {
    // Versions 2 and 3: the fee the exchange takes at match time on the order's expected taker fills.
    fees = unitsToDollars(fee.units);
    if (fee.terms) feeTerms = describeFeeTerms(fee.terms);
    // Neither the exchange nor the market stated terms: said so instead of showing a fee of nothing.
    else if (fee.source === 'unknown') feeUnknown = true;
  }

  return {
    side: plan.side,
    orderType: plan.orderType,
    price,
    shares,
    cost,
    // A BUY pays out its shares if the outcome wins; for a SELL, what the shares sold would have paid.
    payout: money(shares),
    fees,
    ...(feeTerms ? { feeTerms } : {}),
    ...(feeUnknown ? { feeUnknown } : {}),
    tickSize,
    minOrderSize: market.minimumOrderSize ?? 0,
    problems,
    approvalsNeeded: missing.length,
  };
}
