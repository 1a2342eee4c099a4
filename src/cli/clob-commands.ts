// `pmdesk clob|keys|order|trades|balance`: the exchange client and the order builder from a terminal.
// The signing key comes from PMDESK_PRIVATE_KEY, level 2 credentials from PMDESK_API_KEY/SECRET/PASSPHRASE;
// none of them is ever printed. `order build` signs with no network at all.
import { open, rm } from 'node:fs/promises';
import type { Command } from 'commander';
import { JsonRpcProvider, Network } from 'ethers';
import { invalidParameter, isPmDeskError } from '@pmdesk/toolkit/model';
import { ClobClient, isVersionMismatch, type OrderBookSummary } from '@pmdesk/toolkit';
import { errorResult, isClobError, type ClobResult } from '@pmdesk/toolkit';
import { postOrderOnce, type PostedOrder } from '@pmdesk/toolkit';
import { ExchangeContract } from '@pmdesk/toolkit';
import { CREDS_CREATION_WARNING, type ApiCredentials } from '@pmdesk/toolkit';
import { OrderBuilder, type BuiltOrder, type SignatureType } from '@pmdesk/toolkit';
import { assertPostOnlyAllowed, orderBody } from '@pmdesk/toolkit';
import { ORDER_TYPES, type OrderType } from '@pmdesk/toolkit';
import { isTickSize, type OrderSide, type TickSize } from '@pmdesk/toolkit';
import { privateKeySigner } from '@pmdesk/toolkit';
import { networkFor, walletConfigFor, type NetworkProfile, type OrderVersion } from '@pmdesk/toolkit';
import { accountForOverride, type Account } from '@pmdesk/toolkit';
import { consoleLogger, silentLogger } from '@pmdesk/toolkit';
import type { CliContext } from './aggregator-commands';
import { apiNotice, rateLimitNotice, retryNotice, table } from './output';
import { DEFAULT_CLOB_URL, networkProfile, resolveChainId, resolveEndpoints } from './network';
import { accountJson, actingAccount, sayAccount, type ActingAccount } from './trading-account';
import { accountWithoutNode, balanceOf } from './account-without-node';

type Action = (ctx: CliContext, ...args: never[]) => Promise<void>;
type Run = (action: Action) => (...args: unknown[]) => Promise<void>;

interface ClobGlobals {
  clobUrl?: string;
  chain?: string;
  network?: string;
  timeoutMs?: number;
  verbose?: boolean;
}

/** The flags of `order build` and `order place`. */
interface OrderFlags {
  token?: string;
  side?: string;
  price?: string;
  size?: string;
  amount?: string;
  tickSize?: string;
  negRisk?: string;
  orderVersion?: string;
  chain?: string;
  /** The account to sign for; `--funder` and `--sig-type` are the older spellings of these two. */
  account?: string;
  signatureType?: string;
  sigType?: string;
  funder?: string;
  salt?: string;
  timestamp?: string;
  expiration?: string;
  nonce?: string;
  feeRateBps?: string;
  taker?: string;
  builderCode?: string;
  metadata?: string;
  orderType?: string;
  postOnly?: boolean;
  owner?: string;
}

/** The exchange client of the `clob` and `order` commands, for command files registered after them. */
export type ExchangeClientFactory = (options?: { signer?: boolean; creds?: boolean }) => ClobClient;
let exchangeClients: ExchangeClientFactory | undefined;
/** The factory registerClobCommands set up: the same flags, profile, credentials and notices. */
export function exchangeClient(options?: { signer?: boolean; creds?: boolean }): ClobClient {
  if (!exchangeClients) throw new Error('registerClobCommands runs first');
  return exchangeClients(options);
}

