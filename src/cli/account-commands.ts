// `pmdesk account derive`: where a key's accounts live (its proxy, Safe and deposit wallets), computed offline
// from the chain's wallet factories; no key, no network. Derived addresses are candidates for the trader to
// confirm (on-chain or on their Polymarket profile), never a place to send funds on their own say-so.
// `pmdesk account show`: which of them exist and hold funds on the chain, what the Polymarket profile names,
// and the account PM Desk would trade from (and why).
import type { Command } from 'commander';
import { invalidParameter } from '@pmdesk/toolkit/model';
import { JsonRpcProvider, Network, Wallet } from 'ethers';
import { checkedAddress, deriveAccounts, type AccountKind, type DepositWalletEra } from '@pmdesk/toolkit';
import { findAccounts } from '@pmdesk/toolkit';
import { CHOICE } from './trading-account';
import { rpcChainRead } from '@pmdesk/toolkit';
import { actionContractsFor } from '@pmdesk/toolkit';
import { formatUsd } from '@pmdesk/toolkit';
import { networkFor, walletConfigFor, type NetworkProfile } from '@pmdesk/toolkit';
import type { CliContext } from './aggregator-commands';
import { fields, table } from './output';
import { networkProfile, resolveChainId } from './network';

type Action = (ctx: CliContext, ...args: never[]) => Promise<void>;
type Run = (action: Action) => (...args: unknown[]) => Promise<void>;

export interface DerivedRow {
  kind: AccountKind;
  signatureType: 0 | 1 | 2 | 3;
  address: string;
  era?: DepositWalletEra;
}

const ERA_NOTE: Readonly<Record<DepositWalletEra, string>> = {
  beacon: 'current (beacon) era',
  uups: 'made before the factory upgrade (UUPS era)',
};

export function registerAccountCommands(program: Command, run: Run): void {
  const account = program
    .command('account')
    .description("a key's accounts: the proxy, Safe and deposit wallets it can trade from");
  account
    .command('derive <address>')
    .description(
      "every kind of account of an owner address, derived offline (CREATE2) from the chain's wallet factories",
    )
    .option('--chain <id>', "chain id: 137 Polygon (default), 80002 Amoy, or the --network profile's")
    .action(
      run(async (ctx: CliContext, owner: string, opts: { chain?: string }) => {
        const globals = program.opts<{ chain?: string; network?: string }>();
        const custom = networkProfile(globals.network);
        const chainId = resolveChainId(opts.chain, globals.chain, process.env, custom);
        const rows = derivedRows(owner, chainId, custom);
        if (ctx.out.json) {
          ctx.out.stdout(`${JSON.stringify({ owner: rows[0]!.address, chainId, accounts: rows })}\n`);
          return;
        }
        ctx.out.stdout(
          fields([
            ['owner', rows[0]!.address],
            ['chain', chainId],
          ]) +
            '\n' +
            table(rows, [
              { header: 'KIND', value: (r) => r.kind },
              { header: 'TYPE', value: (r) => r.signatureType, right: true },
              { header: 'ADDRESS', value: (r) => r.address },
              { header: 'NOTE', value: (r) => (r.kind === 'eoa' ? 'the key itself' : r.era ? ERA_NOTE[r.era] : '') },
            ]) +
            '\nDerived offline: confirm an address on-chain or on your Polymarket profile before sending funds to it.\n',
        );
      }),
    );
  addShowCommand(account, program, run);
}

