// `pmdesk split|merge|redeem` and `pmdesk pusd wrap|unwrap`: on-chain actions on a trader's positions and
// collateral, run AS the account (the key itself; its proxy wallet, Safe or deposit wallet). A proxy wallet, Safe
// or deposit wallet goes through Polymarket's relayer when relayer credentials exist (relayer-send.ts: the relayer
// pays the gas), else — or with --via key — the key (PMDESK_PRIVATE_KEY) sends and pays the gas: a proxy wallet
// through the factory's batch call, a Safe through an owner-signed execTransaction (a deposit wallet has no such
// path). The account is the one `pmdesk account show` names for the key unless --account/--signature-type says
// otherwise, said on stderr (and in --json's `account`). Nothing is sent without --yes: without it the command
// prints the exact amounts and transactions it would send, so a script or a trader sees them first.
import type { Command } from 'commander';
import { JsonRpcProvider, Network, Wallet } from 'ethers';
import { ErrorCode, PmDeskError, invalidParameter } from '@pmdesk/toolkit/model';
import type { Market } from '@pmdesk/toolkit/model';
import { accountTransactions, type AccountActionPlan, type ChainCall } from '@pmdesk/toolkit';
import { AccountKind } from '@pmdesk/toolkit';
import { providerGasReader, quoteGas, formatPol } from '@pmdesk/toolkit';
import { readSafeNonce } from '@pmdesk/toolkit';
import { actionContractsFor, requireContract, type ActionContracts } from '@pmdesk/toolkit';
import { networkFor, walletConfigFor, type NetworkProfile } from '@pmdesk/toolkit';
import { collateralBaseUnits } from '@pmdesk/toolkit';
import { mergeableAmount } from '@pmdesk/toolkit';
import { moneyActionCalls, sharesText, type MoneyMarket } from '@pmdesk/toolkit';
import { positionBalances, formatUsd } from '@pmdesk/toolkit';
import type { CliContext } from './aggregator-commands';
import { fields, table } from './output';
import { networkProfile, resolveChainId } from './network';
import { actingAccount, sayAccount, type ActingAccount } from './trading-account';
import { DEFAULT_RELAYER_WAIT_SECONDS, chooseVia, sendThroughRelayer, viaFlag } from './relayer-send';

type Action = (ctx: CliContext, ...args: never[]) => Promise<void>;
type Run = (action: Action) => (...args: unknown[]) => Promise<void>;

export interface ActionFlags {
  account?: string;
  signatureType?: string;
  rpcUrl?: string;
  yes?: boolean;
  via?: string;
  wait?: string;
}

const KIND_NAME: Readonly<Record<string, string>> = {
  eoa: 'the key itself',
  proxy: 'proxy wallet',
  safe: 'Safe',
  'deposit-wallet': 'deposit wallet',
};

/** Everything an on-chain action needs: the network, a node, the key, the account acting and the contracts. */
export interface OnChain {
  network: NetworkProfile;
  provider: JsonRpcProvider;
  key: Wallet;
  account: ActingAccount;
  contracts: ActionContracts;
}

/** The flags every on-chain money command takes (convert-commands.ts too). */
export function withActionFlags(command: Command): Command {
  return command
    .option(
      '--account <address>',
      'act as this account of the key (itself, its proxy wallet, Safe or deposit wallet); default: the one `pmdesk account show` names',
    )
    .option(
      '--signature-type <n>',
      'the account kind: 0 the key, 1 proxy wallet, 2 Safe, 3 deposit wallet (relayer only); default: as `pmdesk account show`',
    )
    .option(
      '--via <path>',
      "relayer (Polymarket's relayer pays the gas) or key (the key pays gas in POL); default: relayer when the account is a wallet and relayer credentials exist, else key",
    )
    .option(
      '--wait <seconds>',
      `how long to follow a relayed transaction before saying how to look again (default ${DEFAULT_RELAYER_WAIT_SECONDS})`,
    )
    .option(
      '--rpc-url <url>',
      "the chain's JSON-RPC node (env PMDESK_RPC_URL; default: the --network profile's, else the chain's public one)",
    )
    .option('--yes', 'send; without it the command only shows what it would send');
}