export function registerClobCommands(program: Command, run: Run): void {
  program
    .option(
      '--clob-url <url>',
      `exchange (CLOB) base URL (env PMDESK_CLOB_URL; default: the --network profile's, else the local sandbox's ${DEFAULT_CLOB_URL})`,
    )
    .option(
      '--chain <id>',
      "chain id: 137 Polygon, 80002 Amoy (env PMDESK_CHAIN; default 137, or the --network profile's)",
    )
    .option(
      '--network <file>',
      'a network profile (JSON: chainId, orderVersion, source, clobUrl, gammaUrl, dataUrl, rtdsUrl, aggregatorUrl, sseUrl, contracts), e.g. the one `npm run sandbox -- --profile-out FILE` writes (env PMDESK_NETWORK)',
    );

  const globals = (): ClobGlobals => program.opts<ClobGlobals>();
  /** One per run: a deprecated exchange endpoint is said once, however many clients a command builds. */
  let clobNoticeOnce: ReturnType<typeof apiNotice> | undefined;
  const clobNotice = (notice: Parameters<ReturnType<typeof apiNotice>>[0]) =>
    (clobNoticeOnce ??= apiNotice(Boolean(program.opts<{ json?: boolean }>().json)))(notice);
  /** The custom network profile named by --network or PMDESK_NETWORK, read once. */
  const customNetwork = (): NetworkProfile | undefined => networkProfile(globals().network);
  const networks = (): NetworkProfile[] | undefined => {
    const custom = customNetwork();
    return custom ? [custom] : undefined;
  };
  const chainOf = (flag?: string): number => resolveChainId(flag, globals().chain, process.env, customNetwork());
  /**
   * The account an order command signs for, from --account/--signature-type: the key itself or one of its own
   * wallets on this chain, refused otherwise before anything is signed or sent.
   */
  const orderAccount = async (opts: OrderFlags): Promise<Account> => {
    const account = opts.account ?? opts.funder;
    const typeText = opts.signatureType ?? opts.sigType;
    const signatureType = typeText === undefined ? undefined : sigTypeOf(typeText);
    const signer = await envSigner().getAddress();
    return accountForOverride(
      signer,
      { account, signatureType },
      walletConfigFor(networkFor(chainOf(opts.chain), networks())),
    );
  };
  /** A client for this command: signer and credentials only when the environment holds them. */
  const clob = (
    options: { signer?: boolean; creds?: boolean; chain?: string; sigType?: string; account?: Account } = {},
  ): ClobClient =>
    new ClobClient({
      host: resolveEndpoints(globals(), process.env, customNetwork()).clobUrl,
      networks: networks(),
      chainId: chainOf(options.chain),
      signer: options.signer || options.creds ? envSigner() : undefined,
      creds: options.creds ? envCreds() : undefined,
      signatureType: options.account
        ? options.account.signatureType
        : options.sigType === undefined
          ? undefined
          : sigTypeOf(options.sigType),
      funder: options.account ? funderOf(options.account) : undefined,
      throwOnError: true,
      timeoutMs: globals().timeoutMs,
      logger: globals().verbose ? consoleLogger : silentLogger,
      onRetry: retryNotice(Boolean(program.opts<{ json?: boolean }>().json)),
      onNotice: clobNotice,
      onRateLimit: rateLimitNotice(Boolean(globals().verbose)),
    });

  // Command files that add to the `order` group or read with credentials (rewards-commands.ts) use this client.
  exchangeClients = (options = {}) => clob(options);

  // ---- public reads ----
  const reads = program.command('clob').description('public reads from the exchange service (CLOB)');
  const simple: [string, string, (c: ClobClient) => Promise<unknown>][] = [
    ['ok', 'GET /ok: is the exchange up', (c) => c.getOk()],
    ['time', 'GET /time: the exchange clock, unix seconds', (c) => c.getServerTime()],
    ['version', 'GET /version: the order version the exchange expects', (c) => c.getVersion()],
  ];
  for (const [name, description, call] of simple) {
    reads
      .command(name)
      .description(description)
      .action(run(async (ctx: CliContext) => print(ctx, await call(clob()))));
  }
  reads
    .command('book <tokenId>')
    .description('GET /book: the order book of a token (best levels first in text)')
    .action(
      run(async (ctx: CliContext, tokenId: string) => {
        const book = await clob().getOrderBook(tokenId);
        ctx.out.stdout(ctx.out.json ? `${JSON.stringify(book)}\n` : bookText(book as OrderBookSummary));
      }),
    );
  const perToken: [string, string, (c: ClobClient, token: string) => Promise<unknown>][] = [
    ['midpoint', 'GET /midpoint', (c, t) => c.getMidpoint(t)],
    ['spread', 'GET /spread', (c, t) => c.getSpread(t)],
    ['last-trade', 'GET /last-trade-price', (c, t) => c.getLastTradePrice(t)],
    [
      'tick-size',
      "GET /tick-size: the market's minimum tick",
      async (c, t) => ({ minimum_tick_size: await c.getTickSize(t) }),
    ],
    [
      'neg-risk',
      'GET /neg-risk: whether the token trades on the neg-risk exchange',
      async (c, t) => ({ neg_risk: await c.getNegRisk(t) }),
    ],
  ];
  for (const [name, description, call] of perToken) {
    reads
      .command(`${name} <tokenId>`)
      .description(description)
      .action(run(async (ctx: CliContext, tokenId: string) => print(ctx, await call(clob(), tokenId))));
  }
  reads
    .command('price <tokenId>')
    .description('GET /price: the best price on one side')
    .option('--side <side>', 'BUY or SELL')
    .action(
      run(async (ctx: CliContext, tokenId: string, opts: { side?: string }) =>
        print(ctx, await clob().getPrice(tokenId, sideOf(opts.side))),
      ),
    );
  reads
    .command('markets')
    .description('GET /markets: one page, or every page with --all')
    .option('--all', 'follow next_cursor to the end')
    .option('--cursor <cursor>', 'start at this cursor (one page)')
    .action(
      run(async (ctx: CliContext, opts: { all?: boolean; cursor?: string }) =>
        print(ctx, await (opts.all ? clob().getAllMarkets() : clob().getMarkets(opts.cursor))),
      ),
    );
  reads
    .command('prices-history')
    .description('GET /prices-history')
    .option('--market <tokenId>', 'the token')
    .option('--interval <interval>', 'max, 1w, 1d, 6h or 1h')
    .option('--fidelity <minutes>', 'resolution in minutes')
    .option('--start-ts <s>', 'start, unix seconds')
    .option('--end-ts <s>', 'end, unix seconds')
    .action(
      run(
        async (
          ctx: CliContext,
          opts: { market?: string; interval?: string; fidelity?: string; startTs?: string; endTs?: string },
        ) => {
          if (!opts.market) throw invalidParameter("Missing required parameter 'market'.");
          if (opts.interval !== undefined && !['max', '1w', '1d', '6h', '1h'].includes(opts.interval)) {
            throw invalidParameter(`--interval must be max, 1w, 1d, 6h or 1h, got ${opts.interval}`);
          }
          print(
            ctx,
            await clob().getPricesHistory({
              market: opts.market,
              interval: opts.interval as 'max' | undefined,
              fidelity: intFlag(opts.fidelity, 'fidelity'),
              startTs: intFlag(opts.startTs, 'start-ts'),
              endTs: intFlag(opts.endTs, 'end-ts'),
            }),
          );
        },
      ),
    );

  // ---- API keys ----
  const keys = program
    .command('keys')
    .description('API keys (level 1 with PMDESK_PRIVATE_KEY; list/delete also need PMDESK_API_*)');
  const keyMakers: [string, string, (c: ClobClient, nonce?: number) => Promise<ClobResult<ApiCredentials>>][] = [
    ['create', 'POST /auth/api-key: new credentials', (c, n) => c.createApiKey(n)],
    [
      'derive',
      'GET /auth/derive-api-key: the credentials already made for this wallet and nonce',
      (c, n) => c.deriveApiKey(n),
    ],
    ['create-or-derive', 'derive, and create when none results', (c, n) => c.createOrDeriveApiKey(n)],
  ];
  for (const [name, description, call] of keyMakers) {
    keys
      .command(name)
      .description(`${description}; written to --out (mode 0600), never printed`)
      .option('--nonce <n>', 'key nonce (default 0)')
      .option('--out <file>', 'where to write {key, secret, passphrase}; must not exist')
      .action(
        run(async (ctx: CliContext, opts: { nonce?: string; out?: string }) => {
          if (!opts.out)
            throw invalidParameter('--out <file> is required: credentials are written to a file, never printed.');
          const nonce = intFlag(opts.nonce, 'nonce');
          const client = clob({ signer: true });
          // The file is claimed before the exchange is asked: a created key cannot be recovered, so it must
          // never be made only to find that it has nowhere to go.
          const creds = await writeSecretFile(opts.out, async () => {
            const answer = await call(client, nonce);
            if (isClobError(answer) || !answer.key) throw invalidParameter('The exchange returned no API key.');
            return answer;
          });
          if (name !== 'derive') ctx.out.stderr(`${CREDS_CREATION_WARNING}\n`);
          print(ctx, { key: creds.key, savedTo: opts.out });
        }),
      );
  }
  keys
    .command('list')
    .description('GET /auth/api-keys')
    .action(run(async (ctx: CliContext) => print(ctx, await clob({ creds: true }).getApiKeys())));
  keys
    .command('delete')
    .description('DELETE /auth/api-key: the key in PMDESK_API_KEY')
    .action(run(async (ctx: CliContext) => print(ctx, await clob({ creds: true }).deleteApiKey())));

  // ---- orders ----
  const order = program.command('order').description('build, sign, place, read and cancel orders');
  withOrderFlags(
    order
      .command('build')
      .description('build and sign an order with no network; prints {signedOrder, orderHash, body}'),
  ).action(
    run(async (ctx: CliContext, opts: OrderFlags) =>
      print(ctx, await buildOffline(opts, chainOf(opts.chain), customNetwork(), await orderAccount(opts))),
    ),
  );
  withOrderFlags(
    order
      .command('place')
      .description('build with what the exchange says about the market, sign, post, then read the status'),
  ).action(
    run(async (ctx: CliContext, opts: OrderFlags) => {
      const acting = await placingAccount(ctx, opts);
      const account = { address: acting.address, kind: acting.kind, signatureType: acting.signatureType };
      const placed = await place(clob({ creds: true, chain: opts.chain, account }), opts, customNetwork());
      print(
        ctx,
        ctx.out.json && placed && typeof placed === 'object' ? { ...placed, account: accountJson(acting) } : placed,
      );
    }),
  );
  /**
   * The one account rule for `order place`: the flags' account; else, where a chain node is named (the --network
   * profile's, PMDESK_RPC_URL), the account `account show` finds; with no node, the account the profile or the
   * exchange names (account-without-node.ts), else a refusal saying to pass --signature-type/--account or a node.
   */
  const placingAccount = async (ctx: CliContext, opts: OrderFlags): Promise<ActingAccount> => {
    if (opts.account ?? opts.funder ?? opts.signatureType ?? opts.sigType) {
      const account = await orderAccount(opts);
      return sayAndReturn(ctx, {
        address: account.address,
        kind: account.kind,
        signatureType: account.signatureType,
        reason: 'flag',
      });
    }
    const network = networkFor(chainOf(opts.chain), networks());
    const custom = customNetwork();
    const rpcUrl = process.env.PMDESK_RPC_URL || (custom?.chainId === network.chainId ? custom.rpcUrl : undefined);
    const signer = await envSigner().getAddress();
    if (!rpcUrl) {
      // No node: the profile or the exchange may still name the account; else refused, never the key by default.
      const account = await accountWithoutNode(signer, walletConfigFor(network), {
        profileWallet: () => ctx.markets().getProfileWallet?.(signer) ?? Promise.resolve(undefined),
        exchangeBalance: async (type) =>
          balanceOf(
            await clob({ creds: true, chain: opts.chain, sigType: String(type) }).getBalanceAllowance({
              asset_type: 'COLLATERAL',
            }),
          ),
      });
      return sayAndReturn(ctx, account);
    }
    return sayAndReturn(
      ctx,
      await actingAccount(
        signer,
        {},
        network,
        rpcUrl,
        (owner) => ctx.markets().getProfileWallet?.(owner) ?? Promise.resolve(undefined),
        ctx.timeoutMs(),
      ),
    );
  };
  const sayAndReturn = (ctx: CliContext, account: ActingAccount): ActingAccount => {
    sayAccount(ctx, account);
    return account;
  };
  order
    .command('get <id>')
    .description('GET /data/order/{id}')
    .action(run(async (ctx: CliContext, id: string) => print(ctx, await clob({ creds: true }).getOrder(id))));
  order
    .command('open')
    .description('GET /data/orders: open orders, every page')
    .option('--market <conditionId>', 'only this market')
    .option('--asset <tokenId>', 'only this token')
    .action(
      run(async (ctx: CliContext, opts: { market?: string; asset?: string }) =>
        print(ctx, await clob({ creds: true }).getOpenOrders({ market: opts.market, asset_id: opts.asset })),
      ),
    );
  order
    .command('cancel <ids...>')
    .description('DELETE /order (one id) or /orders (several)')
    .action(
      run(async (ctx: CliContext, ids: string[]) =>
        print(
          ctx,
          ids.length === 1
            ? await clob({ creds: true }).cancelOrder(ids[0]!)
            : await clob({ creds: true }).cancelOrders(ids),
        ),
      ),
    );
  order
    .command('cancel-all')
    .description('DELETE /cancel-all')
    .action(run(async (ctx: CliContext) => print(ctx, await clob({ creds: true }).cancelAll())));
  order
    .command('cancel-market')
    .description('DELETE /cancel-market-orders')
    .option('--market <conditionId>', 'the market')
    .option('--asset <tokenId>', 'only this token')
    .action(
      run(async (ctx: CliContext, opts: { market?: string; asset?: string }) => {
        if (!opts.market) throw invalidParameter("Missing required parameter 'market'.");
        print(ctx, await clob({ creds: true }).cancelMarketOrders({ market: opts.market, asset_id: opts.asset }));
      }),
    );

  program
    .command('trades')
    .description('GET /data/trades: your trades, every page')
    .option('--market <conditionId>', 'only this market')
    .option('--asset <tokenId>', 'only this token')
    .option('--first-page', 'one page only')
    .action(
      run(async (ctx: CliContext, opts: { market?: string; asset?: string; firstPage?: boolean }) =>
        print(
          ctx,
          await clob({ creds: true }).getTrades({ market: opts.market, asset_id: opts.asset }, Boolean(opts.firstPage)),
        ),
      ),
    );
  program
    .command('balance')
    .description('GET /balance-allowance')
    .option('--asset-type <type>', 'COLLATERAL (default) or CONDITIONAL')
    .option('--token <tokenId>', 'the token, for CONDITIONAL')
    .option('--sig-type <n>', 'signature type of the account: 0 EOA, 1 proxy, 2 Safe, 3 deposit wallet')
    .action(
      run(async (ctx: CliContext, opts: { assetType?: string; token?: string; sigType?: string }) => {
        const assetType = opts.assetType ?? 'COLLATERAL';
        if (assetType !== 'COLLATERAL' && assetType !== 'CONDITIONAL')
          throw invalidParameter(`--asset-type must be COLLATERAL or CONDITIONAL, got ${assetType}`);
        if (assetType === 'CONDITIONAL' && !opts.token)
          throw invalidParameter('--token is required with --asset-type CONDITIONAL');
        print(
          ctx,
          await clob({ creds: true, sigType: opts.sigType }).getBalanceAllowance({
            asset_type: assetType,
            token_id: opts.token,
          }),
        );
      }),
    );
}

