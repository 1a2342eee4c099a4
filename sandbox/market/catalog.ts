// The sandbox's markets: a handful of events (binary markets and one neg-risk multi-outcome event) with
// their rules, outcomes, tick sizes and minimum sizes. Token and condition ids come from the chain once
// the conditions are prepared there; `buildCatalog` joins the two. A market may charge Polymarket's taker fee
// (fees.ts); a resolved market is closed and names its winning outcome.
import { checkFees, type MarketFees } from './fees';

export type { MarketFees } from './fees';

export interface MarketSpec {
  /** Aggregator market id (numeric string, as Polymarket's). */
  id: string;
  slug: string;
  question: string;
  /** The outcome's label inside a multi-outcome event ("25 bps cut"). */
  groupItemTitle: string;
  description: string;
  tickSize: '0.1' | '0.01' | '0.001' | '0.0001';
  minOrderSize: number;
  /** Price of the first outcome when the history starts. */
  startPrice: number;
  outcomes: [string, string];
  /** The taker fee Polymarket's V2 markets charge at match time; absent: no fee. */
  fees?: MarketFees;
}

export interface EventSpec {
  id: string;
  slug: string;
  title: string;
  description: string;
  /** ISO dates. */
  startDate: string;
  creationDate: string;
  endDate: string;
  negRisk: boolean;
  markets: MarketSpec[];
  comments: { author: string; text: string; hoursAgo: number }[];
  /** Slugs of its tags (SANDBOX_TAGS), as Gamma files events under topics. */
  tags?: string[];
}

/** The topics events are filed under (Gamma's tags; ids are numeric strings, as Polymarket's). */
export const SANDBOX_TAGS: readonly { id: string; label: string; slug: string }[] = [
  { id: '101', label: 'Economy', slug: 'economy' },
  { id: '102', label: 'Fed Rates', slug: 'fed-rates' },
  { id: '103', label: 'Crypto', slug: 'crypto' },
  { id: '104', label: 'Bitcoin', slug: 'bitcoin' },
  { id: '105', label: 'Weather', slug: 'weather' },
  { id: '106', label: 'Tech', slug: 'tech' },
  { id: '107', label: 'AI', slug: 'ai' },
  { id: '108', label: 'Sports', slug: 'sports' },
  { id: '109', label: 'Soccer', slug: 'soccer' },
];

const binary = (spec: Omit<MarketSpec, 'outcomes' | 'groupItemTitle'> & { groupItemTitle?: string }): MarketSpec => ({
  groupItemTitle: spec.groupItemTitle ?? '',
  outcomes: ['Yes', 'No'],
  ...spec,
});

