// `pmdesk traders positions <address> [--closed]`, `pmdesk traders pnl <address>` and `pmdesk export activity`:
// a trader's book from their activity (the toolkit's portfolio module), realized PnL to the cent with each
// difference from Polymarket's own figures explained, and the accounting CSV written atomically.
import { existsSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { JsonRpcProvider, Network, Wallet } from 'ethers';
import { ErrorCode, PmDeskError, invalidParameter } from '@pmdesk/toolkit/model';
import {
  PNL_RANGES,
  accountingCsv,
  accountingRows,
  feeLookup,
  feesFromChain,
  ledgerEntries,
  PolymarketSource,
  loadPortfolio,
  networkFor,
  pnlSeries,
  readActivity,
  readMarketTags,
  readTheirFigures,
  type MarketSource,
  type NetworkProfile,
  type PnlRange,
  type Portfolio,
  type TheirFigures,
  type TraderActivity,
} from '@pmdesk/toolkit';
import type { CliContext } from './aggregator-commands';
import { fields, isoSeconds, table } from './output';
import { positionsTable } from './market-tables';
import { networkProfile, resolveChainId } from './network';
import { actingAccount, sayAccount } from './trading-account';
import { boundedRpcRequest } from '../main/trading/chain-rpc';

type Action = (ctx: CliContext, ...args: never[]) => Promise<void>;
type Run = (action: Action) => (...args: unknown[]) => Promise<void>;

const WALLET_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const RPC_HELP =
  "the chain's JSON-RPC node the trades' fees are read from (env PMDESK_RPC_URL; default: the --network profile's)";

export function registerLedgerCommands(program: Command, run: Run): void {
  const traders = program.commands.find((c) => c.name() === 'traders') ?? program.command('traders');
  traders
    .command('positions <address>')
    .description(
      "a trader's positions; with --closed, the closed ones with realized PnL and how each closed (Polymarket direct)",
    )
    .option(
      '--protocol <name>',
      'polymarket, limitless or truemarket on the aggregator; polymarket on Polymarket direct',
    )
    .option('--closed', 'closed positions, built from the activity: sold, redeemed, merged, converted or lost')
    .option('--rpc-url <url>', RPC_HELP)
    .action(
      run(async (ctx: CliContext, address: string, opts: { protocol?: string; closed?: boolean; rpcUrl?: string }) => {
        const source = ctx.markets();
        // Without --closed this is the source's own positions read, with the source's own checks.
        if (!opts.closed) {
          const protocol = (opts.protocol ?? (source.kind === 'polymarket' ? 'polymarket' : undefined)) as string;
          const rows = await source.getTraderPositions(protocol, address);
          ctx.out.stdout(ctx.out.json ? `${JSON.stringify(rows)}\n` : positionsTable(rows));
          return;
        }
        checkAddress(address, 'getTraderClosedPositions');
        const book = await portfolioOf(ctx, program, source, address, opts.rpcUrl);
        if (ctx.out.json) return ctx.out.stdout(`${toJson(book.closed)}\n`);
        ctx.out.stdout(closedTable(book));
      }),
    );

  traders
    .command('pnl <address>')
    .description("a trader's realized and unrealized PnL, fees and rewards, by market, over time (Polymarket direct)")
    .option('--since <date>', 'the PnL series from this date (YYYY-MM-DD or ISO time, UTC)')
    .option('--range <range>', `the series' span: ${PNL_RANGES.join(', ')} (default all)`, 'all')
    .option('--rpc-url <url>', RPC_HELP)
    .action(
      run(async (ctx: CliContext, address: string, opts: { since?: string; range: string; rpcUrl?: string }) => {
        checkAddress(address, 'getTraderPnl');
        if (!(PNL_RANGES as readonly string[]).includes(opts.range))
          throw invalidParameter(`--range must be one of ${PNL_RANGES.join(', ')}, got ${opts.range}.`);
        const since = opts.since === undefined ? undefined : dateSeconds(opts.since, '--since', false);
        const book = await portfolioOf(ctx, program, ctx.markets(), address, opts.rpcUrl);
        const prices = new Map(book.open.map((p) => [p.tokenId, p.currentPrice ?? 0]));
        const series = pnlSeries(book.entries, {
          range: opts.range as PnlRange,
          now: Math.floor(Date.now() / 1000),
          since,
          prices,
        });
        const { entries: _entries, ...rest } = book;
        if (ctx.out.json) return ctx.out.stdout(`${toJson({ ...rest, series })}\n`);
        ctx.out.stdout(pnlText(book, series));
      }),
    );

  const exporting =
    program.commands.find((c) => c.name() === 'export') ??
    program.command('export').description('accounting exports of an account’s activity');
  exporting
    .command('activity [address]')
    .description(
      'every trade, fee, split, merge, redemption, conversion and reward in a date range as a CSV a tax tool reads (address: default the account PMDESK_PRIVATE_KEY trades from)',
    )
    .requiredOption('--from <date>', 'first day (YYYY-MM-DD, UTC) or ISO time, inclusive')
    .requiredOption('--to <date>', 'last day (YYYY-MM-DD, UTC: the whole day) or ISO time, inclusive')
    .requiredOption('--csv <file>', 'where to write the CSV (written whole or not at all)')
    .option('--force', 'replace the file if it exists')
    .option('--rpc-url <url>', RPC_HELP)
    .action(
      run(
        async (
          ctx: CliContext,
          address: string | undefined,
          opts: { from: string; to: string; csv: string; force?: boolean; rpcUrl?: string },
        ) => {
          const from = dateSeconds(opts.from, '--from', false);
          const to = dateSeconds(opts.to, '--to', true);
          if (to < from) throw invalidParameter(`--to (${opts.to}) is before --from (${opts.from}).`);
          if (existsSync(opts.csv) && !opts.force)
            throw invalidParameter(`${opts.csv} exists: pass --force to replace it.`);
          const who = address ?? (await ownAccount(ctx, program, opts.rpcUrl));
          checkAddress(who, 'exportActivity');
          const source = ctx.markets();
          const { rows } = await readActivity(source, who);
          const fees = await chainFeeLookup(program, rows, who, opts.rpcUrl, ctx.timeoutMs());
          const { entries } = ledgerEntries(rows, fees);
          const lines = accountingRows(entries, { from, to });
          await writeAtomically(opts.csv, accountingCsv(lines));
          const summary = { address: who, file: opts.csv, rows: lines.length, from, to };
          ctx.out.stdout(
            ctx.out.json
              ? `${JSON.stringify(summary)}\n`
              : `Wrote ${lines.length} row(s) of ${who} from ${isoSeconds(from)} to ${isoSeconds(to)} to ${opts.csv}.\n`,
          );
        },
      ),
    );

  exporting
    .command('snapshot [address]')
    .description(
      "Polymarket's own accounting snapshot of an account (a ZIP of its positions and equity), as Polymarket serves it (Polymarket direct; address: default the account PMDESK_PRIVATE_KEY trades from)",
    )
    .requiredOption('--zip <file>', 'where to write the ZIP (written whole or not at all)')
    .option('--force', 'replace the file if it exists')
    .option('--rpc-url <url>', RPC_HELP)
    .action(
      run(
        async (
          ctx: CliContext,
          address: string | undefined,
          opts: { zip: string; force?: boolean; rpcUrl?: string },
        ) => {
          if (existsSync(opts.zip) && !opts.force)
            throw invalidParameter(`${opts.zip} exists: pass --force to replace it.`);
          const source = ctx.markets();
          if (!(source instanceof PolymarketSource))
            throw new PmDeskError(
              ErrorCode.NOT_AVAILABLE,
              "The accounting snapshot is Polymarket's Data API's: run with --source polymarket.",
              { methodName: 'downloadAccountingSnapshot' },
            );
          const who = address ?? (await ownAccount(ctx, program, opts.rpcUrl));
          checkAddress(who, 'downloadAccountingSnapshot');
          const zip = await source.data.downloadAccountingSnapshot(who);
          await writeAtomically(opts.zip, zip);
          const summary = { address: who, file: opts.zip, bytes: zip.byteLength };
          ctx.out.stdout(
            ctx.out.json
              ? `${JSON.stringify(summary)}\n`
              : `Wrote Polymarket's accounting snapshot of ${who} (${zip.byteLength} bytes) to ${opts.zip}.\n`,
          );
        },
      ),
    );
}

function checkAddress(address: string, methodName: string): void {
  if (!WALLET_ADDRESS.test(address))
    throw invalidParameter(`Parameter 'address' must be a wallet address (0x and 40 hex digits).`, methodName, {
      address,
    });
}

/** A date flag as Unix seconds: YYYY-MM-DD is that UTC day's start (or end, for an inclusive end), else ISO time. */
export function dateSeconds(text: string, flag: string, endOfDay: boolean): number {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const ms = Date.parse(day ? `${text}T00:00:00Z` : text);
  if (!Number.isFinite(ms) || (!day && !/^\d{4}-\d{2}-\d{2}T/.test(text)))
    throw invalidParameter(`${flag} must be a date (YYYY-MM-DD) or an ISO time, got ${text}.`);
  return Math.floor(ms / 1000) + (day && endOfDay ? 86_399 : 0);
}

/** The network the global flags name, and the node to read fees from (undefined: fees are not read). */
function chainOf(program: Command, rpcFlag?: string): { network: NetworkProfile; rpcUrl: string | undefined } {
  const globals = program.opts<{ chain?: string; network?: string }>();
  const custom = networkProfile(globals.network);
  const chainId = resolveChainId(undefined, globals.chain, process.env, custom);
  const network = networkFor(chainId, custom ? [custom] : undefined);
  return { network, rpcUrl: rpcFlag || process.env.PMDESK_RPC_URL || network.rpcUrl || undefined };
}

/** The trades' fees as the chain recorded them (OrderFilled), when a node is known; else undefined. */
async function chainFeeLookup(
  program: Command,
  rows: readonly TraderActivity[],
  wallet: string,
  rpcFlag?: string,
  timeoutMs?: number,
) {
  const { network, rpcUrl } = chainOf(program, rpcFlag);
  if (!rpcUrl) return undefined;
  const exchanges = [
    network.contracts.exchange,
    network.contracts.negRiskExchange,
    network.contracts.exchangeV2,
    network.contracts.negRiskExchangeV2,
    network.contracts.exchangeV3,
  ].filter((a): a is string => Boolean(a));
  // Bounded like every other request of the command (--timeout-ms): a node that stalls is given up.
  const provider = new JsonRpcProvider(boundedRpcRequest(rpcUrl, timeoutMs), Network.from(network.chainId), {
    staticNetwork: true,
    batchMaxCount: 1,
  });
  try {
    const trades = rows.filter((r) => r.type.toUpperCase() === 'TRADE').map((r) => r.transactionHash);
    return feeLookup(await feesFromChain(provider, exchanges, wallet, trades));
  } catch (error) {
    throw new PmDeskError(
      ErrorCode.NETWORK_ERROR,
      `The chain's node at ${rpcUrl} did not answer for the trades' fees.`,
      {
        cause: error,
      },
    );
  } finally {
    provider.destroy();
  }
}

/** The account PMDESK_PRIVATE_KEY trades from (as `pmdesk account show` names it). */
async function ownAccount(ctx: CliContext, program: Command, rpcFlag?: string): Promise<string> {
  const privateKey = process.env.PMDESK_PRIVATE_KEY;
  if (!privateKey)
    throw invalidParameter('Name an address, or set PMDESK_PRIVATE_KEY to export the account it trades from.');
  let key: Wallet;
  try {
    key = new Wallet(privateKey);
  } catch {
    throw invalidParameter('PMDESK_PRIVATE_KEY is not a private key (0x and 64 hex digits).');
  }
  const { network, rpcUrl } = chainOf(program, rpcFlag);
  if (!rpcUrl)
    throw invalidParameter(`No chain node for chain ${network.chainId}: pass --rpc-url or set PMDESK_RPC_URL.`);
  const account = await actingAccount(
    key.address,
    {},
    network,
    rpcUrl,
    (owner) => ctx.markets().getProfileWallet?.(owner) ?? Promise.resolve(undefined),
    ctx.timeoutMs(),
  );
  sayAccount(ctx, account);
  return account.address;
}

/** Polymarket's own figures for the reconciliation, where the source is Polymarket's. */
async function theirFigures(source: MarketSource, address: string): Promise<TheirFigures | undefined> {
  if (source.kind !== 'polymarket') return undefined;
  return readTheirFigures((source as PolymarketSource).data, address);
}

async function portfolioOf(ctx: CliContext, program: Command, source: MarketSource, address: string, rpcFlag?: string) {
  const theirs = await theirFigures(source, address);
  return loadPortfolio(source, address, {
    feesFor: (rows) => chainFeeLookup(program, rows, address, rpcFlag, ctx.timeoutMs()),
    tagsFor: source instanceof PolymarketSource ? (rows) => readMarketTags(source.gamma, rows) : undefined,
    theirs,
  });
}

/** Base units as dollars and cents, rounded half away from zero: -$1.23. */
export function cents(units: bigint): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const c = (abs + 5_000n) / 10_000n;
  return `${negative ? '-' : ''}$${c / 100n}.${(c % 100n).toString().padStart(2, '0')}`;
}

