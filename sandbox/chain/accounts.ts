// The sandbox's Polymarket accounts: deploys the proxy-wallet, Safe and deposit-wallet factories (with their
// implementation, master copy, beacon and MultiSend), and opens one funded account of each kind for a test
// key, its approvals granted from the account itself (proxy(), execTransaction through MultiSend, and an
// owner-signed deposit-wallet batch), so each can trade as soon as the sandbox is up.
import { Contract, ContractFactory, MaxUint256, Signature, Wallet, ZeroAddress, concat, solidityPacked, type InterfaceAbi, type JsonRpcProvider } from 'ethers';
import type { CompiledContracts } from './compile.js';
import { TX_OVERRIDES, mined } from './transactions.js';
import { SIGNATURE_TYPE_OF, accountAddress, safeInitCodeHash, type AccountKind, type SandboxWallets } from './wallet-addresses.js';

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

async function deploy(deployer: Wallet, artifact: { abi: InterfaceAbi; bytecode: string }, args: unknown[] = []): Promise<Contract> {
  const contract = await new ContractFactory(artifact.abi, artifact.bytecode, deployer).deploy(...args, TX_OVERRIDES);
  await contract.waitForDeployment();
  return new Contract(await contract.getAddress(), artifact.abi, deployer);
}

/** Deploys the three factories and what they clone or point at. */
export async function deployWalletFactories(deployer: Wallet, compiled: CompiledContracts): Promise<SandboxWallets> {
  const proxyFactory = await deploy(deployer, compiled.ProxyWalletFactory);
  const safeMasterCopy = await deploy(deployer, compiled.Safe);
  const masterCopy = await safeMasterCopy.getAddress();
  const safeFactory = await deploy(deployer, compiled.SafeProxyFactory, [masterCopy, ZeroAddress]);
  const multiSend = await deploy(deployer, compiled.MultiSend);
  const depositImplementation = await deploy(deployer, compiled.DepositWallet);
  const beacon = await deploy(deployer, compiled.DepositWalletBeacon, [await depositImplementation.getAddress()]);
  const depositFactory = await deploy(deployer, compiled.DepositWalletFactory, [await beacon.getAddress()]);
  return {
    proxyFactory: await proxyFactory.getAddress(),
    proxyImplementation: (await proxyFactory.getFunction('getImplementation')()) as string,
    safeFactory: await safeFactory.getAddress(),
    safeMasterCopy: masterCopy,
    safeInitCodeHash: safeInitCodeHash(compiled.SafeProxy.bytecode, masterCopy),
    depositWalletFactory: await depositFactory.getAddress(),
    depositWalletBeacon: await beacon.getAddress(),
    depositWalletImplementation: await depositImplementation.getAddress(),
    multiSend: await multiSend.getAddress(),
  };
}

// ---------------------------------------------------------------- signing what the owners sign

