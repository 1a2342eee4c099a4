// The order flow of docs/protocol.md#order-flow for one network: from the trader's order input through pre-trade checks, API
// credentials, allowances, building, signing (in the wallet's signer, never here), posting without ever
// placing an order twice, and the pending list; plus cancels, balances and positions.
import { JsonRpcProvider, Network } from 'ethers';
import { ErrorCode, PmDeskError, invalidParameter, isPmDeskError } from '@pmdesk/toolkit/model';
import type { PositionToken, TraderPosition } from '@pmdesk/toolkit/model';
import type { CredentialVault } from '../credentials/api-credentials';
import { AggregatorClient } from '@pmdesk/toolkit';
import { createMarketSource } from '@pmdesk/toolkit';
import type { MarketSource } from '@pmdesk/toolkit';
import { ExchangeContract } from '@pmdesk/toolkit';
import { ZERO_ADDRESS, walletConfigFor } from '@pmdesk/toolkit';
import { CREDS_CREATION_WARNING, type ApiCredentials } from '@pmdesk/toolkit';
import { ClobClient, type ClobClientOptions, type CreateOrDeriveOrder } from '@pmdesk/toolkit';
import { postOrderOnce, type PostedOrder } from '@pmdesk/toolkit';
import { silentLogger, type Logger } from '@pmdesk/toolkit';
import type { BuiltOrder } from '@pmdesk/toolkit';
import type { PostOrderOptions } from '@pmdesk/toolkit';
import type { ClobSigner } from '@pmdesk/toolkit';
import type { TickSize } from '@pmdesk/toolkit';
import type { SignerClient } from '../wallets/signer-client';
import { accountProblems, credentialsAddress, type TradingAccount } from './account';
import { approvalRelayerFor, relayApprovals } from './relayer-approvals';
import {
  approvalStates,
  approvalTargets,
  chainBalance,
  missingApprovals,
  missingOf,
  setApprovals,
  type ApprovalSender,
  type ApprovalSent,
  type MissingApproval,
} from './allowances';
import { PreTradeCheckError, orderNeeds, preTradeChecks, type PreTradeProblem } from './checks';
import {
  OrderMessages,
  assertOrderRequest,
  findMarket,
  findToken,
  planOrder,
  type OrderPlan,
  type TradedMarket,
  type OrderIntent,
} from './order-input';
import { planOrderFee, type OrderFee, type OrderFeeReads } from './order-fees';
import { ExchangeTerms, isTickRefusal } from './exchange-terms';
import { boundedRpcRequest } from './chain-rpc';
import type { TradingProfile } from './profile';
import { ReadyOrders } from './ready-orders';
import { UnseenShares } from './unseen-shares';
import { marketPriceFromBook, type BookSides } from '@pmdesk/toolkit';
import { fillsWithin, walkBook } from './book-walk';
import { isPostOnlyRefusal, postOnlyRefusedSentence } from '../../shared/post-only';

export type { TradingAccount } from './account';

/** A wallet in the signer worker (PM Desk's own keystores), or an outside JSON-RPC wallet that signs for us. */
export type TradingWallet =
  | { kind: 'worker'; address: string; signer: SignerClient; account?: TradingAccount }
  | { kind: 'json-rpc'; walletAddress?: string; signer: ClobSigner; approvals: ApprovalSender };

export interface TradingServiceOptions {
  profile: TradingProfile;
  vault: CredentialVault;
  /** Where markets and positions are read; the profile's source (createMarketSource) unless given. */
  markets?: MarketSource;
  /**
   * The aggregator's price oracle, offered an order's price when the exchange placed nothing (docs/protocol.md#order-flow); built
   * from the profile's aggregatorUrl unless given. A profile without one (Polymarket direct) has no oracle.
   */
  oracle?: AggregatorClient;
  /** docs/protocol.md#order-flow gives both readings: derive first (default), or create first. */
  credentialsOrder?: CreateOrDeriveOrder;
  /** Told what the trader should know as it happens: new credentials, each approval sent. */
  onNotice?: (message: string) => void;
  logger?: Logger;
  /** Per exchange request; a post that gets no answer in time is reconciled, never re-signed. */
  timeoutMs?: number;
  /** How long an order made ready (readyOrder) waits for its click; READY_FOR_MS (15 s) unless given. */
  readyForMs?: number;
  /** Told what the exchange's answers say about themselves: a deprecated endpoint (once), the rate-limit headers. */
  exchangeWatch?: Pick<ClobClientOptions, 'onNotice' | 'onRateLimit'>;
}

export interface PlacedOrder {
  /** The exchange's id (the order's EIP-712 hash); absent when the exchange placed nothing. */
  orderID: string | undefined;
  /** The order's status as the exchange reports it after posting ("LIVE", "MATCHED", …). */
  status: string;
  /** Whether the id joined the pending list (its status is not "matched"). */
  pending: boolean;
  approvals: ApprovalSent[];
  /** The signed order's hash, also when nothing was placed. */
  orderHash: string;
  /** True when the post got no answer and the order's fate was read back from the exchange or the chain. */
  reconciled: boolean;
  market: TradedMarket;
  plan: OrderPlan;
  notices: string[];
}

export interface Balances {
  collateral: bigint;
  /** Per outcome token id. */
  outcomes: Record<string, bigint>;
}

/** What the trader is told while one order goes out, with what kind of step it was (and its transaction). */
export interface FlowNotice {
  kind: 'approval' | 'credentials' | 'info';
  message: string;
  txHash?: string;
}

