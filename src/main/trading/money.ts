// The trader's money on chain beside the order flow: the account's pUSD and USDC.e and the key's POL, and the
// money actions (wrap, unwrap, split, merge, redeem) quoted and sent through the wallet's signer as the account —
// the signer worker builds every call itself — through Polymarket's relayer when relayer credentials exist for a
// wallet account (relayer-actions.ts), else from the key; then the exchange told to read the account's balances again.

import { ErrorCode, PmDeskError, invalidParameter, isPmDeskError } from '@pmdesk/toolkit/model';
import type { Market } from '@pmdesk/toolkit/model';
import { DEPOSIT_WALLET_RELAYER_ONLY } from '@pmdesk/toolkit';
import { formatPol } from '@pmdesk/toolkit';
import { actionContractsFor } from '@pmdesk/toolkit';
import { walletConfigFor } from '@pmdesk/toolkit';
import { tokenBalance } from '@pmdesk/toolkit';
import { formatUsd } from '@pmdesk/toolkit';
import { sharesText, type MoneyActionKind, type MoneyMarket } from '@pmdesk/toolkit';
import type { AccountActionRequest, AccountActionResult } from '../wallets/signer-protocol';
import type { TradingService, TradingWallet } from './service';
import { moneyPathFor, relayedMoneyAction } from './relayer-actions';
import type { RelayStep } from '@pmdesk/toolkit';

/** The actions on one binary market or on the collateral; a conversion has its own flow (convert.ts). */
export type MoneyActionOnMarket = Exclude<MoneyActionKind, 'convert'>;

export interface Amount {
  units: string;
  text: string;
}

export interface FundsOnChain {
  account: string;
  accountKind: AccountActionRequest['account']['kind'];
  key: string;
  pusd: Amount;
  usdcE: Amount | null;
  keyGas: Amount;
  accountGas: Amount;
  actionsUnavailable: string | null;
  via: 'relayer' | 'key';
  viaReason: string;
}

/** One action as the trader asks for it: `amount` exact dollar text ("12.5"), `marketId` for split, merge, redeem. */
export interface MoneyActionInput {
  action: MoneyActionOnMarket;
  marketId?: string;
  amount?: string;
  via?: 'relayer' | 'key';
}

export interface MoneyActionOutcome {
  action: MoneyActionOnMarket;
  account: string;
  accountKind: FundsOnChain['accountKind'];
  key: string;
  marketId: string | null;
  question: string | null;
  amount: Amount;
  result: string | null;
  held: { outcome: string; shares: Amount }[];
  lines: string[];
  transactions: number;
  atomic: boolean;
  note: string | null;
  gas: Amount;
  keyGas: Amount;
  txHashes: string[];
  exchangeRefreshed: boolean;
  via: 'relayer' | 'key';
  viaReason: string;
  relayer: { transactionID: string; transactionHash: string; state: string; summary: string } | null;
}

const usd = (units: bigint): Amount => ({ units: units.toString(), text: formatUsd(units) });
const pol = (wei: bigint): Amount => ({ units: wei.toString(), text: `${formatPol(wei)} POL` });
const shares = (units: bigint): Amount => ({ units: units.toString(), text: sharesText(units) });

/** Exact dollar text ("12.5", "0.000001") as 6-decimal base units; never through a float. */
export function dollarUnits(text: string | undefined, what: string): bigint {
  const match = /^([0-9]{1,12})(?:\.([0-9]{1,6}))?$/.exec((text ?? '').trim());
  if (!match) throw invalidParameter(`The ${what} amount must be dollars with at most 6 decimals, like 12.5.`);
  const units = BigInt(match[1]!) * 1_000_000n + BigInt((match[2] ?? '').padEnd(6, '0'));
  if (units <= 0n) throw invalidParameter(`The ${what} amount must be more than zero.`);
  return units;
}

/** The account acting for a worker wallet: its Polymarket account, else the key itself. JSON-RPC wallets sign elsewhere. */
function actingAccount(
  flow: TradingService,
  wallet: TradingWallet,
): { key: string; account: AccountActionRequest['account'] } {
  if (wallet.kind !== 'worker')
    throw new PmDeskError(
      ErrorCode.NOT_AVAILABLE,
      'Wrap, unwrap, split, merge and redeem are sent from PM Desk’s own wallets only.',
    );
  const wallets = walletConfigFor(flow.profile.network);
  const chosen = wallet.account && wallet.account.signatureType !== 0 ? wallet.account : undefined;
  return {
    key: wallet.address,
    account: chosen
      ? { kind: chosen.kind, address: chosen.address, wallets }
      : { kind: 'eoa', address: wallet.address, wallets },
  };
}

