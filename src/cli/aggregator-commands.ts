// What every `pmdesk` command is handed (the sources and clients built from the global flags, and where to
// print), and the commands only the aggregator has: its price oracle.
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { ErrorCode, PmDeskError, invalidParameter } from '@pmdesk/toolkit/model';
import { toPolyOrder, type AggregatorClient } from '@pmdesk/toolkit';
import type { MarketSource, MarketSourceKind } from '@pmdesk/toolkit';
import type { Output } from './output';

/** What every command gets: the clients built from the global flags, and where to print. */
export interface CliContext {
  /** The aggregator's own client, for what only the aggregator has (the oracle). */
  aggregator(): AggregatorClient;
  /** The market-data source read commands go through (--source, else the network profile's). */
  markets(): MarketSource;
  /** Which source `markets()` is, known without building it. */
  sourceKind(): MarketSourceKind;
  /** --timeout-ms (env PMDESK_TIMEOUT_MS): each request's bound, for the commands that build their own clients. */
  timeoutMs(): number | undefined;
  out: Output;
}

/** Parses a number flag without judging it: the toolkit's validation gives the documented message (docs/protocol.md#aggregator). */
export const numberFlag = (value: string): number => (value.trim() === '' ? Number.NaN : Number(value));

type Action = (ctx: CliContext, ...args: never[]) => Promise<void>;

export function registerAggregatorCommands(
  program: Command,
  run: (action: Action) => (...args: unknown[]) => Promise<void>,
): void {
  const oracle = program.command('oracle').description("the aggregator's price oracle (aggregator source only)");

  oracle
    .command('propose')
    .description('POST /v1/proposePrice: offer a signed order to the price oracle (prints null on failure)')
    .requiredOption('--order-file <file>', 'a JSON file holding the signed order (or {"order": …})')
    .action(
      run(async (ctx: CliContext, opts: { orderFile: string }) => {
        requireAggregator(ctx, 'proposePrice');
        const order = toPolyOrder(await readOrderFile(opts.orderFile));
        ctx.out.stdout(`${JSON.stringify(await ctx.aggregator().proposePrice(order))}\n`);
      }),
    );

  oracle
    .command('verify')
    .description('POST /v1/verifyPrice: ask the oracle to verify pending prices (prints null on failure)')
    .action(
      run(async (ctx: CliContext) => {
        requireAggregator(ctx, 'verifyPrice');
        ctx.out.stdout(`${JSON.stringify(await ctx.aggregator().verifyPrice())}\n`);
      }),
    );

  oracle
    .command('scan')
    .description(
      'GET /v1/scanPendingPriceData: whether a pending price can be verified (exit 1 when the aggregator fails)',
    )
    .action(
      run(async (ctx: CliContext) => {
        requireAggregator(ctx, 'scanPendingPriceData');
        // A script must tell "nothing pending" (false, exit 0) from "no answer" (exit 1 with the code).
        ctx.out.stdout(`${JSON.stringify(await ctx.aggregator().scanPendingPriceDataOrThrow())}\n`);
      }),
    );
}

/**
 * The oracle is a service of the aggregator, not a market-data read: on another source it is refused before
 * anything is read or sent, rather than quietly calling an aggregator the trader did not choose.
 */
function requireAggregator(ctx: CliContext, methodName: string): void {
  const kind = ctx.sourceKind();
  if (kind !== 'aggregator') {
    throw new PmDeskError(
      ErrorCode.NOT_AVAILABLE,
      `The price oracle is the aggregator's, and the market-data source here is ${kind}: run with --source aggregator (or a network whose source is aggregator).`,
      { methodName },
    );
  }
}

async function readOrderFile(file: string): Promise<Record<string, unknown>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw invalidParameter(
      `Cannot read the order file: ${error instanceof Error ? error.message : String(error)}`,
      'proposePrice',
    );
  }
  if (parsed && typeof parsed === 'object' && 'order' in parsed && parsed.order && typeof parsed.order === 'object') {
    parsed = parsed.order;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw invalidParameter('The order file must hold a JSON object with the signed order.', 'proposePrice');
  }
  return parsed as Record<string, unknown>;
}
