// The sandbox's stand-in for Polymarket's relayer (relayer-v2.polymarket.com): the endpoints its clients call
// (/nonce, /relay-payload, /deployed, /submit, /transaction, /transactions), /submit and /transactions
// authenticated by a relayer API key or builder HMAC headers as Polymarket's are, every request checked
// (verify.ts) and then sent from the relayer's own funded account, which pays the gas, with Polymarket's states.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { Wallet, getAddress, isAddress, type JsonRpcProvider, type Log } from 'ethers';
import { sandboxProvider, TX_OVERRIDES } from '../chain/transactions';
import { depositWalletAddress, safeAddress, type SandboxWallets } from '../chain/wallet-addresses';
import {
  RELAY_HUB_ABI,
  RelayerRefusal,
  requestWallet,
  submitSchema,
  verifyRequest,
  walletNonce,
  type SubmitRequest,
} from './verify';

export interface RelayerApiKeyCredential {
  key: string;
  address: string;
}
export interface BuilderCredential {
  key: string;
  secret: string;
  passphrase: string;
}

export interface SandboxRelayerOptions {
  rpcUrl: string;
  chainId: number;
  wallets: SandboxWallets;
  /** The relay account's key: it sends every relayed transaction and pays its gas. */
  relayKey: string;
  apiKeys?: RelayerApiKeyCredential[];
  builders?: BuilderCredential[];
  port?: number;
}

/** A relayed transaction as `GET /transaction` answers it (Polymarket's RelayerTransaction fields). */
export interface RelayerRecord {
  transactionID: string;
  transactionHash: string;
  from: string;
  to: string;
  proxyAddress: string;
  data: string;
  nonce: string;
  value: string;
  state: string;
  type: string;
  metadata: string;
  createdAt: string;
  updatedAt: string;
  /** Who submitted it (an API key's address or a builder key), for `GET /transactions`; never answered. */
  submitter: string;
}

/** The sandbox relay account's key: keccak256("pmdesk sandbox relayer"), none of anvil's dev keys, so its nonces are its own. */
export const SANDBOX_RELAY_KEY = '0x02ec685a52be53d62f043f28f58cb471e534841a8b904b58e6f00ba79dd86de2';

/** The relayer API key the sandbox gives a test wallet: fixed per address, so a written profile stays valid. */
export function sandboxRelayerApiKey(address: string): RelayerApiKeyCredential {
  const owner = getAddress(address);
  return {
    key: `sandbox-relayer-${owner.slice(2, 10).toLowerCase()}-${owner.slice(-8).toLowerCase()}`,
    address: owner,
  };
}

