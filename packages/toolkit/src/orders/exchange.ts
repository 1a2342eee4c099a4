// A typed client for the exchange contract on the chain: order status by hash, the maker's own on-chain
// cancel, the version-1 nonce, the token registry, the pause flag, and the contract's events decoded.
// Reads need a provider; writes need a signer (in the app, the signer worker sends them).
import { Contract, Interface, type ContractRunner, type Log, type TransactionResponse } from 'ethers';
import { ErrorCode, PmDeskError } from '../model/errors';
import type { SignedOrder } from './builder';
import { BYTES32_ZERO, ZERO_ADDRESS } from '../chain/networks';

/**
 * The Order tuple the contract takes. Polymarket's version-1 exchange takes the version-1 struct; the local
 * sandbox's exchange takes one tuple with the fields of every version (docs/sandbox.md).
 */
export type ExchangeAbiKind = 'polymarket-v1' | 'sandbox';

const ORDER_V1_TUPLE =
  'tuple(uint256 salt, address maker, address signer, address taker, uint256 tokenId, uint256 makerAmount, uint256 takerAmount, uint256 expiration, uint256 nonce, uint256 feeRateBps, uint8 side, uint8 signatureType, bytes signature)';
const ORDER_SANDBOX_TUPLE =
  'tuple(uint256 salt, address maker, address signer, address taker, uint256 tokenId, uint256 makerAmount, uint256 takerAmount, uint256 expiration, uint256 nonce, uint256 feeRateBps, uint8 side, uint8 signatureType, uint256 timestamp, bytes32 metadata, bytes32 builder, bytes signature)';

/** Events and reads that Polymarket's exchange and the sandbox's share. */
const COMMON_ABI = [
  'event OrderFilled(bytes32 indexed orderHash, address indexed maker, address indexed taker, uint256 makerAssetId, uint256 takerAssetId, uint256 makerAmountFilled, uint256 takerAmountFilled, uint256 fee)',
  'event OrdersMatched(bytes32 indexed takerOrderHash, address indexed takerOrderMaker, uint256 makerAssetId, uint256 takerAssetId, uint256 makerAmountFilled, uint256 takerAmountFilled)',
  'event OrderCancelled(bytes32 indexed orderHash)',
  'event TokenRegistered(uint256 indexed token0, uint256 indexed token1, bytes32 indexed conditionId)',
  'event TradingPaused(address indexed pauser)',
  'event TradingUnpaused(address indexed pauser)',
  'event NewAdmin(address indexed newAdminAddress, address indexed admin)',
  'event NewOperator(address indexed newOperatorAddress, address indexed admin)',
  'event RemovedAdmin(address indexed removedAdmin, address indexed admin)',
  'event RemovedOperator(address indexed removedOperator, address indexed admin)',
  'event FeeCharged(address indexed receiver, uint256 tokenId, uint256 amount)',
  'function getOrderStatus(bytes32 orderHash) view returns (tuple(bool isFilledOrCancelled, uint256 remaining))',
  'function nonces(address maker) view returns (uint256)',
  'function incrementNonce()',
  'function getComplement(uint256 token) view returns (uint256)',
  'function getConditionId(uint256 token) view returns (bytes32)',
  'function paused() view returns (bool)',
  'function isAdmin(address account) view returns (bool)',
  'function isOperator(address account) view returns (bool)',
];

function abiFor(kind: ExchangeAbiKind): string[] {
  const tuple = kind === 'sandbox' ? ORDER_SANDBOX_TUPLE : ORDER_V1_TUPLE;
  return [
    ...COMMON_ABI,
    `function cancelOrder(${tuple} order)`,
    `function cancelOrders(${tuple}[] orders)`,
    `function hashOrder(${tuple} order) view returns (bytes32)`,
  ];
}

export interface OrderStatusOnChain {
  /** True once the order was filled completely or cancelled. */
  isFilledOrCancelled: boolean;
  /** What is left of its making amount (base units); 0 also for an order the exchange never saw. */
  remaining: bigint;
}

