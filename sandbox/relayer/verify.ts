// What the sandbox relayer checks before it spends its own gas on a request: the request's shape, that the wallet
// is the sender's own, and that the signature is the owner's over exactly what the wallet contract will hash
// (read from the contract where it can say: the Safe's getTransactionHash and nonce, the deposit wallet's nonce).
// Checked with ethers directly, never with the toolkit's signing code (the lint boundary for sandbox/).
import {
  Interface,
  TypedDataEncoder,
  Signature,
  concat,
  getBytes,
  hashMessage,
  isAddress,
  keccak256,
  recoverAddress,
  toBeHex,
  toUtf8Bytes,
  type JsonRpcProvider,
} from 'ethers';
import { z } from 'zod';
import { TX_OVERRIDES } from '../chain/transactions';
import { depositWalletAddress, proxyWalletAddress, safeAddress, type SandboxWallets } from '../chain/wallet-addresses';

export class RelayerRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const address = z.string().refine((v) => isAddress(v), 'not an address');
const hex = z
  .string()
  .regex(/^0x([0-9a-fA-F]{2})*$/, 'not hex bytes')
  .max(200_000);
const decimal = z.string().regex(/^(0|[1-9][0-9]{0,77})$/, 'not a whole number');
const signature = z.string().regex(/^0x[0-9a-fA-F]{130}$/, 'not a 65-byte signature');

const proxySchema = z.object({
  type: z.literal('PROXY'),
  from: address,
  to: address,
  proxyWallet: address,
  data: hex,
  nonce: decimal,
  signature,
  signatureParams: z.object({
    gasPrice: decimal,
    gasLimit: decimal,
    relayerFee: decimal,
    relayHub: address,
    relay: address,
  }),
  metadata: z.string().max(500).optional(),
});
const safeSchema = z.object({
  type: z.literal('SAFE'),
  from: address,
  to: address,
  proxyWallet: address,
  data: hex,
  nonce: decimal,
  signature,
  signatureParams: z.object({
    gasPrice: z.literal('0'),
    operation: z.enum(['0', '1']),
    safeTxnGas: z.literal('0'),
    baseGas: z.literal('0'),
    gasToken: address,
    refundReceiver: address,
  }),
  metadata: z.string().max(500).optional(),
});
const safeCreateSchema = z.object({
  type: z.literal('SAFE-CREATE'),
  from: address,
  to: address,
  proxyWallet: address,
  data: z.literal('0x'),
  signature,
  signatureParams: z.object({ paymentToken: address, payment: decimal, paymentReceiver: address }),
});
const walletSchema = z.object({
  type: z.literal('WALLET'),
  from: address,
  to: address,
  nonce: decimal,
  signature,
  depositWalletParams: z.object({
    depositWallet: address,
    deadline: z.union([decimal, z.number().int().nonnegative()]).transform(String),
    calls: z
      .array(z.object({ target: address, value: decimal, data: hex }))
      .min(1)
      .max(50),
  }),
});
const walletCreateSchema = z.object({ type: z.literal('WALLET-CREATE'), from: address, to: address });

export const submitSchema = z.discriminatedUnion('type', [
  proxySchema,
  safeSchema,
  safeCreateSchema,
  walletSchema,
  walletCreateSchema,
]);
export type SubmitRequest = z.infer<typeof submitSchema>;

export const SAFE_ABI = new Interface([
  'function nonce() view returns (uint256)',
  'function getTransactionHash(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, uint256 nonce) view returns (bytes32)',
  'function execTransaction(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, bytes signatures) payable returns (bool)',
]);
export const SAFE_FACTORY_ABI = new Interface([
  'function createProxy(address paymentToken, uint256 payment, address paymentReceiver, (uint8 v, bytes32 r, bytes32 s) createSig)',
]);
export const DEPOSIT_WALLET_ABI = new Interface([
  'function nonce() view returns (uint256)',
  'function execute((address target, uint256 value, bytes data)[] calls, uint256 deadline, bytes signature) payable',
]);
export const DEPOSIT_FACTORY_ABI = new Interface(['function deployWallet(address owner) returns (address)']);
export const RELAY_HUB_ABI = new Interface([
  'function getNonce(address from) view returns (uint256)',
  'function relayCall(address from, address to, bytes encodedFunction, uint256 transactionFee, uint256 gasPrice, uint256 gasLimit, uint256 nonce, bytes signature, bytes approvalData)',
  'event TransactionRelayed(address indexed relay, address indexed from, address indexed to, bytes4 selector, uint8 status, uint256 charge)',
]);

