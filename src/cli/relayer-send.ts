// The CLI's money commands through Polymarket's relayer: which path a command takes (`--via relayer|key`; by
// default the relayer when the account is a proxy wallet, Safe or deposit wallet and relayer credentials exist —
// a login's in the keychain, else the network profile's test key — and the key otherwise), and the relayed send:
// signed with the key (which pays nothing and may hold no POL), submitted once, followed within --wait.
import type { Wallet } from 'ethers';
import { ErrorCode, PmDeskError, invalidParameter } from '@pmdesk/toolkit/model';
import {
  AccountKind,
  RELAYER_POLL_INTERVAL_MS,
  RelayerClient,
  buildRelayedCalls,
  buildRelayedDeployment,
  privateKeySigner,
  relayCalls,
  relayerTypeOf,
  walletConfigFor,
  type ChainCall,
  type NetworkProfile,
  type RelayedAccount,
  type RelayerCredentials,
  type RelayerNetwork,
  type RelayStep,
} from '@pmdesk/toolkit';
import { CredentialVault } from '../main/credentials/api-credentials';
import {
  RelayerCredentialStore,
  describeRelayerCredentials,
  relayerCredentialsFor,
  type RelayerCredentialSource,
} from '../main/credentials/relayer-credentials';
import type { CliContext } from './aggregator-commands';
import type { ActingAccount } from './trading-account';
import { fields, table } from './output';

export const RELAYER_PATH_SAID = "Sent through Polymarket's relayer — no gas needed";
/** Seconds a relayed transaction is followed by default: the official client's 100 polls, 2 s apart. */
export const DEFAULT_RELAYER_WAIT_SECONDS = 200;

export type Via =
  | { via: 'key'; why: string }
  | {
      via: 'relayer';
      relayerUrl: string;
      credentials: RelayerCredentials;
      source: RelayerCredentialSource;
      why: string;
    };

/** Parses --via. */
export function viaFlag(text: string | undefined): 'relayer' | 'key' | undefined {
  if (text === undefined) return undefined;
  if (text !== 'relayer' && text !== 'key') throw invalidParameter(`--via must be relayer or key, got ${text}.`);
  return text;
}

/** The relayer credentials of this owner on this network, reading the keychain without a word when it has none. */
async function credentialsFor(owner: string, network: NetworkProfile) {
  if (!network.relayerUrl) return undefined;
  let store: RelayerCredentialStore | undefined;
  try {
    store = new RelayerCredentialStore(await CredentialVault.open());
  } catch {
    store = undefined;
  }
  return relayerCredentialsFor(owner, network, store);
}

/** Which path the command takes, and why in the trader's words; refuses a --via that cannot be honoured. */
export async function chooseVia(
  owner: string,
  account: ActingAccount,
  network: NetworkProfile,
  flag: 'relayer' | 'key' | undefined,
): Promise<Via> {
  if (account.kind === AccountKind.EOA) {
    if (flag === 'relayer')
      throw invalidParameter(
        'The key acts as itself and pays its own gas: --via relayer is for a proxy wallet, Safe or deposit wallet.',
      );
    return { via: 'key', why: 'the key acts as itself' };
  }
  if (flag === 'key') return { via: 'key', why: '--via key' };
  const found = await credentialsFor(owner, network);
  if (found && network.relayerUrl) {
    const from = found.source === 'keychain' ? 'stored by `pmdesk relayer login`' : "the network profile's test key";
    return {
      via: 'relayer',
      relayerUrl: network.relayerUrl,
      credentials: found.credentials,
      source: found.source,
      why: `${describeRelayerCredentials(found.credentials)}, ${from}`,
    };
  }
  if (flag === 'relayer') {
    throw invalidParameter(
      network.relayerUrl
        ? `No relayer credentials for ${owner} on ${network.relayerUrl}: store them with \`pmdesk relayer login\`.`
        : `The network ${network.name} names no relayer (relayerUrl): --via relayer cannot be used here.`,
    );
  }
  return { via: 'key', why: 'no relayer credentials: the key pays gas in POL (`pmdesk relayer login` to go gasless)' };
}

export interface RelayedSend {
  ctx: CliContext;
  network: NetworkProfile;
  multiSend: string | undefined;
  key: Wallet;
  account: ActingAccount;
  calls: ChainCall[];
  via: Extract<Via, { via: 'relayer' }>;
  send: boolean;
  /** Seconds to follow the transaction (--wait). */
  waitSeconds: number;
  summary: [string, string][];
}

