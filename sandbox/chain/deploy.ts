// Deploys the sandbox's contracts on a running chain: collateral (pUSD), Gnosis ConditionalTokens, the neg-risk
// adapter, the exchange and the neg-risk exchange, USDC.e and the collateral onramp; prepares markets and
// registers their tokens; funds test wallets with pUSD and USDC.e and grants the allowances trading needs.
// Everything here is a real transaction.
import {
  AbiCoder,
  Contract,
  ContractFactory,
  MaxUint256,
  Wallet,
  ZeroHash,
  concat,
  dataSlice,
  getAddress,
  getCreateAddress,
  id,
  parseUnits,
  toBeHex,
  toUtf8Bytes,
  type InterfaceAbi,
} from 'ethers';
import { AMOY_CHAIN_ID, DEV_PRIVATE_KEYS } from './anvil.js';
import { compileContracts, conditionalTokensArtifact, type CompiledContracts } from './compile.js';
import { deployWalletFactories, openTestAccounts, type TestAccount } from './accounts.js';
import { relocateContract } from './relocate.js';
import { TX_OVERRIDES, mined, sandboxProvider, sendInOneBlock, sendRawInOneBlock } from './transactions.js';
import type { AccountKind, SandboxWallets } from './wallet-addresses.js';

export { TX_OVERRIDES, mined, sandboxProvider } from './transactions.js';
export type { TestAccount } from './accounts.js';
export type { AccountKind, SandboxWallets } from './wallet-addresses.js';

export type OrderVersion = 1 | 2 | 3;

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
  /**
   * A neg-risk market's place in its event on the neg-risk adapter: the event's market id (Gamma's
   * `negRiskMarketID`), the question's id there (market id + index) and its index. Absent on binary markets.
   */
  negRiskEvent?: { marketId: string; questionId: string; index: number };
}

/**
 * A market to open. Neg-risk markets with the same `event` are one negative-risk event on the adapter, in the
 * order given (no `event`: the market is an event of its own).
 */
export interface MarketToOpen {
  question: string;
  negRisk: boolean;
  event?: string;
}

export interface SandboxContracts {
  /** pUSD: the exchange's collateral. */
  collateral: string;
  conditionalTokens: string;
  exchange: string;
  negRiskExchange: string;
  negRiskAdapter: string;
  /** USDC.e (6 decimals): what the onramp wraps into pUSD. */
  usdcE: string;
  /** Polymarket's CollateralOnramp and CollateralOfframp in one: wrap/unwrap(asset, to, amount), 1:1. */
  collateralOnramp: string;
}

/**
 * Where the exchanges send match-time platform fees: an address nobody holds a key for, so its pUSD balance is
 * exactly the fees charged.
 */
export const FEE_RECIPIENT = getAddress(dataSlice(id('pmdesk sandbox fee recipient'), 12));

/** USDC.e the onramp holds at start, so pUSD minted straight to test wallets can be unwrapped too. */
const ONRAMP_RESERVE = parseUnits('1000000000', 6);

export interface Deployment {
  chainId: number;
  rpcUrl: string;
  orderVersion: OrderVersion;
  contracts: SandboxContracts;
  /**
   * Polymarket's account contracts: proxy wallets (POLY_PROXY), Safes (POLY_GNOSIS_SAFE) and deposit wallets
   * (POLY_1271), at the addresses sandbox/chain/wallet-addresses.ts derives from these.
   */
  wallets: SandboxWallets;
  /** One funded, approved account of each kind, owned by a test wallet (TEST_ACCOUNT_OWNERS). */
  testAccounts: TestAccount[];
  /** Deployer, admin and operator of both exchanges (anvil's first dev key). */
  operator: TestWallet;
  /** Receives the platform fees both exchanges charge at match time (FEE_RECIPIENT). */
  feeRecipient: string;
  markets: SandboxMarket[];
  testWallets: TestWallet[];
}

