// One account's calls through Polymarket's relayer, start to end: which request type its kind needs, what the
// relayer must say first (nonce, relay, deployed), a first-time deployment when the wallet has no code yet, one
// submission and a bounded follow-up. The signing is a callback, so the same steps serve a plain key (the CLI)
// and the app's signer worker, which holds the key and signs from the same builders.
import { ErrorCode, PmDeskError, invalidParameter } from '../model/errors';
import type { ChainCall } from '../accounts/actions';
import type { AccountKind } from '../accounts/derive';
import type { RelayerClient, RelayerOutcome, RelayerSubmitted } from './client';
import {
  buildProxyRequest,
  buildSafeCreateRequest,
  buildSafeRequest,
  buildWalletBatchRequest,
  buildWalletCreateRequest,
  type RelayerNetwork,
  type RelayerRequest,
  type RelayerSigner,
} from './requests';

/** An account the relayer can act for: every kind but the key itself. */
export interface RelayedAccount {
  kind: Exclude<AccountKind, 'eoa'>;
  address: string;
  owner: string;
}

/** What the relayer told before signing: the nonce, and for PROXY the relay that will send it. */
export interface RelayerReads {
  nonce: string;
  relay?: string;
}

/** What a relayer request needs besides the key: the account, the calls, the relayer's reads. */
export interface RelayedCallsInput {
  account: RelayedAccount;
  calls: readonly ChainCall[];
  reads: RelayerReads;
  /** WALLET only: Unix seconds after which the wallet refuses the batch. */
  deadline?: string;
  metadata?: string;
}

/** The request type an account kind's calls travel as. */
export function relayerTypeOf(kind: RelayedAccount['kind']): 'PROXY' | 'SAFE' | 'WALLET' {
  if (kind === 'proxy') return 'PROXY';
  if (kind === 'safe') return 'SAFE';
  if (kind === 'deposit-wallet') return 'WALLET';
  throw invalidParameter(
    `The relayer acts for a proxy wallet, a Safe or a deposit wallet, not for ${String(kind)}.`,
    'relayerTypeOf',
  );
}

/** Builds and signs the request for the account's calls with the toolkit's builders (the one place this is decided). */
export async function buildRelayedCalls(
  network: RelayerNetwork,
  signer: RelayerSigner,
  input: RelayedCallsInput,
): Promise<RelayerRequest> {
  const { account, calls, reads } = input;
  const metadata = input.metadata ?? '';
  switch (relayerTypeOf(account.kind)) {
    case 'PROXY':
      if (!reads.relay)
        throw invalidParameter(
          'A PROXY request needs the relay the relayer names (GET /relay-payload).',
          'buildRelayedCalls',
        );
      return buildProxyRequest(network, { signer, calls, relay: reads.relay, nonce: reads.nonce, metadata });
    case 'SAFE':
      return buildSafeRequest(network, { signer, calls, nonce: reads.nonce, metadata });
    case 'WALLET':
      return buildWalletBatchRequest(network, {
        signer,
        wallet: account.address,
        calls,
        nonce: reads.nonce,
        ...(input.deadline ? { deadline: input.deadline } : {}),
      });
  }
}

/** The deployment request for a Safe (signed) or a deposit wallet (not signed); a proxy wallet deploys on first use. */
export async function buildRelayedDeployment(
  network: RelayerNetwork,
  signer: RelayerSigner,
  kind: RelayedAccount['kind'],
): Promise<RelayerRequest | undefined> {
  if (kind === 'safe') return buildSafeCreateRequest(network, { signer });
  if (kind === 'deposit-wallet') return buildWalletCreateRequest(network, { signer });
  return undefined;
}

/** The relayer's reads for the owner's next request of this kind. */
export async function relayerReadsFor(client: RelayerClient, account: RelayedAccount): Promise<RelayerReads> {
  const type = relayerTypeOf(account.kind);
  if (type === 'PROXY') {
    const payload = await client.relayPayload(account.owner);
    return { nonce: payload.nonce, relay: payload.address };
  }
  return { nonce: await client.nonce(account.owner, type) };
}

/** A step the trader may be shown as it happens. */
export type RelayStep =
  | { step: 'deploying'; account: RelayedAccount }
  | { step: 'submitted'; submitted: RelayerSubmitted; what: 'deployment' | 'action' }
  | { step: 'done'; outcome: RelayerOutcome; what: 'deployment' | 'action' };

export interface RelayCallsOptions {
  client: RelayerClient;
  account: RelayedAccount;
  /** Signs the deployment (kind only) or the calls (with the relayer's reads) — a plain key, or the signer worker. */
  signDeployment: () => Promise<RelayerRequest | undefined>;
  signCalls: (reads: RelayerReads) => Promise<RelayerRequest>;
  /** Bounds the follow-up of each submitted request. */
  maxPolls?: number;
  intervalMs?: number;
  onStep?: (step: RelayStep) => void;
}

/** What came of relaying: the action's outcome, and the deployment's when one was needed first. */
export interface RelayResult {
  deployment?: RelayerOutcome;
  outcome: RelayerOutcome;
}

/**
 * Deploys the wallet first when the relayer says it has no code (a Safe or a deposit wallet), then submits the
 * calls once and follows them. A deployment that does not end mined stops everything before the calls are signed:
 * nothing is half-done. The action's own outcome may be not final (the polls ran out): its summary says what is
 * known and how to look again; the caller decides whether that is an error.
 */
export async function relayCalls(options: RelayCallsOptions): Promise<RelayResult> {
  const { client, account } = options;
  const limits = {
    ...(options.maxPolls !== undefined ? { maxPolls: options.maxPolls } : {}),
    ...(options.intervalMs !== undefined ? { intervalMs: options.intervalMs } : {}),
  };
  let deployment: RelayerOutcome | undefined;
  if (account.kind !== 'proxy' && !(await client.deployed(account.address, relayerTypeOf(account.kind)))) {
    const create = await options.signDeployment();
    if (create) {
      options.onStep?.({ step: 'deploying', account });
      const submitted = await client.submit(create);
      options.onStep?.({ step: 'submitted', submitted, what: 'deployment' });
      deployment = await client.waitForFinal(submitted, limits);
      options.onStep?.({ step: 'done', outcome: deployment, what: 'deployment' });
      if (!deployment.succeeded) {
        throw new PmDeskError(
          ErrorCode.API_REQUEST_FAILED,
          `The ${account.kind === 'safe' ? 'Safe' : 'deposit wallet'} ${account.address} had to be deployed first, and that did not end: ${deployment.summary} The action itself was not sent.`,
          {
            methodName: 'relayCalls',
            context: { transactionID: deployment.transactionID, state: deployment.state },
          },
        );
      }
    }
  }
  const request = await options.signCalls(await relayerReadsFor(client, account));
  const submitted = await client.submit(request);
  options.onStep?.({ step: 'submitted', submitted, what: 'action' });
  const outcome = await client.waitForFinal(submitted, limits);
  options.onStep?.({ step: 'done', outcome, what: 'action' });
  return { ...(deployment ? { deployment } : {}), outcome };
}
