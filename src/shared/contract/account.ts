// A wallet's account: balances, positions, funds and the money actions (wrap, unwrap, split, merge, redeem),
// and following its own orders and trades live.
import { z } from 'zod';
import type { FeedState } from './markets';
import { id, label, op, tokenId, walletRef } from './inputs';

export interface Balances {
  /** Collateral on the chain, in dollars (6-decimal base units converted once, for display). */
  collateral: number;
  /** Outcome tokens of the market and the tokens asked about, in shares, by token id. */
  outcomes: Record<string, number>;
}

export interface PositionInfo {
  conditionId: string | null;
  marketSlug: string | null;
  outcome: string;
  size: number;
  averagePrice: number | null;
  currentPrice: number;
  currentValue: number;
  /** The market resolved and the position can be redeemed (as the market-data source says). */
  redeemable?: boolean;
  /** The market's question, when the source or the exchange states it. */
  question?: string | null;
  /** The market's id as the market-data source names it (what opens it), when found. */
  marketId?: string | null;
  /** The outcome token, when known. */
  tokenId?: string | null;
  /** A negative-risk event's market, and the event's slug (its No shares convert: ConvertDialog). */
  negRisk?: boolean;
  eventSlug?: string | null;
}

/** An exact amount: base units as a decimal string (6 decimals for pUSD/USDC.e/shares, 18 for POL) and how it reads. */
export interface MoneyAmount {
  units: string;
  /** "$12.50", "0.0012 POL", "12.5" shares. */
  text: string;
}

export const MONEY_ACTIONS = ['wrap', 'unwrap', 'split', 'merge', 'redeem'] as const;
export type MoneyAction = (typeof MONEY_ACTIONS)[number];

/** A wallet's money on this network: its account's pUSD and USDC.e, and the POL its key pays gas with. */
export interface AccountFunds {
  wallet: string;
  /** Where the funds sit (the Polymarket account, or the key itself). */
  account: string;
  accountKind: 'eoa' | 'proxy' | 'safe' | 'deposit-wallet';
  key: string;
  pusd: MoneyAmount;
  /** Null when the network has no USDC.e. */
  usdcE: MoneyAmount | null;
  /** The key's POL: it pays every transaction's gas, whichever account acts. */
  keyGas: MoneyAmount;
  /** The account's own POL (a wallet contract's; the same as keyGas for the key itself). */
  accountGas: MoneyAmount;
  /** Null when wrap, unwrap, split, merge and redeem can be sent from here; else why not (a deposit wallet: relayer only). */
  actionsUnavailable: string | null;
  /** How money actions are sent: through Polymarket's relayer (no gas) or from the key (gas in POL), and why. */
  via: MoneyPath;
  viaReason: string;
}

/** 'relayer': Polymarket's relayer sends and pays the gas; 'key': the key sends and pays gas in POL. */
export type MoneyPath = 'relayer' | 'key';

/** Relayer credentials as kept: never the key, secret or passphrase, only what they are and where. */
export interface RelayerLogin {
  wallet: string;
  relayerUrl: string;
  /** "a relayer API key for 0x…" or "builder credentials". */
  stored: string;
  storage: 'keychain' | 'memory';
}

/** A relayed transaction as the relayer last reported it. */
export interface RelayedMoney {
  transactionID: string;
  transactionHash: string;
  state: string;
  /** "Sent through Polymarket's relayer — no gas needed: mined as 0x…." */
  summary: string;
}

/** What a money action will move and cost, worked out (and its gas quoted) before anything is sent. */
export interface MoneyActionPreview {
  action: MoneyAction;
  wallet: string;
  account: string;
  accountKind: AccountFunds['accountKind'];
  key: string;
  marketId: string | null;
  question: string | null;
  /** Moved: wrapped, unwrapped, split or merged; for a redeem, the payout. */
  amount: MoneyAmount;
  /** Redeem: "Won $12.50" or "Lost"; else null. */
  result: string | null;
  /** Redeem: each outcome's shares held. */
  held: { outcome: string; shares: MoneyAmount }[];
  /** The exact effect, line by line ("$5.00 USDC.e → $5.00 pUSD"). */
  lines: string[];
  transactions: number;
  atomic: boolean;
  note: string | null;
  /** About what the gas costs, and the key's POL now. */
  gas: MoneyAmount;
  keyGas: MoneyAmount;
  /** Which way it is sent, and why (see AccountFunds). */
  via: MoneyPath;
  viaReason: string;
}

