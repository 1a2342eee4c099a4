// `npm run sandbox`: starts the local exchange (chain, CLOB, aggregator, Polymarket's public APIs, market
// simulator), prints where everything is and a funded test wallet, writes the network profile once every part
// is ready, and stops every part on SIGTERM or Ctrl-C. The bots' refused orders go to a log file, not the screen.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_PORTS, startSandbox, writeJsonAtomic, type SandboxOptions, type SandboxSource } from './index';
import type { OrderVersion } from './chain/deploy';
import { parseGeoblockedRegion } from './polymarket/geoblock';

const USAGE = `Usage: npm run sandbox -- [options]

  --profile-out FILE      write the network profile here once every part is ready
  --source polymarket|aggregator
                          the market-data source the profile names (default polymarket: Gamma, Data API,
                          real-time feed; no aggregatorUrl/sseUrl). Every server runs either way.
  --geoblocked CC[-RR]    start with the geoblock check answering blocked from country CC, region RR
                          (e.g. US-NY); default not blocked
  --data-dir DIR          keep the chain, its deployment, the CLOB (keys, orders, trades) and the fills here across restarts (default: thrown away)
  --order-version 1|2|3   exchange order version (default 2, like Polymarket today)
  --chain-id N            default 31338; 80002 puts the contracts at Polymarket's Amoy addresses
  --aggregator-port N     default ${DEFAULT_PORTS.aggregator}
  --clob-port N           default ${DEFAULT_PORTS.clob}
  --rpc-port N            default ${DEFAULT_PORTS.rpc}
  --polymarket-port N     Gamma, Data API, geoblock and the real-time feed (/rtds); default ${DEFAULT_PORTS.polymarket}
  --relayer-port N        the relayer stand-in (gasless Safe and deposit-wallet actions); default ${DEFAULT_PORTS.relayer}
  --ports-auto            pick free ports for every part
  --seed N                seed of the history and the bots (default 42)
  --no-sim                start no trading bots
  --sim-interval-ms N     milliseconds between bot steps (default 1500)
  --share-lag-ms N        model Polymarket's balance/allowance cache: a fill's shares stay unseen by the order
                          checks until GET /balance-allowance/update for that token, or N ms (default off)
  --quiet                 print only the ready line and errors
  -h, --help

Resolve a market on the running sandbox (its payouts printed; holders then redeem on the chain):
  npm run sandbox:resolve -- --profile FILE <market id, slug or condition id> <Yes|No>`;

function fail(message: string): never {
  process.stderr.write(`sandbox: ${message}\n`);
  process.exit(2);
}

function intOption(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) fail(`--${name} must be a whole number from ${min} to ${max}`);
  return n;
}

