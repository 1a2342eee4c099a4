// `pmdesk relayer login|logout|tx`: Polymarket relayer credentials into the OS keychain (secrets from standard input
// or a prompt that does not echo, never from the command line), checked against the relayer before they are kept;
// and the state of one relayed transaction, for a trader told "not yet mined: pmdesk relayer tx <id>".
import type { Command } from 'commander';
import { Wallet, getAddress, isAddress } from 'ethers';
import { ErrorCode, PmDeskError, invalidParameter } from '@pmdesk/toolkit/model';
import { RelayerClient, networkFor, type NetworkProfile, type RelayerCredentials } from '@pmdesk/toolkit';
import { CredentialVault } from '../main/credentials/api-credentials';
import {
  RelayerCredentialStore,
  checkRelayerCredentials,
  describeRelayerCredentials,
} from '../main/credentials/relayer-credentials';
import type { CliContext } from './aggregator-commands';
import { fields } from './output';
import { networkProfile, resolveChainId } from './network';
import { promptHidden } from './wallet-commands';

type Action = (ctx: CliContext, ...args: never[]) => Promise<void>;
type Run = (action: Action) => (...args: unknown[]) => Promise<void>;

/** Credentials on stdin are three short lines at most. */
const MAX_STDIN = 4096;

interface LoginFlags {
  builder?: boolean;
  wallet?: string;
  keyAddress?: string;
}

export function registerRelayerCommands(program: Command, run: Run): void {
  const relayer = program
    .command('relayer')
    .description("Polymarket's relayer: gasless on-chain actions for proxy wallets, Safes and deposit wallets");

  relayer
    .command('login')
    .description(
      'store relayer credentials in the OS keychain for a wallet on this network (standard input: the API key; with --builder: key, secret, passphrase, one a line)',
    )
    .option('--builder', 'builder credentials (key, secret, passphrase) instead of a relayer API key')
    .option(
      '--wallet <address>',
      "the wallet (owner key's address) they are for; default: PMDESK_PRIVATE_KEY's address",
    )
    .option('--key-address <address>', 'the address the relayer API key was issued for; default: the wallet')
    .action(
      run(async (ctx: CliContext, opts: LoginFlags) => {
        const network = networkOf(program);
        const relayerUrl = relayerUrlOf(network);
        const owner = ownerOf(opts.wallet);
        const secrets = await readSecrets(
          opts.builder ? ['Builder API key: ', 'Builder secret: ', 'Builder passphrase: '] : ['Relayer API key: '],
        );
        const credentials: RelayerCredentials = checkRelayerCredentials(
          opts.builder
            ? { kind: 'builder', builder: { key: secrets[0]!, secret: secrets[1]!, passphrase: secrets[2]! } }
            : { kind: 'api-key', apiKey: { key: secrets[0]!, address: opts.keyAddress ?? owner } },
        );
        // Asked once with them: credentials the relayer refuses are not kept (its 401 says so; nothing else is sent).
        await new RelayerClient({ url: relayerUrl, credentials, timeoutMs: ctx.timeoutMs() }).transactions();
        const vault = await CredentialVault.open({
          onWarning: (warning) => ctx.out.stderr(`pmdesk: ${warning.detail}\n`),
        });
        await new RelayerCredentialStore(vault).save(owner, relayerUrl, credentials);
        const said = {
          wallet: owner,
          relayerUrl,
          stored: describeRelayerCredentials(credentials),
          storage: vault.storage,
        };
        if (ctx.out.json) ctx.out.stdout(`${JSON.stringify(said)}\n`);
        else if (vault.storage === 'keychain')
          ctx.out.stdout(
            `${fields([
              ['wallet', owner],
              ['relayer', relayerUrl],
              ['stored', `${said.stored} (OS keychain)`],
            ])}\nThey are not shown again. Money commands of this wallet now go through the relayer (no gas needed).\n`,
          );
        // Relayer credentials cannot be derived again from the wallet: without a keychain they end with this run.
        else
          ctx.out.stdout(
            `${fields([
              ['wallet', owner],
              ['relayer', relayerUrl],
              ['accepted', `${said.stored} (no keychain: kept in memory for this run only)`],
            ])}\nThey are gone when this command ends: enter them again with \`pmdesk relayer login\` once a keychain is available.\n`,
          );
      }),
    );

  relayer
    .command('logout')
    .description("forget a wallet's relayer credentials on this network")
    .option('--wallet <address>', "the wallet; default: PMDESK_PRIVATE_KEY's address")
    .action(
      run(async (ctx: CliContext, opts: { wallet?: string }) => {
        const relayerUrl = relayerUrlOf(networkOf(program));
        const owner = ownerOf(opts.wallet);
        const forgotten = await new RelayerCredentialStore(await CredentialVault.open()).forget(owner, relayerUrl);
        if (ctx.out.json) ctx.out.stdout(`${JSON.stringify({ wallet: owner, relayerUrl, forgotten })}\n`);
        else
          ctx.out.stdout(
            forgotten
              ? `Forgot the relayer credentials of ${owner} on ${relayerUrl}.\n`
              : `No relayer credentials of ${owner} on ${relayerUrl} were stored.\n`,
          );
      }),
    );

  relayer
    .command('tx <id>')
    .description('the state of one relayer transaction (GET /transaction)')
    .action(
      run(async (ctx: CliContext, id: string) => {
        const relayerUrl = relayerUrlOf(networkOf(program));
        const found = await new RelayerClient({ url: relayerUrl, timeoutMs: ctx.timeoutMs() }).transaction(id);
        if (!found)
          throw new PmDeskError(ErrorCode.NOT_FOUND, `The relayer at ${relayerUrl} knows no transaction ${id}.`);
        if (ctx.out.json) {
          ctx.out.stdout(`${JSON.stringify(found)}\n`);
          return;
        }
        const rows: [string, string][] = [
          ['transaction', found.transactionID],
          ['state', found.state],
          ['hash', found.transactionHash || '(not sent yet)'],
          ...(found.type ? ([['type', found.type]] as [string, string][]) : []),
          ...(found.proxyAddress ? ([['wallet', found.proxyAddress]] as [string, string][]) : []),
          ...(found.from ? ([['owner', found.from]] as [string, string][]) : []),
          ...(found.updatedAt ? ([['updated', found.updatedAt]] as [string, string][]) : []),
        ];
        ctx.out.stdout(fields(rows));
      }),
    );
}