/** An order worked out and checked, nothing signed: what previewOrder shows. */
export interface PreparedOrder {
  address: string;
  market: TradedMarket;
  token: PositionToken;
  /** The plan to build: a market BUY may be shrunk so its fee fits the balance (see fee.shrunkFrom). */
  plan: OrderPlan;
  /** The exchange's fee for the order's expected taker fills. */
  fee: OrderFee;
  missing: MissingApproval[];
  problems: PreTradeProblem[];
  /** The relayer the missing approvals go through (the account's owner has relayer credentials); else the key sends them. */
  approvalRelayer?: Awaited<ReturnType<typeof approvalRelayerFor>>;
}

/** An order checked, with its credentials and allowances, built and signed: ready to post (not yet posted). */
interface MadeOrder {
  client: ClobClient;
  /** The account whose funds and shares the order moves. */
  address: string;
  built: BuiltOrder;
  post: PostOrderOptions;
  token: PositionToken;
  market: TradedMarket;
  plan: OrderPlan;
  tickSize: TickSize;
  approvals: ApprovalSent[];
  /** Every notice of the order so far (the placed order reports them). */
  notices: string[];
  /** The checks' notices not yet told (a ready order's, told when it is sent). */
  untold: string[];
  /** A market order made ready with no worst price: the price the live book gave it, checked again at the click. */
  livePrice?: number;
}

type NoticeSink = (message: string, kind?: FlowNotice['kind'], txHash?: string) => void;

/**
 * Asked before each new order (the region and close-only checks of trading/region-check.ts): a sentence refuses
 * the order with ERR_FORBIDDEN before any order is signed. Asked first with `credentialed` false (what is known
 * without the wallet's API credentials), then once the order got them, true (the account may be asked).
 * Cancels never pass through it.
 */
export type OrderGate = (
  wallet: TradingWallet,
  side: 'BUY' | 'SELL',
  credentialed: boolean,
) => Promise<string | undefined>;

export class TradingService {
  readonly profile: TradingProfile;
  readonly markets: MarketSource;
  readonly oracle: AggregatorClient | undefined;
  readonly provider: JsonRpcProvider;
  private readonly vault: CredentialVault;
  /** Where credentials are kept (the exchange's and the relayer's): the OS keychain, else this session's memory. */
  get credentialVault(): CredentialVault {
    return this.vault;
  }
  private readonly logger: Logger;
  /** Tokens whose shares from this session's BUYs the exchange may not see yet (unseen-shares.ts). */
  private readonly unseenShares = new UnseenShares();
  private readonly credentialsOrder: CreateOrDeriveOrder;
  private readonly onNotice: (message: string) => void;
  private readonly timeoutMs: number | undefined;
  private readonly exchangeWatch: Pick<ClobClientOptions, 'onNotice' | 'onRateLimit'>;
  /** The exchange's mode (post-only after a 503), one for this network: a client is made per order. */
  private readonly exchangeMode = { postOnlyUntil: 0 };
  private readonly pending: string[] = [];
  /** Credentials proven against this exchange in this session (or being fetched), per wallet address. */
  private readonly proven = new Map<string, Promise<ApiCredentials>>();
  /** Per wallet: the approval step of one order at a time, so two orders never both send the same approvals. */
  private readonly approvalQueues = new Map<string, Promise<unknown>>();
  /** Public reads (book, tick, fee rate) need no wallet: one client, whose tick and fee caches last the session. */
  private publicClient: ClobClient | undefined;
  /** The terminal's region and close-only checks, set while this flow is the network in use's. */
  orderGate: OrderGate | undefined;
  /** Each market's tick, fee terms and neg-risk as the exchange states them, kept a short while (exchange-terms.ts). */
  readonly terms: ExchangeTerms;
  /** Orders made ready while their confirmation is open (readyOrder), taken by the click's executeOrder. */
  private readonly readied: ReadyOrders<MadeOrder>;
  /**
   * A token's whole book as the exchange lists it, from the market's live socket (checked by hash), or undefined;
   * set by the terminal for the network in use. A market order with no worst price is made ready only with it.
   */
  liveBook: ((tokenId: string) => BookSides | undefined) | undefined;

  constructor(options: TradingServiceOptions) {
    this.profile = options.profile;
    this.vault = options.vault;
    this.logger = options.logger ?? silentLogger;
    const { aggregatorUrl } = options.profile;
    this.oracle =
      options.oracle ??
      (aggregatorUrl
        ? new AggregatorClient({ apiUrl: aggregatorUrl, logger: this.logger, timeoutMs: options.timeoutMs })
        : undefined);
    this.markets =
      options.markets ??
      createMarketSource(options.profile.endpoints, { logger: this.logger, timeoutMs: options.timeoutMs });
    this.credentialsOrder = options.credentialsOrder ?? 'derive-first';
    this.onNotice = options.onNotice ?? (() => {});
    this.timeoutMs = options.timeoutMs;
    this.exchangeWatch = options.exchangeWatch ?? {};
    this.readied = new ReadyOrders<MadeOrder>(Date.now, options.readyForMs);
    const { chainId } = options.profile.network;
    // The chain's node gets the same bound as every exchange request (ethers' own is an idle timeout of 5 minutes).
    this.provider = new JsonRpcProvider(
      boundedRpcRequest(options.profile.rpcUrl, options.timeoutMs),
      Network.from(chainId),
      { staticNetwork: true, batchMaxCount: 1, cacheTimeout: -1 },
    );
    this.terms = new ExchangeTerms({
      clobMarket: (conditionId) => this.exchange().getClobMarketInfo(conditionId),
      // The client keeps ticks for 5 minutes itself: when the terms ask, they want the exchange's word now.
      tickSize: (tokenId) => {
        this.exchange().clearTickSizeCache(tokenId);
        return this.exchange().getTickSize(tokenId);
      },
    });
  }

  /** The exchange changed a token's tick (its market channel said so): the next order is built on the new one. */
  tickSizeChanged(tokenId: string, tickSize: string): void {
    this.terms.tickChanged(tokenId, tickSize);
  }

