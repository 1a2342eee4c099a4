// `pmdesk trade buy|sell`: the whole order flow from a terminal against a network profile (the local sandbox's by
// default): the wallet is unlocked in the signer worker, pre-trade checks speak first, allowances are set and
// reported with their transactions, and one order is placed. The password comes from a prompt or PMDESK_PASSWORD.
// The order trades from the account `pmdesk account show` names for the key (its Safe, proxy or deposit wallet when
// that is where its collateral is), unless --account/--signature-type says otherwise; stderr (or --json) says which.
import type { Command } from 'commander';
import { isAddress } from 'ethers';
import { invalidParameter } from '@pmdesk/toolkit/model';
import { CredentialVault } from '../main/credentials/api-credentials';
import { ORDER_TYPES, type OrderType } from '@pmdesk/toolkit';
import { resolveDataDir } from '../main/wallets/data-dir';
import type { SignerClient } from '../main/wallets/signer-client';
import { startSignerThread } from '../main/wallets/signer-thread';
import { Wallets } from '../main/wallets/wallets';
import { readTradingProfile } from '../main/trading/profile';
import { createMarketSource, silentLogger } from '@pmdesk/toolkit';
import { TradingService, type PlacedOrder } from '../main/trading/service';
import type { OrderIntent } from '../main/trading/order-input';
import { numberFlag, type CliContext } from './aggregator-commands';
import { fields } from './output';
import { cliPasswordThrottle, existingPassword } from './wallet-commands';
import { accountJson, actingAccount, sayAccount, type ActingAccount } from './trading-account';

type Action = (ctx: CliContext, ...args: never[]) => Promise<void>;
type Run = (action: Action) => (...args: unknown[]) => Promise<void>;

interface TradeFlags {
  market: string;
  outcome: string;
  usdc?: number;
  size?: number;
  price?: number;
  orderType?: string;
  expiration?: number;
  postOnly?: boolean;
  wallet?: string;
  account?: string;
  signatureType?: string;
  profile?: string;
  dataDir?: string;
}

export function registerTradeCommands(program: Command, run: Run): void {
  const trade = program
    .command('trade')
    .description('place an order: checks, API credentials, allowances, then one signed order');
  for (const side of ['buy', 'sell'] as const) {
    trade
      .command(side)
      .description(side === 'buy' ? 'buy an outcome' : 'sell an outcome')
      .requiredOption('--market <id-or-slug>', 'the market: its id, or its slug (anything with a hyphen)')
      .requiredOption('--outcome <name>', 'the outcome: its name in any case (Yes, no) or its token id')
      .option('--usdc <dollars>', 'dollars to spend (buy) or raise (sell); the size is dollars / price', numberFlag)
      .option('--size <shares>', 'shares', numberFlag)
      .option(
        '--price <p>',
        "limit price (a market order's worst price); default: the outcome's current price",
        numberFlag,
      )
      .option('--order-type <type>', 'GTC (default), GTD (with --expiration), FOK or FAK (market orders)')
      .option('--expiration <unix-seconds>', 'when a GTD order expires', numberFlag)
      .option('--post-only', 'rest on the book only: refused if it would match at once (GTC, GTD)')
      .option('--wallet <label>', 'the wallet (default: the only one in the data folder)')
      .option(
        '--account <address>',
        "the account to trade from: the wallet's key itself or one of its proxy, Safe or deposit wallets (default: the one `pmdesk account show` names); any other address is refused before signing",
      )
      .option(
        '--signature-type <n>',
        "0 the key, 1 proxy, 2 Safe, 3 deposit wallet; alone, the key's own wallet of that kind (default: as `pmdesk account show`)",
      )
      .option('--profile <file>', "the network profile (default: the local sandbox's, as npm run sandbox writes it)")
      .option('--data-dir <dir>', 'the data folder (env PMDESK_DATA_DIR; default: the per-OS user data folder)')
      .action(run(async (ctx: CliContext, opts: TradeFlags) => placeOrder(ctx, side === 'buy' ? 'BUY' : 'SELL', opts)));
  }
}

/** Everything the flags can get wrong, said before any file is read or request is sent (exit 2). */
function parseFlags(side: 'BUY' | 'SELL', opts: TradeFlags): { input: OrderIntent } {
  if ((opts.usdc === undefined) === (opts.size === undefined))
    throw invalidParameter('Say how much, once: --usdc DOLLARS or --size SHARES.');
  for (const [flag, value] of [
    ['--usdc', opts.usdc],
    ['--size', opts.size],
    ['--price', opts.price],
  ] as const) {
    if (value !== undefined && !(Number.isFinite(value) && value > 0))
      throw invalidParameter(`${flag} must be a positive number.`);
  }
  if (opts.price !== undefined && opts.price >= 1) throw invalidParameter('--price is a probability: below 1.');
  const orderType = (opts.orderType ?? 'GTC').toUpperCase();
  if (!ORDER_TYPES.includes(orderType as OrderType))
    throw invalidParameter(`--order-type must be one of ${ORDER_TYPES.join(', ')}.`);
  if (orderType === 'GTD' && opts.expiration === undefined)
    throw invalidParameter('A GTD order needs --expiration UNIX-SECONDS.');
  if (opts.expiration !== undefined) {
    if (orderType !== 'GTD') throw invalidParameter('--expiration applies to GTD orders only (--order-type GTD).');
    if (!Number.isSafeInteger(opts.expiration) || opts.expiration <= Math.floor(Date.now() / 1000))
      throw invalidParameter('--expiration must be a future time in unix seconds.');
  }
  if (opts.postOnly && orderType !== 'GTC' && orderType !== 'GTD')
    throw invalidParameter('--post-only applies to GTC and GTD orders only.');
  if (opts.signatureType !== undefined && !/^[0-3]$/.test(opts.signatureType))
    throw invalidParameter(`--signature-type must be 0, 1, 2 or 3, got ${opts.signatureType}`);
  if (opts.account !== undefined && !isAddress(opts.account))
    throw invalidParameter(`--account is not an address: ${opts.account}`);
  return {
    input: {
      provider: 'polymarket',
      marketId: opts.market,
      tokenId: opts.outcome,
      side,
      price: opts.price,
      size: opts.size,
      amountUsd: opts.usdc,
      orderType: orderType as OrderType,
      expiration: opts.expiration,
      postOnly: Boolean(opts.postOnly),
    },
  };
}

