// `pmdesk wallet …`: the trader's keystores from a terminal. Passwords come from a prompt that does not echo
// (or PMDESK_PASSWORD for scripts); imported secrets from a prompt or standard input, never from the command
// line, where other users and shell history would see them. Nothing secret is printed, except the new
// wallet's recovery phrase, once, by `create`.
import { openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ReadStream, WriteStream } from 'node:tty';
import type { Command } from 'commander';
import { ErrorCode, PmDeskError, invalidParameter } from '@pmdesk/toolkit/model';
import { CredentialVault } from '../main/credentials/api-credentials';
import { resolveDataDir } from '../main/wallets/data-dir';
import { PasswordThrottle, fileLedger } from '../main/wallets/password-throttle';
import type { SignerClient } from '../main/wallets/signer-client';
import { startSignerThread } from '../main/wallets/signer-thread';
import { Wallets, type WalletSummary } from '../main/wallets/wallets';
import type { SetAsideWallet } from '../main/wallets/wallet-store';
import { numberFlag, type CliContext } from './aggregator-commands';
import { fields, table, type Output } from './output';

type Action = (ctx: CliContext, ...args: never[]) => Promise<void>;
type Run = (action: Action) => (...args: unknown[]) => Promise<void>;

interface DataDirFlag {
  dataDir?: string;
}

const DATA_DIR_HELP = 'the data folder (env PMDESK_DATA_DIR; default: the per-OS user data folder)';
/** Secrets on stdin are a line or two; anything much longer is not one. */
const MAX_STDIN_SECRET = 4096;

export function registerWalletCommands(program: Command, run: Run): void {
  const wallet = program
    .command('wallet')
    .description('wallets: encrypted keystores in the data folder, opened only in the signer worker');
  const leaf = (usage: string, description: string) =>
    wallet.command(usage).description(description).option('--data-dir <dir>', DATA_DIR_HELP);

  leaf('list', 'every wallet: label and address').action(
    run(async (ctx: CliContext, opts: DataDirFlag) => {
      const list = await withWallets(ctx, opts, (wallets) => wallets.list());
      print(ctx.out, list, () =>
        table(list, [
          { header: 'LABEL', value: (w) => w.label },
          { header: 'ADDRESS', value: (w) => w.address },
        ]),
      );
    }),
  );

  leaf('create', 'a new wallet; its 12-word recovery phrase is shown this once')
    .requiredOption('--label <label>', 'what to call the wallet')
    .action(
      run(async (ctx: CliContext, opts: DataDirFlag & { label: string }) => {
        const created = await withWallets(ctx, opts, async (wallets) => {
          // A taken label is said before the trader types a password twice.
          await wallets.store.checkAvailable(opts.label);
          return wallets.create(opts.label, await newPassword());
        });
        print(
          ctx.out,
          created,
          () =>
            `${fields([
              ['label', created.label],
              ['address', created.address],
            ])}\n` +
            'Recovery phrase, shown this once. Write it down and keep it offline: it is the wallet.\n\n' +
            `  ${created.mnemonic}\n`,
        );
      }),
    );

  leaf('import', 'a wallet from a recovery phrase, a private key or a keystore file')
    .requiredOption('--label <label>', 'what to call the wallet')
    .option('--mnemonic', 'ask for the recovery phrase')
    .option('--mnemonic-stdin', 'read the recovery phrase from standard input')
    .option('--index <n>', "account index of the phrase: m/44'/60'/0'/0/<n> (default 0)", numberFlag)
    .option('--private-key', 'ask for the private key')
    .option('--private-key-stdin', 'read the private key from standard input')
    .option('--keystore <file>', 'a Web3 Secret Storage (v3) keystore file; its password becomes the wallet password')
    .option('--address <address>', 'refuse the import unless the key belongs to this address')
    .action(run(async (ctx: CliContext, opts: ImportFlags) => importWallet(ctx, opts)));

  leaf('export <label>', 'the encrypted keystore, to a new file (mode 0600) or standard output')
    .option('--out <file>', 'write it to this file (never overwritten)')
    .action(
      run(async (ctx: CliContext, label: string, opts: DataDirFlag & { out?: string }) => {
        await withWallets(ctx, opts, async (wallets) => {
          if (!opts.out) {
            ctx.out.stdout(await wallets.exportKeystore(label));
            return;
          }
          const exported = await wallets.exportKeystoreTo(label, opts.out);
          print(
            ctx.out,
            { ...exported, file: opts.out },
            () => `Exported "${exported.label}" (${exported.address}) to ${opts.out}.\n`,
          );
        });
      }),
    );

  leaf('rename <label> <new-label>', 'give a wallet a new label').action(
    run(async (ctx: CliContext, label: string, newLabel: string, opts: DataDirFlag) => {
      const renamed = await withWallets(ctx, opts, (wallets) => wallets.rename(label, newLabel));
      print(ctx.out, renamed, () => `Renamed "${label}" to "${renamed.label}" (${renamed.address}).\n`);
    }),
  );

  leaf('remove <label>', 'delete a wallet from this machine (asks for its password)').action(
    run(async (ctx: CliContext, label: string, opts: DataDirFlag) => {
      const password = await existingPassword(`Password of "${label}": `);
      const removed = await withWallets(ctx, opts, (wallets) => wallets.remove(label, password));
      // Its API credentials go too; with no keychain there were none kept beyond a session.
      const forgotten = await (await CredentialVault.open()).forgetWallet(removed.address);
      print(
        ctx.out,
        removed,
        () =>
          `Removed "${removed.label}" (${removed.address}). Its recovery phrase or a keystore export is the only way back.\n` +
          (forgotten > 0 ? `Its API credentials were removed from the keychain too (${forgotten}).\n` : ''),
      );
    }),
  );

  leaf('unlock <label>', 'check the password by unlocking the wallet in the signer (then lock it again)').action(
    run(async (ctx: CliContext, label: string, opts: DataDirFlag) => {
      const password = await existingPassword(`Password of "${label}": `);
      const unlocked = await withWallets(ctx, opts, (wallets) => wallets.unlock(label, password));
      print(ctx.out, unlocked, () => `Unlocked "${unlocked.label}" (${unlocked.address}): the password is right.\n`);
    }),
  );
}

