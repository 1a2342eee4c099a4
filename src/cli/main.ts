// `pmdesk`: the toolkit from a terminal. Global flags pick the servers, the market-data source and the
// output; each command is one toolkit call. Exit status: 0 success, 2 invalid input caught before any request, 1 any other failure.
import { Command, CommanderError } from 'commander';
import { ErrorCode, PmDeskError } from '@pmdesk/toolkit/model';
import { AggregatorClient } from '@pmdesk/toolkit';
import { consoleLogger, silentLogger } from '@pmdesk/toolkit';
import { registerAccountCommands } from './account-commands';
import { registerPositionCommands } from './position-commands';
import { registerConvertCommands } from './convert-commands';
import { registerRelayerCommands } from './relayer-commands';
import { createMarketSource } from '@pmdesk/toolkit';
import type { MarketSource } from '@pmdesk/toolkit';
import { registerAggregatorCommands, numberFlag, type CliContext } from './aggregator-commands';
import { registerMarketCommands } from './market-commands';
import { registerLedgerCommands } from './ledger-commands';
import { registerClobCommands } from './clob-commands';
import { registerWalletCommands } from './wallet-commands';
import { registerTradeCommands } from './trade-commands';
import {
  EXIT_INVALID_INPUT,
  apiNotice,
  processOutput,
  rateLimitNotice,
  reportError,
  retryNotice,
  type Output,
} from './output';
import { networkProfile, resolveEndpoints, resolveSource } from './network';

export { DEFAULT_API_URL, DEFAULT_CLOB_URL, DEFAULT_DATA_URL, DEFAULT_GAMMA_URL, DEFAULT_RTDS_URL } from './network';

interface GlobalOptions {
  source?: string;
  apiUrl?: string;
  sseUrl?: string;
  clobUrl?: string;
  gammaUrl?: string;
  dataUrl?: string;
  rtdsUrl?: string;
  network?: string;
  timeoutMs?: number;
  json?: boolean;
  verbose?: boolean;
}

export function buildProgram(onExit: (code: number) => void, json = false): Command {
  const program = new Command('pmdesk')
    .description('PM Desk toolkit: Polymarket markets, directly or through the aggregator, from a terminal')
    .option(
      '--source <source>',
      "market-data source of the read commands: polymarket (Gamma, Data API, CLOB) or aggregator (env PMDESK_SOURCE; default: the --network profile's, else aggregator when an aggregator URL is given, else polymarket)",
    )
    .option(
      '--gamma-url <url>',
      "Polymarket Gamma API base URL (env PMDESK_GAMMA_URL; default: the --network profile's, else the local sandbox's http://127.0.0.1:4813)",
    )
    .option(
      '--data-url <url>',
      "Polymarket Data API base URL (env PMDESK_DATA_URL; default: the --network profile's, else the local sandbox's http://127.0.0.1:4813)",
    )
    .option(
      '--rtds-url <url>',
      "Polymarket real-time data service, ws:// or wss:// (env PMDESK_RTDS_URL; default: the --network profile's, else the local sandbox's ws://127.0.0.1:4813/rtds)",
    )
    .option(
      '--api-url <url>',
      "aggregator API base URL (env PMDESK_API_URL; default: the --network profile's, else the local sandbox's http://127.0.0.1:4810)",
    )
    .option(
      '--sse-url <url>',
      "fill-stream base URL (env PMDESK_SSE_URL; default: the --network profile's, else the API URL)",
    )
    .option('--timeout-ms <ms>', 'request timeout in milliseconds (default 100000)', numberFlag)
    .option('--json', 'print exactly the parsed response as JSON; errors as JSON on stderr')
    .option('--verbose', 'log toolkit warnings and errors to stderr')
    .showHelpAfterError(false)
    .exitOverride()
    .configureOutput({
      // Commander's own usage errors are reported by main() in the CLI's format; help still prints.
      writeErr: (text) => {
        if (!json && !text.startsWith('error:')) process.stderr.write(text);
      },
    });

  /** Runs a command's body with the context built from the global flags, and maps its failure to an exit status. */
  const run =
    (action: (ctx: CliContext, ...args: never[]) => Promise<void>) =>
    async (...args: unknown[]): Promise<void> => {
      const command = args[args.length - 1] as Command;
      const globals = command.optsWithGlobals<GlobalOptions>();
      const out = processOutput(Boolean(globals.json));
      let client: AggregatorClient | undefined;
      let source: MarketSource | undefined;
      const timeoutMs = () => globals.timeoutMs ?? envNumber('PMDESK_TIMEOUT_MS');
      const logger = globals.verbose ? consoleLogger : silentLogger;
      const onRetry = retryNotice(Boolean(globals.json), out.stderr);
      const onNotice = apiNotice(Boolean(globals.json), out.stderr);
      const onRateLimit = rateLimitNotice(Boolean(globals.verbose), out.stderr);
      const sourceEndpoints = () => resolveSource(globals, process.env, networkProfile(globals.network));
      const ctx: CliContext = {
        out,
        aggregator: () => {
          if (!client) {
            const { apiUrl, sseUrl } = resolveEndpoints(globals, process.env, networkProfile(globals.network));
            client = new AggregatorClient({ apiUrl, sseUrl, timeoutMs: timeoutMs(), logger, onRetry });
          }
          return client;
        },
        markets: () =>
          (source ??= createMarketSource(sourceEndpoints(), {
            timeoutMs: timeoutMs(),
            logger,
            onRetry,
            onNotice,
            onRateLimit,
          })),
        sourceKind: () => source?.kind ?? sourceEndpoints().source,
        timeoutMs,
      };
      try {
        await (action as (...a: unknown[]) => Promise<void>)(ctx, ...args.slice(0, -2), args[args.length - 2]);
        onExit(0);
      } catch (error) {
        onExit(reportError(out, error));
      }
    };

  registerMarketCommands(program, run);
  registerLedgerCommands(program, run);
  registerAggregatorCommands(program, run);
  registerClobCommands(program, run);
  registerWalletCommands(program, run);
  registerTradeCommands(program, run);
  registerAccountCommands(program, run);
  registerPositionCommands(program, run);
  registerConvertCommands(program, run);
  registerRelayerCommands(program, run);
  return program;
}

function envNumber(name: string): number | undefined {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : Number(value);
}

/** Entry point of bin/pmdesk.mjs. Sets process.exitCode rather than exiting, so output is flushed. */
export async function main(argv: string[]): Promise<void> {
  let exitCode = 0;
  const json = argv.includes('--json');
  const program = buildProgram((code) => (exitCode = code), json);
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    exitCode = usageError(processOutput(json), error);
  }
  process.exitCode = exitCode;
}

/** Commander's help (exit 0) or a usage error (unknown option, missing argument): exit 2, catalogued. */
function usageError(out: Output, error: unknown): number {
  if (error instanceof CommanderError) {
    if (error.exitCode === 0) return 0;
    const message = error.message.replace(/^error:\s*/, '').replace(/\s*\n\s*/g, ' ');
    reportError(out, new PmDeskError(ErrorCode.INVALID_PARAMETER, message, { methodName: 'pmdesk' }));
    return EXIT_INVALID_INPUT;
  }
  return reportError(out, error);
}