async function placeOrder(ctx: CliContext, side: 'BUY' | 'SELL', opts: TradeFlags): Promise<void> {
  const { input } = parseFlags(side, opts);
  const profile = await readTradingProfile(opts.profile);
  const dataDir = resolveDataDir({ flag: opts.dataDir });
  let signer: SignerClient | undefined;
  const wallets = new Wallets({
    dataDir,
    signer: () => (signer = startSignerThread()),
    throttle: cliPasswordThrottle(ctx, dataDir),
  });
  const say = (line: string) => {
    if (!ctx.out.json) ctx.out.stderr(`pmdesk: ${line}\n`);
  };
  let service: TradingService | undefined;
  try {
    const label = await chooseWallet(wallets, opts.wallet);
    // Which account trades is settled from the keystore's address, before the wallet is unlocked or anything signed:
    // the one `account show` names, unless the flags name another of the key's own.
    const markets = createMarketSource(profile.endpoints, { logger: silentLogger, timeoutMs: ctx.timeoutMs() });
    const account = await actingAccount(
      (await wallets.store.find(label)).address,
      opts,
      profile.network,
      profile.rpcUrl,
      (owner) => markets.getProfileWallet?.(owner) ?? Promise.resolve(undefined),
      ctx.timeoutMs(),
    );
    sayAccount(ctx, account);
    const unlocked = await wallets.unlock(label, await existingPassword(`Password of "${label}": `));
    const vault = await CredentialVault.open({ onWarning: (warning) => say(warning.detail) });
    service = new TradingService({ profile, vault, onNotice: say, markets, timeoutMs: ctx.timeoutMs() });
    const trading =
      account.signatureType === 0
        ? {}
        : { account: { address: account.address, kind: account.kind, signatureType: account.signatureType } };
    const placed = await service.executeOrder(input, {
      kind: 'worker',
      address: unlocked.address,
      signer: signer!,
      ...trading,
    });
    ctx.out.stdout(ctx.out.json ? `${JSON.stringify(tradeJson(placed, account))}\n` : tradeText(placed));
  } finally {
    service?.close();
    await signer?.close();
  }
}

/** The named wallet, or the only one there is. */
async function chooseWallet(wallets: Wallets, label: string | undefined): Promise<string> {
  if (label !== undefined) return (await wallets.store.find(label)).label;
  const all = await wallets.list();
  if (all.length === 1) return all[0]!.label;
  if (all.length === 0)
    throw invalidParameter(
      'There is no wallet in the data folder: pmdesk wallet create or pmdesk wallet import first.',
    );
  throw invalidParameter(`Say which wallet trades: --wallet LABEL (one of ${all.map((w) => w.label).join(', ')}).`);
}

/** `--json`: the issue's shape, and the account the order traded from. */
function tradeJson(placed: PlacedOrder, account: ActingAccount) {
  return {
    orderID: placed.orderID ?? null,
    status: placed.status,
    pending: placed.pending,
    approvals: placed.approvals.map(({ spender, txHash }) => ({ spender, txHash })),
    account: accountJson(account),
  };
}

function tradeText(placed: PlacedOrder): string {
  const what =
    placed.plan.kind === 'limit'
      ? `${placed.plan.side} ${placed.plan.size} at ${placed.plan.price} (${placed.plan.orderType}${placed.plan.postOnly ? ', post-only' : ''})`
      : `${placed.plan.side} ${placed.plan.side === 'BUY' ? `$${placed.plan.amount}` : `${placed.plan.amount} shares`} at market (${placed.plan.orderType})`;
  return (
    fields([
      ['market', placed.market.question],
      ['order', what],
      ['order id', placed.orderID ?? '(none: nothing was placed)'],
      ['status', placed.status],
      ['pending', placed.pending ? 'yes' : 'no'],
      ...placed.approvals.map((a, i): [string, string] => [
        `approval ${i + 1}`,
        `${a.kind} for ${a.spenderName} ${a.spender}: ${a.txHash}`,
      ]),
    ]) +
    (placed.reconciled
      ? 'The exchange did not answer the post; the order was found by its hash and placed once.\n'
      : '')
  );
}