export function registerPositionCommands(program: Command, run: Run): void {
  const withFlags = withActionFlags;

  withFlags(
    program
      .command('split <market> <amount>')
      .description('turn $amount of collateral into amount of each outcome of a market (id or slug)'),
  ).action(
    run(async (ctx: CliContext, market: string, amount: string, opts: ActionFlags) => {
      const chain = await onChain(ctx, program, opts);
      try {
        const m = moneyMarketOf(await findMarket(ctx, market));
        const units = collateralBaseUnits(dollars(amount), 'split');
        const { calls } = await moneyActionCalls(chain.provider, chain.contracts, chain.account.address, {
          action: 'split',
          amount: units.toString(),
          market: m,
        });
        await execute(ctx, chain, calls, opts, [
          ['action', 'split'],
          ['market', m.conditionId],
          ['amount', `${formatUsd(units)} → ${sharesText(units)} of each outcome`],
        ]);
      } finally {
        chain.provider.destroy();
      }
    }),
  );

  withFlags(
    program
      .command('merge <market> <amount>')
      .description("turn amount of each outcome back into $amount of collateral ('max': every full set held)"),
  ).action(
    run(async (ctx: CliContext, market: string, amount: string, opts: ActionFlags) => {
      const chain = await onChain(ctx, program, opts);
      try {
        const m = moneyMarketOf(await findMarket(ctx, market));
        const full = mergeableAmount(
          await positionBalances(
            chain.provider,
            requireContract(chain.contracts, 'conditionalTokens', 'a merge'),
            chain.account.address,
            m.tokenIds,
          ),
        );
        const units = amount === 'max' ? full : collateralBaseUnits(dollars(amount), 'merge');
        if (units <= 0n)
          throw invalidParameter(
            `Nothing to merge: ${chain.account.address} holds no full set of this market's outcomes.`,
          );
        const { calls } = await moneyActionCalls(chain.provider, chain.contracts, chain.account.address, {
          action: 'merge',
          amount: units.toString(),
          market: m,
        });
        await execute(ctx, chain, calls, opts, [
          ['action', 'merge'],
          ['market', m.conditionId],
          ['amount', `${sharesText(units)} of each outcome → ${formatUsd(units)}`],
        ]);
      } finally {
        chain.provider.destroy();
      }
    }),
  );

  withFlags(
    program
      .command('redeem <market>')
      .description("collect a resolved market's winnings: every outcome held is paid at its final price"),
  ).action(
    run(async (ctx: CliContext, market: string, opts: ActionFlags) => {
      const chain = await onChain(ctx, program, opts);
      try {
        const found = await findMarket(ctx, market);
        const m = moneyMarketOf(found);
        const { calls, redeem } = await moneyActionCalls(chain.provider, chain.contracts, chain.account.address, {
          action: 'redeem',
          market: m,
        });
        const outcomes = found.position_tokens
          .map((t, i) => `${t.name} ${sharesText(redeem!.held[i] ?? 0n)}`)
          .join(', ');
        await execute(ctx, chain, calls, opts, [
          ['action', 'redeem'],
          ['market', m.conditionId],
          ['held', outcomes],
          ['payout', `${formatUsd(redeem!.payout)} (${redeem!.label})`],
        ]);
      } finally {
        chain.provider.destroy();
      }
    }),
  );

  const pusd = program
    .command('pusd')
    .description('pUSD, the exchange collateral: wrap USDC.e into it, unwrap it back');
  for (const [verb, description] of [
    ['wrap', 'turn $amount of USDC.e into pUSD through the collateral onramp'],
    ['unwrap', 'turn $amount of pUSD back into USDC.e through the collateral offramp'],
  ] as const) {
    withFlags(pusd.command(`${verb} <amount>`).description(description)).action(
      run(async (ctx: CliContext, amount: string, opts: ActionFlags) => {
        const chain = await onChain(ctx, program, opts);
        try {
          const units = collateralBaseUnits(dollars(amount), verb);
          const { calls } = await moneyActionCalls(chain.provider, chain.contracts, chain.account.address, {
            action: verb,
            amount: units.toString(),
          });
          await execute(ctx, chain, calls, opts, [
            ['action', `pusd ${verb}`],
            ['amount', formatUsd(units)],
          ]);
        } finally {
          chain.provider.destroy();
        }
      }),
    );
  }
}