const ZERO = '0x0000000000000000000000000000000000000000';
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** A contract call the relay account makes for a request, once it has passed every check. */
export interface RelayCall {
  to: string;
  data: string;
  /** The wallet the request acts for (the proxy wallet, Safe, deposit wallet), for the transaction record. */
  proxyAddress: string;
  /** The gas the relay transaction may use, when the request names it (PROXY); otherwise the relayer's own. */
  gasLimit?: bigint;
}

/** The relay account's gas price (legacy transactions; the sandbox's base fee is 0). A PROXY request's may not exceed it. */
export const RELAY_GAS_PRICE = TX_OVERRIDES.gasPrice;
/** The most a PROXY request may give its call: under the sandbox's 30 M block with the hub's own cost on top. */
const MAX_RELAYED_GAS = 20_000_000n;
/** What relayCall itself costs around the call it forwards: signature check, nonce, event, calldata. */
const RELAY_HUB_OVERHEAD = 200_000n;

async function hasCode(provider: JsonRpcProvider, at: string): Promise<boolean> {
  return (await provider.getCode(at)) !== '0x';
}
async function readNonce(provider: JsonRpcProvider, abi: Interface, at: string): Promise<bigint> {
  if (!(await hasCode(provider, at))) return 0n;
  return BigInt(await provider.call({ to: at, data: abi.encodeFunctionData('nonce') }));
}

/** The owner's relay nonce at the hub: what a PROXY request must carry next. */
export async function relayNonce(provider: JsonRpcProvider, wallets: SandboxWallets, owner: string): Promise<bigint> {
  return BigInt(
    await provider.call({ to: wallets.relayHub, data: RELAY_HUB_ABI.encodeFunctionData('getNonce', [owner]) }),
  );
}

/** The nonce `/nonce` answers: the hub's relay nonce, or the Safe's or deposit wallet's own counter (0 before it is deployed). */
export async function walletNonce(
  provider: JsonRpcProvider,
  wallets: SandboxWallets,
  owner: string,
  type: 'PROXY' | 'SAFE' | 'WALLET',
): Promise<bigint> {
  if (type === 'PROXY') return relayNonce(provider, wallets, owner);
  if (type === 'SAFE')
    return readNonce(provider, SAFE_ABI, safeAddress(wallets.safeFactory, wallets.safeInitCodeHash, owner));
  return readNonce(
    provider,
    DEPOSIT_WALLET_ABI,
    depositWalletAddress(wallets.depositWalletFactory, wallets.depositWalletBeacon, owner),
  );
}

/** keccak256("rlx:" ‖ from ‖ to ‖ data ‖ fee ‖ gasPrice ‖ gasLimit ‖ nonce ‖ relayHub ‖ relay), as GSN's RelayHub hashes it. */
export function rlxHash(r: Extract<SubmitRequest, { type: 'PROXY' }>): string {
  const p = r.signatureParams;
  return keccak256(
    concat([
      toUtf8Bytes('rlx:'),
      r.from,
      r.to,
      r.data,
      toBeHex(BigInt(p.relayerFee), 32),
      toBeHex(BigInt(p.gasPrice), 32),
      toBeHex(BigInt(p.gasLimit), 32),
      toBeHex(BigInt(r.nonce), 32),
      p.relayHub,
      p.relay,
    ]),
  );
}

function recoverOrRefuse(digest: string, sig: string): string {
  try {
    return recoverAddress(digest, sig);
  } catch {
    throw new RelayerRefusal(400, 'invalid signature');
  }
}

/** The account a request acts for (or creates): what the relayer keeps one action in flight for. */
export function requestWallet(wallets: SandboxWallets, r: SubmitRequest): string {
  if (r.type === 'PROXY') return proxyWalletAddress(wallets.proxyFactory, wallets.proxyImplementation, r.from);
  if (r.type === 'SAFE' || r.type === 'SAFE-CREATE')
    return safeAddress(wallets.safeFactory, wallets.safeInitCodeHash, r.from);
  return depositWalletAddress(wallets.depositWalletFactory, wallets.depositWalletBeacon, r.from);
}

/**
 * Checks one request against the chain and says what to send, or refuses it (400) naming why. PROXY goes to the
 * relay hub's relayCall, which checks the same signature and nonce again on chain.
 */
