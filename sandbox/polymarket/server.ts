// The sandbox's stand-in for Polymarket's public hosts, on one port: Gamma (gamma.ts), the Data API (data.ts),
// the geoblock check (geoblock.ts) and the real-time data service on /rtds (rtds.ts), all answering from the
// same catalog, books, fills, chain balances and exchange trades as the sandbox's CLOB and aggregator. One
// route is the sandbox's own, not Polymarket's: POST /admin/resolve, from loopback only (admin.ts).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JsonRpcProvider } from 'ethers';
import type { Catalog } from '../market/catalog';
import type { MarketData } from '../market/market-data';
import type { PublicTradeSource } from '../market/public-trades';
import { ADMIN_RESOLVE_PATH, adminResolve, type AdminHandlers } from './admin';
import { ChainActivity } from './chain-activity';
import { DataRoutes } from './data';
import { GammaRoutes, type GammaAnswer } from './gamma';
import { GEOBLOCK_PATH, NOT_BLOCKED, geoblockJson, type GeoblockState } from './geoblock';
import { HttpError, Query, decodeSegment, json } from './http';
import { RTDS_PATH, RealTimeFeed, type RtdsFaults } from './rtds';
import { WalletDirectory } from './wallets';

/** The Data API's accounting snapshot: a ZIP, not JSON (accounting-snapshot.ts). */
const ACCOUNTING_SNAPSHOT_PATH = '/v1/accounting/snapshot';

export interface PolymarketServerOptions {
  catalog: Catalog;
  marketData: MarketData;
  /** The exchange's settled trades (the CLOB's `publicTrades`). */
  trades: PublicTradeSource;
  /** The chain, for outcome-token balances. */
  provider: JsonRpcProvider;
  conditionalTokens: string;
  /** The neg-risk adapter, whose events name the trader in neg-risk splits, merges and redemptions. */
  negRiskAdapter?: string;
  /** Wallets shown by name (the sandbox's test wallets). */
  knownWallets?: { address: string; name: string; account?: string }[];
  host?: string;
  port?: number;
  now?: () => number;
  /** Where the geoblock check says the caller is (not blocked by default). */
  geoblock?: GeoblockState;
  /** The sandbox-only admin commands (resolving a market); without them the admin route answers 404. */
  admin?: AdminHandlers;
}

export class PolymarketServer {
  private server: Server | undefined;
  private feed: RealTimeFeed | undefined;
  private readonly gamma: GammaRoutes;
  private readonly data: DataRoutes;
  private readonly wallets: WalletDirectory;
  private readonly now: () => number;
  private geoblockState: GeoblockState;

  constructor(private readonly options: PolymarketServerOptions) {
    this.now = options.now ?? Date.now;
    this.geoblockState = { ...(options.geoblock ?? NOT_BLOCKED) };
    const createdAt = new Date(this.now()).toISOString();
    this.wallets = new WalletDirectory({
      provider: options.provider,
      conditionalTokens: options.conditionalTokens,
      catalog: options.catalog,
      marketData: options.marketData,
      trades: options.trades,
      knownWallets: options.knownWallets ?? [],
      createdAt,
    });
    const shapes = { marketData: options.marketData, now: this.now, createdAt };
    this.gamma = new GammaRoutes({ ...shapes, catalog: options.catalog, wallets: this.wallets });
    const chain = new ChainActivity({
      provider: options.provider,
      conditionalTokens: options.conditionalTokens,
      negRiskAdapter: options.negRiskAdapter,
      catalog: options.catalog,
    });
    this.data = new DataRoutes({
      catalog: options.catalog,
      trades: options.trades,
      wallets: this.wallets,
      shapes,
      chain,
    });
  }

  /** The http base of Gamma, the Data API and the geoblock host (all one server). */
  get url(): string {
    const address = this.server?.address() as AddressInfo | undefined;
    if (!address) throw new Error('the Polymarket server is not listening');
    return `http://${this.options.host ?? '127.0.0.1'}:${address.port}`;
  }

  /** The exact ws:// URL a real-time client connects to. */
  get rtdsUrl(): string {
    return `${this.url.replace(/^http/, 'ws')}${RTDS_PATH}`;
  }

  async start(): Promise<this> {
    const server = createServer((req, res) => void this.handle(req, res));
    server.requestTimeout = 30_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.feed = new RealTimeFeed(server, {
      catalog: this.options.catalog,
      trades: this.options.trades,
      wallets: this.wallets,
      now: this.now,
    });
    return this;
  }

  async stop(): Promise<void> {
    this.feed?.close();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Sets what the geoblock check answers from now on; returns the state now in force. */
  geoblock(state: Partial<GeoblockState> = {}): GeoblockState {
    this.geoblockState = { ...this.geoblockState, ...state };
    return { ...this.geoblockState };
  }

  /**
   * Whether Gamma serves `/events/keyset` and `/markets/keyset` (on by default). Off, both answer 404 as an
   * older Gamma or a proxy without them would, so a client's fallback to the offset lists can be tested; the
   * offset lists answer either way. Returns the state now in force.
   */
  keysetLists(on?: boolean): boolean {
    return this.gamma.keysetLists(on);
  }

  /** Faults of the real-time feed (see `RtdsFaults`); the server must be started. */
  rtdsFaults(): RtdsFaults {
    if (!this.feed) throw new Error('the Polymarket server is not listening');
    return this.feed.faults;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = new URL(req.url ?? '/', 'http://sandbox');
      const path = url.pathname.replace(/\/+$/, '') || '/';
      if (path === ADMIN_RESOLVE_PATH && this.options.admin)
        return json(res, 200, await adminResolve(req, this.options.admin));
      if (req.method !== 'GET' && req.method !== 'HEAD')
        throw new HttpError(405, `method ${req.method ?? ''} not allowed`);
      if (path === GEOBLOCK_PATH) return json(res, 200, geoblockJson(this.geoblockState));
      if (path === ACCOUNTING_SNAPSHOT_PATH) {
        const zip = await this.data.accountingSnapshot(new Query(url.searchParams));
        res.writeHead(200, { 'content-type': 'application/zip', 'content-length': zip.length });
        res.end(req.method === 'HEAD' ? undefined : zip);
        return;
      }
      const segments = path.split('/').filter(Boolean).map(decodeSegment);
      const q = new Query(url.searchParams);
      const answer: GammaAnswer | undefined =
        (await this.gamma.route(segments, q)) ?? (await this.data.route(segments, q));
      if (!answer) throw new HttpError(404, `no route for ${path}`);
      json(res, 200, answer.body, answer.headers);
    } catch (error) {
      if (res.headersSent) {
        res.end();
        return;
      }
      if (error instanceof HttpError) json(res, error.status, { error: error.message });
      else {
        console.error('[sandbox polymarket] request failed', error);
        json(res, 500, { error: 'internal error' });
      }
    }
  }
}
