// Pre-trade checks: everything that would make an order fail or surprise the trader, found before anything
// is signed, each as a sentence saying what is wrong and what to do. One function gives every failed check,
// for the CLI now and the app later.
import { formatUnits, type JsonRpcProvider } from 'ethers';
import { ErrorCode, PmDeskError } from '@pmdesk/toolkit/model';
import { COLLATERAL_TOKEN_DECIMALS } from '@pmdesk/toolkit';
import type { PositionToken } from '@pmdesk/toolkit/model';
import { approvalGasCost, chainBalance, formatGas, type MissingApproval } from './allowances';
import type { OrderPlan, TradedMarket } from './order-input';
import type { TradingProfile } from './profile';

export type PreTradeCheckId =
  | 'WALLET_LOCKED'
  | 'NETWORK_MISMATCH'
  | 'MARKET_CLOSED'
  | 'MARKET_NOT_ACCEPTING_ORDERS'
  | 'PRICE_OFF_TICK'
  | 'PRICE_OUT_OF_BOUNDS'
  | 'SIZE_UNDER_MINIMUM'
  | 'NOT_ENOUGH_COLLATERAL'
  | 'AMOUNT_SHRUNK_FOR_FEES'
  | 'NOT_ENOUGH_OUTCOME_TOKENS'
  | 'ALLOWANCE_MISSING'
  | 'NOT_ENOUGH_GAS'
  /** A market order's book moved past the worst price the trader confirmed, before it was sent. */
  | 'PRICE_MOVED';

export interface PreTradeProblem {
  check: PreTradeCheckId;
  /** False for what the flow fixes itself (a missing allowance): the trader is told, the order goes on. */
  blocking: boolean;
  message: string;
}

export interface PreTradeContext {
  profile: TradingProfile;
  provider: JsonRpcProvider;
  address: string;
  /** Whether the wallet can sign now (the signer worker holds its key). */
  unlocked: boolean;
  market: TradedMarket;
  token: PositionToken;
  plan: OrderPlan;
  /** May still be on its way (read alongside the other checks' chain reads): awaited where it is used. */
  missingApprovals: readonly MissingApproval[] | Promise<readonly MissingApproval[]>;
  /** The exchange's taker fee on the order's expected fills, in collateral base units (a BUY pays it on top). */
  takerFee?: bigint;
  /** Set when a market BUY was shrunk so its fee fits: the dollars the trader asked for. */
  shrunkFrom?: number;
}

/** The failed checks' error: its detail lists every sentence, one a line. */
export class PreTradeCheckError extends PmDeskError {
  constructor(readonly problems: readonly PreTradeProblem[]) {
    super(
      ErrorCode.VALIDATION_ERROR,
      `The order was not placed:\n${problems.map((p) => `- ${p.message}`).join('\n')}`,
      {
        methodName: 'executeOrder',
        context: { failedChecks: problems.map((p) => p.check) },
      },
    );
  }
}

const units = (x: number): bigint => BigInt(Math.round(x * 10 ** COLLATERAL_TOKEN_DECIMALS));
/**
 * Dollars as the terminal's screens write them ("$1,234.50"), from base units without a float: at least cents,
 * and the sub-cent digits a fee can have kept (never rounded away).
 */
export function formatDollars(base: bigint): string {
  const [whole = '0', fraction = ''] = formatUnits(base < 0n ? -base : base, COLLATERAL_TOKEN_DECIMALS).split('.');
  const cents = fraction.replace(/0+$/, '').padEnd(2, '0');
  return `${base < 0n ? '−' : ''}$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`;
}
const usdc = formatDollars;
/** Collateral to the base unit, for fees smaller than a cent. */
const exactUsdc = formatDollars;
const shares = (base: bigint): string => `${Number(formatUnits(base, COLLATERAL_TOKEN_DECIMALS))}`;
/** Whole ticks, compared as integers so 0.29 on a 0.01 grid is on it. */
const ticksOf = (price: number, tick: number): number => price / tick;
const onGrid = (price: number, tick: number): boolean =>
  Math.abs(ticksOf(price, tick) - Math.round(ticksOf(price, tick))) < 1e-9;
const decimalsOf = (tick: string): number => tick.split('.')[1]?.length ?? 0;

/** What the order needs from the wallet: collateral for a buy, outcome tokens for a sell (base units). */
export function orderNeeds(plan: OrderPlan): { collateral: bigint; tokens: bigint } {
  if (plan.side === 'BUY')
    return { collateral: plan.kind === 'limit' ? units(plan.size * plan.price) : units(plan.amount), tokens: 0n };
  return { collateral: 0n, tokens: units(plan.kind === 'limit' ? plan.size : plan.amount) };
}