function withOrderFlags(command: Command): Command {
  return command
    .option('--token <tokenId>', 'outcome token id')
    .option('--side <side>', 'BUY or SELL')
    .option('--price <p>', 'limit price; for a market order the worst price accepted')
    .option('--size <shares>', 'a limit order of this many shares')
    .option('--amount <n>', 'a market order: USDC for BUY, shares for SELL')
    .option('--tick-size <tick>', '0.1, 0.01, 0.005, 0.0025, 0.001 or 0.0001')
    .option('--neg-risk <bool>', 'true or false')
    .option('--order-version <v>', '1, 2 or 3')
    .option('--chain <id>', 'chain id (overrides the global --chain)')
    .option(
      '--account <address>',
      'the account to trade from: the key itself or one of its proxy, Safe or deposit wallets on this chain (see `pmdesk account derive`); any other address is refused before signing',
    )
    .option(
      '--signature-type <n>',
      "0 EOA (default), 1 POLY_PROXY, 2 POLY_GNOSIS_SAFE, 3 POLY_1271 (deposit wallet); alone, the key's own wallet of that kind",
    )
    .option('--sig-type <n>', 'older spelling of --signature-type')
    .option('--funder <address>', 'older spelling of --account')
    .option('--salt <n>', 'order salt (default: random)')
    .option('--timestamp <ms>', 'order timestamp in ms, versions 2 and 3 (default: now)')
    .option('--expiration <s>', 'unix seconds, 0 for none (GTD)')
    .option('--nonce <n>', 'version 1 nonce')
    .option('--fee-rate-bps <n>', 'version 1 fee rate')
    .option('--taker <address>', 'version 1 taker')
    .option('--builder-code <bytes32>', 'versions 2 and 3 builder code')
    .option('--metadata <bytes32>', 'versions 2 and 3 metadata')
    .option('--order-type <type>', 'GTC, GTD, FOK or FAK (default GTC, FOK for --amount)')
    .option('--post-only', 'rest on the book only (GTC and GTD)')
    .option('--owner <apiKey>', 'the body owner (default PMDESK_API_KEY)');
}

