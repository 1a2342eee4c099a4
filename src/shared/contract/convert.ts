// Converting No shares of a negative-risk event (the neg-risk adapter's convertPositions): the event's outcomes
// with the No shares the wallet's account holds, what a conversion gives and receives, and the send — as the
// account, through Polymarket's relayer where the money actions go that way.
import { z } from 'zod';
import type { AccountFunds, MoneyAmount, MoneyPath, RelayedMoney } from './account';
import { id, label, op } from './inputs';

/** One outcome of the event as a conversion names it: its question index on the adapter and what is held. */
export interface ConversionOutcome {
  /** The question's index in the event (bit `index` of the index set). */
  index: number;
  /** The short label ("25 bps cut"), else the question. */
  name: string;
  /** The outcome's market id, to open it. */
  marketId: string;
  yesTokenId: string;
  noTokenId: string;
  /** The account's No shares of this outcome, from the chain. */
  noHeld: MoneyAmount;
  yesHeld: MoneyAmount;
}

export interface ConversionChoices {
  wallet: string;
  account: string;
  eventId: string;
  title: string;
  /** The event's market id on the neg-risk adapter. */
  negRiskMarketId: string;
  /** The event's conversion fee in basis points (0: none). */
  feeBips: number;
  outcomes: ConversionOutcome[];
}

export interface ConversionLeg {
  index: number;
  outcome: string;
  shares: MoneyAmount;
}

/** Exactly what a conversion gives and receives, worked out on chain (and its gas quoted) before anything is sent. */
export interface ConversionPreview {
  wallet: string;
  account: string;
  accountKind: AccountFunds['accountKind'];
  key: string;
  eventId: string;
  title: string;
  negRiskMarketId: string;
  /** No shares given of each chosen outcome. */
  size: MoneyAmount;
  given: ConversionLeg[];
  received: ConversionLeg[];
  /** pUSD received: (k − 1)·size less the fee. */
  collateral: MoneyAmount;
  /** Null when the event charges none. */
  fee: { bips: number; shares: MoneyAmount; collateral: MoneyAmount } | null;
  /** The effect line by line ("Give 4 No of No change", "Receive $4.00 pUSD"). */
  lines: string[];
  transactions: number;
  atomic: boolean;
  note: string | null;
  gas: MoneyAmount;
  keyGas: MoneyAmount;
  via: MoneyPath;
  viaReason: string;
}

export interface ConversionDone extends ConversionPreview {
  txHashes: string[];
  exchangeRefreshed: boolean;
  relayer: RelayedMoney | null;
}

const eventRef = z.strictObject({ wallet: label, eventId: id });

/** A conversion as the trader asks for it; previewConversion and runConversion take the same. */
const conversionIntent = z.strictObject({
  wallet: label,
  /** The event's id or slug. */
  eventId: id,
  /** Question indexes of the outcomes whose No shares are given, each once. */
  fromNo: z
    .array(z.number().int().min(0).max(255))
    .min(1, 'choose at least one outcome whose No shares you give')
    .max(256)
    .refine((xs) => new Set(xs).size === xs.length, 'an outcome is chosen twice'),
  /** No shares of each chosen outcome, exact decimal text with at most 6 decimals. */
  size: z.string().regex(/^[0-9]{1,12}(\.[0-9]{1,6})?$/, 'a size is shares with at most 6 decimals, like 12.5'),
  via: z.enum(['relayer', 'key']).optional(),
});

export const convertOperations = {
  getConversionChoices: op<ConversionChoices>()(eventRef, {
    summary:
      "A negative-risk event's outcomes by question index, with the No and Yes shares the wallet's account holds.",
  }),
  previewConversion: op<ConversionPreview>()(conversionIntent, {
    summary: 'What converting No shares of a negative-risk event gives and receives, and its gas; nothing is sent.',
  }),
  runConversion: op<ConversionDone>()(conversionIntent, {
    summary:
      "Convert No shares of a negative-risk event into Yes shares of the others and pUSD, as the wallet's account.",
  }),
} as const;