export interface MoneyActionDone extends MoneyActionPreview {
  txHashes: string[];
  /** Whether the exchange was told to read the account's balances and allowances again. */
  exchangeRefreshed: boolean;
  /** Through the relayer: its transaction (a first-time deployment's comes before it in txHashes); else null. */
  relayer: RelayedMoney | null;
}

/** A money action as the trader asks for it; shared by previewMoneyAction and runMoneyAction so the preview is of the same action. */
const moneyIntent = z
  .strictObject({
    wallet: label,
    action: z.enum(MONEY_ACTIONS),
    /** Split, merge and redeem. */
    marketId: id.optional(),
    /** Dollars (shares for a merge) as exact decimal text, at most 6 decimals; every action but redeem. Not trimmed:
     * "5\n" is not exactly a number, and an amount of money is taken only as exactly one. */
    amount: z
      .string()
      .regex(/^[0-9]{1,12}(\.[0-9]{1,6})?$/, 'an amount is dollars with at most 6 decimals, like 12.5')
      .optional(),
    /** 'key' to have the key send and pay gas even when relayer credentials exist; 'relayer' to require the relayer. */
    via: z.enum(['relayer', 'key']).optional(),
  })
  .refine((m) => (m.action === 'redeem') === (m.amount === undefined), {
    message: 'an amount goes with every action but redeem',
  })
  .refine((m) => (m.action === 'wrap' || m.action === 'unwrap') === (m.marketId === undefined), {
    message: 'split, merge and redeem name a market; wrap and unwrap do not',
  });

/** Relayer credentials as the trader enters them; the secret fields are masked in any message (router SECRET_FIELDS). */
const relayerSecret = z.string().trim().min(1).max(512);
const relayerCredentialsInput = z.discriminatedUnion('kind', [
  z.strictObject({
    wallet: label,
    kind: z.literal('api-key'),
    relayerKey: relayerSecret,
    /** The address the key was issued for; the wallet's key address when absent. */
    keyAddress: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, 'an address is 0x and 40 hex digits')
      .optional(),
  }),
  z.strictObject({
    wallet: label,
    kind: z.literal('builder'),
    relayerKey: relayerSecret,
    relayerSecret,
    relayerPassphrase: relayerSecret,
  }),
]);

export const accountOperations = {
  getBalances: op<Balances>()(
    z.strictObject({ wallet: label, marketId: id.optional(), tokenIds: z.array(tokenId).max(150).optional() }),
    {
      summary:
        "A wallet's collateral, and the outcome tokens of a market and of the tokens named (every holding), from the chain.",
    },
  ),
  getPositions: op<PositionInfo[]>()(walletRef, { summary: "A wallet's positions." }),
  getAccountFunds: op<AccountFunds>()(walletRef, { summary: "A wallet's pUSD and USDC.e, and its key's POL for gas." }),
  previewMoneyAction: op<MoneyActionPreview>()(moneyIntent, {
    summary: 'What a wrap, unwrap, split, merge or redeem would move and cost in gas; nothing is sent.',
  }),
  runMoneyAction: op<MoneyActionDone>()(moneyIntent, {
    summary: 'Send a wrap, unwrap, split, merge or redeem as the wallet’s account.',
  }),
  saveRelayerCredentials: op<RelayerLogin>()(relayerCredentialsInput, {
    summary:
      "Keep a wallet's Polymarket relayer credentials (checked with the relayer first) in the OS keychain; they are never shown again.",
  }),
  forgetRelayerCredentials: op<{ wallet: string; forgotten: boolean }>()(walletRef, {
    summary: "Forget a wallet's relayer credentials on this network.",
  }),
  watchAccount: op<{ wallet: string; state: FeedState }>()(walletRef, {
    summary: "Follow a wallet's own orders and trades live: `account` events (level 2 credentials stay in main).",
  }),
  unwatchAccount: op<{ wallet: string; wasWatched: boolean }>()(walletRef, {
    summary: "Stop following a wallet's orders and trades.",
  }),
} as const;
