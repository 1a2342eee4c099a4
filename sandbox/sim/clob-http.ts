// A minimal CLOB client for the sandbox's bots: they trade through the same REST API, with the same L1/L2
// authentication, as any trader would (signed with ethers and the sandbox's own HMAC, not the toolkit's).
import type { Wallet } from 'ethers';
import { CLOB_AUTH_MESSAGE, hmacSignature, type ApiCredentials } from '../clob/auth';

export class BotClobClient {
  private creds: ApiCredentials | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly wallet: Wallet,
    private readonly chainId: number,
  ) {}

  get apiKey(): string {
    if (!this.creds) throw new Error('no API key yet: call connect()');
    return this.creds.apiKey;
  }

  /** Derives the wallet's API key, creating it the first time. */
  async connect(): Promise<void> {
    const derived = await this.request('GET', '/auth/derive-api-key', undefined, await this.l1Headers());
    if (derived.ok) {
      this.creds = derived.body as ApiCredentials;
      return;
    }
    const created = await this.request('POST', '/auth/api-key', undefined, await this.l1Headers());
    if (!created.ok)
      throw new Error(`bot ${this.wallet.address} could not get an API key: ${JSON.stringify(created.body)}`);
    this.creds = created.body as ApiCredentials;
  }

  postOrder(body: string) {
    return this.private('POST', '/order', body);
  }

  cancelAll() {
    return this.private('DELETE', '/cancel-all');
  }

  cancelMarket(market: string) {
    return this.private('DELETE', '/cancel-market-orders', JSON.stringify({ market }));
  }

  async book(
    tokenId: string,
  ): Promise<{ bids: { price: string; size: string }[]; asks: { price: string; size: string }[] } | undefined> {
    const result = await this.request('GET', `/book?token_id=${tokenId}`);
    return result.ok ? (result.body as never) : undefined;
  }

  private async l1Headers(): Promise<Record<string, string>> {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = await this.wallet.signTypedData(
      { name: 'ClobAuthDomain', version: '1', chainId: this.chainId },
      {
        ClobAuth: [
          { name: 'address', type: 'address' },
          { name: 'timestamp', type: 'string' },
          { name: 'nonce', type: 'uint256' },
          { name: 'message', type: 'string' },
        ],
      },
      { address: this.wallet.address, timestamp, nonce: 0, message: CLOB_AUTH_MESSAGE },
    );
    return { POLY_ADDRESS: this.wallet.address, POLY_SIGNATURE: signature, POLY_TIMESTAMP: timestamp, POLY_NONCE: '0' };
  }

  private private(method: string, path: string, body?: string) {
    const creds = this.creds;
    if (!creds) throw new Error('no API key yet: call connect()');
    const timestamp = String(Math.floor(Date.now() / 1000));
    return this.request(method, path, body, {
      POLY_ADDRESS: this.wallet.address,
      POLY_SIGNATURE: hmacSignature(creds.secret, timestamp, method, path, body ?? ''),
      POLY_TIMESTAMP: timestamp,
      POLY_API_KEY: creds.apiKey,
      POLY_PASSPHRASE: creds.passphrase,
    });
  }

  private async request(
    method: string,
    path: string,
    body?: string,
    headers: Record<string, string> = {},
  ): Promise<{ ok: boolean; status: number; body: unknown }> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      body,
      headers: { ...headers, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // keep the text
    }
    return { ok: response.ok, status: response.status, body: parsed };
  }
}
