// The sandbox's Polymarket accounts: deploys the proxy-wallet, Safe and deposit-wallet factories (with their
// implementation, master copy, beacon and MultiSend), and opens one funded account of each kind for a test
// key, its approvals granted from the account itself (proxy(), execTransaction through MultiSend, and an
// owner-signed deposit-wallet batch), so each can trade as soon as the sandbox is up.
import {
  AbiCoder,
  Contract,
  Interface,
  MaxUint256,
  Signature,
  Wallet,
  ZeroAddress,
  concat,
  getCreateAddress,
  solidityPacked,
  type JsonRpcProvider,
} from 'ethers';
import type { CompiledContracts } from './compile.js';
import { sendRawInOneBlock, type RawTransaction } from './transactions.js';
import {
  SIGNATURE_TYPE_OF,
  accountAddress,
  safeInitCodeHash,
  type AccountKind,
  type SandboxWallets,
} from './wallet-addresses.js';

export interface TestAccount {
  kind: AccountKind;
  /** The EOA whose key signs for the account (one of the deployment's test wallets). */
  owner: string;
  /** The account: where funds sit and the order's maker. */
  address: string;
  signatureType: 1 | 2 | 3;
}

/** A call the account makes: to `to` with `data`, no value. */
export interface AccountCall {
  to: string;
  data: string;
}

/** Generous fixed limits: nothing is estimated, so a block of setup transactions needs no round trips. */
const CREATION_GAS = 2_500_000n;
const ACCOUNT_TX_GAS = 2_000_000n;
const SIMPLE_CALL_GAS = 150_000n;

/**
 * Deploys the three factories and what they clone or point at, and sets the proxy and Safe factories on the
 * given exchanges, all in one block: every address follows from the deployer's nonce.
 */
export async function deployWalletFactories(
  deployer: Wallet,
  compiled: CompiledContracts,
  exchanges: Contract[],
): Promise<SandboxWallets> {
  const provider = deployer.provider as JsonRpcProvider;
  const chainId = Number((await provider.getNetwork()).chainId);
  const first = await provider.getTransactionCount(deployer.address, 'pending');
  const at = (offset: number) => getCreateAddress({ from: deployer.address, nonce: first + offset });
  const creation = (
    artifact: { abi: unknown; bytecode: string },
    types: string[] = [],
    args: unknown[] = [],
    gasLimit = CREATION_GAS,
  ): RawTransaction => ({
    wallet: deployer,
    data: concat([artifact.bytecode, AbiCoder.defaultAbiCoder().encode(types, args)]),
    gasLimit,
  });
  // Creation order: proxy factory, Safe master copy, Safe factory, MultiSend, deposit-wallet implementation,
  // beacon, factory; the exchanges' two settings each; then the relay hub, last so that every address before it
  // is what it was before the sandbox had a hub (the factory is told the hub's address in advance).
  const hubOffset = 7 + exchanges.length * 2;
  const wallets: SandboxWallets = {
    proxyFactory: at(0),
    // The factory's constructor creates the implementation: the factory's first nonce (EIP-161 starts at 1).
    proxyImplementation: getCreateAddress({ from: at(0), nonce: 1 }),
    safeFactory: at(2),
    safeMasterCopy: at(1),
    safeInitCodeHash: safeInitCodeHash(compiled.SafeProxy.bytecode, at(1)),
    depositWalletFactory: at(6),
    depositWalletBeacon: at(5),
    depositWalletImplementation: at(4),
    multiSend: at(3),
    relayHub: at(hubOffset),
  };
  const exchange = new Interface(compiled.CTFExchange.abi);
  await sendRawInOneBlock(provider, chainId, [
    creation(compiled.ProxyWalletFactory, ['address', 'address'], [wallets.relayHub, ZeroAddress], 4_000_000n),
    creation(compiled.Safe),
    creation(compiled.SafeProxyFactory, ['address', 'address'], [wallets.safeMasterCopy, ZeroAddress]),
    creation(compiled.MultiSend),
    creation(compiled.DepositWallet),
    creation(compiled.DepositWalletBeacon, ['address'], [wallets.depositWalletImplementation]),
    creation(compiled.DepositWalletFactory, ['address'], [wallets.depositWalletBeacon]),
    ...exchanges.flatMap((venue) => [
      {
        wallet: deployer,
        to: venue.target as string,
        data: exchange.encodeFunctionData('setProxyFactory', [wallets.proxyFactory]),
        gasLimit: SIMPLE_CALL_GAS,
      },
      {
        wallet: deployer,
        to: venue.target as string,
        data: exchange.encodeFunctionData('setSafeFactory', [wallets.safeFactory]),
        gasLimit: SIMPLE_CALL_GAS,
      },
    ]),
    creation(compiled.RelayHub),
  ]);
  return wallets;
}