function networkOf(program: Command): NetworkProfile {
  const globals = program.opts<{ chain?: string; network?: string }>();
  const custom = networkProfile(globals.network);
  return networkFor(resolveChainId(undefined, globals.chain, process.env, custom), custom ? [custom] : undefined);
}

function relayerUrlOf(network: NetworkProfile): string {
  if (!network.relayerUrl)
    throw invalidParameter(`The network ${network.name} names no relayer (relayerUrl in its profile).`);
  return network.relayerUrl;
}

/** The wallet the credentials are for: --wallet, else the key's address. */
function ownerOf(flag: string | undefined): string {
  if (flag !== undefined) {
    if (!isAddress(flag)) throw invalidParameter(`--wallet is not an address: ${String(flag).slice(0, 60)}`);
    return getAddress(flag);
  }
  const key = process.env.PMDESK_PRIVATE_KEY;
  if (!key) throw invalidParameter('Name the wallet with --wallet, or set PMDESK_PRIVATE_KEY.');
  try {
    return new Wallet(key).address;
  } catch {
    throw invalidParameter('PMDESK_PRIVATE_KEY is not a private key (0x and 64 hex digits).');
  }
}

/** One secret a line: from standard input when piped, else asked on the terminal with echo off. */
async function readSecrets(questions: string[]): Promise<string[]> {
  if (process.stdin.isTTY) {
    const answers: string[] = [];
    for (const question of questions) answers.push((await promptHidden(question)).trim());
    return answers;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length;
    if (size > MAX_STDIN) throw invalidParameter('Standard input holds more than relayer credentials.');
    chunks.push(chunk as Buffer);
  }
  const lines = Buffer.concat(chunks)
    .toString('utf8')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  if (lines.length !== questions.length) {
    throw invalidParameter(
      `Standard input must hold ${questions.length === 1 ? 'the relayer API key, one line' : 'the builder key, secret and passphrase, one a line'}; it held ${lines.length} line(s).`,
    );
  }
  return lines;
}