export const SANDBOX_EVENTS: readonly EventSpec[] = [
  {
    id: '9001',
    tags: ['economy', 'fed-rates'],
    slug: 'fed-decision-in-december-2026',
    title: 'Fed decision in December 2026?',
    description:
      'This event resolves to the outcome matching the change in the federal funds target range announced after the FOMC meeting of 15–16 December 2026. Exactly one market resolves YES.',
    startDate: '2026-10-01T00:00:00Z',
    creationDate: '2026-09-30T16:00:00Z',
    endDate: '2026-12-16T19:00:00Z',
    negRisk: true,
    markets: [
      binary({
        id: '90011',
        slug: 'fed-no-change-december-2026',
        question: 'Will the Fed leave rates unchanged in December 2026?',
        groupItemTitle: 'No change',
        description: 'Resolves YES if the target range is unchanged after the December 2026 meeting.',
        tickSize: '0.01',
        minOrderSize: 5,
        startPrice: 0.55,
      }),
      binary({
        id: '90012',
        slug: 'fed-25-bps-cut-december-2026',
        question: 'Will the Fed cut rates by 25 bps in December 2026?',
        groupItemTitle: '25 bps cut',
        description:
          'Resolves YES if the target range is lowered by exactly 25 basis points after the December 2026 meeting.',
        tickSize: '0.01',
        minOrderSize: 5,
        startPrice: 0.35,
      }),
      binary({
        id: '90013',
        slug: 'fed-50-bps-cut-december-2026',
        question: 'Will the Fed cut rates by 50+ bps in December 2026?',
        groupItemTitle: '50+ bps cut',
        description:
          'Resolves YES if the target range is lowered by 50 basis points or more after the December 2026 meeting.',
        tickSize: '0.001',
        minOrderSize: 5,
        startPrice: 0.07,
      }),
    ],
    comments: [
      { author: 'macro-hawk', text: 'Core inflation is still sticky; no change looks right to me.', hoursAgo: 30 },
      { author: 'rate-watcher', text: 'Labour data next week will move the 25 bps market a lot.', hoursAgo: 12 },
      { author: 'quiet-owl', text: '50+ is priced far too high after the last minutes.', hoursAgo: 3 },
    ],
  },
  {
    id: '9002',
    tags: ['crypto', 'bitcoin'],
    slug: 'bitcoin-above-120k-on-december-31-2026',
    title: 'Bitcoin above $120k on December 31, 2026?',
    description:
      'Resolves YES if the BTC/USD 1-minute candle close at 23:59 UTC on 31 December 2026 on the reference exchange is above $120,000.',
    startDate: '2026-09-01T00:00:00Z',
    creationDate: '2026-08-31T12:00:00Z',
    endDate: '2026-12-31T23:59:00Z',
    negRisk: false,
    markets: [
      binary({
        id: '90021',
        slug: 'bitcoin-above-120k-on-december-31-2026',
        question: 'Bitcoin above $120k on December 31, 2026?',
        description: 'Resolves YES if BTC/USD closes above $120,000 at 23:59 UTC on 31 December 2026.',
        tickSize: '0.01',
        minOrderSize: 5,
        startPrice: 0.42,
      }),
    ],
    comments: [
      { author: 'sats-stacker', text: 'ETF inflows have been strong all month.', hoursAgo: 50 },
      { author: 'chartist', text: 'Resistance at 115k held three times. Fading this.', hoursAgo: 7 },
    ],
  },
  {
    id: '9003',
    tags: ['weather'],
    slug: 'white-christmas-in-london-2026',
    title: 'White Christmas in London 2026?',
    description:
      'Resolves YES if the Met Office records a single snowflake falling at its London Weather Centre reference site on 25 December 2026.',
    startDate: '2026-10-15T00:00:00Z',
    creationDate: '2026-10-14T09:00:00Z',
    endDate: '2026-12-26T00:00:00Z',
    negRisk: false,
    markets: [
      binary({
        id: '90031',
        slug: 'white-christmas-in-london-2026',
        question: 'Will it snow in London on Christmas Day 2026?',
        description: 'Resolves YES if snow is recorded at the London reference site on 25 December 2026.',
        tickSize: '0.001',
        minOrderSize: 5,
        startPrice: 0.12,
      }),
    ],
    comments: [
      { author: 'weather-nerd', text: 'Long-range models hint at a cold snap around the 20th.', hoursAgo: 20 },
    ],
  },
  {
    id: '9004',
    tags: ['tech', 'ai'],
    slug: 'new-frontier-ai-model-release-before-2027',
    title: 'New frontier AI model released before 2027?',
    description:
      'Resolves YES if a major lab publicly releases a new flagship model generation between creation and 31 December 2026, 23:59 UTC.',
    startDate: '2026-08-01T00:00:00Z',
    creationDate: '2026-07-31T15:00:00Z',
    endDate: '2026-12-31T23:59:00Z',
    negRisk: false,
    markets: [
      binary({
        id: '90041',
        slug: 'new-frontier-ai-model-release-before-2027',
        question: 'Will a new frontier AI model be released before 2027?',
        description: 'Resolves YES on a public release of a new flagship model generation by a major lab before 2027.',
        tickSize: '0.01',
        minOrderSize: 5,
        startPrice: 0.64,
        // Tech markets pay 0.04 (docs/protocol.md#fees). The crypto market stays fee-free here: the trading
        // and settlement tests count its balances to the unit; a test sets `fees` on it to charge crypto's 0.072.
        fees: { rate: 0.04, exponent: 1, takerOnly: true },
      }),
    ],
    comments: [
      { author: 'model-watcher', text: 'Two labs have release events scheduled for December.', hoursAgo: 40 },
      { author: 'skeptic', text: 'Announcements are not releases. Read the rules.', hoursAgo: 2 },
    ],
  },
  {
    id: '9005',
    tags: ['sports', 'soccer'],
    slug: 'champions-league-winner-2026-27-real-madrid',
    title: 'Will Real Madrid win the 2026–27 Champions League?',
    description: 'Resolves YES if Real Madrid wins the 2026–27 UEFA Champions League final.',
    startDate: '2026-09-10T00:00:00Z',
    creationDate: '2026-09-09T10:00:00Z',
    endDate: '2027-05-29T21:00:00Z',
    negRisk: false,
    markets: [
      binary({
        id: '90051',
        slug: 'champions-league-winner-2026-27-real-madrid',
        question: 'Will Real Madrid win the 2026–27 Champions League?',
        description: 'Resolves YES if Real Madrid wins the final.',
        tickSize: '0.01',
        minOrderSize: 5,
        startPrice: 0.18,
      }),
    ],
    comments: [{ author: 'ultra', text: 'Hala Madrid. Easy YES.', hoursAgo: 60 }],
  },
];