  /** The ids of orders posted and not yet seen matched (docs/protocol.md#order-flow's pending list). */
  pendingOrderIds(): string[] {
    return [...this.pending];
  }

  /** The wallet's address (its key's); a JSON-RPC wallet must say it (docs/protocol.md#validation-messages). */
  walletAddress(wallet: TradingWallet | undefined): string {
    if (!wallet) throw invalidParameter(OrderMessages.WALLET_REQUIRED, 'executeOrder');
    if (wallet.kind === 'worker') return wallet.address;
    if (!wallet.walletAddress) throw invalidParameter(OrderMessages.WALLET_ADDRESS_REQUIRED, 'executeOrder');
    return wallet.walletAddress;
  }

  /** Where the wallet's funds and positions sit: its Polymarket account, else the key's own address. */
  fundsAddress(wallet: TradingWallet | undefined): string {
    return this.accountOf(wallet)?.address ?? this.walletAddress(wallet);
  }

  /** The account a worker wallet trades from, when it is not the key itself. */
  private accountOf(wallet: TradingWallet | undefined): TradingAccount | undefined {
    const account = wallet?.kind === 'worker' ? wallet.account : undefined;
    return account && account.signatureType !== 0 ? account : undefined;
  }

  /** Every failed pre-trade check for this order, without signing or sending anything. */
  async check(input: OrderIntent, wallet: TradingWallet | undefined): Promise<PreTradeProblem[]> {
    return (await this.prepare(input, wallet)).problems;
  }

  /** The order as it would be built (market, outcome, plan, missing allowances) and every failed check; nothing signed or sent. */
  prepareOrder(input: OrderIntent, wallet: TradingWallet | undefined): Promise<PreparedOrder> {
    return this.prepare(input, wallet);
  }

  /** The outcome's book as the exchange shows it now (no wallet needed). */
  async exchangeBook(
    tokenId: string,
  ): Promise<{ bids: { price: string; size: string }[]; asks: { price: string; size: string }[] }> {
    return (await this.exchange().getOrderBook(tokenId)) as unknown as {
      bids: { price: string; size: string }[];
      asks: { price: string; size: string }[];
    };
  }

  /** The outcome's tick size as the exchange says it. */
  exchangeTickSize(tokenId: string): Promise<string> {
    return this.terms.tickSize(tokenId);
  }

  /** The market's fee rate in basis points, as the exchange reports it (GET /fee-rate). */
  exchangeFeeRateBps(tokenId: string): Promise<number> {
    return this.exchange().getFeeRateBps(tokenId);
  }

  /** The exchange's own record of a market (question, slug, outcome names), by condition id: it names trades. */
  exchangeMarket(conditionId: string): Promise<unknown> {
    return this.exchange().getMarket(conditionId);
  }

  /** The exchange's compact market details (its fee terms `fd`), by condition id: a trade's fee is worked out from them. */
  exchangeClobMarket(conditionId: string): Promise<unknown> {
    return this.exchange().getClobMarketInfo(conditionId);
  }

  /**
   * The whole flow (docs/protocol.md#order-flow): checks (every blocking one fails the order with all sentences), credentials,
   * each missing allowance set and mined, then one signed order posted; its id joins the pending list
   * unless it matched; with no order placed, its price is proposed to the aggregator's oracle (where the network has one).
   * An order made ready for this very input (readyOrder) and still fresh is posted as made, after the checks that
   * can change in a moment (region and close-only, the wallet still unlocked, the market's tick) are asked again.
   */
  async executeOrder(
    input: OrderIntent,
    wallet: TradingWallet | undefined,
    /** Told each notice of this order as it happens, with its kind (an approval carries its transaction). */
    listener?: (notice: FlowNotice) => void,
  ): Promise<PlacedOrder> {
    assertOrderRequest(input, wallet);
    // A blocked region or a close-only account: refused before any check, credential or signature (PM Desk never
    // tries to get around it; the banner and the ticket already said so).
    await this.passGate(wallet!, input.side, false);
    const address = this.fundsAddress(wallet);
    const waiting = this.readied.take(this.orderKey(input, wallet!));
    const ready = waiting ? await waiting : undefined;
    // Any order of the account sent from here on makes the other ready orders of it stale (its balance moves).
    this.readied.changed(address);
    if (ready && (await this.stillReady(ready, wallet!))) {
      await this.assertWithinWorstPrice(ready);
      return this.sendOrder(ready, listener);
    }
    // Not readyOnly: made, or thrown.
    const made = (await this.makeOrder(input, wallet!, listener))!;
    await this.assertWithinWorstPrice(made);
    return this.sendOrder(made, listener);
  }

  /**
   * Makes the order ready while its confirmation is read (docs/protocol.md#order-flow's checks, credentials, the order built and
   * signed by the wallet's signer), without sending anything: executeOrder of the same input within READY_FOR_MS
   * posts it as made. A market order with no worst price is priced from the live book (liveBook) and goes as made
   * only if the live book gives the same price at the click. Not made ready (the click does the whole flow and says
   * why): a limit order with no price, a market order with no worst price and no live book, an order whose checks
   * fail or whose allowances are missing (approvals are transactions: only the click sends them), an outside
   * (JSON-RPC) wallet's, or anything that fails on the way.
   */
  async readyOrder(
    input: OrderIntent,
    wallet: TradingWallet | undefined,
  ): Promise<{ ready: boolean; orderHash?: string }> {
    assertOrderRequest(input, wallet);
    const orderType = input.orderType ?? 'GTC';
    const market = orderType === 'FOK' || orderType === 'FAK';
    if (input.price === undefined && (!market || !this.liveBook)) return { ready: false };
    // An outside wallet would ask its owner to sign before they confirmed: only PM Desk's own signer signs ahead.
    if (wallet!.kind !== 'worker') return { ready: false };
    if (await this.orderGate?.(wallet!, input.side, false)) return { ready: false };
    const making = this.makeOrder(input, wallet!, undefined, true).catch((error: unknown) => {
      this.logger.debug(
        `an order could not be made ready; the click makes it again: ${(error as Error)?.message ?? error}`,
      );
      return undefined;
    });
    this.readied.put(this.orderKey(input, wallet!), this.fundsAddress(wallet), making);
    const made = await making;
    return made ? { ready: true, orderHash: made.built.orderHash } : { ready: false };
  }