/** The order's own fields from the flags, checked before anything is signed or sent. */
function parseOrder(opts: OrderFlags) {
  if (!opts.token) throw invalidParameter("Missing required parameter 'token'.");
  const side = sideOf(opts.side);
  if ((opts.size === undefined) === (opts.amount === undefined))
    throw invalidParameter('Give exactly one of --size (limit order) or --amount (market order).');
  const market = opts.amount !== undefined;
  const orderType = orderTypeOf(opts.orderType ?? (market ? 'FOK' : 'GTC'));
  const tickSize = opts.tickSize === undefined ? undefined : tickOf(opts.tickSize);
  const negRisk = opts.negRisk === undefined ? undefined : boolOf(opts.negRisk, 'neg-risk');
  const version = opts.orderVersion === undefined ? undefined : versionOf(opts.orderVersion);
  const fields = {
    tokenId: opts.token,
    side,
    salt: opts.salt,
    expiration: opts.expiration,
    nonce: opts.nonce,
    feeRateBps: intFlag(opts.feeRateBps, 'fee-rate-bps'),
    taker: opts.taker,
    timestamp: opts.timestamp,
    metadata: opts.metadata,
    builderCode: opts.builderCode,
  };
  const price = opts.price === undefined ? undefined : positiveFlag(opts.price, 'price');
  const quantity = positiveFlag((market ? opts.amount : opts.size)!, market ? 'amount' : 'size');
  const post = { orderType, postOnly: Boolean(opts.postOnly) };
  return { market, fields, price, quantity, tickSize, negRisk, version, post };
}

