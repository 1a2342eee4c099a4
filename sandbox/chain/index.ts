// The sandbox chain in one call: anvil started, the contracts deployed, the test wallets funded; stop() ends it.
// What the sandbox command, the CLOB server and test files use; the parts stay importable on their own.
import { startChain, type ChainOptions } from './anvil.js';
import { deploySandbox, type DeployOptions, type Deployment } from './deploy.js';

export { AMOY_CHAIN_ID, SANDBOX_CHAIN_ID, startChain, type Chain, type ChainOptions } from './anvil.js';
export {
  compileContracts,
  conditionalTokensArtifact,
  type CompiledContracts,
  type ContractArtifact,
} from './compile.js';
export {
  AMOY_CONTRACTS,
  TX_OVERRIDES,
  addMarket,
  prepareBinaryMarket,
  deploySandbox,
  openAccount,
  sandboxProvider,
  type Deployment,
  type DeployOptions,
  type OrderVersion,
  type SandboxContracts,
  type SandboxMarket,
  type MarketToOpen,
  type TestWallet,
  type TestAccount,
  type SandboxWallets,
  type AccountKind,
  TEST_ACCOUNT_OWNERS,
} from './deploy.js';

export interface SandboxChain extends Deployment {
  pid: number;
  stop(): Promise<void>;
}

/** Starts anvil and deploys; if deployment fails, anvil is stopped before the error is passed on. */
export async function startSandboxChain(options: ChainOptions & DeployOptions = {}): Promise<SandboxChain> {
  const { port, chainId, stateFile, startTimeoutMs } = options;
  const chain = await startChain({ port, chainId, stateFile, startTimeoutMs });
  try {
    const deployment = await deploySandbox(chain, options);
    return { ...deployment, pid: chain.pid, stop: chain.stop };
  } catch (error) {
    await chain.stop();
    throw error;
  }
}