  /** The account's balance moved outside the order flow (a money action): its ready orders are made again. */
  accountChanged(address: string): void {
    this.readied.changed(address);
  }

  /**
   * Checks, credentials, approvals (unless `readyOnly`: then a missing one means undefined), the order built and
   * signed. Nothing is posted. The checks' notices are told now, or kept for the post when made ready.
   */
  private async makeOrder(
    input: OrderIntent,
    wallet: TradingWallet,
    listener: ((notice: FlowNotice) => void) | undefined,
    readyOnly = false,
  ): Promise<MadeOrder | undefined> {
    const { address, market, token, plan, missing, problems, approvalRelayer } = await this.prepare(input, wallet);
    const blocking = problems.filter((p) => p.blocking);
    if (blocking.length > 0) throw new PreTradeCheckError(problems);
    if (readyOnly && missing.length > 0) return undefined;
    const notices = problems.map((p) => p.message);
    // Told now on the whole flow; a ready order tells them when it is sent (the trader may still cancel).
    const untold = readyOnly ? [...notices] : [];
    const notice = this.noticeSink(notices, listener);
    if (!readyOnly) {
      for (const message of notices) {
        this.onNotice(message);
        listener?.({ kind: 'info', message });
      }
    }

    // A market order made ready with no worst price takes the live book's price for its amount (the click checks the
    // live book still gives it); the whole flow reads GET /book at the click instead, as the official client does.
    const pricedLive = readyOnly && plan.kind === 'market' && plan.price === undefined;
    const livePrice = pricedLive ? this.liveMarketPrice(token.token_id, plan) : undefined;
    if (pricedLive && livePrice === undefined) return undefined;

    const client = await this.client(wallet, readyOnly ? this.onNotice : notice);
    // With credentials got as this order gets them (their notice heard), the account's close-only mode can be asked.
    await this.passGate(wallet, plan.side, true);

    const approvals =
      missing.length === 0
        ? []
        : await this.oneAtATime(address, async () => {
            // Another order of this wallet may have set some while this one waited: the chain is read again.
            const still = await missingApprovals(
              this.provider,
              address,
              approvalTargets(this.profile, this.profile.network.orderVersion),
              orderNeeds(plan).collateral,
            );
            const account = this.accountOf(wallet);
            if (approvalRelayer && account && wallet.kind === 'worker') {
              const sent = await relayApprovals({
                profile: this.profile,
                signer: wallet.signer,
                key: wallet.address,
                account,
                relayer: approvalRelayer,
                missing: still,
                onSubmitted: (id) => notice(`Allowances submitted to Polymarket's relayer as ${id}.`, 'info'),
                ...(this.timeoutMs !== undefined ? { timeoutMs: this.timeoutMs } : {}),
              });
              for (const s of sent)
                notice(
                  `Allowance set through Polymarket's relayer — no gas needed: ${s.kind === 'collateral' ? 'collateral' : 'outcome tokens'} for ${s.spenderName} (${s.spender}), transaction ${s.txHash}.`,
                  'approval',
                  s.txHash,
                );
              return sent;
            }
            return this.onChain(() =>
              setApprovals(
                this.provider,
                this.approvalSender(wallet),
                address,
                this.profile,
                still,
                (sent) =>
                  notice(
                    `Allowance set: ${sent.kind === 'collateral' ? 'collateral' : 'outcome tokens'} for ${sent.spenderName} (${sent.spender}), transaction ${sent.txHash}.`,
                    'approval',
                    sent.txHash,
                  ),
                this.approvalAccount(wallet),
              ),
            );
          });
    if (approvals.length > 0) {
      // The exchange caches balances and allowances: ask it to read the chain again.
      await client.updateBalanceAllowance({ asset_type: 'COLLATERAL' });
      await client.updateBalanceAllowance({ asset_type: 'CONDITIONAL', token_id: token.token_id });
    }

    const version = this.profile.network.orderVersion;
    // The market's tick as kept (exchange-terms.ts), handed to the client so it does not ask GET /tick-size again.
    const tickSize = await this.orderTick(token.token_id, plan.price);
    client.rememberTickSize(token.token_id, tickSize);
    const terms = { negRisk: market.negRisk, version, tickSize };
    const built =
      plan.kind === 'limit'
        ? await client.createOrder(
            {
              tokenId: token.token_id,
              side: plan.side,
              price: plan.price,
              size: plan.size,
              expiration: plan.expiration,
            },
            terms,
          )
        : await client.createMarketOrder(
            { tokenId: token.token_id, side: plan.side, amount: plan.amount, price: plan.price ?? livePrice },
            { ...terms, orderType: plan.orderType },
          );
    const post: PostOrderOptions = {
      orderType: plan.orderType,
      postOnly: plan.kind === 'limit' ? plan.postOnly : false,
    };
    return {
      client,
      address,
      built,
      post,
      token,
      market,
      plan,
      tickSize,
      approvals,
      notices,
      untold,
      ...(livePrice !== undefined ? { livePrice } : {}),
    };
  }

  /**
   * The price at which the live book covers a market order's amount (what the official client reads from GET /book
   * at the click), or undefined: no live book, or it cannot cover a FOK order (the click then says "no match").
   */
  private liveMarketPrice(tokenId: string, plan: Extract<OrderPlan, { kind: 'market' }>): number | undefined {
    const book = this.liveBook?.(tokenId);
    if (!book) return undefined;
    try {
      return marketPriceFromBook(book, plan.side, plan.amount, plan.orderType);
    } catch {
      return undefined;
    }
  }