/** One outcome token as the chain knows it. */
export interface CatalogToken {
  tokenId: string;
  name: string;
  /** Position in the market's outcome list (0 = first). */
  index: number;
}

export interface CatalogMarket extends MarketSpec {
  eventId: string;
  conditionId: string;
  negRisk: boolean;
  /** A neg-risk market's event on the chain's neg-risk adapter: Gamma's `negRiskMarketID` and `questionID`. */
  negRiskEvent?: { marketId: string; questionId: string; index: number };
  tokens: [CatalogToken, CatalogToken];
  end: string;
  active: boolean;
  closed: boolean;
  acceptingOrders: boolean;
  /** Once resolved (sandbox.resolveMarket): the winning outcome's index and when, ISO. */
  resolution?: { winner: 0 | 1; at: string };
}

export interface CatalogEvent extends Omit<EventSpec, 'markets'> {
  markets: CatalogMarket[];
}

export interface Catalog {
  events: CatalogEvent[];
  market(id: string): CatalogMarket | undefined;
  marketByCondition(conditionId: string): CatalogMarket | undefined;
  /** The market and outcome of a token. */
  token(tokenId: string): { market: CatalogMarket; token: CatalogToken } | undefined;
}

/** What the chain deployment tells the catalog about each market. */
export interface MarketOnChain {
  conditionId: string;
  tokenIds: [string, string];
  /** A neg-risk market's event on the adapter (market id, question id, index). */
  negRiskEvent?: { marketId: string; questionId: string; index: number };
}

/** Joins the market specs with their on-chain ids. */
export function buildCatalog(
  specs: readonly EventSpec[],
  onChain: (market: MarketSpec, event: EventSpec) => MarketOnChain,
): Catalog {
  const events: CatalogEvent[] = specs.map((event) => ({
    ...event,
    markets: event.markets.map((spec) => {
      const chain = onChain(spec, event);
      if (spec.fees) checkFees(spec.fees);
      return {
        ...spec,
        eventId: event.id,
        conditionId: chain.conditionId,
        negRisk: event.negRisk,
        ...(chain.negRiskEvent ? { negRiskEvent: chain.negRiskEvent } : {}),
        end: event.endDate,
        active: true,
        closed: false,
        acceptingOrders: true,
        tokens: [
          { tokenId: chain.tokenIds[0], name: spec.outcomes[0], index: 0 },
          { tokenId: chain.tokenIds[1], name: spec.outcomes[1], index: 1 },
        ],
      };
    }),
  }));
  const markets = new Map(events.flatMap((e) => e.markets.map((m) => [m.id, m] as const)));
  const byCondition = new Map([...markets.values()].map((m) => [m.conditionId, m] as const));
  const tokens = new Map(
    [...markets.values()].flatMap((m) => m.tokens.map((t) => [t.tokenId, { market: m, token: t }] as const)),
  );
  return {
    events,
    market: (id) => markets.get(id),
    marketByCondition: (conditionId) => byCondition.get(conditionId),
    token: (tokenId) => tokens.get(tokenId),
  };
}