/** The account's pUSD and USDC.e and the key's (and account's) POL, read from the chain. */
export async function fundsOnChain(flow: TradingService, wallet: TradingWallet): Promise<FundsOnChain> {
  const { key, account } = actingAccount(flow, wallet);
  const contracts = actionContractsFor(flow.profile.network);
  const read = async () =>
    Promise.all([
      tokenBalance(flow.provider, flow.profile.network.contracts.collateral!, account.address),
      contracts.usdcE ? tokenBalance(flow.provider, contracts.usdcE, account.address) : Promise.resolve(undefined),
      flow.provider.getBalance(key),
      flow.provider.getBalance(account.address),
    ]);
  const [pusd, usdcE, keyWei, accountWei] = await chainRead(flow, read);
  const path = await moneyPathFor(flow, key, account);
  return {
    account: account.address,
    accountKind: account.kind,
    key,
    pusd: usd(pusd),
    usdcE: usdcE === undefined ? null : usd(usdcE),
    keyGas: pol(keyWei),
    accountGas: pol(accountWei),
    actionsUnavailable:
      account.kind === 'deposit-wallet' && path.via !== 'relayer' ? DEPOSIT_WALLET_RELAYER_ONLY : null,
    via: path.via,
    viaReason: path.reason,
  };
}

/**
 * Quotes (send false) or sends the action as the wallet's account; after a send the exchange re-reads the account's
 * collateral (and the market's outcome tokens) so the next order sees the new balances.
 */
export async function moneyAction(
  flow: TradingService,
  wallet: TradingWallet,
  input: MoneyActionInput,
  send: boolean,
  onStep?: (step: RelayStep) => void,
): Promise<MoneyActionOutcome> {
  const { key, account } = actingAccount(flow, wallet);
  const path = await moneyPathFor(flow, key, account, input.via);
  if (account.kind === 'deposit-wallet' && path.via !== 'relayer')
    throw new PmDeskError(ErrorCode.NOT_AVAILABLE, DEPOSIT_WALLET_RELAYER_ONLY);
  const positional = input.action === 'split' || input.action === 'merge' || input.action === 'redeem';
  const market = positional ? await marketFor(flow, input.marketId) : undefined;
  const units = input.action === 'redeem' ? undefined : dollarUnits(input.amount, input.action);
  const action = {
    action: input.action,
    ...(units !== undefined ? { amount: units.toString() } : {}),
    ...(market ? { market: market.money } : {}),
  };
  const outcomes = market?.raw.position_tokens ?? [];
  if (path.via === 'relayer') {
    const signer = (wallet as TradingWallet & { kind: 'worker' }).signer;
    const relayed = await relayedMoneyAction(flow, signer, key, account, path, action, send, onStep);
    const moved = relayed.built.amount;
    const held = (relayed.built.redeem?.held ?? []).map((h, i) => ({
      outcome: outcomes[i]?.name ?? `Outcome ${i + 1}`,
      shares: shares(h),
    }));
    const label = relayed.built.redeem?.label;
    const exchangeRefreshed = send ? await refreshExchange(flow, wallet, input.action, market?.money.tokenIds) : false;
    return {
      action: input.action,
      account: account.address,
      accountKind: account.kind,
      key,
      marketId: market?.raw.id ?? null,
      question: market?.raw.question ?? null,
      amount: input.action === 'merge' ? shares(moved) : usd(moved),
      result: label ?? null,
      held,
      lines: effectLines(input.action, moved, held, label),
      transactions: 1,
      atomic: true,
      note: null,
      gas: pol(0n),
      keyGas: pol(await chainRead(flow, () => flow.provider.getBalance(key))),
      txHashes: relayed.txHashes,
      exchangeRefreshed,
      via: 'relayer',
      viaReason: path.reason,
      relayer: relayed.relayer ?? null,
    };
  }
  const request: AccountActionRequest = {
    action,
    account,
    contracts: actionContractsFor(flow.profile.network),
    rpcUrl: flow.profile.rpcUrl,
    chainId: flow.profile.network.chainId,
    send,
  };
  const done: AccountActionResult = await (wallet as TradingWallet & { kind: 'worker' }).signer.sendAccountAction(
    key,
    request,
  );
  const moved = BigInt(done.amount);
  const held = (done.held ?? []).map((h, i) => ({
    outcome: outcomes[i]?.name ?? `Outcome ${i + 1}`,
    shares: shares(BigInt(h)),
  }));
  let exchangeRefreshed = false;
  if (send) exchangeRefreshed = await refreshExchange(flow, wallet, input.action, market?.money.tokenIds);
  return {
    action: input.action,
    account: account.address,
    accountKind: account.kind,
    key,
    marketId: market?.raw.id ?? null,
    question: market?.raw.question ?? null,
    amount: input.action === 'merge' ? shares(moved) : usd(moved),
    result: done.label ?? null,
    held,
    lines: effectLines(input.action, moved, held, done.label),
    transactions: done.transactions,
    atomic: done.atomic,
    note: done.note ?? null,
    gas: pol(BigInt(done.gasWei)),
    keyGas: pol(BigInt(done.keyBalanceWei)),
    txHashes: done.txHashes,
    exchangeRefreshed,
    via: 'key',
    viaReason: path.reason,
    relayer: null,
  };
}

