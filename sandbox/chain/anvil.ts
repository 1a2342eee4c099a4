// Starts and stops the sandbox's local EVM node: anvil as a child process on loopback, with its own chain id.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';

/** The sandbox's own chain id: a signature made here must never be valid on Polygon (137) or Amoy (80002). */
export const SANDBOX_CHAIN_ID = 31_338;
/** Amoy's chain id, allowed only on request, for compatibility tests that need Polymarket's own domain. */
export const AMOY_CHAIN_ID = 80_002;
const POLYGON_CHAIN_ID = 137;

export interface ChainOptions {
  /** TCP port on 127.0.0.1; 0 or absent lets the OS pick a free one. */
  port?: number;
  /** Defaults to SANDBOX_CHAIN_ID; 80002 is accepted for compatibility tests; 137 never. */
  chainId?: number;
  /**
   * Keep the chain between runs: anvil loads this file at start if it exists and writes its state back when
   * stopped. Absent, the chain lives in memory only and is thrown away.
   */
  stateFile?: string;
  /** A specific anvil binary; by default the npm package's, else the one on PATH (findAnvil). */
  anvilPath?: string;
  /** How long to wait for anvil to listen before giving up. */
  startTimeoutMs?: number;
}

export interface Chain {
  rpcUrl: string;
  chainId: number;
  /** The operating-system process id of anvil, so callers can check that stop() really ended it. */
  pid: number;
  /** Stops anvil and resolves once the process has exited (and written its state file, if any). Safe to call twice. */
  stop(): Promise<void>;
}

export const ANVIL_PACKAGE = '@foundry-rs/anvil-linux-amd64';

/**
 * Finds the anvil binary: the npm package first (it ships the binary), then an `anvil` on PATH. The parameters
 * exist so a test can take both away.
 */
export function findAnvil(packageName: string = ANVIL_PACKAGE, searchPath: string = process.env.PATH ?? ''): string {
  try {
    const require = createRequire(import.meta.url);
    const bin = join(dirname(require.resolve(`${packageName}/package.json`)), 'bin', 'anvil');
    if (existsSync(bin)) return bin;
  } catch {
    // The package is an optional dependency that installs only on Linux x64; PATH is the fallback.
  }
  for (const dir of searchPath.split(delimiter)) {
    if (dir && existsSync(join(dir, 'anvil'))) return join(dir, 'anvil');
  }
  throw new Error(
    `anvil not found: the npm package ${ANVIL_PACKAGE} installs it on Linux x64; elsewhere install Foundry (https://getfoundry.sh) so that \`anvil\` is on PATH.`,
  );
}

/**
 * On Linux, util-linux's `setpriv --pdeathsig` makes the kernel kill anvil when the process that started it
 * dies, even by SIGKILL, when no exit hook can run. Elsewhere the exit hook below is the only guard.
 */
function parentDeathGuard(): string[] {
  if (process.platform !== 'linux') return [];
  const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find((path) => existsSync(path));
  return setpriv ? [setpriv, '--pdeathsig', 'KILL', '--'] : [];
}

/** anvil's fixed dev mnemonic yields these keys; they fund nothing outside a local chain. */
export const DEV_PRIVATE_KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
  '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a',
  '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba',
] as const;

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/** If the host process exits without calling stop(), anvil must not outlive it. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}

export async function startChain(options: ChainOptions = {}): Promise<Chain> {
  const chainId = options.chainId ?? SANDBOX_CHAIN_ID;
  if (chainId === POLYGON_CHAIN_ID) throw new Error('The sandbox never runs with Polygon’s chain id 137.');
  if (!Number.isSafeInteger(chainId) || chainId <= 0) throw new Error(`Invalid chain id: ${chainId}`);
  const port = options.port ?? 0;
  const args = [
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--chain-id',
    String(chainId),
    '--accounts',
    String(DEV_PRIVATE_KEYS.length),
    '--balance',
    '10000',
    // A fixed base fee keeps a legacy transaction's explicit gas price valid in every block.
    '--base-fee',
    '0',
    '--gas-price',
    '1000000000',
    ...(options.stateFile ? ['--state', options.stateFile] : []),
  ];
  // setpriv execs anvil in place, so the child's pid is anvil's.
  const anvil = options.anvilPath ?? findAnvil();
  const [command, ...commandArgs] = [...parentDeathGuard(), anvil, ...args] as [string, ...string[]];
  const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  installExitHook();

  // A process that could not be started reports 'error' and may never report 'exit'.
  const exited = new Promise<void>((resolve) => {
    const done = (): void => {
      running.delete(child);
      resolve();
    };
    child.once('exit', done);
    child.once('error', done);
  });

  const stop = async (): Promise<void> => {
    if (running.has(child) && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      // anvil exits on SIGTERM within milliseconds; SIGKILL covers a hung process.
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    }
  };

  let actualPort: number;
  try {
    actualPort = await waitForListening(child, options.startTimeoutMs ?? 15_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { rpcUrl: `http://127.0.0.1:${actualPort}`, chainId, pid: child.pid ?? -1, stop };
}

/** anvil prints "Listening on 127.0.0.1:PORT" once its RPC server accepts connections. */
function waitForListening(child: ChildProcess, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /Listening on [\d.]+:(\d+)/.exec(output);
      if (match) {
        cleanup();
        // Keep draining stdout so a chatty anvil never blocks on a full pipe.
        child.stdout?.resume();
        child.stderr?.resume();
        resolve(Number(match[1]));
      }
    };
    const onExit = (code: number | null): void => {
      cleanup();
      reject(new Error(`anvil exited before listening (code ${code}): ${output.slice(-500)}`));
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(new Error(`anvil could not be started: ${error.message}`));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`anvil did not start within ${timeoutMs} ms: ${output.slice(-500)}`));
    }, timeoutMs);
    const cleanup = (): void => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}