export interface DeployOptions {
  orderVersion?: OrderVersion;
  /**
   * 'amoy' puts the contracts at Polymarket's Amoy addresses for the order version (chain id 80002 only), so
   * clients that hard-code Amoy's configuration sign for the sandbox unchanged. Default: where they deploy.
   */
  addresses?: 'sandbox' | 'amoy';
  /** Collateral (pUSD) minted to each test wallet, in whole units. */
  fundingPerWallet?: number;
  /** USDC.e minted to each test wallet and test account, in whole units (10 000 by default). */
  usdcePerWallet?: number;
  markets?: MarketToOpen[];
}

/**
 * Polymarket's Amoy contracts per order version (docs/protocol.md#contracts-and-addresses). Version 3 has one exchange for
 * every market; the sandbox's neg-risk exchange then keeps its own address.
 */
export const AMOY_CONTRACTS: Record<
  OrderVersion,
  Omit<SandboxContracts, 'negRiskExchange' | 'usdcE' | 'collateralOnramp'> & { negRiskExchange?: string }
> = {
  1: {
    collateral: '0x9c4e1703476e875070ee25b56a58b008cfb8fa78',
    conditionalTokens: '0x69308FB512518e39F9b16112fA8d994F4e2Bf8bB',
    exchange: '0xdFE02Eb6733538f8Ea35D585af8DE5958AD99E40',
    negRiskExchange: '0xC5d563A36AE78145C45a50134d48A1215220f80a',
    negRiskAdapter: '0xd91E80cF2E7be2e162c6513ceD06f1dD0dA35296',
  },
  2: {
    collateral: '0xC011a7E12a19f7B1f670d46F03B03f3342E82DFB',
    conditionalTokens: '0x69308FB512518e39F9b16112fA8d994F4e2Bf8bB',
    exchange: '0xE111180000d2663C0091e4f400237545B87B996B',
    negRiskExchange: '0xe2222d279d744050d28e00520010520000310F59',
    negRiskAdapter: '0xd91E80cF2E7be2e162c6513ceD06f1dD0dA35296',
  },
  3: {
    collateral: '0xC011a7E12a19f7B1f670d46F03B03f3342E82DFB',
    conditionalTokens: '0x69308FB512518e39F9b16112fA8d994F4e2Bf8bB',
    exchange: '0x9fE6e61422AdB6F610d8597F9684b16912D50C3D',
    negRiskAdapter: '0xd91E80cF2E7be2e162c6513ceD06f1dD0dA35296',
  },
};

/**
 * Which test wallet (index into testWallets) owns the ready-made account of each kind. Funding goes straight
 * to the account, so the owners' own collateral balances stay as every other test expects.
 */
export const TEST_ACCOUNT_OWNERS: Record<AccountKind, number> = { proxy: 1, safe: 2, deposit: 3 };

const DEFAULT_MARKETS: MarketToOpen[] = [
  { question: 'Will the sandbox settle its first trade on chain?', negRisk: false },
  { question: 'Which outcome wins the sandbox election? Candidate A', negRisk: true },
];