export type ExchangeEvent =
  | {
      name: 'OrderFilled';
      orderHash: string;
      maker: string;
      taker: string;
      makerAssetId: bigint;
      takerAssetId: bigint;
      makerAmountFilled: bigint;
      takerAmountFilled: bigint;
      fee: bigint;
    }
  | {
      name: 'OrdersMatched';
      takerOrderHash: string;
      takerOrderMaker: string;
      makerAssetId: bigint;
      takerAssetId: bigint;
      makerAmountFilled: bigint;
      takerAmountFilled: bigint;
    }
  | { name: 'OrderCancelled'; orderHash: string }
  | { name: 'TokenRegistered'; token0: bigint; token1: bigint; conditionId: string }
  | { name: 'TradingPaused' | 'TradingUnpaused'; pauser: string }
  | { name: 'NewAdmin' | 'NewOperator'; account: string; admin: string }
  | { name: 'RemovedAdmin' | 'RemovedOperator'; account: string; admin: string }
  | { name: 'FeeCharged'; receiver: string; tokenId: bigint; amount: bigint };

export type DecodedEvent = ExchangeEvent & { transactionHash: string; blockNumber: number; logIndex: number };

export class ExchangeContract {
  readonly address: string;
  readonly interface: Interface;
  private readonly contract: Contract;

  constructor(
    address: string,
    runner: ContractRunner,
    readonly kind: ExchangeAbiKind = 'polymarket-v1',
  ) {
    this.address = address;
    this.interface = new Interface(abiFor(kind));
    this.contract = new Contract(address, this.interface, runner);
  }

  async orderStatus(orderHash: string): Promise<OrderStatusOnChain> {
    const status = (await this.call('getOrderStatus', orderHash)) as {
      isFilledOrCancelled: boolean;
      remaining: bigint;
    };
    return { isFilledOrCancelled: status.isFilledOrCancelled, remaining: status.remaining };
  }

  /** Version 1: the nonce a maker's new orders must carry; orders with an older one are void. */
  nonce(maker: string): Promise<bigint> {
    return this.call('nonces', maker) as Promise<bigint>;
  }

  /** Version 1: voids every order the signer signed with its current nonce (needs a signer). */
  incrementNonce(overrides: Record<string, unknown> = {}): Promise<TransactionResponse> {
    return this.call('incrementNonce', overrides) as Promise<TransactionResponse>;
  }

  /** Cancels one of the signer's own orders on the chain (only its maker may). */
  cancelOrder(order: SignedOrder, overrides: Record<string, unknown> = {}): Promise<TransactionResponse> {
    return this.call('cancelOrder', this.tuple(order), overrides) as Promise<TransactionResponse>;
  }

  cancelOrders(orders: readonly SignedOrder[], overrides: Record<string, unknown> = {}): Promise<TransactionResponse> {
    return this.call(
      'cancelOrders',
      orders.map((o) => this.tuple(o)),
      overrides,
    ) as Promise<TransactionResponse>;
  }

  /** The exchange's own hash of an order (the order id), computed on the chain. */
  hashOrder(order: SignedOrder): Promise<string> {
    return this.call('hashOrder', this.tuple(order)) as Promise<string>;
  }

  complementOf(tokenId: string | bigint): Promise<bigint> {
    return this.call('getComplement', tokenId) as Promise<bigint>;
  }

  conditionIdOf(tokenId: string | bigint): Promise<string> {
    return this.call('getConditionId', tokenId) as Promise<string>;
  }

  isPaused(): Promise<boolean> {
    return this.call('paused') as Promise<boolean>;
  }

  /** Decodes the exchange's events among any logs (others are skipped). */
  decodeLogs(logs: readonly Log[]): DecodedEvent[] {
    const out: DecodedEvent[] = [];
    for (const log of logs) {
      if (log.address.toLowerCase() !== this.address.toLowerCase()) continue;
      const parsed = this.interface.parseLog({ topics: [...log.topics], data: log.data });
      if (!parsed) continue;
      const a = parsed.args;
      const where = { transactionHash: log.transactionHash, blockNumber: log.blockNumber, logIndex: log.index };
      switch (parsed.name) {
        case 'OrderFilled':
          out.push({
            name: 'OrderFilled',
            orderHash: a[0],
            maker: a[1],
            taker: a[2],
            makerAssetId: a[3],
            takerAssetId: a[4],
            makerAmountFilled: a[5],
            takerAmountFilled: a[6],
            fee: a[7],
            ...where,
          });
          break;
        case 'OrdersMatched':
          out.push({
            name: 'OrdersMatched',
            takerOrderHash: a[0],
            takerOrderMaker: a[1],
            makerAssetId: a[2],
            takerAssetId: a[3],
            makerAmountFilled: a[4],
            takerAmountFilled: a[5],
            ...where,
          });
          break;
        case 'OrderCancelled':
          out.push({ name: 'OrderCancelled', orderHash: a[0], ...where });
          break;
        case 'TokenRegistered':
          out.push({ name: 'TokenRegistered', token0: a[0], token1: a[1], conditionId: a[2], ...where });
          break;
        case 'TradingPaused':
        case 'TradingUnpaused':
          out.push({ name: parsed.name, pauser: a[0], ...where });
          break;
        case 'NewAdmin':
        case 'NewOperator':
        case 'RemovedAdmin':
        case 'RemovedOperator':
          out.push({ name: parsed.name, account: a[0], admin: a[1], ...where });
          break;
        case 'FeeCharged':
          out.push({ name: 'FeeCharged', receiver: a[0], tokenId: a[1], amount: a[2], ...where });
          break;
      }
    }
    return out;
  }