// ---------------------------------------------------------------- signing what the owners sign

/** The owner's EIP-712 CreateProxy signature that lets anyone deploy its Safe (no payment). */
export async function signCreateProxy(
  owner: Wallet,
  wallets: SandboxWallets,
  chainId: number,
): Promise<{ v: number; r: string; s: string }> {
  const signature = await owner.signTypedData(
    { name: 'Polymarket Contract Proxy Factory', chainId, verifyingContract: wallets.safeFactory },
    {
      CreateProxy: [
        { name: 'paymentToken', type: 'address' },
        { name: 'payment', type: 'uint256' },
        { name: 'paymentReceiver', type: 'address' },
      ],
    },
    { paymentToken: ZeroAddress, payment: 0n, paymentReceiver: ZeroAddress },
  );
  const { v, r, s } = Signature.from(signature);
  return { v, r, s };
}

export const SAFE_TX_TYPES = {
  SafeTx: [
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'data', type: 'bytes' },
    { name: 'operation', type: 'uint8' },
    { name: 'safeTxGas', type: 'uint256' },
    { name: 'baseGas', type: 'uint256' },
    { name: 'gasPrice', type: 'uint256' },
    { name: 'gasToken', type: 'address' },
    { name: 'refundReceiver', type: 'address' },
    { name: 'nonce', type: 'uint256' },
  ],
};

/** MultiSend's packed entries: (uint8 operation 0, address to, uint256 value 0, uint256 length, bytes data). */
export function multiSendPayload(calls: AccountCall[]): string {
  return concat(
    calls.map(({ to, data }) =>
      solidityPacked(['uint8', 'address', 'uint256', 'uint256', 'bytes'], [0, to, 0, (data.length - 2) / 2, data]),
    ),
  );
}

/** execTransaction calldata running `calls` as `owner`'s Safe at Safe nonce `nonce`, signed as typed data (v 27/28). */
export async function safeExecution(
  owner: Wallet,
  safe: string,
  nonce: bigint,
  chainId: number,
  wallets: SandboxWallets,
  compiled: CompiledContracts,
  calls: AccountCall[],
): Promise<string> {
  const multiSend = new Interface(compiled.MultiSend.abi);
  const [to, data, operation] =
    calls.length === 1
      ? [calls[0]!.to, calls[0]!.data, 0]
      : [wallets.multiSend, multiSend.encodeFunctionData('multiSend', [multiSendPayload(calls)]), 1];
  const tx = {
    to,
    value: 0n,
    data,
    operation,
    safeTxGas: 0n,
    baseGas: 0n,
    gasPrice: 0n,
    gasToken: ZeroAddress,
    refundReceiver: ZeroAddress,
    nonce,
  };
  const signature = await owner.signTypedData({ chainId, verifyingContract: safe }, SAFE_TX_TYPES, tx);
  return new Interface(compiled.Safe.abi).encodeFunctionData('execTransaction', [
    to,
    0n,
    data,
    operation,
    0n,
    0n,
    0n,
    ZeroAddress,
    ZeroAddress,
    signature,
  ]);
}