/** What the action does, in exact amounts. */
function effectLines(
  action: MoneyActionOnMarket,
  units: bigint,
  held: { outcome: string; shares: Amount }[],
  label: string | undefined,
): string[] {
  switch (action) {
    case 'wrap':
      return [`${formatUsd(units)} USDC.e → ${formatUsd(units)} pUSD`];
    case 'unwrap':
      return [`${formatUsd(units)} pUSD → ${formatUsd(units)} USDC.e`];
    case 'split':
      return [`${formatUsd(units)} pUSD → ${sharesText(units)} shares of each outcome`];
    case 'merge':
      return [`${sharesText(units)} shares of each outcome → ${formatUsd(units)} pUSD`];
    case 'redeem':
      return [
        ...held.filter((h) => h.shares.units !== '0').map((h) => `${h.shares.text} ${h.outcome} shares redeemed`),
        `${label ?? 'Payout'}: ${formatUsd(units)} pUSD`,
      ];
  }
}

async function marketFor(
  flow: TradingService,
  marketId: string | undefined,
): Promise<{ raw: Market; money: MoneyMarket }> {
  if (!marketId) throw invalidParameter('Split, merge and redeem name a market.');
  const raw = marketId.includes('-')
    ? (await flow.markets.getMarketsBySlug(marketId))[0]
    : await flow.markets.getMarket('polymarket', marketId);
  if (!raw) throw new PmDeskError(ErrorCode.NOT_FOUND, `There is no market ${marketId.slice(0, 80)}.`);
  if (!raw.conditionId)
    throw new PmDeskError(
      ErrorCode.VALIDATION_ERROR,
      `The market ${raw.id} states no condition id: it cannot be split, merged or redeemed here.`,
    );
  if (raw.position_tokens.length !== 2)
    throw invalidParameter(
      `The market ${raw.id} has ${raw.position_tokens.length} outcomes; only binary markets are supported.`,
    );
  const [first, second] = raw.position_tokens;
  return {
    raw,
    money: {
      conditionId: raw.conditionId,
      negRisk: raw.neg_risk === true,
      version: raw.version,
      tokenIds: [first!.token_id, second!.token_id],
    },
  };
}

/** GET /balance-allowance/update for the collateral (and the market's tokens): the exchange caches what it last read. */
async function refreshExchange(
  flow: TradingService,
  wallet: TradingWallet,
  action: MoneyActionKind,
  tokenIds: readonly string[] | undefined,
): Promise<boolean> {
  try {
    const client = await flow.exchangeClient(wallet);
    await client.updateBalanceAllowance({ asset_type: 'COLLATERAL' });
    if (action !== 'wrap' && action !== 'unwrap')
      for (const token_id of tokenIds ?? [])
        await client.updateBalanceAllowance({ asset_type: 'CONDITIONAL', token_id });
    return true;
  } catch {
    // The action is done on chain; the exchange re-reads on its own before long, and the trader is told it was not asked.
    return false;
  }
}

async function chainRead<T>(flow: TradingService, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isPmDeskError(error)) throw error;
    throw new PmDeskError(
      ErrorCode.NETWORK_ERROR,
      `The chain's node at ${flow.profile.rpcUrl} did not answer: check that the network (or the local sandbox) is running.`,
      { cause: error },
    );
  }
}
