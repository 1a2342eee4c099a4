// Compiles the sandbox's Solidity (sandbox/contracts) with solc-js, the npm `solc` package (pure wasm, no
// compiler download), and caches the ABI and bytecode under sandbox/.artifacts keyed by a hash of the sources,
// so only the first start after a change pays for compilation.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { InterfaceAbi } from 'ethers';

export interface ContractArtifact {
  abi: InterfaceAbi;
  /** Creation bytecode, 0x-prefixed. */
  bytecode: string;
}

/** The contracts the sandbox deploys, by contract name. */
export type CompiledContracts = Record<
  | 'Collateral'
  | 'CollateralOnramp'
  | 'CTFExchange'
  | 'NegRiskAdapter'
  | 'ProxyWalletFactory'
  | 'ProxyWallet'
  | 'RelayHub'
  | 'SafeProxyFactory'
  | 'Safe'
  | 'SafeProxy'
  | 'MultiSend'
  | 'DepositWalletFactory'
  | 'DepositWalletBeacon'
  | 'DepositWallet',
  ContractArtifact
>;

const here = dirname(fileURLToPath(import.meta.url));
export const CONTRACTS_DIR = join(here, '..', 'contracts');
export const ARTIFACTS_DIR = join(here, '..', '.artifacts');

/** Pinned in package.json; checked here so a different compiler can never hide behind a stale cache. */
export const SOLC_VERSION = '0.8.37';

// Cancun is what anvil runs by default; the optimizer keeps the exchange well under the 24 kB code-size limit.
const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
} as const;

function readSources(): Record<string, { content: string }> {
  const sources: Record<string, { content: string }> = {};
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.sol')) {
        sources[relative(CONTRACTS_DIR, path).split(sep).join('/')] = { content: readFileSync(path, 'utf8') };
      }
    }
  };
  walk(CONTRACTS_DIR);
  return sources;
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: InterfaceAbi; evm: { bytecode: { object: string } } }>>;
}

/** Returns the compiled contracts, from the cache when the sources have not changed. */
export function compileContracts(): CompiledContracts {
  const sources = readSources();
  const key = createHash('sha256')
    .update(JSON.stringify({ SOLC_VERSION, SETTINGS, sources }))
    .digest('hex')
    .slice(0, 16);
  const cacheFile = join(ARTIFACTS_DIR, `contracts-${key}.json`);
  if (existsSync(cacheFile)) return JSON.parse(readFileSync(cacheFile, 'utf8')) as CompiledContracts;

  const require = createRequire(import.meta.url);
  const solc = require('solc') as { version(): string; compile(input: string): string };
  if (!solc.version().startsWith(SOLC_VERSION)) {
    throw new Error(`solc ${SOLC_VERSION} expected, found ${solc.version()}: run npm ci`);
  }
  const output = JSON.parse(
    solc.compile(JSON.stringify({ language: 'Solidity', sources, settings: SETTINGS })),
  ) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0)
    throw new Error(`Solidity compilation failed:\n${errors.map((e) => e.formattedMessage).join('\n')}`);

  const pick = (file: string, name: string): ContractArtifact => {
    const contract = output.contracts?.[file]?.[name];
    if (!contract) throw new Error(`solc produced no ${name} in ${file}`);
    return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  };
  const compiled: CompiledContracts = {
    Collateral: pick('Collateral.sol', 'Collateral'),
    CollateralOnramp: pick('CollateralOnramp.sol', 'CollateralOnramp'),
    CTFExchange: pick('exchange/CTFExchange.sol', 'CTFExchange'),
    NegRiskAdapter: pick('NegRiskAdapter.sol', 'NegRiskAdapter'),
    ProxyWalletFactory: pick('wallets/ProxyWalletFactory.sol', 'ProxyWalletFactory'),
    ProxyWallet: pick('wallets/ProxyWallet.sol', 'ProxyWallet'),
    RelayHub: pick('wallets/RelayHub.sol', 'RelayHub'),
    SafeProxyFactory: pick('wallets/SafeProxyFactory.sol', 'SafeProxyFactory'),
    Safe: pick('wallets/Safe.sol', 'Safe'),
    SafeProxy: pick('wallets/SafeProxy.sol', 'SafeProxy'),
    MultiSend: pick('wallets/MultiSend.sol', 'MultiSend'),
    DepositWalletFactory: pick('wallets/DepositWalletFactory.sol', 'DepositWalletFactory'),
    DepositWalletBeacon: pick('wallets/DepositWalletFactory.sol', 'DepositWalletBeacon'),
    DepositWallet: pick('wallets/DepositWallet.sol', 'DepositWallet'),
  };

  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  // Written aside then renamed, so a parallel test worker never reads half a file.
  const partial = `${cacheFile}.${process.pid}.tmp`;
  writeFileSync(partial, JSON.stringify(compiled));
  renameSync(partial, cacheFile);
  // Artifacts of older sources are never read again.
  for (const name of readdirSync(ARTIFACTS_DIR)) {
    if (/^contracts-[0-9a-f]{16}\.json$/.test(name) && join(ARTIFACTS_DIR, name) !== cacheFile) {
      rmSync(join(ARTIFACTS_DIR, name), { force: true });
    }
  }
  return compiled;
}

/** Gnosis' ConditionalTokens as published in @gnosis.pm/conditional-tokens-contracts, deployed unchanged. */
export function conditionalTokensArtifact(): ContractArtifact {
  const require = createRequire(import.meta.url);
  const artifact = require('@gnosis.pm/conditional-tokens-contracts/build/contracts/ConditionalTokens.json') as {
    abi: InterfaceAbi;
    bytecode: string;
  };
  return { abi: artifact.abi, bytecode: artifact.bytecode };
}

// `npx tsx sandbox/chain/compile.ts` builds (or confirms) the cache ahead of a test run or a demo.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = performance.now();
  const compiled = compileContracts();
  const sizes = Object.entries(compiled).map(([name, { bytecode }]) => `${name} ${(bytecode.length - 2) / 2} B`);
  console.log(
    `sandbox contracts ready in ${Math.round(performance.now() - started)} ms (${ARTIFACTS_DIR}): ${sizes.join(', ')}`,
  );
}
