// Talks to Polymarket's relayer: the reads a request needs first (nonce, relay payload, deployed), the one
// submission (never retried: a second POST could run the same actions twice), and following a transaction to a
// final state within a bounded number of polls, saying what is known when it does not get there.
import { z } from 'zod';
import { isAddress } from 'ethers';
import { ErrorCode, PmDeskError, invalidParameter, wrapOnce } from '../model/errors';
import { httpRequest, type HttpMethod } from '../http/request';
import type { Query } from '../http/query';
import { parseAnswer } from '../polymarket/http';
import { relayerAuthHeaders, type RelayerCredentials } from './auth';
import { FINAL_RELAYER_STATES, RelayerState, relayerRequestBody, type RelayerRequest } from './requests';

/** Polymarket's relayer on Polygon (ts-sdk environments). */
export const POLYMARKET_RELAYER_URL = 'https://relayer-v2.polymarket.com';
/** The ts-sdk's cadence: up to 100 polls, 2 s apart (at most about 3 minutes and 20 seconds). */
export const RELAYER_MAX_POLLS = 100;
export const RELAYER_POLL_INTERVAL_MS = 2_000;
/** Every relayer answer is small: a nonce, a few transaction records. */
const RELAYER_MAX_BYTES = 256 * 1024;
const DEFAULT_TIMEOUT_MS = 20_000;

const decimal = z.union([z.string().regex(/^(0|[1-9][0-9]{0,77})$/), z.number().int().nonnegative()]).transform(String);
const address = z.string().refine((v) => isAddress(v), 'not an address');
const nonceSchema = z.object({ nonce: decimal });
const relayPayloadSchema = z.object({ address, nonce: decimal });
const deployedSchema = z.object({ deployed: z.boolean() });
/** A hash not known yet comes as null, absent or "" depending on the relayer version: all read as "". */
const maybeHash = z
  .string()
  .max(100)
  .nullish()
  .transform((v) => v ?? '');
const submittedSchema = z.object({
  transactionID: z.string().min(1).max(200),
  transactionHash: maybeHash,
  state: z.string().max(64),
});
const transactionSchema = z.object({
  transactionID: z.string().min(1).max(200),
  transactionHash: maybeHash,
  state: z.string().max(64),
  type: z.string().max(32).optional(),
  from: z.string().max(64).optional(),
  to: z.string().max(64).optional(),
  proxyAddress: z.string().max(64).optional(),
  nonce: z.union([z.string(), z.number()]).transform(String).optional(),
  metadata: z.string().max(1000).optional(),
  createdAt: z.string().max(64).optional(),
  updatedAt: z.string().max(64).optional(),
});
const transactionListSchema = z.array(transactionSchema).max(1000);

export type RelayerTransaction = z.output<typeof transactionSchema>;
export type RelayerSubmitted = z.output<typeof submittedSchema>;

/** Where a followed transaction ended: final (mined, confirmed, failed, invalid), or still going when the polls ran out. */
export interface RelayerOutcome {
  final: boolean;
  /** Mined or confirmed: the actions ran. */
  succeeded: boolean;
  state: string;
  transactionID: string;
  transactionHash: string;
  /** What the trader reads: the result, or what is known and how to look again. */
  summary: string;
}

export interface RelayerClientOptions {
  url?: string;
  /** Needed for submit and transactions only. */
  credentials?: RelayerCredentials;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Waits between polls (a test hook); setTimeout by default. */
  sleep?: (ms: number) => Promise<void>;
}

export class RelayerClient {
  private readonly url: string;

  constructor(private readonly options: RelayerClientOptions = {}) {
    this.url = (options.url ?? POLYMARKET_RELAYER_URL).replace(/\/+$/, '');
  }

  /** The owner's next nonce for a SAFE or WALLET request (its wallet's counter), or PROXY. */
  async nonce(owner: string, type: 'SAFE' | 'WALLET' | 'PROXY'): Promise<string> {
    return (await this.read('relayerNonce', nonceSchema, 'GET', '/nonce', { address: checked(owner), type })).nonce;
  }

  /** For PROXY: the relay that will send it and the owner's relay nonce. */
  async relayPayload(owner: string): Promise<{ address: string; nonce: string }> {
    return this.read('relayerRelayPayload', relayPayloadSchema, 'GET', '/relay-payload', {
      address: checked(owner),
      type: 'PROXY',
    });
  }

  /** Whether the wallet (a Safe, a deposit wallet) is deployed, as the relayer sees it. */
  async deployed(wallet: string, type?: 'SAFE' | 'WALLET' | 'PROXY'): Promise<boolean> {
    return (
      await this.read('relayerDeployed', deployedSchema, 'GET', '/deployed', {
        address: checked(wallet),
        ...(type ? { type } : {}),
      })
    ).deployed;
  }