/** Every failed check, blocking ones and notices, in the order a trader would fix them. */
export async function preTradeChecks(ctx: PreTradeContext): Promise<PreTradeProblem[]> {
  const { profile, provider, address, market, token, plan } = ctx;
  const problems: PreTradeProblem[] = [];
  const fail = (check: PreTradeCheckId, message: string, blocking = true) =>
    problems.push({ check, blocking, message });

  if (!ctx.unlocked)
    fail('WALLET_LOCKED', `The wallet ${address} is locked: unlock it with its password, then place the order again.`);

  // Asked of the node itself: the provider was built for the profile's chain and would only echo it.
  const chainId = Number(await provider.send('eth_chainId', []));
  if (chainId !== profile.network.chainId) {
    fail(
      'NETWORK_MISMATCH',
      `The chain at ${profile.rpcUrl} is chain ${chainId}, but the profile "${profile.network.name}" is for chain ${profile.network.chainId}: use the profile written for this network.`,
    );
  }

  if (market.closed) fail('MARKET_CLOSED', `The market "${market.question}" is closed: it takes no more orders.`);
  else if (!market.acceptingOrders)
    fail(
      'MARKET_NOT_ACCEPTING_ORDERS',
      `The market "${market.question}" is not accepting orders right now: try again when it reopens.`,
    );

  if (market.tickSize && plan.price !== undefined) {
    const tick = Number(market.tickSize);
    const d = decimalsOf(market.tickSize);
    if (plan.price < tick || plan.price > 1 - tick) {
      fail(
        'PRICE_OUT_OF_BOUNDS',
        `The price ${plan.price} is out of bounds: this market takes prices from ${tick} to ${(1 - tick).toFixed(d)}.`,
      );
    } else if (!onGrid(plan.price, tick)) {
      const below = (Math.floor(ticksOf(plan.price, tick)) * tick).toFixed(d);
      const above = (Math.ceil(ticksOf(plan.price, tick)) * tick).toFixed(d);
      fail(
        'PRICE_OFF_TICK',
        `The price ${plan.price} is not on this market's ${market.tickSize} tick: use ${below} or ${above}.`,
      );
    }
  }

  // The exchange's minimum is in shares and applies to orders that can rest; market orders are sized by the book.
  if (plan.kind === 'limit' && market.minimumOrderSize !== undefined && plan.size < market.minimumOrderSize) {
    fail(
      'SIZE_UNDER_MINIMUM',
      `${plan.size} shares is under this market's minimum order of ${market.minimumOrderSize} shares: order at least ${market.minimumOrderSize}.`,
    );
  }

  const needs = orderNeeds(plan);
  if (needs.collateral > 0n) {
    // A buying taker pays the exchange's fee on top of the price, from the same balance (docs/protocol.md#fees).
    const fee = ctx.takerFee ?? 0n;
    const need = needs.collateral + fee;
    const have = await chainBalance(provider, profile, address);
    if (have < need) {
      fail(
        'NOT_ENOUGH_COLLATERAL',
        fee > 0n
          ? `This buy needs ${exactUsdc(need)} (${exactUsdc(needs.collateral)} at the price and a ${exactUsdc(fee)} taker fee) but the wallet holds ${exactUsdc(have)}: deposit more or buy less.`
          : `This buy needs ${usdc(needs.collateral)} but the wallet holds ${usdc(have)}: deposit more or buy less.`,
      );
    } else if (ctx.shrunkFrom !== undefined && plan.kind === 'market') {
      fail(
        'AMOUNT_SHRUNK_FOR_FEES',
        `${formatDollars(units(ctx.shrunkFrom))} and its taker fee would be more than the wallet's ${exactUsdc(have)}: the buy is shrunk to ${formatDollars(units(plan.amount))} so that it and its ${exactUsdc(fee)} fee fit, as Polymarket's own client does.`,
        false,
      );
    }
  }
  if (needs.tokens > 0n) {
    const have = await chainBalance(provider, profile, address, token.token_id);
    if (have < needs.tokens) {
      fail(
        'NOT_ENOUGH_OUTCOME_TOKENS',
        `This sell needs ${shares(needs.tokens)} "${token.name}" shares but the wallet holds ${shares(have)}: sell at most ${shares(have)}.`,
      );
    }
  }

  const missing = await ctx.missingApprovals;
  if (missing.length > 0) {
    const cost = approvalGasCost(profile, missing.length);
    const what = missing
      .map((m) => `${m.kind === 'collateral' ? 'collateral' : 'outcome tokens'} for ${m.spenderName} (${m.spender})`)
      .join(', ');
    fail(
      'ALLOWANCE_MISSING',
      `${missing.length} allowance${missing.length === 1 ? ' is' : 's are'} missing (${what}): ${missing.length === 1 ? 'it' : 'they'} will be set before the order, costing at most ${formatGas(profile, cost)} in gas.`,
      false,
    );
    const gas = await provider.getBalance(address);
    if (gas < cost)
      fail(
        'NOT_ENOUGH_GAS',
        `Setting the allowances needs up to ${formatGas(profile, cost)} for gas but the wallet holds ${formatGas(profile, gas)}: send it some first.`,
      );
  }
  return problems;
}
