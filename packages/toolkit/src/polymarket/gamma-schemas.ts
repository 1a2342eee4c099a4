// Gamma's answers (docs/protocol.md#gamma): events with their markets, comments, public profiles and search, as
// lenient schemas. Every field is treated as nullable, unknown fields are kept, and a market's outcome list,
// prices and token ids must line up, so a market that cannot be traded correctly fails here, naming the field.
import { z } from 'zod';
import { flag, id, jsonStringList, optNum, text } from '../http/wire';

/** A tick as the exchange writes it: Gamma sends a number (0.01) or a string; the string form is kept. */
/**
 * The fee schedule the exchange charges at match time (docs/protocol.md#fees) as Gamma states it on a fee
 * market; the field names are not documented first-hand, so only a rate is required and the rest defaults to
 * the curve every production market uses (exponent 1, taker-only).
 */
const feeSchedule = z
  .looseObject({
    rate: optNum,
    exponent: z.union([z.number().int().nonnegative(), z.null()]).optional(),
    takerOnly: flag,
  })
  .nullish();

const tick = z
  .union([
    z.number().positive(),
    z
      .string()
      .trim()
      .regex(/^(0?\.\d+|1(\.0*)?)$/),
    z.null(),
  ])
  .optional()
  .transform((v) => (v === null || v === undefined ? undefined : String(v)));

export const GammaMarketSchema = z
  .looseObject({
    id,
    question: text,
    conditionId: z.string().nullish(),
    questionID: z.string().nullish(),
    slug: z.string().nullish(),
    description: text,
    image: text,
    icon: text,
    outcomes: jsonStringList,
    outcomePrices: jsonStringList,
    clobTokenIds: jsonStringList,
    /** Protocol V2: the outcome positions' ids, a real array. */
    positionIds: z
      .array(id)
      .nullish()
      .transform((v) => v ?? null),
    /** 'v1' (CTF tokens) or 'v2' (Protocol V2 positions); anything else is kept as absent. */
    version: z
      .string()
      .nullish()
      .transform((v) => (v === 'v1' || v === 'v2' ? v : undefined)),
    active: flag,
    closed: flag,
    archived: flag,
    acceptingOrders: flag,
    /** UMA's answer for the market: "proposed", "disputed", "resolved" (or empty before any proposal). */
    umaResolutionStatus: z.string().nullish(),
    enableOrderBook: flag,
    orderPriceMinTickSize: tick,
    orderMinSize: optNum,
    negRisk: flag,
    feesEnabled: flag,
    /** The taker rate in basis points. */
    takerBaseFee: optNum,
    feeSchedule,
    negRiskMarketID: z.string().nullish(),
    bestBid: optNum,
    bestAsk: optNum,
    spread: optNum,
    lastTradePrice: optNum,
    oneDayPriceChange: optNum,
    volume: optNum,
    volumeNum: optNum,
    volume24hr: optNum,
    liquidityNum: optNum,
    rewardsMinSize: optNum,
    rewardsMaxSpread: optNum,
    groupItemTitle: text,
    groupItemThreshold: optNum,
    endDate: z.string().nullish(),
    endDateIso: z.string().nullish(),
  })
  .superRefine((market, ctx) => {
    const tokenField = tokenFieldOf(market);
    const tokens = market[tokenField];
    const outcomes = market.outcomes;
    if (tokens && outcomes && tokens.length !== outcomes.length) {
      ctx.addIssue({
        code: 'custom',
        path: [tokenField],
        message: `${tokens.length} token ids for ${outcomes.length} outcomes`,
      });
    }
    if (tokens && !outcomes)
      ctx.addIssue({ code: 'custom', path: ['outcomes'], message: `missing for ${tokens.length} token ids` });
    const prices = market.outcomePrices;
    if (prices && outcomes && prices.length !== outcomes.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['outcomePrices'],
        message: `${prices.length} prices for ${outcomes.length} outcomes`,
      });
    }
    for (const [index, price] of (prices ?? []).entries()) {
      if (!/^\d*\.?\d+(e-?\d+)?$/i.test(price))
        ctx.addIssue({ code: 'custom', path: ['outcomePrices', index], message: `'${price}' is not a price` });
    }
  });
export type GammaMarket = z.output<typeof GammaMarketSchema>;