/** `account show [address]`: the key's accounts on the chain, and the one chosen. */
function addShowCommand(account: Command, program: Command, run: Run): void {
  account
    .command('show [address]')
    .description(
      "the key's accounts on this chain (PMDESK_PRIVATE_KEY's address unless one is given): which exist, hold collateral, and which PM Desk trades from",
    )
    .option(
      '--rpc-url <url>',
      "the chain's JSON-RPC node (env PMDESK_RPC_URL; default: the --network profile's, else the chain's public one)",
    )
    .action(
      run(async (ctx: CliContext, address: string | undefined, opts: { rpcUrl?: string }) => {
        const globals = program.opts<{ chain?: string; network?: string }>();
        const custom = networkProfile(globals.network);
        const chainId = resolveChainId(undefined, globals.chain, process.env, custom);
        let network: NetworkProfile;
        try {
          network = networkFor(chainId, custom ? [custom] : undefined);
        } catch {
          throw invalidParameter(
            `No wallet factories are known for chain ${chainId}: give a --network profile with "wallets".`,
          );
        }
        const owner = address ? checkedAddress(address, 'owner') : keyAddress();
        const rpcUrl = opts.rpcUrl || process.env.PMDESK_RPC_URL || network.rpcUrl;
        if (!rpcUrl)
          throw invalidParameter(`No chain node for chain ${chainId}: pass --rpc-url or set PMDESK_RPC_URL.`);
        const contracts = actionContractsFor(network);
        const collateral = [contracts.collateral, contracts.usdcE].filter((t): t is string => Boolean(t));
        // The profile's wallet is the strongest evidence; a source without profiles (the aggregator) gives none.
        const source = ctx.markets();
        const profileWallet = source.getProfileWallet
          ? ((await source.getProfileWallet(owner)) ?? undefined)
          : undefined;
        const provider = new JsonRpcProvider(rpcUrl, Network.from(chainId), { staticNetwork: true, batchMaxCount: 1 });
        try {
          const found = await findAccounts(owner, {
            profileWallet,
            chainRead: rpcChainRead(provider, collateral),
            config: walletConfigFor(network),
          });
          if (ctx.out.json) {
            const plain = (c: (typeof found.candidates)[number]) => ({ ...c, balance: c.balance.toString() });
            ctx.out.stdout(
              `${JSON.stringify({ owner: found.owner, chainId, profileWallet: profileWallet ?? null, chosen: plain(found.chosen), reason: found.reason, candidates: found.candidates.map(plain) })}\n`,
            );
            return;
          }
          ctx.out.stdout(
            fields([
              ['key', found.owner],
              ['chain', chainId],
              ['profile wallet', profileWallet ?? '(none)'],
              ['trades from', `${found.chosen.address} (${found.chosen.kind})`],
              ['because', CHOICE[found.reason]],
            ]) +
              '\n' +
              table(found.candidates, [
                { header: 'KIND', value: (c) => c.kind },
                { header: 'TYPE', value: (c) => c.signatureType, right: true },
                { header: 'ADDRESS', value: (c) => c.address },
                { header: 'DEPLOYED', value: (c) => (c.kind === 'eoa' ? '-' : c.deployed ? 'yes' : 'no') },
                { header: 'COLLATERAL', value: (c) => formatUsd(c.balance), right: true },
                { header: 'FOUND BY', value: (c) => c.foundBy },
              ]),
          );
        } finally {
          provider.destroy();
        }
      }),
    );
}

function keyAddress(): string {
  const key = process.env.PMDESK_PRIVATE_KEY;
  if (!key) throw invalidParameter("Give an address, or set PMDESK_PRIVATE_KEY (hex) to show the key's own accounts.");
  try {
    return new Wallet(key).address;
  } catch {
    throw invalidParameter('PMDESK_PRIVATE_KEY is not a private key (0x and 64 hex digits).');
  }
}

/** The owner first (type 0), then each kind the chain has factories for, in the order the classification tries them. */
export function derivedRows(owner: string, chainId: number, custom: NetworkProfile | undefined): DerivedRow[] {
  const address = checkedAddress(owner, 'owner');
  let network: NetworkProfile;
  try {
    network = networkFor(chainId, custom ? [custom] : undefined);
  } catch {
    throw invalidParameter(
      `No wallet factories are known for chain ${chainId}: give a --network profile with "wallets".`,
    );
  }
  const derived = deriveAccounts(address, walletConfigFor(network));
  const rows: DerivedRow[] = [{ kind: 'eoa', signatureType: 0, address }];
  if (derived.depositWallet?.beacon)
    rows.push({ kind: 'deposit-wallet', signatureType: 3, address: derived.depositWallet.beacon, era: 'beacon' });
  if (derived.depositWallet?.uups)
    rows.push({ kind: 'deposit-wallet', signatureType: 3, address: derived.depositWallet.uups, era: 'uups' });
  if (derived.safe) rows.push({ kind: 'safe', signatureType: 2, address: derived.safe });
  if (derived.proxy) rows.push({ kind: 'proxy', signatureType: 1, address: derived.proxy });
  return rows;
}