export async function verifyRequest(
  provider: JsonRpcProvider,
  chainId: number,
  wallets: SandboxWallets,
  relay: string,
  r: SubmitRequest,
): Promise<RelayCall> {
  const from = r.from;
  switch (r.type) {
    case 'PROXY': {
      if (!same(r.to, wallets.proxyFactory)) throw new RelayerRefusal(400, 'to is not the proxy factory');
      if (!same(r.proxyWallet, proxyWalletAddress(wallets.proxyFactory, wallets.proxyImplementation, from)))
        throw new RelayerRefusal(400, 'proxyWallet is not the sender’s proxy wallet');
      if (!same(r.signatureParams.relay, relay)) throw new RelayerRefusal(400, 'relay is not this relayer');
      if (!same(r.signatureParams.relayHub, wallets.relayHub))
        throw new RelayerRefusal(400, 'relayHub is not the sandbox relay hub');
      const p = r.signatureParams;
      // The hub forwards gasLimit to the factory; more than a block holds could never run.
      if (BigInt(p.gasLimit) > MAX_RELAYED_GAS)
        throw new RelayerRefusal(400, `gasLimit ${p.gasLimit} is above ${MAX_RELAYED_GAS}`);
      if (BigInt(p.gasPrice) > RELAY_GAS_PRICE)
        throw new RelayerRefusal(400, `gasPrice ${p.gasPrice} is above the relay's ${RELAY_GAS_PRICE}`);
      const current = await relayNonce(provider, wallets, from);
      if (BigInt(r.nonce) !== current)
        throw new RelayerRefusal(400, `nonce ${r.nonce} is not the sender’s relay nonce ${current}`);
      if (!same(recoverOrRefuse(hashMessage(getBytes(rlxHash(r))), r.signature), from))
        throw new RelayerRefusal(400, 'invalid signature');
      const data = RELAY_HUB_ABI.encodeFunctionData('relayCall', [
        from,
        r.to,
        r.data,
        BigInt(p.relayerFee),
        BigInt(p.gasPrice),
        BigInt(p.gasLimit),
        BigInt(r.nonce),
        r.signature,
        '0x',
      ]);
      return {
        to: wallets.relayHub,
        data,
        proxyAddress: r.proxyWallet,
        gasLimit: BigInt(p.gasLimit) + RELAY_HUB_OVERHEAD,
      };
    }
    case 'SAFE': {
      const safe = safeAddress(wallets.safeFactory, wallets.safeInitCodeHash, from);
      if (!same(r.proxyWallet, safe)) throw new RelayerRefusal(400, 'proxyWallet is not the sender’s Safe');
      if (!(await hasCode(provider, safe))) throw new RelayerRefusal(400, 'the Safe is not deployed');
      const operation = Number(r.signatureParams.operation);
      if (operation === 1 && !same(r.to, wallets.multiSend))
        throw new RelayerRefusal(400, 'a DELEGATECALL goes only to MultiSend');
      if (!same(r.signatureParams.gasToken, ZERO) || !same(r.signatureParams.refundReceiver, ZERO))
        throw new RelayerRefusal(400, 'no gas refund is paid');
      const current = await readNonce(provider, SAFE_ABI, safe);
      if (BigInt(r.nonce) !== current)
        throw new RelayerRefusal(400, `nonce ${r.nonce} is not the Safe’s nonce ${current}`);
      const args = [r.to, 0n, r.data, operation, 0n, 0n, 0n, ZERO, ZERO] as const;
      const [hash] = SAFE_ABI.decodeFunctionResult(
        'getTransactionHash',
        await provider.call({ to: safe, data: SAFE_ABI.encodeFunctionData('getTransactionHash', [...args, current]) }),
      ) as unknown as [string];
      // As the Safe reads one owner's r‖s‖v: v > 30 is eth_sign of the hash (v − 4), 27/28 the hash itself.
      const bytes = getBytes(r.signature);
      const v = bytes[64]!;
      const signer =
        v > 30
          ? recoverOrRefuse(hashMessage(getBytes(hash)), concat([bytes.subarray(0, 64), new Uint8Array([v - 4])]))
          : recoverOrRefuse(hash, r.signature);
      if (!same(signer, from)) throw new RelayerRefusal(400, 'invalid signature');
      return {
        to: safe,
        data: SAFE_ABI.encodeFunctionData('execTransaction', [...args, r.signature]),
        proxyAddress: safe,
      };
    }
    case 'SAFE-CREATE': {
      if (!same(r.to, wallets.safeFactory)) throw new RelayerRefusal(400, 'to is not the Safe factory');
      const safe = safeAddress(wallets.safeFactory, wallets.safeInitCodeHash, from);
      if (!same(r.proxyWallet, safe)) throw new RelayerRefusal(400, 'proxyWallet is not the sender’s Safe');
      if (await hasCode(provider, safe)) throw new RelayerRefusal(400, 'the Safe is already deployed');
      const p = r.signatureParams;
      if (!same(p.paymentToken, ZERO) || p.payment !== '0' || !same(p.paymentReceiver, ZERO))
        throw new RelayerRefusal(400, 'the relayer takes no payment');
      const domain = { name: 'Polymarket Contract Proxy Factory', chainId, verifyingContract: wallets.safeFactory };
      const types = {
        CreateProxy: [
          { name: 'paymentToken', type: 'address' },
          { name: 'payment', type: 'uint256' },
          { name: 'paymentReceiver', type: 'address' },
        ],
      };
      if (!same(recoverOrRefuse(TypedDataEncoder.hash(domain, types, p), r.signature), from))
        throw new RelayerRefusal(400, 'invalid signature');
      const split = Signature.from(r.signature);
      return {
        to: wallets.safeFactory,
        data: SAFE_FACTORY_ABI.encodeFunctionData('createProxy', [ZERO, 0n, ZERO, [split.v, split.r, split.s]]),
        proxyAddress: safe,
      };
    }
    case 'WALLET': {
      if (!same(r.to, wallets.depositWalletFactory))
        throw new RelayerRefusal(400, 'to is not the deposit-wallet factory');
      const params = r.depositWalletParams;
      const wallet = depositWalletAddress(wallets.depositWalletFactory, wallets.depositWalletBeacon, from);
      if (!same(params.depositWallet, wallet))
        throw new RelayerRefusal(400, 'depositWallet is not the sender’s deposit wallet');
      if (!(await hasCode(provider, wallet))) throw new RelayerRefusal(400, 'the deposit wallet is not deployed');
      const current = await readNonce(provider, DEPOSIT_WALLET_ABI, wallet);
      // Polymarket's wording: its clients read the two numbers from it to tell a stale batch from a gap.
      if (BigInt(r.nonce) !== current)
        throw new RelayerRefusal(400, `batch nonce ${r.nonce} does not match on-chain nonce ${current}`);
      const block = await provider.getBlock('latest');
      if (BigInt(params.deadline) < BigInt(block?.timestamp ?? 0))
        throw new RelayerRefusal(400, 'the batch deadline has passed');
      const domain = { name: 'DepositWallet', version: '1', chainId, verifyingContract: wallet };
      const types = {
        Call: [
          { name: 'target', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'data', type: 'bytes' },
        ],
        Batch: [
          { name: 'wallet', type: 'address' },
          { name: 'nonce', type: 'uint256' },
          { name: 'deadline', type: 'uint256' },
          { name: 'calls', type: 'Call[]' },
        ],
      };
      const digest = TypedDataEncoder.hash(domain, types, {
        wallet,
        nonce: current,
        deadline: params.deadline,
        calls: params.calls,
      });
      if (!same(recoverOrRefuse(digest, r.signature), from)) throw new RelayerRefusal(400, 'invalid signature');
      const calls = params.calls.map((c) => [c.target, BigInt(c.value), c.data]);
      return {
        to: wallet,
        data: DEPOSIT_WALLET_ABI.encodeFunctionData('execute', [calls, BigInt(params.deadline), r.signature]),
        proxyAddress: wallet,
      };
    }
    case 'WALLET-CREATE': {
      if (!same(r.to, wallets.depositWalletFactory))
        throw new RelayerRefusal(400, 'to is not the deposit-wallet factory');
      const wallet = depositWalletAddress(wallets.depositWalletFactory, wallets.depositWalletBeacon, from);
      if (await hasCode(provider, wallet)) throw new RelayerRefusal(400, 'the deposit wallet is already deployed');
      return {
        to: wallets.depositWalletFactory,
        data: DEPOSIT_FACTORY_ABI.encodeFunctionData('deployWallet', [from]),
        proxyAddress: wallet,
      };
    }
  }
}
