// Deploys the sandbox's contracts on a running chain: collateral, Gnosis ConditionalTokens, the neg-risk
// adapter, the exchange and the neg-risk exchange; prepares markets and registers their tokens; funds test
// wallets with collateral and grants the allowances trading needs. Everything here is a real transaction.
import {
  Contract,
  ContractFactory,
  JsonRpcProvider,
  MaxUint256,
  Wallet,
  ZeroHash,
  id,
  parseUnits,
  type ContractTransactionResponse,
  type InterfaceAbi,
} from 'ethers';
import { DEV_PRIVATE_KEYS } from './anvil.js';
import { compileContracts, conditionalTokensArtifact, type CompiledContracts } from './compile.js';

export type OrderVersion = 1 | 2 | 3;

/** Legacy transactions with an explicit price: no fee-market round trips, and anvil's base fee is 0. */
export const TX_OVERRIDES = { type: 0, gasPrice: 1_000_000_000n } as const;
/** Collateral has 6 decimals, like USDC.e and pUSD. */
export const COLLATERAL_DECIMALS = 6;

export interface TestWallet {
  address: string;
  privateKey: string;
}

export interface SandboxMarket {
  question: string;
  questionId: string;
  conditionId: string;
  /** [first outcome (YES), second outcome (NO)]: CTF position ids as decimal strings. */
  tokenIds: [string, string];
  negRisk: boolean;
}

export interface SandboxContracts {
  collateral: string;
  conditionalTokens: string;
  exchange: string;
  negRiskExchange: string;
  negRiskAdapter: string;
}

export interface Deployment {
  chainId: number;
  rpcUrl: string;
  orderVersion: OrderVersion;
  contracts: SandboxContracts;
  /** Deployer, admin and operator of both exchanges (anvil's first dev key). */
  operator: TestWallet;
  markets: SandboxMarket[];
  testWallets: TestWallet[];
}

export interface DeployOptions {
  orderVersion?: OrderVersion;
  /** Collateral minted to each test wallet, in whole units. */
  fundingPerWallet?: number;
  markets?: { question: string; negRisk: boolean }[];
}

const DEFAULT_MARKETS = [
  { question: 'Will the sandbox settle its first trade on chain?', negRisk: false },
  { question: 'Which outcome wins the sandbox election? Candidate A', negRisk: true },
];

/** An ethers provider tuned for a local node: no chain-id probing per call, no JSON-RPC batching. */
export function sandboxProvider(rpcUrl: string, chainId: number): JsonRpcProvider {
  return new JsonRpcProvider(rpcUrl, chainId, {
    staticNetwork: true,
    batchMaxCount: 1,
    pollingInterval: 50,
    // ethers reuses identical reads for 250 ms; on a chain that mines in 10 ms that serves stale nonces and balances.
    cacheTimeout: -1,
  });
}

/** Sends a transaction and waits for it to be mined (anvil mines on receipt); a revert throws. */
export async function mined(pending: Promise<ContractTransactionResponse>): Promise<void> {
  const receipt = await (await pending).wait();
  if (!receipt || receipt.status !== 1) throw new Error('transaction failed');
}

async function deployContract(deployer: Wallet, artifact: { abi: InterfaceAbi; bytecode: string }, args: unknown[] = []): Promise<Contract> {
  const factory = new ContractFactory(artifact.abi, artifact.bytecode, deployer);
  const contract = await factory.deploy(...args, TX_OVERRIDES);
  await contract.waitForDeployment();
  return new Contract(await contract.getAddress(), artifact.abi, deployer);
}

/** Deploys one exchange instance; also used directly by tests that need an exchange for another order version. */
export async function deployExchange(
  deployer: Wallet,
  compiled: CompiledContracts,
  params: { collateral: string; conditionalTokens: string; outcomeTokenFactory: string; orderVersion: OrderVersion },
): Promise<Contract> {
  return deployContract(deployer, compiled.CTFExchange, [
    params.collateral,
    params.conditionalTokens,
    params.outcomeTokenFactory,
    params.orderVersion,
  ]);
}