/** The network (profile or built-in), a node, the key and the account it acts as (said on stderr) — refused before anything is sent. */
export async function onChain(ctx: CliContext, program: Command, opts: ActionFlags): Promise<OnChain> {
  const globals = program.opts<{ chain?: string; network?: string }>();
  const custom = networkProfile(globals.network);
  const chainId = resolveChainId(undefined, globals.chain, process.env, custom);
  const network = networkFor(chainId, custom ? [custom] : undefined);
  const rpcUrl = opts.rpcUrl || process.env.PMDESK_RPC_URL || network.rpcUrl;
  if (!rpcUrl) throw invalidParameter(`No chain node for chain ${chainId}: pass --rpc-url or set PMDESK_RPC_URL.`);
  const privateKey = process.env.PMDESK_PRIVATE_KEY;
  if (!privateKey) throw invalidParameter('Set PMDESK_PRIVATE_KEY (hex): the key signs and pays the gas.');
  let key: Wallet;
  try {
    key = new Wallet(privateKey);
  } catch {
    throw invalidParameter('PMDESK_PRIVATE_KEY is not a private key (0x and 64 hex digits).');
  }
  if (opts.signatureType !== undefined) signatureTypeOf(opts.signatureType);
  // The one account rule: the account `account show` names for the key, unless the flags name another of its own.
  const account = await actingAccount(
    key.address,
    opts,
    network,
    rpcUrl,
    (owner) => ctx.markets().getProfileWallet?.(owner) ?? Promise.resolve(undefined),
    ctx.timeoutMs(),
  );
  sayAccount(ctx, account);
  const provider = new JsonRpcProvider(rpcUrl, Network.from(chainId), { staticNetwork: true, batchMaxCount: 1 });
  return { network, provider, key: key.connect(provider), account, contracts: actionContractsFor(network) };
}

function signatureTypeOf(text: string): 0 | 1 | 2 | 3 {
  if (!/^[0-3]$/.test(text)) throw invalidParameter(`--signature-type must be 0, 1, 2 or 3, got ${text}`);
  return Number(text) as 0 | 1 | 2 | 3;
}

function dollars(text: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n <= 0)
    throw invalidParameter(`The amount must be a positive number of dollars, got ${text}.`);
  return n;
}

/** A market by id, or by slug (anything with a hyphen), from the market source. */
async function findMarket(ctx: CliContext, idOrSlug: string): Promise<Market> {
  const source = ctx.markets();
  const market = idOrSlug.includes('-')
    ? (await source.getMarketsBySlug(idOrSlug))[0]
    : await source.getMarket('polymarket', idOrSlug);
  if (!market) throw new PmDeskError(ErrorCode.NOT_FOUND, `No market ${idOrSlug}.`);
  return market;
}

function moneyMarketOf(market: Market): MoneyMarket {
  if (!market.conditionId)
    throw new PmDeskError(
      ErrorCode.VALIDATION_ERROR,
      `The market ${market.id} states no condition id: it cannot be split, merged or redeemed here.`,
    );
  if (market.position_tokens.length !== 2)
    throw invalidParameter(
      `The market ${market.id} has ${market.position_tokens.length} outcomes; only binary markets are supported.`,
    );
  const [first, second] = market.position_tokens;
  return {
    conditionId: market.conditionId,
    negRisk: market.neg_risk === true,
    version: market.version,
    tokenIds: [first!.token_id, second!.token_id],
  };
}