async function deployContract(
  deployer: Wallet,
  artifact: { abi: InterfaceAbi; bytecode: string },
  args: unknown[] = [],
): Promise<Contract> {
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

/** Prepares a market's condition and registers its two tokens on the exchange that will trade them. */
async function openMarket(
  ctf: Contract,
  venue: Contract,
  collateral: string,
  oracle: string,
  { question, negRisk }: { question: string; negRisk: boolean },
): Promise<SandboxMarket> {
  const prepared = await prepareBinaryMarket(ctf, collateral, oracle, question);
  await mined(
    venue.getFunction('registerToken')(prepared.tokenIds[0], prepared.tokenIds[1], prepared.conditionId, TX_OVERRIDES),
  );
  return { question, ...prepared, negRisk };
}

/**
 * Files the neg-risk markets on the adapter as Polymarket's adapter holds them: one market id per event (the
 * operator its oracle, no fee), each question under the next index. The conditions were prepared already.
 */
async function fileNegRiskEvents(adapter: Contract, specs: MarketToOpen[], markets: SandboxMarket[]): Promise<void> {
  const events = new Map<string, SandboxMarket[]>();
  specs.forEach((spec, i) => {
    if (!spec.negRisk) return;
    const key = spec.event ?? spec.question;
    events.set(key, [...(events.get(key) ?? []), markets[i]!]);
  });
  for (const [key, questions] of events) {
    const data = toUtf8Bytes(key);
    const marketId = (await adapter.getFunction('prepareMarket').staticCall(0, data)) as string;
    await mined(adapter.getFunction('prepareMarket')(0, data, TX_OVERRIDES));
    for (const [index, market] of questions.entries()) {
      await mined(
        adapter.getFunction('prepareQuestion')(
          marketId,
          market.conditionId,
          toUtf8Bytes(market.question),
          TX_OVERRIDES,
        ),
      );
      market.negRiskEvent = { marketId, questionId: toBeHex(BigInt(marketId) + BigInt(index), 32), index };
    }
  }
}

/**
 * Opens another binary market on a running sandbox (the operator is its oracle), for the market simulator and
 * tests. A question already asked is refused by ConditionalTokens ("condition already prepared").
 */
export async function addMarket(
  deployment: Deployment,
  market: { question: string; negRisk: boolean },
): Promise<SandboxMarket> {
  const provider = sandboxProvider(deployment.rpcUrl, deployment.chainId);
  try {
    const operator = new Wallet(deployment.operator.privateKey, provider);
    const ctf = new Contract(deployment.contracts.conditionalTokens, conditionalTokensArtifact().abi, operator);
    const venueAddress = market.negRisk ? deployment.contracts.negRiskExchange : deployment.contracts.exchange;
    const venue = new Contract(venueAddress, compileContracts().CTFExchange.abi, operator);
    return await openMarket(ctf, venue, deployment.contracts.collateral, operator.address, market);
  } finally {
    provider.destroy();
  }
}

/**
 * Deploys USDC.e (the Collateral contract again, under its own name) and the onramp that wraps it into pUSD, in
 * one block: the onramp's constructor needs USDC.e's address, which follows from the deployer's nonce.
 */
async function deployOnramp(
  deployer: Wallet,
  compiled: CompiledContracts,
  chainId: number,
  pusd: string,
): Promise<{ usdcE: Contract; onramp: Contract }> {
  const provider = deployer.provider as Parameters<typeof sendRawInOneBlock>[0];
  const first = await provider.getTransactionCount(deployer.address, 'pending');
  const usdceAddress = getCreateAddress({ from: deployer.address, nonce: first });
  const onrampAddress = getCreateAddress({ from: deployer.address, nonce: first + 1 });
  const coder = AbiCoder.defaultAbiCoder();
  await sendRawInOneBlock(provider, chainId, [
    {
      wallet: deployer,
      data: concat([
        compiled.Collateral.bytecode,
        coder.encode(['string', 'string'], ['USD Coin (PoS) (sandbox)', 'USDC.e']),
      ]),
      gasLimit: 2_000_000n,
    },
    {
      wallet: deployer,
      data: concat([compiled.CollateralOnramp.bytecode, coder.encode(['address', 'address'], [pusd, usdceAddress])]),
      gasLimit: 2_000_000n,
    },
  ]);
  return {
    usdcE: new Contract(usdceAddress, compiled.Collateral.abi, deployer),
    onramp: new Contract(onrampAddress, compiled.CollateralOnramp.abi, deployer),
  };
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

    const amoy = options.addresses === 'amoy' ? AMOY_CONTRACTS[orderVersion] : undefined;
    if (amoy && chain.chainId !== AMOY_CHAIN_ID)
      throw new Error('Amoy addresses need the chain started with chain id 80002.');
    // Each contract is deployed, then moved to its Amoy address if asked; later constructors get final addresses.
    const place = async (contract: Contract, target: string | undefined): Promise<Contract> =>
      target
        ? (contract.attach(await relocateContract(provider, await contract.getAddress(), target)) as Contract)
        : contract;

    const collateral = await place(
      await deployContract(deployer, compiled.Collateral, ['Polymarket USD (sandbox)', 'pUSD']),
      amoy?.collateral,
    );
    const ctf = await place(await deployContract(deployer, conditionalTokensArtifact()), amoy?.conditionalTokens);
    const collateralAddress = await collateral.getAddress();
    const ctfAddress = await ctf.getAddress();
    const adapter = await place(
      await deployContract(deployer, compiled.NegRiskAdapter, [ctfAddress, collateralAddress, FEE_RECIPIENT]),
      amoy?.negRiskAdapter,
    );
    const adapterAddress = await adapter.getAddress();
    const exchange = await place(
      await deployExchange(deployer, compiled, {
        collateral: collateralAddress,
        conditionalTokens: ctfAddress,
        outcomeTokenFactory: ctfAddress,
        orderVersion,
      }),
      amoy?.exchange,
    );
    const negRiskExchange = await place(
      await deployExchange(deployer, compiled, {
        collateral: collateralAddress,
        conditionalTokens: ctfAddress,
        outcomeTokenFactory: adapterAddress,
        orderVersion,
      }),
      amoy?.negRiskExchange,
    );
    if (amoy) {
      // Approvals their constructors granted belong to the old addresses; grant them again from the new ones.
      await mined(adapter.getFunction('approveConditionalTokens')(TX_OVERRIDES));
      await mined(exchange.getFunction('approveOutcomeTokenFactory')(TX_OVERRIDES));
      await mined(negRiskExchange.getFunction('approveOutcomeTokenFactory')(TX_OVERRIDES));
    }
    // Deployed after the exchanges so the five main contracts keep the same addresses on every start.
    const wallets = await deployWalletFactories(deployer, compiled, [exchange, negRiskExchange]);
    const { usdcE, onramp } = await deployOnramp(deployer, compiled, chain.chainId, collateralAddress);

    // Version 3 (Protocol V2) trades every market, neg-risk or not, on its one exchange (docs/protocol.md#order-signing): neg-risk markets are registered there and the profile names it for both roles.
    const negRiskVenue = orderVersion === 3 ? exchange : negRiskExchange;
    const contracts: SandboxContracts = {
      collateral: collateralAddress,
      conditionalTokens: ctfAddress,
      exchange: await exchange.getAddress(),
      negRiskExchange: await negRiskVenue.getAddress(),
      negRiskAdapter: adapterAddress,
      usdcE: await usdcE.getAddress(),
      collateralOnramp: await onramp.getAddress(),
    };

    const markets: SandboxMarket[] = [];
    for (const market of options.markets ?? DEFAULT_MARKETS) {
      const venue = market.negRisk ? negRiskVenue : exchange;
      markets.push(await openMarket(ctf, venue, collateralAddress, deployer.address, market));
    }
    await fileNegRiskEvents(adapter, options.markets ?? DEFAULT_MARKETS, markets);

    // The operator is funded too: fillOrder makes it the counterparty.
    const funding = parseUnits(String(options.fundingPerWallet ?? 100_000), COLLATERAL_DECIMALS);
    const traders = [operatorKey, ...walletKeys].map((key) => new Wallet(key, provider));
    const spenders = [
      contracts.exchange,
      contracts.negRiskExchange,
      contracts.negRiskAdapter,
      contracts.conditionalTokens,
    ];
    const operators = [contracts.exchange, contracts.negRiskExchange, contracts.negRiskAdapter];
    const usdceFunding = parseUnits(String(options.usdcePerWallet ?? 10_000), COLLATERAL_DECIMALS);
    await sendInOneBlock(provider, chain.chainId, [
      // The onramp mints the pUSD it wraps; fees go to the recipient on both exchange instances.
      { wallet: deployer, contract: collateral, method: 'setMinter', args: [contracts.collateralOnramp, true] },
      // The adapter mints the collateral a conversion pays out (see NegRiskAdapter.convertPositions).
      { wallet: deployer, contract: collateral, method: 'setMinter', args: [contracts.negRiskAdapter, true] },
      { wallet: deployer, contract: usdcE, method: 'mint', args: [contracts.collateralOnramp, ONRAMP_RESERVE] },
      { wallet: deployer, contract: exchange, method: 'setFeeRecipient', args: [FEE_RECIPIENT] },
      { wallet: deployer, contract: negRiskExchange, method: 'setFeeRecipient', args: [FEE_RECIPIENT] },
      ...traders.map((trader) => ({
        wallet: deployer,
        contract: collateral,
        method: 'mint',
        args: [trader.address, funding],
      })),
      ...traders.map((trader) => ({
        wallet: deployer,
        contract: usdcE,
        method: 'mint',
        args: [trader.address, usdceFunding],
      })),
      ...traders.flatMap((trader) => [
        ...spenders.map((spender) => ({
          wallet: trader,
          contract: collateral,
          method: 'approve',
          args: [spender, MaxUint256],
        })),
        ...operators.map((operator) => ({
          wallet: trader,
          contract: ctf,
          method: 'setApprovalForAll',
          args: [operator, true],
        })),
      ]),
    ]);

    const accountSetup = {
      operator: deployer,
      provider,
      compiled,
      wallets,
      collateral,
      spenders,
      operators,
      conditionalTokens: ctfAddress,
      funding,
    };
    const owners = Object.entries(TEST_ACCOUNT_OWNERS) as [AccountKind, number][];
    const testAccounts = await openTestAccounts(
      accountSetup,
      owners.map(([kind, index]) => ({ kind, ownerKey: walletKeys[index]! })),
    );
    await sendInOneBlock(
      provider,
      chain.chainId,
      testAccounts.map((account) => ({
        wallet: deployer,
        contract: usdcE,
        method: 'mint',
        args: [account.address, usdceFunding],
      })),
    );

    return {
      chainId: chain.chainId,
      rpcUrl: chain.rpcUrl,
      orderVersion,
      contracts,
      wallets,
      testAccounts,
      operator: { address: deployer.address, privateKey: operatorKey },
      feeRecipient: FEE_RECIPIENT,
      markets,
      testWallets: walletKeys.map((key) => ({ address: new Wallet(key).address, privateKey: key })),
    };
  } finally {
    provider.destroy();
  }
}

/**
 * Opens (or tops up) `owner`'s account of a kind on a running sandbox, as the deployment does for its test
 * accounts: deployed if needed, `funding` collateral minted to it, every trading approval granted from it.
 */
export async function openAccount(
  deployment: Deployment,
  kind: AccountKind,
  ownerKey: string,
  funding: bigint,
): Promise<TestAccount> {
  const provider = sandboxProvider(deployment.rpcUrl, deployment.chainId);
  try {
    const operator = new Wallet(deployment.operator.privateKey, provider);
    const compiled = compileContracts();
    const { contracts } = deployment;
    const [account] = await openTestAccounts(
      {
        operator,
        provider,
        compiled,
        wallets: deployment.wallets,
        collateral: new Contract(contracts.collateral, compiled.Collateral.abi, operator),
        spenders: [
          contracts.exchange,
          contracts.negRiskExchange,
          contracts.negRiskAdapter,
          contracts.conditionalTokens,
        ],
        operators: [contracts.exchange, contracts.negRiskExchange, contracts.negRiskAdapter],
        conditionalTokens: contracts.conditionalTokens,
        funding,
      },
      [{ kind, ownerKey }],
    );
    return account!;
  } finally {
    provider.destroy();
  }
}
