// Starts what a CLOB server test needs: a sandbox chain with every catalog market on it, the catalog joined to
// the chain's ids, live market data, and the CLOB server on a free port; stop() ends both server and anvil.
import { Contract, Wallet, parseUnits, type JsonRpcProvider } from 'ethers';
import { startSandboxChain, sandboxProvider, type SandboxChain } from '../../sandbox/chain/index';
import type { OrderVersion } from '../../sandbox/chain/deploy';
import { SANDBOX_EVENTS, buildCatalog, type Catalog, type CatalogMarket } from '../../sandbox/market/catalog';
import { MarketData } from '../../sandbox/market/market-data';
import { startClobServer, type ClobServer, type ClobServerOptions } from '../../sandbox/clob/server';

export interface ClobSandbox {
  chain: SandboxChain;
  server: ClobServer;
  catalog: Catalog;
  data: MarketData;
  provider: JsonRpcProvider;
  wallets: Wallet[];
  /** The first binary market (tick 0.01) and a neg-risk one. */
  binary: CatalogMarket;
  negRisk: CatalogMarket;
  collateralOf(address: string): Promise<bigint>;
  sharesOf(address: string, tokenId: string): Promise<bigint>;
  stop(): Promise<void>;
}

export async function startClobSandbox(
  options: { orderVersion?: OrderVersion; amoy?: boolean } & Partial<
    Omit<ClobServerOptions, 'deployment' | 'catalog' | 'marketData'>
  > = {},
): Promise<ClobSandbox> {
  const { orderVersion = 2, amoy = false, ...serverOptions } = options;
  const specs = SANDBOX_EVENTS.flatMap((event) =>
    event.markets.map((market) => ({
      question: market.question,
      negRisk: event.negRisk,
      event: event.negRisk ? event.slug : undefined,
    })),
  );
  const chain = await startSandboxChain({
    orderVersion,
    markets: specs,
    ...(amoy ? { chainId: 80_002, addresses: 'amoy' as const } : {}),
  });
  let server: ClobServer | undefined;
  try {
    const catalog = buildCatalog(SANDBOX_EVENTS, (market) => {
      const onChain = chain.markets.find((m) => m.question === market.question)!;
      return { conditionId: onChain.conditionId, tokenIds: onChain.tokenIds, negRiskEvent: onChain.negRiskEvent };
    });
    const data = new MarketData(catalog);
    server = await startClobServer({ deployment: chain, catalog, marketData: data, ...serverOptions });
    const provider = sandboxProvider(chain.rpcUrl, chain.chainId);
    const markets = catalog.events.flatMap((e) => e.markets);
    const collateral = new Contract(
      chain.contracts.collateral,
      ['function balanceOf(address) view returns (uint256)'],
      provider,
    );
    const ctf = new Contract(
      chain.contracts.conditionalTokens,
      ['function balanceOf(address,uint256) view returns (uint256)'],
      provider,
    );
    const running = server;
    return {
      chain,
      server,
      catalog,
      data,
      provider,
      wallets: chain.testWallets.map((w) => new Wallet(w.privateKey, provider)),
      binary: markets.find((m) => !m.negRisk && m.tickSize === '0.01')!,
      negRisk: markets.find((m) => m.negRisk && m.tickSize === '0.01')!,
      collateralOf: (address) => collateral.getFunction('balanceOf')(address) as Promise<bigint>,
      sharesOf: (address, tokenId) => ctf.getFunction('balanceOf')(address, tokenId) as Promise<bigint>,
      async stop() {
        await running.stop();
        provider.destroy();
        await chain.stop();
      },
    };
  } catch (error) {
    await server?.stop();
    await chain.stop();
    throw error;
  }
}

/** An ethers v6 wallet in the shape the official clients call (`_signTypedData`, as ethers v5 named it). */
export function officialSigner(wallet: Wallet) {
  return {
    _signTypedData: (
      domain: Record<string, unknown>,
      types: Record<string, { name: string; type: string }[]>,
      value: Record<string, unknown>,
    ) => {
      const { EIP712Domain: _omit, ...rest } = types;
      return wallet.signTypedData(domain, rest, value);
    },
    getAddress: async () => wallet.address,
  };
}

export interface Creds {
  key: string;
  secret: string;
  passphrase: string;
}