/** Prepares a binary condition (the operator is its oracle) and returns its two position ids. */
export async function prepareBinaryMarket(
  ctf: Contract,
  collateral: string,
  oracle: string,
  question: string,
): Promise<{ questionId: string; conditionId: string; tokenIds: [string, string] }> {
  const questionId = id(question);
  await mined(ctf.getFunction('prepareCondition')(oracle, questionId, 2, TX_OVERRIDES));
  const conditionId = (await ctf.getFunction('getConditionId')(oracle, questionId, 2)) as string;
  const positionId = async (indexSet: number): Promise<string> => {
    const collectionId = (await ctf.getFunction('getCollectionId')(ZeroHash, conditionId, indexSet)) as string;
    return ((await ctf.getFunction('getPositionId')(collateral, collectionId)) as bigint).toString();
  };
  return { questionId, conditionId, tokenIds: [await positionId(1), await positionId(2)] };
}

export async function deploySandbox(
  chain: { rpcUrl: string; chainId: number },
  options: DeployOptions = {},
): Promise<Deployment> {
  const orderVersion = options.orderVersion ?? 2;
  const provider = sandboxProvider(chain.rpcUrl, chain.chainId);
  try {
    const [operatorKey, ...walletKeys] = DEV_PRIVATE_KEYS;
    const deployer = new Wallet(operatorKey, provider);
    const compiled = compileContracts();

    const collateral = await deployContract(deployer, compiled.Collateral, ['Polymarket USD (sandbox)', 'pUSD']);
    const ctf = await deployContract(deployer, conditionalTokensArtifact());
    const collateralAddress = await collateral.getAddress();
    const ctfAddress = await ctf.getAddress();
    const adapter = await deployContract(deployer, compiled.NegRiskAdapter, [ctfAddress, collateralAddress]);
    const adapterAddress = await adapter.getAddress();
    const exchange = await deployExchange(deployer, compiled, {
      collateral: collateralAddress,
      conditionalTokens: ctfAddress,
      outcomeTokenFactory: ctfAddress,
      orderVersion,
    });
    const negRiskExchange = await deployExchange(deployer, compiled, {
      collateral: collateralAddress,
      conditionalTokens: ctfAddress,
      outcomeTokenFactory: adapterAddress,
      orderVersion,
    });
    const contracts: SandboxContracts = {
      collateral: collateralAddress,
      conditionalTokens: ctfAddress,
      exchange: await exchange.getAddress(),
      negRiskExchange: await negRiskExchange.getAddress(),
      negRiskAdapter: adapterAddress,
    };

    const markets: SandboxMarket[] = [];
    for (const { question, negRisk } of options.markets ?? DEFAULT_MARKETS) {
      const market = await prepareBinaryMarket(ctf, collateralAddress, deployer.address, question);
      const registry = negRisk ? negRiskExchange : exchange;
      await mined(registry.getFunction('registerToken')(market.tokenIds[0], market.tokenIds[1], market.conditionId, TX_OVERRIDES));
      markets.push({ question, ...market, negRisk });
    }

    // The operator is funded too: fillOrder makes it the counterparty.
    const funding = parseUnits(String(options.fundingPerWallet ?? 100_000), COLLATERAL_DECIMALS);
    const traders = [operatorKey, ...walletKeys].map((key) => new Wallet(key, provider));
    const spenders = [contracts.exchange, contracts.negRiskExchange, contracts.negRiskAdapter, contracts.conditionalTokens];
    const operators = [contracts.exchange, contracts.negRiskExchange, contracts.negRiskAdapter];
    for (const trader of traders) {
      await mined(collateral.getFunction('mint')(trader.address, funding, TX_OVERRIDES));
      const asTrader = { collateral: collateral.connect(trader) as Contract, ctf: ctf.connect(trader) as Contract };
      for (const spender of spenders) await mined(asTrader.collateral.getFunction('approve')(spender, MaxUint256, TX_OVERRIDES));
      for (const operator of operators) await mined(asTrader.ctf.getFunction('setApprovalForAll')(operator, true, TX_OVERRIDES));
    }

    return {
      chainId: chain.chainId,
      rpcUrl: chain.rpcUrl,
      orderVersion,
      contracts,
      operator: { address: deployer.address, privateKey: operatorKey },
      markets,
      testWallets: walletKeys.map((key) => ({ address: new Wallet(key).address, privateKey: key })),
    };
  } finally {
    provider.destroy();
  }
}