  /**
   * Whether a ready order may go as made: the region and close-only checks, the signing key still unlocked (a
   * lock drops what it signed), the market's tick unchanged (a tick_size_change since would have it refused), and a
   * market order priced from the live book still priced the same by it (the book moved: the click reads it again).
   */
  private async stillReady(made: MadeOrder, wallet: TradingWallet): Promise<boolean> {
    // The signer client knows which keys its worker holds without asking it (a thread hop on a busy machine).
    const open = wallet.kind === 'worker' ? wallet.signer.holds(wallet.address) : true;
    if (
      made.livePrice !== undefined &&
      made.plan.kind === 'market' &&
      this.liveMarketPrice(made.token.token_id, made.plan) !== made.livePrice
    )
      return false;
    const [gate, tick] = await Promise.all([
      this.orderGate?.(wallet, made.plan.side, true),
      this.terms.tickSize(made.token.token_id),
    ]);
    if (gate) throw new PmDeskError(ErrorCode.FORBIDDEN, gate, { methodName: 'executeOrder' });
    return open && tick === made.tickSize;
  }

  /**
   * A market order with a worst price is sent only while the book still fills it within that price (all of a FOK
   * order, some of a FAK one): the live book when the terminal follows it, else GET /book. The exchange would
   * kill it anyway; refusing here says why, in the trader's words, before anything leaves (issue 28).
   */
  private async assertWithinWorstPrice(made: MadeOrder): Promise<void> {
    const { plan, token, tickSize } = made;
    if (plan.kind !== 'market' || plan.price === undefined) return;
    const book = this.liveBook?.(token.token_id) ?? (await this.exchangeBook(token.token_id));
    const fill = walkBook({ bids: book.bids ?? [], asks: book.asks ?? [] }, plan.side, plan.amount, plan.price);
    if (fillsWithin(fill, plan.orderType)) return;
    const decimals = tickSize.split('.')[1]?.length ?? 2;
    const cents = `${Number((plan.price * 100).toFixed(Math.max(0, decimals - 2)))}¢`;
    const bound = plan.side === 'BUY' ? `your max price ${cents}` : `your min price ${cents}`;
    const what =
      fill.shares <= 1e-9
        ? `it has no ${plan.side === 'BUY' ? 'asks' : 'bids'} at ${cents} or better`
        : plan.side === 'BUY'
          ? `it fills only $${(plan.amount - fill.unfilled).toFixed(2)} of the $${plan.amount.toFixed(2)} at ${cents} or better`
          : `it takes only ${Math.floor((plan.amount - fill.unfilled) * 100) / 100} of the ${plan.amount} shares at ${cents} or better`;
    throw new PreTradeCheckError([
      {
        check: 'PRICE_MOVED',
        blocking: true,
        message: `The book moved past ${bound}: ${what}. Nothing was sent; review the new numbers.`,
      },
    ]);
  }

  private noticeSink(notices: string[], listener: ((notice: FlowNotice) => void) | undefined): NoticeSink {
    return (message, kind = 'info', txHash) => {
      notices.push(message);
      this.onNotice(message);
      listener?.({ kind, message, ...(txHash ? { txHash } : {}) });
    };
  }

  /** Posts a made order once; with no order placed, its price goes to the oracle; else its status is read back. */
  private async sendOrder(made: MadeOrder, listener?: (notice: FlowNotice) => void): Promise<PlacedOrder> {
    const { client, built, post, token, market, plan, approvals, notices } = made;
    // A ready order's check notices are told as it goes (they were kept while the confirmation was open).
    for (const message of made.untold.splice(0)) {
      this.onNotice(message);
      listener?.({ kind: 'info', message });
    }
    // The exchange does not see shares a fill of this session brought until asked to read them again.
    if (plan.side === 'SELL') {
      await this.unseenShares.beforeSell(
        made.address,
        token.token_id,
        () => client.updateBalanceAllowance({ asset_type: 'CONDITIONAL', token_id: token.token_id }),
        this.logger,
      );
    }
    let posted: PostedOrder;
    try {
      posted = await this.postOnce(client, built, post, token.token_id);
    } catch (error) {
      // docs/protocol.md#order-flow: no order id from the post → the price goes to the aggregator's oracle (it never throws).
      if (isPmDeskError(error) && error.statusCode !== undefined && error.statusCode < 500)
        await this.oracle?.proposePrice(oracleOrder(built));
      if (isTickRefusal(error)) throw await this.tickRefused(error as PmDeskError, token.token_id);
      // A post-only order the book moved into: the exchange's raw sentence becomes the trader's, same code and status.
      if (isPmDeskError(error) && plan.kind === 'limit' && plan.postOnly && isPostOnlyRefusal(error.message)) {
        const detail = postOnlyRefusedSentence(plan, this.liveBook?.(token.token_id));
        throw new PmDeskError(error.code, detail, {
          methodName: error.methodName,
          statusCode: error.statusCode,
          responseData: error.responseData,
          cause: error,
        });
      }
      throw error;
    }
    if (!posted.orderID) {
      await this.oracle?.proposePrice(oracleOrder(built));
      return {
        orderID: undefined,
        status: posted.status,
        pending: false,
        approvals,
        orderHash: built.orderHash,
        reconciled: posted.reconciled,
        market,
        plan,
        notices,
      };
    }
    // docs/protocol.md#order-flow: after posting, the order is fetched; unless it matched, its id joins the pending list.
    let status = posted.status;
    try {
      status = ((await client.getOrder(posted.orderID)) as { status?: string } | null)?.status ?? status;
    } catch (error) {
      // The order is placed whatever this read says: report it with the post's status rather than fail.
      this.logger.warn(`getOrder after posting ${posted.orderID} failed; keeping the post's status`, error);
    }
    const pending = status.toLowerCase() !== 'matched';
    if (pending && !this.pending.includes(posted.orderID)) this.pending.push(posted.orderID);
    if (plan.side === 'BUY') this.unseenShares.boughtShares(made.address, token.token_id, pending);
    return {
      orderID: posted.orderID,
      status,
      pending,
      approvals,
      orderHash: built.orderHash,
      reconciled: posted.reconciled,
      market,
      plan,
      notices,
    };
  }