interface ImportFlags extends DataDirFlag {
  label: string;
  mnemonic?: boolean;
  mnemonicStdin?: boolean;
  index?: number;
  privateKey?: boolean;
  privateKeyStdin?: boolean;
  keystore?: string;
  address?: string;
}

async function importWallet(ctx: CliContext, opts: ImportFlags): Promise<void> {
  const sources = (['mnemonic', 'mnemonicStdin', 'privateKey', 'privateKeyStdin', 'keystore'] as const).filter(
    (k) => opts[k] !== undefined && opts[k] !== false,
  );
  if (sources.length !== 1) {
    throw invalidParameter(
      'Say where the wallet comes from, once: --mnemonic, --mnemonic-stdin, --private-key, --private-key-stdin or --keystore FILE.',
    );
  }
  const source = sources[0]!;
  if (opts.index !== undefined && source !== 'mnemonic' && source !== 'mnemonicStdin')
    throw invalidParameter('--index applies to a recovery phrase only.');
  if (opts.index !== undefined && (!Number.isSafeInteger(opts.index) || opts.index < 0))
    throw invalidParameter('--index must be a whole number from 0.');
  if (source === 'keystore' && opts.address !== undefined)
    throw invalidParameter('--address applies to a recovery phrase or a private key.');

  const imported: WalletSummary = await withWallets(ctx, opts, async (wallets) => {
    // A taken label is said before the trader types any secret.
    await wallets.store.checkAvailable(opts.label);
    if (source === 'keystore') {
      const text = await readKeystoreFile(opts.keystore!);
      return wallets.importKeystore(opts.label, text, await existingPassword('Password of the keystore file: '));
    }
    const phraseSource = source === 'mnemonic' || source === 'mnemonicStdin';
    const secret = source.endsWith('Stdin')
      ? await readStdinSecret()
      : await promptHidden(phraseSource ? 'Recovery phrase: ' : 'Private key: ');
    const password = await newPassword();
    const expected = opts.address === undefined ? {} : { expectedAddress: opts.address };
    return phraseSource
      ? wallets.importMnemonic(opts.label, secret, password, { index: opts.index ?? 0, ...expected })
      : wallets.importPrivateKey(opts.label, secret, password, expected);
  });
  print(ctx.out, imported, () => `Imported "${imported.label}" (${imported.address}).\n`);
}

/** Runs `work` with the wallet service; a signer worker starts only if `work` needs one, and stops afterwards. */
async function withWallets<T>(ctx: CliContext, opts: DataDirFlag, work: (wallets: Wallets) => Promise<T>): Promise<T> {
  const dataDir = resolveDataDir({ flag: opts.dataDir });
  let signer: SignerClient | undefined;
  try {
    return await work(
      new Wallets({
        dataDir,
        signer: () => (signer = startSignerThread()),
        throttle: cliPasswordThrottle(ctx, dataDir),
        onSetAside: cliSetAside(ctx),
      }),
    );
  } finally {
    await signer?.close();
  }
}