export const DEPOSIT_BATCH_TYPES = {
  Batch: [
    { name: 'wallet', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
    { name: 'calls', type: 'Call[]' },
  ],
  Call: [
    { name: 'target', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'data', type: 'bytes' },
  ],
};

/** execute() calldata running `calls` as `owner`'s deposit wallet at batch nonce `nonce`, the owner's Batch signature inside. */
export async function depositWalletExecution(
  owner: Wallet,
  wallet: string,
  nonce: bigint,
  chainId: number,
  compiled: CompiledContracts,
  calls: AccountCall[],
): Promise<string> {
  const batchCalls = calls.map(({ to, data }) => ({ target: to, value: 0n, data }));
  const deadline = BigInt(Math.floor(Date.now() / 1000) + 3600);
  const signature = await owner.signTypedData(
    { name: 'DepositWallet', version: '1', chainId, verifyingContract: wallet },
    DEPOSIT_BATCH_TYPES,
    { wallet, nonce, deadline, calls: batchCalls },
  );
  return new Interface(compiled.DepositWallet.abi).encodeFunctionData('execute', [batchCalls, deadline, signature]);
}

// ---------------------------------------------------------------- the test accounts

export interface AccountSetup {
  operator: Wallet;
  provider: JsonRpcProvider;
  compiled: CompiledContracts;
  wallets: SandboxWallets;
  collateral: Contract;
  /** Collateral spenders (approve MAX) and outcome-token operators (setApprovalForAll) every account needs. */
  spenders: string[];
  operators: string[];
  conditionalTokens: string;
  funding: bigint;
}

/**
 * Opens accounts: each deployed if it has no code yet, funded with collateral (minted to it) and given every
 * approval from the account itself. All in one block; the owners sign here, the operator sends what anyone may
 * send (createProxy, execTransaction, the deposit-wallet batch) and each proxy owner sends its own proxy().
 */
export async function openTestAccounts(
  setup: AccountSetup,
  requests: { kind: AccountKind; ownerKey: string }[],
): Promise<TestAccount[]> {
  const { operator, provider, compiled, wallets, collateral } = setup;
  const chainId = Number((await provider.getNetwork()).chainId);
  const ctf = new Interface(['function setApprovalForAll(address,bool)']);
  const calls: AccountCall[] = [
    ...setup.spenders.map((spender) => ({
      to: collateral.target as string,
      data: collateral.interface.encodeFunctionData('approve', [spender, MaxUint256]),
    })),
    ...setup.operators.map((op) => ({
      to: setup.conditionalTokens,
      data: ctf.encodeFunctionData('setApprovalForAll', [op, true]),
    })),
  ];
  const transactions: RawTransaction[] = [];
  const send = (wallet: Wallet, to: string, data: string, gasLimit = ACCOUNT_TX_GAS) =>
    transactions.push({ wallet, to, data, gasLimit });
  const opened: TestAccount[] = [];
  for (const { kind, ownerKey } of requests) {
    const owner = new Wallet(ownerKey, provider);
    const address = accountAddress(wallets, kind, owner.address);
    const deployed = (await provider.getCode(address)) !== '0x';
    send(
      operator,
      collateral.target as string,
      collateral.interface.encodeFunctionData('mint', [address, setup.funding]),
      SIMPLE_CALL_GAS,
    );
    if (kind === 'proxy') {
      // The owner calls the factory itself: its first proxy() deploys the wallet, then runs the batch as it.
      const factory = new Interface(compiled.ProxyWalletFactory.abi);
      send(
        owner,
        wallets.proxyFactory,
        factory.encodeFunctionData('proxy', [calls.map(({ to, data }) => ({ typeCode: 1, to, value: 0n, data }))]),
      );
    } else if (kind === 'safe') {
      if (!deployed) {
        const factory = new Interface(compiled.SafeProxyFactory.abi);
        send(
          operator,
          wallets.safeFactory,
          factory.encodeFunctionData('createProxy', [
            ZeroAddress,
            0n,
            ZeroAddress,
            await signCreateProxy(owner, wallets, chainId),
          ]),
        );
      }
      const nonce = deployed
        ? ((await new Contract(address, compiled.Safe.abi, provider).getFunction('nonce')()) as bigint)
        : 0n;
      send(operator, address, await safeExecution(owner, address, nonce, chainId, wallets, compiled, calls));
    } else {
      if (!deployed)
        send(
          operator,
          wallets.depositWalletFactory,
          new Interface(compiled.DepositWalletFactory.abi).encodeFunctionData('deployWallet', [owner.address]),
        );
      const nonce = deployed
        ? ((await new Contract(address, compiled.DepositWallet.abi, provider).getFunction('nonce')()) as bigint)
        : 0n;
      send(operator, address, await depositWalletExecution(owner, address, nonce, chainId, compiled, calls));
    }
    opened.push({ kind, owner: owner.address, address, signatureType: SIGNATURE_TYPE_OF[kind] });
  }
  await sendRawInOneBlock(provider, chainId, transactions);
  return opened;
}