export async function main(argv: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        'profile-out': { type: 'string' },
        source: { type: 'string' },
        geoblocked: { type: 'string' },
        'polymarket-port': { type: 'string' },
        'relayer-port': { type: 'string' },
        'data-dir': { type: 'string' },
        'order-version': { type: 'string' },
        'chain-id': { type: 'string' },
        'aggregator-port': { type: 'string' },
        'clob-port': { type: 'string' },
        'rpc-port': { type: 'string' },
        'ports-auto': { type: 'boolean' },
        seed: { type: 'string' },
        'no-sim': { type: 'boolean' },
        'sim-interval-ms': { type: 'string' },
        'share-lag-ms': { type: 'string' },
        quiet: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    });
  } catch (error) {
    fail(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
  }
  const o = parsed.values;
  if (o.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const auto = o['ports-auto'] ? 0 : undefined;
  const orderVersion = intOption(o['order-version'], 'order-version', 1, 3) as OrderVersion | undefined;
  const chainId = intOption(o['chain-id'], 'chain-id', 1, 2 ** 32);
  if (chainId === 137) fail('the sandbox never runs with Polygon’s chain id 137');
  const source = (o.source ?? 'polymarket') as SandboxSource;
  if (source !== 'polymarket' && source !== 'aggregator') fail('--source must be polymarket or aggregator');
  const geoblock = o.geoblocked === undefined ? undefined : parseGeoblockedRegion(o.geoblocked);
  if (o.geoblocked !== undefined && !geoblock)
    fail('--geoblocked must be a country code with an optional region, e.g. US or US-NY');
  const quiet = Boolean(o.quiet);
  const say = (line: string) => quiet || process.stdout.write(`${line}\n`);
  // The market bots' refused orders go to a file: on the screen they would scroll the ready listing away.
  const botLogFile = o['data-dir']
    ? join(resolve(o['data-dir']), 'bots.log')
    : join(tmpdir(), 'pmdesk-sandbox-bots.log');
  let botLogStarted = false;
  const botLog = (line: string) => {
    if (!botLogStarted) {
      mkdirSync(dirname(botLogFile), { recursive: true });
      writeFileSync(botLogFile, '');
      botLogStarted = true;
    }
    appendFileSync(botLogFile, `${new Date().toISOString()} ${line}\n`);
  };

  const options: SandboxOptions = {
    ports: {
      aggregator: intOption(o['aggregator-port'], 'aggregator-port', 0, 65535) ?? auto,
      clob: intOption(o['clob-port'], 'clob-port', 0, 65535) ?? auto,
      rpc: intOption(o['rpc-port'], 'rpc-port', 0, 65535) ?? auto,
      polymarket: intOption(o['polymarket-port'], 'polymarket-port', 0, 65535) ?? auto,
      relayer: intOption(o['relayer-port'], 'relayer-port', 0, 65535) ?? auto,
    },
    source,
    geoblock,
    dataDir: o['data-dir'] ? resolve(o['data-dir']) : undefined,
    orderVersion,
    chainId,
    seed: intOption(o.seed, 'seed', 0, 2 ** 31),
    simulate: o['no-sim'] ? 'off' : 'run',
    simIntervalMs: intOption(o['sim-interval-ms'], 'sim-interval-ms', 50, 3_600_000),
    shareViewLagMs: intOption(o['share-lag-ms'], 'share-lag-ms', 0, 86_400_000),
    log: quiet ? undefined : (line) => (line.startsWith('simulator: ') ? botLog(line) : say(`  ${line}`)),
  };

  const started = Date.now();
  say('Starting the PM Desk sandbox…');
  let sandbox;
  try {
    sandbox = await startSandbox(options);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const busy = /EADDRINUSE|address already in use/i.test(message);
    process.stderr.write(
      busy
        ? `sandbox: a port is already in use (${message}). Stop the other sandbox, or pass --ports-auto or --aggregator-port/--clob-port/--rpc-port/--polymarket-port.\n`
        : `sandbox: could not start: ${message}\n`,
    );
    process.exit(1);
  }

  const { profile } = sandbox;
  const profileFile = o['profile-out']
    ? resolve(o['profile-out'])
    : options.dataDir
      ? join(options.dataDir, 'profile.json')
      : join(tmpdir(), 'pmdesk-sandbox-profile.json');
  await mkdir(dirname(profileFile), { recursive: true });
  await writeJsonAtomic(profileFile, profile);

  const wallet = profile.testWallets[0]!;
  say('');
  say(`PM Desk sandbox is ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  say(`  chain       ${profile.chainId} at ${profile.rpcUrl}`);
  say(`  CLOB        ${profile.clobUrl} (order version ${profile.orderVersion})`);
  say(`  source      ${source}`);
  say(
    `  aggregator  ${sandbox.aggregator.url} (fill stream at the same address${profile.aggregatorUrl ? '' : '; running, but not in a polymarket-source profile'})`,
  );
  say(
    `  Gamma/Data  ${profile.gammaUrl} (geoblock check at ${profile.geoblockUrl}${geoblock ? `: blocked, ${geoblock.country}${geoblock.region ? `-${geoblock.region}` : ''}` : ''})`,
  );
  say(`  real-time   ${profile.rtdsUrl}`);
  for (const [name, address] of Object.entries(profile.contracts)) say(`  ${name.padEnd(18)} ${address}`);
  say(`  test wallet ${wallet.address}`);
  say(`  its key     ${wallet.privateKey} (a public dev key: worthless anywhere but this sandbox)`);
  // The ready-made accounts (proxy wallet, Safe, deposit wallet): their owners' keys are in the profile.
  for (const account of profile.testAccounts)
    say(
      `  ${`${account.kind} account`.padEnd(18)} ${account.address} (type ${account.signatureType}, owner ${account.owner})`,
    );
  say(`  profile     ${profileFile}`);
  if (options.simulate !== 'off') say(`  bot log     ${botLogFile} (the market bots' refused orders)`);
  say('Press Ctrl-C to stop.');
  if (quiet) process.stdout.write(`sandbox ready: ${profileFile}\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    say(`\n${signal}: stopping the sandbox…`);
    await sandbox.stop();
    say('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

await main(process.argv.slice(2));