  /** What makes two asks the same order: the signing key, the account, and the order as asked with its choices. */
  private orderKey(input: OrderIntent, wallet: TradingWallet): string {
    return JSON.stringify([this.walletAddress(wallet).toLowerCase(), this.fundsAddress(wallet).toLowerCase(), input]);
  }

  /**
   * Polls the order until it is matched (true), or until it is done otherwise, the time is up or a call fails
   * (false: docs/protocol.md#errors). A matched order leaves the pending list.
   */
  async waitOrderMatched(
    wallet: TradingWallet,
    orderId: string,
    options: { timeoutMs?: number; intervalMs?: number } = {},
  ): Promise<boolean> {
    try {
      const client = await this.client(wallet);
      const deadline = Date.now() + (options.timeoutMs ?? 30_000);
      for (;;) {
        const order = (await client.getOrder(orderId)) as { status?: string } | null;
        const status = order?.status?.toLowerCase();
        if (status === 'matched') {
          this.dropPending([orderId]);
          return true;
        }
        if (status !== 'live' && status !== 'delayed' && status !== 'unmatched') return false;
        if (Date.now() >= deadline) return false;
        await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 500));
      }
    } catch (error) {
      this.logger.error('waitOrderMatched failed', error);
      return false;
    }
  }

  /** The wallet's open orders, every page; filtered to a market (condition id) or an outcome token when given. */
  async openOrders(
    wallet: TradingWallet,
    filter: { market?: string; asset_id?: string } = {},
  ): Promise<Record<string, unknown>[]> {
    return (await (await this.walletClient(wallet)).getOpenOrders(filter)) as Record<string, unknown>[];
  }

  /** The wallet's trades, every page; filtered to a market (condition id) or an outcome token when given. */
  async trades(
    wallet: TradingWallet,
    filter: { market?: string; asset_id?: string } = {},
  ): Promise<Record<string, unknown>[]> {
    return (await (await this.walletClient(wallet)).getTrades(filter)) as Record<string, unknown>[];
  }

  /** One of the wallet's orders as the exchange shows it now. */
  async order(wallet: TradingWallet, orderId: string): Promise<Record<string, unknown>> {
    return (await (await this.walletClient(wallet)).getOrder(orderId)) as Record<string, unknown>;
  }

  async cancelOrder(wallet: TradingWallet, orderId: string): Promise<unknown> {
    const result = await (await this.walletClient(wallet)).cancelOrder(orderId);
    this.dropPending(cancelledIds(result));
    return result;
  }

  async cancelOrders(wallet: TradingWallet, orderIds: readonly string[]): Promise<unknown> {
    const result = await (await this.walletClient(wallet)).cancelOrders(orderIds);
    this.dropPending(cancelledIds(result));
    return result;
  }

  async cancelAll(wallet: TradingWallet): Promise<unknown> {
    const result = await (await this.walletClient(wallet)).cancelAll();
    this.dropPending(cancelledIds(result));
    return result;
  }

  /** Cancels the wallet's orders in one market (condition id) or on one outcome token. */
  async cancelMarketOrders(wallet: TradingWallet, params: { market?: string; asset_id?: string }): Promise<unknown> {
    const result = await (await this.walletClient(wallet)).cancelMarketOrders(params);
    this.dropPending(cancelledIds(result));
    return result;
  }

  /** Collateral and each outcome token of the given markets, read from the chain (base units, 6 decimals). */
  async balances(
    address: string,
    markets: readonly { tokens: readonly { token_id: string }[] }[] = [],
  ): Promise<Balances> {
    return this.onChain(async () => {
      const outcomes: Record<string, bigint> = {};
      for (const token of markets.flatMap((m) => m.tokens))
        outcomes[token.token_id] = await chainBalance(this.provider, this.profile, address, token.token_id);
      return { collateral: await chainBalance(this.provider, this.profile, address), outcomes };
    });
  }

  /** The wallet's positions as the network's market-data source values them. */
  positions(address: string): Promise<TraderPosition[]> {
    return this.markets.getTraderPositions('polymarket', address);
  }

  /**
   * The wallet's level 2 credentials, got as a first order gets them (the vault, else derived or created with the
   * wallet): for main's own authenticated feeds (the user channel). They never leave the main process.
   */
  async credentialsFor(wallet: TradingWallet): Promise<ApiCredentials> {
    await this.walletClient(wallet);
    return this.proven.get(this.authAddress(wallet).toLowerCase())!;
  }

  /** A level 2 exchange client for the wallet (the dead-man switch's heartbeats). */
  exchangeClient(wallet: TradingWallet): Promise<ClobClient> {
    return this.walletClient(wallet);
  }

  /** Stops the chain connection. */
  close(): void {
    this.readied.clear();
    this.provider.destroy();
  }

  // ---- the flow's steps ------------------------------------------------------------------------

  private async prepare(input: OrderIntent, wallet: TradingWallet | undefined): Promise<PreparedOrder> {
    assertOrderRequest(input, wallet);
    // Balances and allowances are the account's (the funds' holder); only the key signs, so only it must be unlocked.
    const key = this.walletAddress(wallet);
    const address = this.fundsAddress(wallet);
    // The signer worker and the chain's allowances are asked while the market and the fee are read, not after
    // them (each is read fresh for this order; only the waits overlap). Their failures are awaited below.
    // The signer client knows which keys its worker holds (signer-client.ts `holds`): no round trip to ask it.
    const unlocking = Promise.resolve(wallet!.kind === 'worker' ? wallet!.signer.holds(key) : true);
    const targets = approvalTargets(this.profile, this.profile.network.orderVersion);
    const allowances = this.onChain(() => approvalStates(this.provider, address, targets));
    unlocking.catch(() => undefined);
    allowances.catch(() => undefined);
    const market = await findMarket(this.markets, input.marketId);
    const token = findToken(market, input.tokenId);
    const asked = planOrder(input, token);
    const { plan, fee } = await planOrderFee(
      this.feeReads(address),
      market,
      token.token_id,
      asked,
      this.profile.network.orderVersion,
    );
    const missingNow = allowances.then((states) => missingOf(states, orderNeeds(plan).collateral));
    missingNow.catch(() => undefined);
    const unlocked = await unlocking;
    const takerFee = plan.side === 'BUY' ? fee.units : 0n;
    // The checks' own chain reads (chain id, balances) run while the allowances are still on their way.
    const checked = await this.onChain(() =>
      preTradeChecks({
        profile: this.profile,
        provider: this.provider,
        address,
        unlocked,
        market,
        token,
        plan,
        missingApprovals: missingNow,
        takerFee,
        shrunkFrom: fee.shrunkFrom,
      }),
    );
    const missing = await missingNow;
    const account = this.accountOf(wallet);
    const approvalRelayer =
      missing.length > 0 && wallet!.kind === 'worker'
        ? await approvalRelayerFor(this.profile, this.vault, key, account)
        : undefined;
    const problems = account
      ? accountProblems(checked, key, account, approvalRelayer !== undefined, missing.length)
      : checked;
    return { address, market, token, plan, fee, missing, problems, ...(approvalRelayer ? { approvalRelayer } : {}) };
  }

  /** What the fee estimate reads: the exchange's market terms and book, and the funds' collateral on the chain. */
  private feeReads(address: string): OrderFeeReads {
    return {
      clobMarket: (conditionId) => this.terms.clobMarket(conditionId),
      book: (tokenId) => this.exchangeBook(tokenId),
      balance: () => this.onChain(() => chainBalance(this.provider, this.profile, address)),
    };
  }

  /**
   * The tick the order is built on: the kept one, unless the price is not on it (the tick may have become finer
   * since it was kept): then the exchange is asked now, so the builder never rounds the trader's price to an old tick.
   */
  private async orderTick(tokenId: string, price: number | undefined): Promise<TickSize> {
    const kept = await this.terms.tickSize(tokenId);
    if (price === undefined || onTick(price, kept)) return kept;
    this.terms.forget(tokenId);
    return this.terms.tickSize(tokenId);
  }

  /**
   * The exchange refused the order for its price and tick: what was kept about the market is dropped and its tick
   * read again, and the trader is told; the order is not sent again at another price (they decide).
   */
  private async tickRefused(error: PmDeskError, tokenId: string): Promise<PmDeskError> {
    this.terms.forget(tokenId);
    const now = await this.terms.tickSize(tokenId).catch(() => undefined);
    const detail = `${error.detail} PM Desk read the market's tick again${now ? ` (it is now ${now})` : ''} and did not send the order again: check the price and place it again.`;
    return new PmDeskError(error.code, detail, {
      methodName: error.methodName,
      statusCode: error.statusCode,
      responseData: error.responseData,
      cause: error,
    });
  }

  private async passGate(wallet: TradingWallet, side: 'BUY' | 'SELL', credentialed: boolean): Promise<void> {
    const refusal = await this.orderGate?.(wallet, side, credentialed);
    if (refusal) throw new PmDeskError(ErrorCode.FORBIDDEN, refusal, { methodName: 'executeOrder' });
  }

  /** A chain read or wait; a node that does not answer is said as such, not as an internal error. */
  private async onChain<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isPmDeskError(error)) throw error;
      const reason =
        (error as { code?: unknown })?.code ?? (error instanceof Error ? error.message.slice(0, 80) : 'no answer');
      // Out of time (ethers says TIMEOUT) is the catalogue's timeout, as for any other request.
      const code = reason === 'TIMEOUT' ? ErrorCode.TIMEOUT_ERROR : ErrorCode.NETWORK_ERROR;
      throw new PmDeskError(
        code,
        `The chain's node at ${this.profile.rpcUrl} did not answer (${String(reason)}): check that the network (or the local sandbox) is running.`,
        {
          methodName: 'executeOrder',
          cause: error,
        },
      );
    }
  }

  private exchange(): ClobClient {
    const { network } = this.profile;
    this.publicClient ??= new ClobClient({
      host: network.clobUrl,
      chainId: network.chainId,
      throwOnError: true,
      networks: [network],
      logger: this.logger,
      timeoutMs: this.timeoutMs,
      ...this.exchangeWatch,
      exchangeMode: this.exchangeMode,
    });
    return this.publicClient;
  }

  /** A worker signer is given the chain's account factories, so it can check the account is the key's own. */
  private clobSigner(wallet: TradingWallet): ClobSigner {
    return wallet.kind === 'worker'
      ? wallet.signer.clobSigner(wallet.address, walletConfigFor(this.profile.network))
      : wallet.signer;
  }

  /** The address the wallet's exchange credentials are made and used for (see credentialsAddress). */
  private authAddress(wallet: TradingWallet): string {
    return credentialsAddress(this.walletAddress(wallet), this.accountOf(wallet));
  }

  /** For a proxy wallet or Safe, who sends its approvals (the key) and as what (the account); none for the key itself. */
  private approvalAccount(wallet: TradingWallet): Parameters<typeof setApprovals>[6] {
    const account = this.accountOf(wallet);
    if (!account || (account.kind !== 'proxy' && account.kind !== 'safe')) return undefined;
    return {
      key: this.walletAddress(wallet),
      account: { kind: account.kind, address: account.address, wallets: walletConfigFor(this.profile.network) },
    };
  }

  private approvalSender(wallet: TradingWallet): ApprovalSender {
    return wallet.kind === 'worker' ? wallet.signer : wallet.approvals;
  }

  /** A client signing for the wallet's account: maker = the account (funder), the account's signature type. */
  private clobClient(wallet: TradingWallet, creds?: ApiCredentials, logger: Logger = this.logger): ClobClient {
    const { network } = this.profile;
    const account = this.accountOf(wallet);
    const auth = this.authAddress(wallet);
    return new ClobClient({
      host: network.clobUrl,
      chainId: network.chainId,
      signer: this.clobSigner(wallet),
      creds,
      throwOnError: true,
      networks: [network],
      logger,
      timeoutMs: this.timeoutMs,
      ...this.exchangeWatch,
      exchangeMode: this.exchangeMode,
      ...(account ? { signatureType: account.signatureType, funder: account.address } : {}),
      ...(auth !== this.walletAddress(wallet) ? { authAddress: auth } : {}),
    });
  }

  private async walletClient(wallet: TradingWallet): Promise<ClobClient> {
    return this.client(wallet);
  }

  /**
   * A level 2 client: credentials from the vault (proven once a session against the exchange, since a
   * restarted or different exchange forgets them), else derived or created with the wallet and saved.
   */
  private async client(wallet: TradingWallet, notice: NoticeSink = this.onNotice): Promise<ClobClient> {
    const address = this.authAddress(wallet);
    const key = address.toLowerCase();
    // One acquisition per wallet at a time: two orders deriving at once would both try to create, and the
    // exchange refuses the second create.
    let credentials = this.proven.get(key);
    if (!credentials) {
      credentials = this.credentials(wallet, address, notice);
      this.proven.set(key, credentials);
      const pending = credentials;
      pending.catch(() => this.proven.get(key) === pending && this.proven.delete(key));
    }
    return this.clobClient(wallet, await credentials);
  }

  /** `address`: the credentials' own (authAddress): the vault keeps them under it. */
  private async credentials(wallet: TradingWallet, address: string, notice: NoticeSink): Promise<ApiCredentials> {
    const host = this.profile.network.clobUrl;
    const stored = await this.vault.load(address, host);
    if (stored) {
      try {
        await this.clobClient(wallet, stored, silentLogger).getClosedOnlyMode();
        return stored;
      } catch (error) {
        if (!(isPmDeskError(error) && error.statusCode === 401)) throw error;
        await this.vault.forget(address, host);
      }
    }
    let created = false;
    const watching: Logger = {
      ...this.logger,
      warn: (message, data) => {
        if (message === CREDS_CREATION_WARNING) created = true;
        else this.logger.warn(message, data);
      },
    };
    const creds = (await this.clobClient(wallet, undefined, watching).createOrDeriveApiKey(
      undefined,
      this.credentialsOrder,
    )) as ApiCredentials;
    if (!creds?.key)
      throw new PmDeskError(ErrorCode.UNAUTHORIZED, 'The exchange gave this wallet no API credentials.', {
        methodName: 'executeOrder',
      });
    await this.vault.save(address, host, creds);
    if (created) {
      notice(
        `${CREDS_CREATION_WARNING} PM Desk keeps them in ${this.vault.storage === 'keychain' ? 'the OS keychain' : 'memory for this session only (no keychain)'}; they are derived again with the wallet if lost.`,
        'credentials',
      );
    }
    return creds;
  }

  /** Posts once through the toolkit's reconciler (post-once.ts), with this network's exchange contract as last witness. */
  private postOnce(
    client: ClobClient,
    built: BuiltOrder,
    options: PostOrderOptions,
    tokenId: string,
  ): Promise<PostedOrder> {
    return postOrderOnce(client, built, options, {
      tokenId,
      methodName: 'executeOrder',
      chainStatus: (hash) =>
        this.onChain(() => new ExchangeContract(built.verifyingContract, this.provider).orderStatus(hash)),
      onUnanswered: (error) =>
        this.logger.warn(`postOrder got no answer; looking order ${built.orderHash} up before anything else`, error),
    });
  }

  private oneAtATime<T>(address: string, work: () => Promise<T>): Promise<T> {
    const key = address.toLowerCase();
    const run = (this.approvalQueues.get(key) ?? Promise.resolve()).then(work, work);
    this.approvalQueues.set(
      key,
      run.catch(() => {}),
    );
    return run;
  }

  private dropPending(ids: readonly string[]): void {
    for (const id of ids) {
      const at = this.pending.indexOf(id);
      if (at >= 0) this.pending.splice(at, 1);
    }
  }
}

/**
 * The signed order in the oracle's thirteen fields (docs/protocol.md#entities): versions 2 and 3 sign no taker, nonce or fee, which
 * are their defaults (zero address, 0, 0) there; every version carries its expiration.
 */
/** Whether a price is a whole number of ticks (to a millionth, the finest price the exchange takes). */
function onTick(price: number, tickSize: string): boolean {
  const ticks = price / Number(tickSize);
  return Math.abs(ticks - Math.round(ticks)) < 1e-6;
}

function oracleOrder(built: BuiltOrder): Record<string, unknown> {
  return { taker: ZERO_ADDRESS, nonce: '0', feeRateBps: '0', ...built.signedOrder };
}

/** The ids a cancel answer says were cancelled (`canceled`, as the exchange spells it). */
function cancelledIds(result: unknown): string[] {
  const r = result as { canceled?: unknown } | null;
  return Array.isArray(r?.canceled)
    ? (r.canceled as unknown[]).filter((id): id is string => typeof id === 'string')
    : [];
}