/** A raw HTTP call to the sandbox CLOB with L2 headers made by the official v2 client's createL2Headers. */
export async function l2Request(
  url: string,
  wallet: Wallet,
  creds: Creds,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: string,
  query = '',
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whichever JSON the server answered
): Promise<{ status: number; body: any }> {
  const { createL2Headers } = await import('@polymarket/clob-client-v2');
  const headers = (await createL2Headers(officialSigner(wallet) as never, creds, {
    method,
    requestPath: path,
    body,
  })) as unknown as Record<string, string>;
  const response = await fetch(`${url}${path}${query}`, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    body,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

export interface OrderFields {
  tokenId: string;
  side: 'BUY' | 'SELL';
  makerAmount: bigint;
  takerAmount: bigint;
  negRisk?: boolean;
  expiration?: bigint;
  nonce?: bigint;
  feeRateBps?: bigint;
  salt?: bigint;
  signatureType?: number;
  maker?: string;
  taker?: string;
  /** Sign for this contract instead of the market's exchange. */
  verifyingContract?: string;
  /** Sign as if for this order version (a mismatch test). */
  version?: OrderVersion;
}

let saltCounter = 1n;

/** An order signed with ethers for the sandbox's exchange, as the POST /order JSON of its version. */
export async function signedOrderJson(
  sb: ClobSandbox,
  wallet: Wallet,
  fields: OrderFields,
): Promise<Record<string, unknown>> {
  const { ORDER_TYPES, exchangeDomain, signedMessage } = await import('../../sandbox/chain/order-typed-data');
  const version = fields.version ?? sb.chain.orderVersion;
  const venue =
    fields.verifyingContract ?? (fields.negRisk ? sb.chain.contracts.negRiskExchange : sb.chain.contracts.exchange);
  const order = {
    salt: fields.salt ?? BigInt(Date.now()) * 1000n + saltCounter++,
    maker: fields.maker ?? wallet.address,
    signer: wallet.address,
    taker: fields.taker ?? '0x0000000000000000000000000000000000000000',
    tokenId: BigInt(fields.tokenId),
    makerAmount: fields.makerAmount,
    takerAmount: fields.takerAmount,
    expiration: fields.expiration ?? 0n,
    nonce: fields.nonce ?? 0n,
    feeRateBps: fields.feeRateBps ?? 0n,
    side: fields.side === 'BUY' ? 0 : 1,
    signatureType: fields.signatureType ?? 0,
    timestamp: BigInt(Date.now()),
    metadata: `0x${'0'.repeat(64)}`,
    builder: `0x${'0'.repeat(64)}`,
    signature: '0x',
  };
  const signature = await wallet.signTypedData(
    exchangeDomain(version, sb.chain.chainId, venue),
    ORDER_TYPES[version],
    signedMessage(version, order),
  );
  const common = { salt: Number(order.salt), maker: order.maker, signer: order.signer };
  if (version === 1) {
    return {
      ...common,
      taker: order.taker,
      tokenId: fields.tokenId,
      makerAmount: String(order.makerAmount),
      takerAmount: String(order.takerAmount),
      expiration: String(order.expiration),
      nonce: String(order.nonce),
      feeRateBps: String(order.feeRateBps),
      side: fields.side,
      signatureType: order.signatureType,
      signature,
    };
  }
  return {
    ...common,
    tokenId: fields.tokenId,
    makerAmount: String(order.makerAmount),
    takerAmount: String(order.takerAmount),
    side: fields.side,
    signatureType: order.signatureType,
    timestamp: String(order.timestamp),
    expiration: String(order.expiration),
    metadata: order.metadata,
    builder: order.builder,
    signature,
  };
}

// ---------------------------------------------------------------------------------------------------------
// What the feed tests do as traders on the sandbox CLOB: limit orders by price and size, posted with L2 auth,
// and every page of a list endpoint.

const usdc = (amount: number): bigint => parseUnits(amount.toFixed(6), 6);

/** A limit order's amounts: `size` shares at `price`, as the maker gives and takes them. */
export function limitOrder(tokenId: string, side: 'BUY' | 'SELL', price: number, size: number): OrderFields {
  const shares = usdc(size);
  const collateral = usdc(Number((price * size).toFixed(6)));
  return side === 'BUY'
    ? { tokenId, side, makerAmount: collateral, takerAmount: shares }
    : { tokenId, side, makerAmount: shares, takerAmount: collateral };
}

/** The L2 credentials the sandbox made for a wallet. */
export function credsOf(sb: ClobSandbox, wallet: Wallet): Creds {
  const c = sb.server.apiKeyFor(wallet.address);
  return { key: c.apiKey, secret: c.secret, passphrase: c.passphrase };
}

/** Posts a GTC order signed by `wallet`; the exchange's order id. */
export async function postOrder(sb: ClobSandbox, wallet: Wallet, fields: OrderFields): Promise<string> {
  const creds = credsOf(sb, wallet);
  const order = await signedOrderJson(sb, wallet, fields);
  const response = await l2Request(
    sb.server.url,
    wallet,
    creds,
    'POST',
    '/order',
    JSON.stringify({ deferExec: false, postOnly: false, order, owner: creds.key, orderType: 'GTC' }),
  );
  if (response.status !== 200)
    throw new Error(`POST /order answered ${response.status}: ${JSON.stringify(response.body)}`);
  return (response.body as { orderID: string }).orderID;
}

/** Every page of one L2 list endpoint, as the app's REST client would read it. */
export async function allPages<T>(sb: ClobSandbox, wallet: Wallet, path: string): Promise<T[]> {
  const rows: T[] = [];
  for (let cursor = 'MA=='; cursor !== 'LTE=';) {
    const response = await l2Request(
      sb.server.url,
      wallet,
      credsOf(sb, wallet),
      'GET',
      path,
      undefined,
      `?next_cursor=${cursor}`,
    );
    if (response.status !== 200)
      throw new Error(`GET ${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
    rows.push(...(response.body.data as T[]));
    cursor = response.body.next_cursor as string;
  }
  return rows;
}