const MAX_BODY = 512 * 1024;
/** Builder timestamps further than this from the relayer's clock are refused, as a replay guard. */
const BUILDER_CLOCK_SKEW_S = 300;
/** The gas each relayed transaction may use: generous, so a failing call is mined and reported as failed. */
const RELAY_GAS_LIMIT = 8_000_000n;
/** How long a sent transaction is followed for its receipt, and how often its receipt is asked for. */
const FOLLOW_LIMIT_MS = 120_000;
const FOLLOW_POLL_MS = 20;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new HttpError(413, 'body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class SandboxRelayer {
  private server: Server | undefined;
  private port = 0;
  private readonly provider: JsonRpcProvider;
  private readonly relay: Wallet;
  private readonly records = new Map<string, RelayerRecord>();
  /** Requests are checked and sent one at a time, so the relay account's nonces never collide. */
  private queue: Promise<unknown> = Promise.resolve();
  /** The relay account's next nonce, counted here once read: sent transactions may not be mined yet. */
  private relayNonce: number | undefined;
  /** Wallets with an action sent and not yet mined: their next action waits (is refused) until it is. */
  private readonly inFlight = new Set<string>();
  private readonly following = new Set<Promise<void>>();
  private stopping = false;

  constructor(private readonly options: SandboxRelayerOptions) {
    this.provider = sandboxProvider(options.rpcUrl, options.chainId);
    this.relay = new Wallet(options.relayKey, this.provider);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The relay account: it is funded at start and pays every relayed transaction's gas. */
  get relayAddress(): string {
    return this.relay.address;
  }

  async start(): Promise<this> {
    // 1,000 ETH of the chain's gas token, enough for the relay account's whole life on a sandbox.
    await this.provider.send('anvil_setBalance', [this.relay.address, '0x3635C9ADC5DEA00000']);
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        const status = error instanceof HttpError || error instanceof RelayerRefusal ? error.status : 500;
        send(res, status, { error: error instanceof Error ? error.message : 'internal error' });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(this.options.port ?? 0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.queue.catch(() => undefined);
    await Promise.all(this.following);
    if (this.server) {
      this.server.closeAllConnections();
      await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    }
    this.provider.destroy();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://relayer');
    const route = `${req.method} ${url.pathname}`;
    const query = url.searchParams;
    // The v1 paths @polymarket/client 0.2.0 uses beside the ones @polymarket/builder-relayer-client uses.
    if (route === 'GET /v1/account/transactions/params') {
      const owner = this.owner(query.get('address'));
      return send(res, 200, { address: this.relay.address, nonce: await this.nextNonce(owner, query.get('type')) });
    }
    if (req.method === 'GET' && url.pathname.startsWith('/v1/account/transactions/')) {
      const record = this.records.get(decodeURIComponent(url.pathname.slice('/v1/account/transactions/'.length)));
      if (!record) throw new HttpError(404, 'transaction not found');
      await this.settle(record);
      return send(res, 200, {
        transaction_id: record.transactionID,
        transaction_hash: record.transactionHash,
        state: record.state,
        error_msg: record.state === 'STATE_FAILED' ? 'the transaction reverted' : null,
      });
    }
    switch (route) {
      case 'GET /nonce': {
        return send(res, 200, { nonce: await this.nextNonce(this.owner(query.get('address')), query.get('type')) });
      }
      case 'GET /relay-payload': {
        // The relay that will send the call and the owner's nonce at the hub: both go into the rlx: hash.
        const owner = this.owner(query.get('address'));
        return send(res, 200, { address: this.relay.address, nonce: await this.nextNonce(owner, 'PROXY') });
      }
      case 'GET /deployed': {
        const at = this.owner(query.get('address'));
        return send(res, 200, { deployed: (await this.provider.getCode(at)) !== '0x' });
      }
      case 'GET /transaction': {
        const record = this.records.get(query.get('id') ?? '');
        if (record) await this.settle(record);
        return send(res, 200, record ? [this.public(record)] : []);
      }
      case 'GET /transactions': {
        const submitter = this.authenticate(req, url.pathname, undefined);
        const mine = [...this.records.values()].filter((r) => r.submitter === submitter);
        return send(
          res,
          200,
          mine.map((r) => this.public(r)),
        );
      }
      case 'POST /submit': {
        const body = await readBody(req);
        const submitter = this.authenticate(req, url.pathname, body);
        return send(res, 200, await this.submit(body, submitter));
      }
      default:
        throw new HttpError(404, 'not found');
    }
  }

  /** The nonce the owner's next request of this type must carry. */
  private async nextNonce(owner: string, type: string | null): Promise<string> {
    if (type !== 'PROXY' && type !== 'SAFE' && type !== 'WALLET')
      throw new HttpError(400, 'type must be SAFE, PROXY or WALLET');
    return String(await walletNonce(this.provider, this.options.wallets, owner, type));
  }

  private owner(value: string | null): string {
    if (!value || !isAddress(value)) throw new HttpError(400, 'address is required');
    return getAddress(value);
  }

  /** Who is asking: a relayer API key with its address, or a builder's HMAC over timestamp+method+path+body. */
  private authenticate(req: IncomingMessage, path: string, body: string | undefined): string {
    const apiKey = header(req, 'RELAYER_API_KEY');
    if (apiKey) {
      const address = header(req, 'RELAYER_API_KEY_ADDRESS') ?? '';
      const known = (this.options.apiKeys ?? []).find(
        (k) => sameText(k.key, apiKey) && isAddress(address) && getAddress(k.address) === getAddress(address),
      );
      if (!known) throw new HttpError(401, 'invalid relayer api key');
      return `api-key:${getAddress(known.address)}`;
    }
    const builderKey = header(req, 'POLY_BUILDER_API_KEY');
    if (builderKey) {
      const builder = (this.options.builders ?? []).find((b) => sameText(b.key, builderKey));
      const timestamp = header(req, 'POLY_BUILDER_TIMESTAMP') ?? '';
      if (!builder || !sameText(builder.passphrase, header(req, 'POLY_BUILDER_PASSPHRASE') ?? ''))
        throw new HttpError(401, 'invalid builder credentials');
      if (!/^\d{1,12}$/.test(timestamp) || Math.abs(Number(timestamp) - Date.now() / 1000) > BUILDER_CLOCK_SKEW_S)
        throw new HttpError(401, 'builder timestamp out of range');
      const expected = createHmac('sha256', Buffer.from(builder.secret, 'base64'))
        .update(`${timestamp}${req.method}${path}${body ?? ''}`)
        .digest('base64')
        .replace(/\+/g, '-')
        .replace(/\//g, '_');
      if (!sameText(expected, header(req, 'POLY_BUILDER_SIGNATURE') ?? ''))
        throw new HttpError(401, 'invalid builder signature');
      return `builder:${builder.key}`;
    }
    throw new HttpError(401, 'missing relayer authentication');
  }

  private async submit(
    body: string,
    submitter: string,
  ): Promise<{ transactionID: string; transactionHash: string | null; state: string }> {
    let parsed: SubmitRequest;
    try {
      const result = submitSchema.safeParse(JSON.parse(body));
      if (!result.success)
        throw new HttpError(
          400,
          `invalid request: ${result.error.issues[0]?.path.join('.')} ${result.error.issues[0]?.message}`,
        );
      parsed = result.data;
    } catch (error) {
      throw error instanceof HttpError ? error : new HttpError(400, 'invalid JSON');
    }
    if (submitter.startsWith('api-key:') && submitter !== `api-key:${getAddress(parsed.from)}`)
      throw new HttpError(401, 'the api key belongs to another address');
    // Checked and sent one at a time (the relay account's nonces are counted here), then answered at once, as
    // Polymarket's relayer answers: mining and confirmation are followed apart (follow()), so an answer never waits
    // for another transaction's block. While a wallet's action is in flight its next one is refused with
    // Polymarket's message, which its clients retry: the nonce and deployment checks read settled chain state.
    const work = this.queue.then(() => this.verifyAndSend(parsed, submitter));
    this.queue = work.catch(() => undefined);
    const record = await work;
    // No hash yet is null, as Polymarket's relayer answers (its clients refuse an empty string).
    return {
      transactionID: record.transactionID,
      transactionHash: record.transactionHash || null,
      state: record.state,
    };
  }

  private async verifyAndSend(request: SubmitRequest, submitter: string): Promise<RelayerRecord> {
    const wallet = requestWallet(this.options.wallets, request);
    if (this.inFlight.has(wallet)) throw new RelayerRefusal(400, 'wallet has in-flight action');
    const call = await verifyRequest(
      this.provider,
      this.options.chainId,
      this.options.wallets,
      this.relay.address,
      request,
    );
    const now = new Date().toISOString();
    const record: RelayerRecord = {
      transactionID: randomUUID(),
      transactionHash: '',
      from: getAddress(request.from),
      to: call.to,
      proxyAddress: call.proxyAddress,
      data: call.data,
      nonce: 'nonce' in request ? request.nonce : '0',
      value: '0',
      state: 'STATE_NEW',
      type: request.type,
      metadata: 'metadata' in request ? (request.metadata ?? '') : '',
      createdAt: now,
      updatedAt: now,
      submitter,
    };
    this.records.set(record.transactionID, record);
    let hash: string;
    try {
      this.relayNonce ??= await this.provider.getTransactionCount(this.relay.address, 'pending');
      const signed = await this.relay.signTransaction({
        ...TX_OVERRIDES,
        chainId: this.options.chainId,
        nonce: this.relayNonce,
        gasLimit: call.gasLimit ?? RELAY_GAS_LIMIT,
        to: call.to,
        data: call.data,
      });
      hash = (await this.provider.send('eth_sendRawTransaction', [signed])) as string;
      this.relayNonce += 1;
    } catch {
      // The chain refused to take it: nothing ran, and the record says so. The relay nonce is read again next time.
      this.relayNonce = undefined;
      this.update(record, { state: 'STATE_FAILED' });
      return record;
    }
    this.update(record, { transactionHash: hash, state: 'STATE_EXECUTED' });
    this.inFlight.add(wallet);
    const following = this.follow(record).finally(() => {
      this.inFlight.delete(wallet);
      this.following.delete(following);
    });
    this.following.add(following);
    return { ...record };
  }

  /**
   * Follows a sent transaction to mined (or failed) by asking for its receipt, never by ethers' waitForTransaction:
   * that one, when the receipt is not there yet, waits for a block after the one it starts at, and on a chain that
   * mines only when sent something the block holding the transaction may be that one, so it waited out its whole
   * timeout (3 in 200 sends under CPU load). Then it mines the block that confirms the transaction: the
   * sandbox chain mines only when sent something, and @polymarket/client waits for STATE_CONFIRMED. Bounded: a
   * transaction never mined stays STATE_EXECUTED, and its wallet takes new actions again.
   */
  private async follow(record: RelayerRecord): Promise<void> {
    const deadline = Date.now() + FOLLOW_LIMIT_MS;
    while (!this.stopping && Date.now() < deadline) {
      const receipt = await this.provider.getTransactionReceipt(record.transactionHash).catch(() => null);
      if (receipt) {
        const ok = receipt.status === 1 && relayedCallSucceeded(receipt.logs, this.options.wallets.relayHub);
        this.update(record, { state: ok ? 'STATE_MINED' : 'STATE_FAILED' });
        if (ok) await this.provider.send('evm_mine', []).catch(() => undefined);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS));
    }
  }

  /** A mined transaction is confirmed once a later block exists on the chain. */
  private async settle(record: RelayerRecord): Promise<void> {
    if (record.state !== 'STATE_MINED') return;
    const receipt = await this.provider.getTransactionReceipt(record.transactionHash);
    if (receipt && (await this.provider.getBlockNumber()) > receipt.blockNumber)
      this.update(record, { state: 'STATE_CONFIRMED' });
  }

  private update(record: RelayerRecord, change: Partial<RelayerRecord>): void {
    Object.assign(record, change, { updatedAt: new Date().toISOString() });
  }

  private public(record: RelayerRecord): Omit<RelayerRecord, 'submitter'> {
    const { submitter: _submitter, ...rest } = record;
    return rest;
  }
}

/** Whether a mined relay transaction ran its call: the hub mines a failed relayed call too, with status 1 in its event. */
function relayedCallSucceeded(logs: readonly Log[], hub: string): boolean {
  for (const log of logs) {
    if (log.address.toLowerCase() !== hub.toLowerCase()) continue;
    const event = RELAY_HUB_ABI.parseLog(log);
    if (event?.name === 'TransactionRelayed') return Number(event.args.getValue('status')) === 0;
  }
  return true;
}

export async function startRelayer(options: SandboxRelayerOptions): Promise<SandboxRelayer> {
  return new SandboxRelayer(options).start();
}

/** The accounts a request acts for, for the docs and tests: the owner's Safe and deposit wallet on the sandbox. */
export function relayedWallets(wallets: SandboxWallets, owner: string): { safe: string; depositWallet: string } {
  return {
    safe: safeAddress(wallets.safeFactory, wallets.safeInitCodeHash, owner),
    depositWallet: depositWalletAddress(wallets.depositWalletFactory, wallets.depositWalletBeacon, owner),
  };
}
