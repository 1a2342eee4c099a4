// Wallets: the keys on this machine, the Polymarket account each trades from, and the operations that make,
// import, unlock and export them (a recovery phrase is handed out once, never again).
import { z } from 'zod';
import type { ShownOnce } from './result';
import { label, noInput, op, password, walletRef } from './inputs';

export interface WalletInfo {
  label: string;
  address: string;
  unlocked: boolean;
}

/** One account a key could trade from on the network in use (docs/protocol.md#accounts-and-signature-types): the key itself or a derived wallet. */
export interface AccountCandidateInfo {
  address: string;
  kind: 'eoa' | 'proxy' | 'safe' | 'deposit-wallet';
  /** The signature type its orders carry: 0 key, 1 proxy, 2 Safe, 3 deposit wallet. */
  signatureType: 0 | 1 | 2 | 3;
  /** The key itself, a CREATE2 derivation from the chain's factories, or the trader's Polymarket profile. */
  foundBy: 'key' | 'derivation' | 'profile';
  /** The chain shows contract code there (always false for the key). */
  deployed: boolean;
  /** Collateral held there, in dollars. */
  collateral: number;
  /** Deposit wallets: made in the current (beacon) era or before the factory's upgrade (uups). */
  era?: 'beacon' | 'uups';
}

/** The Polymarket account a wallet's key trades from on the network in use, and the others it could. */
export interface WalletAccount {
  /** The wallet's label. */
  wallet: string;
  /** The key's own address. */
  owner: string;
  network: string;
  /** Where orders trade from: funds, positions, open orders and trades are this address's. */
  account: AccountCandidateInfo;
  /** 'found': PM Desk's pick (`reason` says on what evidence); 'trader': the trader's choice, kept per wallet and network. */
  chosenBy: 'found' | 'trader';
  reason: 'profile' | 'funded' | 'deployed' | 'key' | 'trader';
  /** "Polymarket account 0x… (Safe, owned by key 0x…)", or the key trading from its own address. */
  description: string;
  /** The key and each of its derived wallets, with what the chain says of them. */
  candidates: AccountCandidateInfo[];
  /** Other candidates the chain shows in use (deployed or funded): worth a look before trading. */
  alsoInUse: string[];
  /** Said when the Polymarket profile names a wallet that is not one of this key's accounts by derivation. */
  profileNote?: string;
}

export const walletOperations = {
  listWallets: op<WalletInfo[]>()(noInput, { summary: 'The wallets on this machine and which are unlocked.' }),
  createWallet: op<{ wallet: WalletInfo; recoveryPhrase: ShownOnce }>()(z.strictObject({ label, password }), {
    summary: 'A new wallet; its recovery phrase is shown this once.',
    shownOnce: 'recoveryPhrase',
  }),
  importWallet: op<WalletInfo>()(
    z.strictObject({
      label,
      password,
      source: z.discriminatedUnion('kind', [
        z.strictObject({
          kind: z.literal('mnemonic'),
          phrase: z.string().min(1).max(1000),
          index: z
            .number()
            .int()
            .min(0)
            .max(2 ** 31 - 1)
            .default(0),
        }),
        z.strictObject({ kind: z.literal('privateKey'), privateKey: z.string().min(1).max(200) }),
        z.strictObject({ kind: z.literal('keystore'), keystoreJson: z.string().min(2).max(16_384) }),
      ]),
    }),
    { summary: 'Import a wallet from a recovery phrase, a private key or a keystore file.', maxPayloadBytes: 24_576 },
  ),
  importSandboxWallet: op<WalletInfo>()(z.strictObject({ label, password }), {
    summary: "Import the sandbox's funded test wallet (on the sandbox network only); its key stays in main.",
  }),
  unlockWallet: op<WalletInfo>()(
    z.strictObject({
      label,
      password,
      autoLockMinutes: z
        .number()
        .int()
        .min(0)
        .max(24 * 60)
        .default(30),
    }),
    { summary: 'Unlock a wallet for trading; it locks itself after the idle time (0: never).' },
  ),
  lockWallet: op<WalletInfo>()(z.strictObject({ label }), {
    summary: 'Lock a wallet: its key is dropped from memory.',
  }),
  getWalletAccount: op<WalletAccount>()(walletRef, {
    summary:
      "The Polymarket account a wallet's key trades from on this network (proxy, Safe, deposit wallet or the key), found or chosen.",
  }),
  chooseWalletAccount: op<WalletAccount>()(
    z.strictObject({
      wallet: label,
      account: z
        .string()
        .regex(/^0x[0-9a-fA-F]{40}$/, 'an account is a 0x address')
        .nullable(),
    }),
    {
      summary:
        "Trade from another of the key's accounts (or the key itself) on this network; null goes back to the one found. Kept per wallet and network.",
    },
  ),
  exportWallet: op<{ fileName: string; keystoreJson: string }>()(z.strictObject({ label, password }), {
    summary: 'The wallet as an encrypted keystore file (password required, so a page script cannot take it).',
  }),
} as const;
