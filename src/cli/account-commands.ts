// `pmdesk account derive`: where a key's accounts live (its proxy, Safe and deposit wallets), computed offline
// from the chain's wallet factories; no key, no network. Derived addresses are candidates for the trader to
// confirm (on-chain or on their Polymarket profile), never a place to send funds on their own say-so.
import type { Command } from 'commander';
import { invalidParameter } from '../shared/errors';
import { checkedAddress, deriveAccounts, type AccountKind, type DepositWalletEra } from '../main/toolkit/accounts/derive';
import { networkFor, walletConfigFor, type NetworkProfile } from '../main/toolkit/chain/networks';
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

const ERA_NOTE: Readonly<Record<DepositWalletEra, string>> = { beacon: 'current (beacon) era', uups: 'made before the factory upgrade (UUPS era)' };

export function registerAccountCommands(program: Command, run: Run): void {
  const account = program.command('account').description("a key's accounts: the proxy, Safe and deposit wallets it can trade from");
  account
    .command('derive <address>')
    .description('every kind of account of an owner address, derived offline (CREATE2) from the chain\'s wallet factories')
    .option('--chain <id>', 'chain id: 137 Polygon (default), 80002 Amoy, or the --network profile\'s')
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
          fields([['owner', rows[0]!.address], ['chain', chainId]]) +
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
}

/** The owner first (type 0), then each kind the chain has factories for, in the order the classification tries them. */
export function derivedRows(owner: string, chainId: number, custom: NetworkProfile | undefined): DerivedRow[] {
  const address = checkedAddress(owner, 'owner');
  let network: NetworkProfile;
  try {
    network = networkFor(chainId, custom ? [custom] : undefined);
  } catch {
    throw invalidParameter(`No wallet factories are known for chain ${chainId}: give a --network profile with "wallets".`);
  }
  const derived = deriveAccounts(address, walletConfigFor(network));
  const rows: DerivedRow[] = [{ kind: 'eoa', signatureType: 0, address }];
  if (derived.depositWallet?.beacon) rows.push({ kind: 'deposit-wallet', signatureType: 3, address: derived.depositWallet.beacon, era: 'beacon' });
  if (derived.depositWallet?.uups) rows.push({ kind: 'deposit-wallet', signatureType: 3, address: derived.depositWallet.uups, era: 'uups' });
  if (derived.safe) rows.push({ kind: 'safe', signatureType: 2, address: derived.safe });
  if (derived.proxy) rows.push({ kind: 'proxy', signatureType: 1, address: derived.proxy });
  return rows;
}