async function buildOffline(
  opts: OrderFlags,
  chainId: number,
  custom: NetworkProfile | undefined,
  account: Account,
): Promise<unknown> {
  const o = parseOrder(opts);
  // With no exchange to ask, everything the market would say must be on the command line.
  if (!o.tickSize) throw invalidParameter('--tick-size is required for order build (there is no market to ask).');
  if (o.price === undefined)
    throw invalidParameter('--price is required for order build (there is no book to price a market order from).');
  const networks = custom ? [custom] : undefined;
  const builder = new OrderBuilder({
    signer: envSigner(),
    chainId,
    signatureType: account.signatureType,
    funder: funderOf(account),
    networks,
  });
  // The live exchange signs version 2 since 2026-04-28; a profile that names its version wins.
  const profileVersion = custom?.chainId === chainId ? custom.orderVersion : undefined;
  const terms = { tickSize: o.tickSize, negRisk: o.negRisk ?? false, version: o.version ?? profileVersion ?? 2 };
  const built = o.market
    ? await builder.buildMarketOrder({ ...o.fields, amount: o.quantity, price: o.price }, terms)
    : await builder.buildLimitOrder({ ...o.fields, price: o.price, size: o.quantity }, terms);
  return {
    signedOrder: built.signedOrder,
    orderHash: built.orderHash,
    body: orderBody(built, opts.owner ?? process.env.PMDESK_API_KEY ?? '', o.post),
  };
}