/** Says on stderr which damaged wallet file was set aside, and where it went (a JSON notice with --json). */
export function cliSetAside(ctx: CliContext): (setAside: SetAsideWallet) => void {
  return ({ file, movedTo }) => {
    const message =
      movedTo === file
        ? `the wallet file ${file} is not a keystore and could not be moved; it is left out.`
        : `the wallet file ${file} is not a keystore; it was set aside as ${movedTo} and left out.`;
    ctx.out.stderr(
      ctx.out.json
        ? `${JSON.stringify({ notice: { code: 'WALLET_SET_ASIDE', file, movedTo, message } })}\n`
        : `pmdesk: ${message}\n`,
    );
  };
}

/** The data folder's password throttle, saying on the terminal when it makes the trader wait. */
export function cliPasswordThrottle(ctx: CliContext, dataDir: string): PasswordThrottle {
  return new PasswordThrottle({
    ledger: fileLedger(join(dataDir, 'password-attempts.json')),
    // Said in both modes: a wait of up to 30 s with nothing on the terminal looks like a hang. With --json, one
    // JSON line on stderr, as the throttled-read notice is.
    onWait: (_wallet, ms) => {
      const message = `too many wrong passwords for this wallet; waiting ${Math.ceil(ms / 1000)} s before trying.`;
      ctx.out.stderr(
        ctx.out.json
          ? `${JSON.stringify({ notice: { code: 'PASSWORD_THROTTLED', waitMs: ms, message } })}\n`
          : `pmdesk: ${message}\n`,
      );
    },
  });
}

function print<T>(out: Output, value: T, text: () => string): void {
  out.stdout(out.json ? `${JSON.stringify(value)}\n` : text());
}

async function readKeystoreFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw invalidParameter(`Cannot read the keystore file ${path}${code ? ` (${code})` : ''}.`);
  }
}

/** The password of an existing wallet or keystore: PMDESK_PASSWORD, else asked once. */
export async function existingPassword(question: string): Promise<string> {
  const fromEnv = process.env.PMDESK_PASSWORD;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  return promptHidden(question);
}

/** A new wallet's password: PMDESK_PASSWORD, else asked twice. */
async function newPassword(): Promise<string> {
  const fromEnv = process.env.PMDESK_PASSWORD;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  const first = await promptHidden('New wallet password (8 characters or more): ');
  const second = await promptHidden('The same password again: ');
  if (first !== second) throw invalidParameter('The two passwords differ.');
  return first;
}

async function readStdinSecret(): Promise<string> {
  if (process.stdin.isTTY) return promptHidden('Secret: ');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length;
    if (size > MAX_STDIN_SECRET)
      throw invalidParameter('Standard input holds more than a recovery phrase or a private key.');
    chunks.push(chunk as Buffer);
  }
  const secret = Buffer.concat(chunks).toString('utf8').trim();
  if (!secret) throw invalidParameter('Standard input was empty: pipe the recovery phrase or private key in.');
  return secret;
}

/**
 * Asks on the terminal itself (/dev/tty, so a piped stdin stays free for data) with echo off. With no
 * terminal at all (CI, a pipe), it says to use PMDESK_PASSWORD rather than hang.
 */
export async function promptHidden(question: string): Promise<string> {
  let input: ReadStream;
  let output: NodeJS.WritableStream;
  let own = false;
  try {
    if (process.platform === 'win32') throw new Error('no /dev/tty');
    const fd = openSync('/dev/tty', 'r+');
    input = new ReadStream(fd);
    output = new WriteStream(fd);
    own = true;
  } catch {
    if (!process.stdin.isTTY) {
      throw invalidParameter(
        'No terminal to ask on: set PMDESK_PASSWORD (and pipe secrets in with --mnemonic-stdin or --private-key-stdin).',
      );
    }
    input = process.stdin as ReadStream;
    output = process.stderr;
  }
  // Echo off before the question shows, so an answer typed the moment it appears is never echoed.
  input.setRawMode(true);
  output.write(question);
  input.resume();
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (error?: PmDeskError) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      output.write('\n');
      if (own) input.destroy();
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return finish();
        if (ch === '\u0003' || ch === '\u0004')
          return finish(new PmDeskError(ErrorCode.INVALID_PARAMETER, 'Cancelled.'));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    input.on('data', onData);
  });
}
