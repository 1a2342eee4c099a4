// Converting No shares of a negative-risk event from the app: the event's outcomes by question index with what the
// wallet's account holds, and the conversion quoted (send false) or sent as the account — through Polymarket's
// relayer where the money actions go that way, else from the key through the signer worker, which builds the
// calls itself from the chain (toolkit convert-calls.ts). Exact base units throughout; the lines say it in words.
import { ErrorCode, PmDeskError, invalidParameter } from '@pmdesk/toolkit/model';
import type { PredictionEvent } from '@pmdesk/toolkit/model';
import {
  DEPOSIT_WALLET_RELAYER_ONLY,
  NEG_RISK_CONVERT_ABI,
  actionContractsFor,
  convertEventOf,
  convertPlan,
  formatPol,
  formatUsd,
  positionBalances,
  requireContract,
  sharesText,
  type ConvertEvent,
  type ConvertPlan,
  type RelayStep,
} from '@pmdesk/toolkit';
import type { ConversionChoices, ConversionDone, ConversionPreview, MoneyAmount } from '../../shared/contract';
import type { AccountActionRequest } from '../wallets/signer-protocol';
import type { TradingService, TradingWallet } from './service';
import { actingAccount, chainRead, dollarUnits, refreshExchange } from './money';
import { moneyPathFor, relayedMoneyAction } from './relayer-actions';

export interface ConversionInput {
  eventId: string;
  fromNo: number[];
  size: string;
  via?: 'relayer' | 'key';
}

const usd = (units: bigint): MoneyAmount => ({ units: units.toString(), text: formatUsd(units) });
const pol = (wei: bigint): MoneyAmount => ({ units: wei.toString(), text: `${formatPol(wei)} POL` });
const shares = (units: bigint): MoneyAmount => ({ units: units.toString(), text: sharesText(units) });

async function eventOf(flow: TradingService, eventId: string): Promise<ConvertEvent> {
  let event: PredictionEvent | undefined;
  try {
    event = eventId.includes('-')
      ? (await flow.markets.getEventsBySlug(eventId))[0]
      : await flow.markets.getEvent('polymarket', eventId);
  } catch (error) {
    if (error instanceof PmDeskError) throw error;
    throw new PmDeskError(ErrorCode.NETWORK_ERROR, `The event ${eventId.slice(0, 80)} could not be read.`, {
      cause: error,
    });
  }
  if (!event) throw new PmDeskError(ErrorCode.NOT_FOUND, `There is no event ${eventId.slice(0, 80)}.`);
  return convertEventOf(event);
}

/** The event's outcomes by question index, with the Yes and No shares the account holds of each. */
export async function conversionChoices(
  flow: TradingService,
  wallet: TradingWallet,
  eventId: string,
): Promise<Omit<ConversionChoices, 'wallet'>> {
  const { account } = actingAccount(flow, wallet);
  const event = await eventOf(flow, eventId);
  const contracts = actionContractsFor(flow.profile.network);
  const ctf = requireContract(contracts, 'conditionalTokens', 'a conversion');
  const held = await chainRead(flow, () =>
    positionBalances(
      flow.provider,
      ctf,
      account.address,
      event.outcomes.flatMap((o) => [o.yesTokenId, o.noTokenId]),
    ),
  );
  const adapter = requireContract(contracts, 'negRiskAdapter', 'a conversion');
  const feeWord = await chainRead(flow, () =>
    flow.provider.call({ to: adapter, data: NEG_RISK_CONVERT_ABI.encodeFunctionData('getFeeBips', [event.marketId]) }),
  );
  return {
    account: account.address,
    eventId,
    title: event.title,
    negRiskMarketId: event.marketId,
    feeBips: /^0x[0-9a-fA-F]{64}$/.test(feeWord) ? Number(BigInt(feeWord)) : 0,
    outcomes: event.outcomes.map((o, i) => ({
      index: o.index,
      name: o.name,
      marketId: o.market.id,
      yesTokenId: o.yesTokenId,
      noTokenId: o.noTokenId,
      yesHeld: shares(held[2 * i]!),
      noHeld: shares(held[2 * i + 1]!),
    })),
  };
}