/** Builds the account's transactions, checks the gas, shows them, and sends them only with --yes. */
export async function execute(
  ctx: CliContext,
  chain: OnChain,
  calls: ChainCall[],
  opts: ActionFlags,
  summary: [string, string][],
): Promise<void> {
  const via = await chooseVia(chain.key.address, chain.account, chain.network, viaFlag(opts.via));
  if (via.via === 'relayer') {
    const waitSeconds = opts.wait === undefined ? DEFAULT_RELAYER_WAIT_SECONDS : Number(opts.wait);
    if (!Number.isFinite(waitSeconds) || waitSeconds < 0 || waitSeconds > 2000)
      throw invalidParameter(`--wait must be a number of seconds from 0 to 2000, got ${opts.wait}.`);
    await sendThroughRelayer({
      ctx,
      network: chain.network,
      multiSend: chain.contracts.multiSend,
      key: chain.key,
      account: chain.account,
      calls,
      via,
      send: opts.yes === true,
      waitSeconds,
      summary,
    });
    return;
  }
  const plan: AccountActionPlan = await accountTransactions(
    { kind: chain.account.kind, address: chain.account.address, owner: chain.key.address },
    calls,
    {
      chainId: chain.network.chainId,
      wallets: walletConfigFor(chain.network),
      multiSend: chain.contracts.multiSend,
      signer: { signTypedData: (domain, types, value) => chain.key.signTypedData(domain, types, value) },
      safeNonce: (safe) => readSafeNonce(chain.provider, safe),
    },
  );
  const reader = providerGasReader(chain.provider);
  // Each transaction is quoted before the first is sent: a key that cannot pay for all of them sends none.
  const quotes: Awaited<ReturnType<typeof quoteGas>>[] = [];
  for (const tx of plan.transactions) quotes.push(await quoteGas(tx, reader));
  const accountLine =
    chain.account.kind === AccountKind.EOA
      ? `${chain.account.address} (the key itself)`
      : `${chain.account.address} (${KIND_NAME[chain.account.kind]}, owned by key ${chain.key.address})`;
  const rows = plan.transactions.map((tx, i) => ({ to: tx.to, gas: `${formatPol(quotes[i]!.cost)} POL` }));
  const sent: string[] = [];
  if (opts.yes) {
    for (const [i, tx] of plan.transactions.entries()) {
      const response = await chain.key.sendTransaction({
        to: tx.to,
        data: tx.data,
        value: tx.value,
        gasLimit: quotes[i]!.gasLimit,
        gasPrice: quotes[i]!.gasPrice,
        type: 0,
      });
      const receipt = await response.wait();
      if (receipt?.status !== 1) {
        throw new PmDeskError(
          ErrorCode.API_REQUEST_FAILED,
          `The transaction ${response.hash} failed on chain${sent.length ? ` after ${sent.join(', ')} went through` : ''}.`,
        );
      }
      sent.push(response.hash);
    }
  }
  if (ctx.out.json) {
    ctx.out.stdout(
      `${JSON.stringify({ ...Object.fromEntries(summary), account: chain.account, key: chain.key.address, via: 'key', transactions: plan.transactions.map((tx, i) => ({ ...tx, value: tx.value.toString(), gasLimit: quotes[i]!.gasLimit.toString() })), atomic: plan.atomic, sent: opts.yes === true, hashes: sent })}\n`,
    );
    return;
  }
  const text =
    fields([
      ...summary,
      ['account', accountLine],
      ['gas paid by', `${chain.key.address} (${formatPol(quotes[0]!.balance)} POL): ${via.why}`],
    ]) +
    '\n' +
    table(rows, [
      { header: 'TRANSACTION TO', value: (r) => r.to },
      { header: 'GAS (ABOUT)', value: (r) => r.gas, right: true },
    ]) +
    (plan.note ? `\n${plan.note}\n` : '') +
    (opts.yes ? `\nSent: ${sent.join(', ')}\n` : '\nNothing sent: add --yes to send.\n');
  ctx.out.stdout(text);
}