/**
 * Builds, signs and posts one order through the toolkit's reconciler: a post with no definite answer is looked up
 * by the order's hash (exchange, then the chain when the profile names a node) before anything else, and when it
 * still cannot be known the command fails as "may be live" with the hash (exit EXIT_ORDER_IN_DOUBT).
 */
async function place(client: ClobClient, opts: OrderFlags, custom: NetworkProfile | undefined): Promise<unknown> {
  const o = parseOrder(opts);
  if (!o.market && o.price === undefined) throw invalidParameter("Missing required parameter 'price'.");
  assertPostOnlyAllowed(o.version ?? 2, o.post.orderType, o.post.postOnly);
  const create = (version: OrderVersion | undefined) => {
    const options = { tickSize: o.tickSize, negRisk: o.negRisk, version };
    return o.market
      ? client.createMarketOrder(
          { ...o.fields, amount: o.quantity, price: o.price },
          { ...options, orderType: o.post.orderType },
        )
      : client.createOrder({ ...o.fields, price: o.price!, size: o.quantity }, options);
  };
  const provider = custom?.rpcUrl
    ? new JsonRpcProvider(custom.rpcUrl, Network.from(custom.chainId), { staticNetwork: true })
    : undefined;
  const postOnce = (built: BuiltOrder) =>
    postOrderOnce(client, built, o.post, {
      tokenId: o.fields.tokenId,
      methodName: 'placeOrder',
      chainStatus: provider
        ? (hash) => new ExchangeContract(built.verifyingContract, provider).orderStatus(hash)
        : undefined,
    });
  try {
    let order = await create(o.version);
    let posted: PostedOrder;
    try {
      posted = await postOnce(order);
    } catch (error) {
      // A version mismatch is a definite refusal: rebuilt once for the version the exchange now names, unless the trader chose one.
      if (o.version !== undefined || !isPmDeskError(error) || !isVersionMismatch(errorResult(error))) throw error;
      const version = await client.resolveVersion();
      if (version === order.version) throw error;
      order = await create(version);
      posted = await postOnce(order);
    }
    let status: unknown;
    if (posted.orderID) {
      try {
        status = await client.getOrder(posted.orderID);
      } catch {
        // The order is placed whatever this read says: the post's answer stands.
        status = undefined;
      }
    }
    return {
      orderHash: order.orderHash,
      orderVersion: order.version,
      response: posted.response ?? null,
      reconciled: posted.reconciled,
      status,
    };
  } finally {
    provider?.destroy();
  }
}