/** What the conversion gives and receives, line by line, with the outcomes' names. */
function linesOf(plan: ConvertPlan, name: (index: number) => string): string[] {
  return [
    ...plan.given.map((g) => `Give ${sharesText(plan.amount)} No of ${name(g.index)}`),
    ...plan.received.map((r) => `Receive ${sharesText(plan.yesEach)} Yes of ${name(r.index)}`),
    ...(plan.collateral > 0n ? [`Receive ${formatUsd(plan.collateral)} pUSD`] : []),
    ...(plan.feePerShare > 0n
      ? [
          `Fee (${plan.feeBips} bps): ${sharesText(plan.feeShares)} Yes shares and ${formatUsd(plan.feeCollateral)} pUSD`,
        ]
      : []),
  ];
}

/** Quotes (send false) or sends the conversion as the wallet's account; after a send the exchange re-reads it. */
export async function conversion(
  flow: TradingService,
  wallet: TradingWallet,
  input: ConversionInput,
  send: boolean,
  onStep?: (step: RelayStep) => void,
): Promise<Omit<ConversionDone, 'wallet'>> {
  const { key, account } = actingAccount(flow, wallet);
  const path = await moneyPathFor(flow, key, account, input.via);
  if (account.kind === 'deposit-wallet' && path.via !== 'relayer')
    throw new PmDeskError(ErrorCode.NOT_AVAILABLE, DEPOSIT_WALLET_RELAYER_ONLY);
  const event = await eventOf(flow, input.eventId);
  const units = dollarUnits(input.size, 'conversion');
  if (input.fromNo.length === 0) throw invalidParameter('Choose at least one outcome whose No shares you give.');
  const action = {
    action: 'convert' as const,
    amount: units.toString(),
    convert: { marketId: event.marketId, fromNo: input.fromNo },
  };
  const contracts = actionContractsFor(flow.profile.network);
  // The same reads and checks the signer worker makes: what the confirmation shows is what is built.
  const plan = await chainRead(flow, () =>
    convertPlan(flow.provider, contracts, account.address, action.convert, units),
  );
  const name = (index: number) => event.outcomes.find((o) => o.index === index)?.name ?? `outcome ${index}`;
  const tokenIds = [...plan.given, ...plan.received].map((leg) => leg.tokenId);
  const figures = {
    account: account.address,
    accountKind: account.kind,
    key,
    eventId: input.eventId,
    title: event.title,
    negRiskMarketId: event.marketId,
    size: shares(units),
    given: plan.given.map((g) => ({ index: g.index, outcome: name(g.index), shares: shares(plan.amount) })),
    received: plan.received.map((r) => ({ index: r.index, outcome: name(r.index), shares: shares(plan.yesEach) })),
    collateral: usd(plan.collateral),
    fee:
      plan.feePerShare > 0n
        ? { bips: Number(plan.feeBips), shares: shares(plan.feeShares), collateral: usd(plan.feeCollateral) }
        : null,
    lines: linesOf(plan, name),
    viaReason: path.reason,
  };
  if (path.via === 'relayer') {
    const signer = (wallet as TradingWallet & { kind: 'worker' }).signer;
    const relayed = await relayedMoneyAction(flow, signer, key, account, path, action, send, onStep);
    const exchangeRefreshed = send ? await refreshExchange(flow, wallet, 'convert', tokenIds) : false;
    return {
      ...figures,
      transactions: 1,
      atomic: true,
      note: null,
      gas: pol(0n),
      keyGas: pol(await chainRead(flow, () => flow.provider.getBalance(key))),
      via: 'relayer',
      txHashes: relayed.txHashes,
      exchangeRefreshed,
      relayer: relayed.relayer ?? null,
    };
  }
  const request: AccountActionRequest = {
    action,
    account,
    contracts,
    rpcUrl: flow.profile.rpcUrl,
    chainId: flow.profile.network.chainId,
    send,
  };
  const done = await (wallet as TradingWallet & { kind: 'worker' }).signer.sendAccountAction(key, request);
  const exchangeRefreshed = send ? await refreshExchange(flow, wallet, 'convert', tokenIds) : false;
  return {
    ...figures,
    transactions: done.transactions,
    atomic: done.atomic,
    note: done.note ?? null,
    gas: pol(BigInt(done.gasWei)),
    keyGas: pol(BigInt(done.keyBalanceWei)),
    via: 'key',
    txHashes: done.txHashes,
    exchangeRefreshed,
    relayer: null,
  };
}

export function previewOf({
  txHashes: _sent,
  exchangeRefreshed: _asked,
  relayer: _relayed,
  ...rest
}: Omit<ConversionDone, 'wallet'>): Omit<ConversionPreview, 'wallet'> {
  return rest;
}