/** The owner's EIP-712 CreateProxy signature that lets anyone deploy its Safe (no payment). */
export async function signCreateProxy(owner: Wallet, wallets: SandboxWallets, chainId: number): Promise<{ v: number; r: string; s: string }> {
  const signature = await owner.signTypedData(
    { name: 'Polymarket Contract Proxy Factory', chainId, verifyingContract: wallets.safeFactory },
    { CreateProxy: [{ name: 'paymentToken', type: 'address' }, { name: 'payment', type: 'uint256' }, { name: 'paymentReceiver', type: 'address' }] },
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
  return concat(calls.map(({ to, data }) => solidityPacked(['uint8', 'address', 'uint256', 'uint256', 'bytes'], [0, to, 0, (data.length - 2) / 2, data])));
}

/** Runs calls as `owner`'s Safe: one SafeTx the owner signs (typed data, v 27/28), sent by `sender`. */
export async function execFromSafe(sender: Wallet, owner: Wallet, safe: string, wallets: SandboxWallets, compiled: CompiledContracts, calls: AccountCall[]): Promise<void> {
  const contract = new Contract(safe, compiled.Safe.abi, sender);
  const multiSend = new Contract(wallets.multiSend, compiled.MultiSend.abi);
  const [to, data, operation] =
    calls.length === 1 ? [calls[0]!.to, calls[0]!.data, 0] : [wallets.multiSend, multiSend.interface.encodeFunctionData('multiSend', [multiSendPayload(calls)]), 1];
  const nonce = (await contract.getFunction('nonce')()) as bigint;
  const chainId = (await sender.provider!.getNetwork()).chainId;
  const tx = { to, value: 0n, data, operation, safeTxGas: 0n, baseGas: 0n, gasPrice: 0n, gasToken: ZeroAddress, refundReceiver: ZeroAddress, nonce };
  const signature = await owner.signTypedData({ chainId, verifyingContract: safe }, SAFE_TX_TYPES, tx);
  await mined(contract.getFunction('execTransaction')(to, 0n, data, operation, 0n, 0n, 0n, ZeroAddress, ZeroAddress, signature, TX_OVERRIDES));
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

/** Runs calls as `owner`'s deposit wallet: one Batch the owner signs, submitted by `sender` (the relayer's role). */
export async function execFromDepositWallet(sender: Wallet, owner: Wallet, wallet: string, compiled: CompiledContracts, calls: AccountCall[]): Promise<void> {
  const contract = new Contract(wallet, compiled.DepositWallet.abi, sender);
  const nonce = (await contract.getFunction('nonce')()) as bigint;
  const chainId = (await sender.provider!.getNetwork()).chainId;
  const batchCalls = calls.map(({ to, data }) => ({ target: to, value: 0n, data }));
  const deadline = BigInt(Math.floor(Date.now() / 1000) + 3600);
  const signature = await owner.signTypedData(
    { name: 'DepositWallet', version: '1', chainId, verifyingContract: wallet },
    DEPOSIT_BATCH_TYPES,
    { wallet, nonce, deadline, calls: batchCalls },
  );
  await mined(contract.getFunction('execute')(batchCalls, deadline, signature, TX_OVERRIDES));
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

/** Opens `owner`'s account of `kind`: deployed, funded with collateral (minted to it), approvals granted from it. */
export async function openTestAccount(setup: AccountSetup, kind: AccountKind, ownerKey: string): Promise<TestAccount> {
  const { operator, provider, compiled, wallets, collateral } = setup;
  const owner = new Wallet(ownerKey, provider);
  const address = accountAddress(wallets, kind, owner.address);
  const ctf = new Contract(setup.conditionalTokens, ['function setApprovalForAll(address,bool)']);
  const calls: AccountCall[] = [
    ...setup.spenders.map((spender) => ({ to: setup.collateral.target as string, data: collateral.interface.encodeFunctionData('approve', [spender, MaxUint256]) })),
    ...setup.operators.map((op) => ({ to: setup.conditionalTokens, data: ctf.interface.encodeFunctionData('setApprovalForAll', [op, true]) })),
  ];
  await mined(collateral.getFunction('mint')(address, setup.funding, TX_OVERRIDES));
  if (kind === 'proxy') {
    // The owner calls the factory itself: its first proxy() deploys the wallet, then runs the batch as it.
    const factory = new Contract(wallets.proxyFactory, compiled.ProxyWalletFactory.abi, owner);
    await mined(factory.getFunction('proxy')(calls.map(({ to, data }) => ({ typeCode: 1, to, value: 0n, data })), TX_OVERRIDES));
  } else if (kind === 'safe') {
    const factory = new Contract(wallets.safeFactory, compiled.SafeProxyFactory.abi, operator);
    const chainId = Number((await provider.getNetwork()).chainId);
    await mined(factory.getFunction('createProxy')(ZeroAddress, 0n, ZeroAddress, await signCreateProxy(owner, wallets, chainId), TX_OVERRIDES));
    await execFromSafe(operator, owner, address, wallets, compiled, calls);
  } else {
    const factory = new Contract(wallets.depositWalletFactory, compiled.DepositWalletFactory.abi, operator);
    await mined(factory.getFunction('deployWallet')(owner.address, TX_OVERRIDES));
    await execFromDepositWallet(operator, owner, address, compiled, calls);
  }
  return { kind, owner: owner.address, address, signatureType: SIGNATURE_TYPE_OF[kind] };
}