// ---- flag parsing: every refusal is an input error (exit 2), nothing is sent ----

function sideOf(value?: string): OrderSide {
  const side = value?.toUpperCase();
  if (side !== 'BUY' && side !== 'SELL')
    throw invalidParameter(`--side must be BUY or SELL, got ${value ?? 'nothing'}`);
  return side;
}
function tickOf(value: string): TickSize {
  if (!isTickSize(value))
    throw invalidParameter(`--tick-size must be 0.1, 0.01, 0.005, 0.0025, 0.001 or 0.0001, got ${value}`);
  return value;
}
function orderTypeOf(value: string): OrderType {
  const type = value.toUpperCase() as OrderType;
  if (!ORDER_TYPES.includes(type)) throw invalidParameter(`--order-type must be GTC, GTD, FOK or FAK, got ${value}`);
  return type;
}
function versionOf(value: string): OrderVersion {
  if (value !== '1' && value !== '2' && value !== '3')
    throw invalidParameter(`--order-version must be 1, 2 or 3, got ${value}`);
  return Number(value) as OrderVersion;
}
function sigTypeOf(value?: string): SignatureType {
  if (value === undefined) return 0;
  if (value !== '0' && value !== '1' && value !== '2' && value !== '3')
    throw invalidParameter(`--signature-type must be 0, 1, 2 or 3, got ${value}`);
  return Number(value) as SignatureType;
}
/** The order's funder: the account's wallet, or none when the key itself trades. */
function funderOf(account: Account): string | undefined {
  return account.signatureType === 0 ? undefined : account.address;
}
function boolOf(value: string, flag: string): boolean {
  if (value !== 'true' && value !== 'false') throw invalidParameter(`--${flag} must be true or false, got ${value}`);
  return value === 'true';
}
function intFlag(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9]+$/.test(value)) throw invalidParameter(`--${flag} must be a non-negative integer, got ${value}`);
  return Number(value);
}
function positiveFlag(value: string, flag: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0)
    throw invalidParameter(`--${flag} must be a positive number, got ${value}`);
  return n;
}