  /** One transaction, or undefined when the relayer knows no such id. */
  async transaction(id: string): Promise<RelayerTransaction | undefined> {
    if (typeof id !== 'string' || id.trim() === '' || id.length > 200)
      throw invalidParameter('A relayer transaction id is a non-empty string.', 'relayerTransaction');
    return (await this.read('relayerTransaction', transactionListSchema, 'GET', '/transaction', { id }))[0];
  }

  /** The transactions these credentials submitted. */
  async transactions(): Promise<RelayerTransaction[]> {
    return this.read(
      'relayerTransactions',
      transactionListSchema,
      'GET',
      '/transactions',
      undefined,
      this.auth('GET', '/transactions'),
    );
  }

  /**
   * Sends one signed request, once. A timeout or a dropped connection is not retried: the relayer may have
   * taken it, and a second copy could run the same actions again; the error says so.
   */
  async submit(request: RelayerRequest): Promise<RelayerSubmitted> {
    const body = relayerRequestBody(request);
    try {
      return await this.read(
        'relayerSubmit',
        submittedSchema,
        'POST',
        '/submit',
        undefined,
        this.auth('POST', '/submit', body),
        body,
      );
    } catch (error) {
      const wrapped = wrapOnce(error, 'relayerSubmit');
      if (wrapped.code === ErrorCode.TIMEOUT_ERROR || wrapped.code === ErrorCode.NETWORK_ERROR) {
        throw new PmDeskError(
          wrapped.code,
          `${wrapped.detail} The relayer may have received the ${request.type} request; it was not sent again. Check its transactions before trying again.`,
          {
            methodName: 'relayerSubmit',
            cause: wrapped,
          },
        );
      }
      throw wrapped;
    }
  }

  /** Polls the transaction until a final state, at most `maxPolls` times `intervalMs` apart; never throws for "still going". */
  async waitForFinal(
    submitted: Pick<RelayerSubmitted, 'transactionID' | 'transactionHash' | 'state'>,
    limits: { maxPolls?: number; intervalMs?: number } = {},
  ): Promise<RelayerOutcome> {
    const maxPolls = limits.maxPolls ?? RELAYER_MAX_POLLS;
    const intervalMs = limits.intervalMs ?? RELAYER_POLL_INTERVAL_MS;
    if (!Number.isSafeInteger(maxPolls) || maxPolls < 1 || maxPolls > 1000)
      throw invalidParameter('maxPolls is a whole number from 1 to 1000.', 'relayerWaitForFinal');
    const sleep = this.options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
    let last: { state: string; transactionHash: string } = {
      state: submitted.state,
      transactionHash: submitted.transactionHash,
    };
    for (let poll = 0; poll < maxPolls; poll++) {
      if (poll > 0) await sleep(intervalMs);
      const found = await this.transaction(submitted.transactionID);
      if (found) last = { state: found.state, transactionHash: found.transactionHash || last.transactionHash };
      if (FINAL_RELAYER_STATES.has(last.state)) break;
    }
    return outcome(submitted.transactionID, last.state, last.transactionHash);
  }

  private auth(method: 'GET' | 'POST', path: string, body?: string): Record<string, string> {
    if (!this.options.credentials)
      throw invalidParameter(
        'Relayer credentials are needed to submit or list transactions: a relayer API key with its address, or builder key, secret and passphrase.',
        'relayerAuth',
      );
    return relayerAuthHeaders(this.options.credentials, { method, path, ...(body === undefined ? {} : { body }) });
  }

  private async read<S extends z.ZodType>(
    methodName: string,
    schema: S,
    method: HttpMethod,
    path: string,
    query?: Query,
    headers?: Record<string, string>,
    body?: string,
  ): Promise<z.output<S>> {
    const { data, status } = await httpRequest({
      method,
      baseUrl: this.url,
      path,
      query,
      headers: { ...(headers ?? {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body }),
      timeoutMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxBytes: RELAYER_MAX_BYTES,
      methodName,
      fetch: this.options.fetch,
    });
    return parseAnswer(schema, data, methodName, status);
  }
}

function checked(value: string): string {
  if (typeof value !== 'string' || !isAddress(value))
    throw invalidParameter(`Not an address: ${String(value).slice(0, 60)}`, 'relayer');
  return value;
}

/** The outcome in the trader's words: what happened, or what is known and the command to look again. */
export function outcome(transactionID: string, state: string, transactionHash: string): RelayerOutcome {
  const final = FINAL_RELAYER_STATES.has(state);
  const succeeded = state === RelayerState.MINED || state === RelayerState.CONFIRMED;
  const hash = transactionHash ? ` as ${transactionHash}` : '';
  const summary = succeeded
    ? `Sent through Polymarket's relayer — no gas needed: mined${hash}.`
    : state === RelayerState.FAILED
      ? `The relayer sent it${hash}, and it failed on chain: nothing changed.`
      : state === RelayerState.INVALID
        ? 'The relayer refused it as invalid: nothing was sent.'
        : `Submitted${hash}, not yet mined (${state}): pmdesk relayer tx ${transactionID}`;
  return { final, succeeded, state, transactionID, transactionHash, summary };
}