/** JSON with amounts in base units as decimal strings (6 decimals: 1000000 is $1). */
function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

function closedTable(book: Portfolio): string {
  return `${table(book.closed, [
    { header: 'Market', value: (c) => c.title, max: 40 },
    { header: 'Outcome', value: (c) => c.outcome },
    { header: 'How', value: (c) => c.how },
    { header: 'Closed', value: (c) => isoSeconds(c.closedAt) },
    { header: 'Cost', value: (c) => cents(c.cost), right: true },
    { header: 'Proceeds', value: (c) => cents(c.proceeds), right: true },
    { header: 'Realized', value: (c) => cents(c.realizedPnl), right: true },
    { header: 'Fees', value: (c) => cents(c.fees), right: true },
  ])}${notesText(book)}`;
}

function notesText(book: Portfolio): string {
  const lines = [
    ...book.reconciliation.map(
      (r) => `differs from Polymarket: ${r.label}: ours ${cents(r.ours)}, theirs ${cents(r.theirs)} — ${r.reason}`,
    ),
    ...book.notes.map((n) => `note: ${n}`),
  ];
  return lines.length ? `${lines.join('\n')}\n` : '';
}

function pnlText(book: Portfolio, series: ReturnType<typeof pnlSeries>): string {
  const t = book.totals;
  const head = fields([
    ['Address', book.address],
    ['Realized', cents(t.realized)],
    ['Unrealized', cents(t.unrealized)],
    ['Fees paid', cents(t.fees)],
    ['Rewards', cents(t.rewards)],
    ['Net', cents(t.net)],
    ['Open value', cents(t.value)],
  ]);
  const markets = table(book.byMarket, [
    { header: 'Market', value: (m) => m.label, max: 40 },
    { header: 'Realized', value: (m) => cents(m.realized), right: true },
    { header: 'Unrealized', value: (m) => cents(m.unrealized), right: true },
    { header: 'Fees', value: (m) => cents(m.fees), right: true },
  ]);
  // Per event tag only where the source told the tags (Polymarket direct): a market counts in each of its tags.
  const tags = book.byTag.length
    ? `${table(book.byTag, [
        { header: 'Tag', value: (m) => m.label, max: 40 },
        { header: 'Realized', value: (m) => cents(m.realized), right: true },
        { header: 'Unrealized', value: (m) => cents(m.unrealized), right: true },
        { header: 'Fees', value: (m) => cents(m.fees), right: true },
      ])}\n`
    : '';
  const points = table(series, [
    { header: 'Time', value: (p) => isoSeconds(p.timestamp) },
    { header: 'Total', value: (p) => cents(p.total), right: true },
    { header: 'Realized', value: (p) => cents(p.realized), right: true },
    { header: 'Priced', value: (p) => (p.exact ? 'exact' : p.pricing) },
  ]);
  return `${head}\n${markets}\n${tags}${points}${notesText(book)}`;
}

/** Writes the whole file or nothing: a temporary file beside it, renamed over it once written. */
async function writeAtomically(file: string, content: string | Uint8Array): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(
      temporary,
      content,
      typeof content === 'string' ? { encoding: 'utf8', flag: 'wx' } : { flag: 'wx' },
    );
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new PmDeskError(ErrorCode.ENVIRONMENT_ERROR, `Cannot write ${file}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