function envSigner() {
  const key = process.env.PMDESK_PRIVATE_KEY;
  if (!key) throw invalidParameter('Set PMDESK_PRIVATE_KEY (hex) to sign.');
  return privateKeySigner(key);
}
function envCreds(): ApiCredentials {
  const { PMDESK_API_KEY: key, PMDESK_API_SECRET: secret, PMDESK_API_PASSPHRASE: passphrase } = process.env;
  if (!key || !secret || !passphrase)
    throw invalidParameter('Set PMDESK_API_KEY, PMDESK_API_SECRET and PMDESK_API_PASSPHRASE for this command.');
  return { key, secret, passphrase };
}

/**
 * Creates a new file only the user can read (an existing file is never overwritten), then fetches the
 * credentials and writes them into it; when fetching fails, the empty file is removed again.
 */
async function writeSecretFile(path: string, fetchCreds: () => Promise<ApiCredentials>): Promise<ApiCredentials> {
  let handle;
  try {
    handle = await open(path, 'wx', 0o600);
  } catch {
    throw invalidParameter(`Cannot create ${path}: it exists or its folder is not writable.`);
  }
  let creds: ApiCredentials;
  try {
    creds = await fetchCreds();
  } catch (error) {
    await handle.close();
    await rm(path, { force: true });
    throw error;
  }
  try {
    await handle.writeFile(
      `${JSON.stringify({ key: creds.key, secret: creds.secret, passphrase: creds.passphrase })}\n`,
    );
  } finally {
    await handle.close();
  }
  return creds;
}

/** JSON for scripts (--json) and pretty JSON for people: these answers are records, not tables. */
function print(ctx: CliContext, value: unknown): void {
  ctx.out.stdout(ctx.out.json ? `${JSON.stringify(value)}\n` : `${JSON.stringify(value, null, 2)}\n`);
}

/** Bids and asks side by side, best first (the exchange lists the best level last). */
function bookText(book: OrderBookSummary): string {
  const bids = [...(book.bids ?? [])].reverse();
  const asks = [...(book.asks ?? [])].reverse();
  const rows = Array.from({ length: Math.max(bids.length, asks.length) }, (_, i) => ({ bid: bids[i], ask: asks[i] }));
  const header = `${book.asset_id ?? ''}${book.tick_size !== undefined ? `  tick ${book.tick_size}` : ''}${book.neg_risk ? '  neg-risk' : ''}\n`;
  return (
    header +
    table(rows, [
      { header: 'bid size', value: (r) => r.bid?.size, right: true },
      { header: 'bid', value: (r) => r.bid?.price, right: true },
      { header: 'ask', value: (r) => r.ask?.price, right: true },
      { header: 'ask size', value: (r) => r.ask?.size, right: true },
    ])
  );
}