  /** The exchange's events in a block range, decoded. */
  async events(fromBlock: number, toBlock: number | 'latest' = 'latest'): Promise<DecodedEvent[]> {
    const provider = this.contract.runner?.provider;
    if (!provider)
      throw new PmDeskError(ErrorCode.INVALID_PARAMETER, 'Reading events needs a provider.', { methodName: 'events' });
    return this.decodeLogs(await provider.getLogs({ address: this.address, fromBlock, toBlock }));
  }

  /** The order as this contract's tuple; fields another version lacks are zero. */
  private tuple(order: SignedOrder): Record<string, unknown> {
    const o = order as Partial<Record<string, unknown>> & SignedOrder;
    const sideText = String(o.side);
    const side = sideText === 'BUY' || sideText === '0' ? 0 : sideText === 'SELL' || sideText === '1' ? 1 : Number.NaN;
    if (Number.isNaN(side))
      throw new PmDeskError(ErrorCode.INVALID_PARAMETER, `Invalid order side: ${sideText}`, {
        methodName: 'cancelOrder',
      });
    const common = {
      salt: BigInt(o.salt as string),
      maker: o.maker,
      signer: o.signer,
      taker: (o.taker as string | undefined) ?? ZERO_ADDRESS,
      tokenId: BigInt(o.tokenId as string),
      makerAmount: BigInt(o.makerAmount as string),
      takerAmount: BigInt(o.takerAmount as string),
      expiration: BigInt((o.expiration as string | undefined) ?? 0),
      nonce: BigInt((o.nonce as string | undefined) ?? 0),
      feeRateBps: BigInt((o.feeRateBps as string | undefined) ?? 0),
      side,
      signatureType: Number(o.signatureType),
    };
    if (this.kind === 'polymarket-v1') return { ...common, signature: o.signature };
    return {
      ...common,
      timestamp: BigInt((o.timestamp as string | undefined) ?? 0),
      metadata: (o.metadata as string | undefined) ?? BYTES32_ZERO,
      builder: (o.builder as string | undefined) ?? BYTES32_ZERO,
      signature: o.signature,
    };
  }

  /** Calls the contract; a revert becomes a catalogued error that names the contract's reason. */
  private async call(method: string, ...args: unknown[]): Promise<unknown> {
    try {
      return await this.contract.getFunction(method)(...args);
    } catch (error) {
      const reason = revertReason(this.interface, error);
      throw new PmDeskError(
        ErrorCode.API_REQUEST_FAILED,
        reason ? `The exchange refused ${method}: ${reason}` : `The exchange call ${method} failed.`,
        {
          methodName: method,
          context: { exchange: this.address },
          cause: error,
        },
      );
    }
  }
}

/** The custom error's name (NotOwner, OrderFilledOrCancelled, …) from a revert, when the node reported one. */
function revertReason(abi: Interface, error: unknown): string | undefined {
  const data =
    (error as { data?: unknown; info?: { error?: { data?: unknown } } }).data ??
    (error as { info?: { error?: { data?: unknown } } }).info?.error?.data;
  if (typeof data === 'string' && data.length >= 10) {
    const known: Record<string, string> = {};
    for (const name of [
      'NotOwner',
      'NotTaker',
      'OrderFilledOrCancelled',
      'OrderExpired',
      'InvalidNonce',
      'Paused',
      'InvalidSignature',
      'NotAdmin',
      'NotOperator',
    ]) {
      known[new Interface([`error ${name}()`]).getError(name)!.selector] = name;
    }
    return known[data.slice(0, 10)] ?? abi.parseError(data)?.name;
  }
  return (error as { shortMessage?: string }).shortMessage;
}