/** Where a market's outcome token ids are: a V2 market's positionIds, else clobTokenIds (positionIds when only they are given). */
export function tokenFieldOf(market: {
  version?: 'v1' | 'v2';
  clobTokenIds: string[] | null;
  positionIds: string[] | null;
}): 'clobTokenIds' | 'positionIds' {
  if (market.version === 'v2') return 'positionIds';
  if (market.version === undefined && !market.clobTokenIds && market.positionIds) return 'positionIds';
  return 'clobTokenIds';
}

export const GammaEventSchema = z.looseObject({
  id,
  ticker: z.string().nullish(),
  slug: text,
  title: text,
  description: text,
  startDate: text,
  creationDate: text,
  endDate: text,
  image: text,
  icon: text,
  active: flag,
  closed: flag,
  archived: flag,
  liquidity: optNum,
  volume: optNum,
  volume24hr: optNum,
  negRisk: flag,
  enableNegRisk: flag,
  negRiskMarketID: z.string().nullish(),
  markets: z
    .array(GammaMarketSchema)
    .nullish()
    .transform((v) => v ?? []),
});
export type GammaEvent = z.output<typeof GammaEventSchema>;

export const GammaCommentSchema = z.looseObject({
  id,
  body: text,
  parentEntityType: z.string().nullish(),
  parentEntityID: z.union([z.number(), z.string()]).nullish(),
  parentCommentID: z.union([z.string(), z.number()]).nullish(),
  userAddress: text,
  createdAt: text,
  reportCount: optNum,
  reactionCount: optNum,
  profile: z
    .looseObject({
      name: text,
      pseudonym: text,
      displayUsernamePublic: flag,
      bio: text,
      proxyWallet: z.string().nullish(),
      baseAddress: z.string().nullish(),
      profileImage: text,
      positions: z
        .array(z.looseObject({ tokenId: id, positionSize: z.union([z.string(), z.number()]).transform(String) }))
        .nullish()
        .transform((v) => v ?? []),
    })
    .nullish(),
});
export type GammaComment = z.output<typeof GammaCommentSchema>;

/** GET /public-profile; a JSON null is "no profile" and handled before this schema. */
export const GammaProfileSchema = z.looseObject({
  createdAt: text,
  proxyWallet: z.string().nullish(),
  profileImage: text,
  displayUsernamePublic: flag,
  bio: text,
  pseudonym: text,
  name: text,
  xUsername: z.string().nullish(),
  verifiedBadge: flag,
});
export type GammaProfile = z.output<typeof GammaProfileSchema>;

/** A search answer names its events or its pagination (even when empty): an object with neither is not one. */
const searchShaped = z.custom<Record<string, unknown>>(
  (v) => typeof v === 'object' && v !== null && !Array.isArray(v) && ('events' in v || 'pagination' in v),
  'expected a search answer with events or pagination',
);

export const GammaSearchSchema = searchShaped.pipe(
  z.looseObject({
    events: z
      .array(GammaEventSchema)
      .nullish()
      .transform((v) => v ?? []),
    tags: z.array(z.looseObject({ id: id.optional(), label: text, slug: text })).nullish(),
    // A real answer holds a JSON null among its profiles (a recorded search for "sports", SOURCES.md): skipped.
    profiles: z
      .array(GammaProfileSchema.nullable())
      .nullish()
      .transform((v) => v?.filter((profile) => profile !== null)),
    pagination: z.looseObject({ hasMore: flag, totalResults: optNum }).nullish(),
  }),
);
export type GammaSearch = z.output<typeof GammaSearchSchema>;

/** The cursor Gamma hands out for the next keyset page: opaque text, bounded so a hostile answer cannot grow it. */
const nextCursor = z
  .string()
  .max(2_000)
  .nullish()
  .transform((v) => (v ? v : undefined));

/** GET /events/keyset: a page of events and, unless it is the last, the cursor of the next (`after_cursor`). */
export const GammaEventsKeysetSchema = z.looseObject({
  events: z.array(GammaEventSchema),
  next_cursor: nextCursor,
});
export type GammaEventsKeyset = z.output<typeof GammaEventsKeysetSchema>;

/** GET /markets/keyset: as events; Polymarket's own client drops a `null` market in the list, and so does PM Desk. */
export const GammaMarketsKeysetSchema = z.looseObject({
  markets: z
    .array(GammaMarketSchema.nullable())
    .transform((markets) => markets.filter((m): m is GammaMarket => m !== null)),
  next_cursor: nextCursor,
});
export type GammaMarketsKeyset = z.output<typeof GammaMarketsKeysetSchema>;