const KIND_NAME: Readonly<Record<string, string>> = {
  proxy: 'proxy wallet',
  safe: 'Safe',
  'deposit-wallet': 'deposit wallet',
};

/**
 * Shows what would be relayed, and with `send` signs with the key, submits once and follows it. A transaction
 * still going when --wait runs out is an error that says what is known and how to look again; nothing is resent.
 */
export async function sendThroughRelayer(job: RelayedSend): Promise<void> {
  const { ctx, account, key, via } = job;
  const relayed: RelayedAccount = {
    kind: account.kind as RelayedAccount['kind'],
    address: account.address,
    owner: key.address,
  };
  const type = relayerTypeOf(relayed.kind);
  const network: RelayerNetwork = {
    chainId: job.network.chainId,
    wallets: walletConfigFor(job.network),
    ...(job.multiSend ? { multiSend: job.multiSend } : {}),
  };
  const client = new RelayerClient({ url: via.relayerUrl, credentials: via.credentials, timeoutMs: ctx.timeoutMs() });
  const signer = privateKeySigner(key.privateKey);
  const accountLine = `${account.address} (${KIND_NAME[account.kind]}, owned by key ${key.address})`;
  const pathLine = `Polymarket's relayer at ${via.relayerUrl} — no gas needed (${via.why})`;
  if (!job.send) {
    const deployed = relayed.kind === 'proxy' || (await client.deployed(relayed.address, type));
    if (ctx.out.json) {
      ctx.out.stdout(
        `${JSON.stringify({ ...Object.fromEntries(job.summary), account, key: key.address, via: 'relayer', relayerType: type, deployFirst: !deployed, calls: job.calls.map((c) => ({ to: c.to, data: c.data })), sent: false, hashes: [] })}\n`,
      );
      return;
    }
    const text =
      fields([
        ...job.summary,
        ['account', accountLine],
        ['sent through', pathLine],
        [
          'request',
          `${type}${deployed ? '' : `, after deploying the ${KIND_NAME[account.kind]} (${type === 'SAFE' ? 'SAFE-CREATE' : 'WALLET-CREATE'})`}`,
        ],
      ]) +
      '\n' +
      table(job.calls, [{ header: 'CALL TO', value: (c) => c.to }]) +
      '\nNothing sent: add --yes to send.\n';
    ctx.out.stdout(text);
    return;
  }
  const onStep = (step: RelayStep) => {
    if (ctx.out.json) return;
    if (step.step === 'deploying')
      ctx.out.stderr(
        `pmdesk: the ${KIND_NAME[account.kind]} is not deployed yet: deploying it through the relayer first.\n`,
      );
    if (step.step === 'submitted')
      ctx.out.stderr(
        `pmdesk: submitted to Polymarket's relayer as ${step.submitted.transactionID}${step.submitted.transactionHash ? ` (${step.submitted.transactionHash})` : ''}: ${step.submitted.state}.\n`,
      );
  };
  const maxPolls = Math.max(1, Math.min(1000, Math.ceil((job.waitSeconds * 1000) / RELAYER_POLL_INTERVAL_MS)));
  const result = await relayCalls({
    client,
    account: relayed,
    signDeployment: () => buildRelayedDeployment(network, signer, relayed.kind),
    signCalls: (reads) => buildRelayedCalls(network, signer, { account: relayed, calls: job.calls, reads }),
    maxPolls,
    onStep,
  });
  const { outcome } = result;
  const context = {
    transactionID: outcome.transactionID,
    transactionHash: outcome.transactionHash,
    state: outcome.state,
  };
  if (!outcome.final) throw new PmDeskError(ErrorCode.TIMEOUT_ERROR, outcome.summary, { context });
  if (!outcome.succeeded) throw new PmDeskError(ErrorCode.API_REQUEST_FAILED, outcome.summary, { context });
  const hashes = [
    ...(result.deployment?.transactionHash ? [result.deployment.transactionHash] : []),
    outcome.transactionHash,
  ].filter(Boolean);
  if (ctx.out.json) {
    ctx.out.stdout(
      `${JSON.stringify({ ...Object.fromEntries(job.summary), account, key: key.address, via: 'relayer', relayerType: type, deployed: result.deployment ? result.deployment.transactionHash : undefined, relayer: context, sent: true, hashes })}\n`,
    );
    return;
  }
  ctx.out.stdout(
    fields([
      ...job.summary,
      ['account', accountLine],
      ['sent through', pathLine],
      ['relayer transaction', `${outcome.transactionID} (${outcome.state})`],
    ]) + `\n${outcome.summary}\n`,
  );
}
