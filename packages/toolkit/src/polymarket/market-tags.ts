// The event tags of the markets a trader traded, for the Portfolio's totals per tag: an activity row names its
// market (slug and condition id), Gamma's market names its event, and Gamma's event carries the tags. Bounded:
// at most `maxMarkets` markets are asked about, each event once, and a market Gamma cannot answer for is left
// untagged (its totals still count per market) rather than failing the whole portfolio.
import { z } from 'zod';
import type { GammaClient } from './gamma';

/** The most markets one portfolio asks Gamma about (two reads each at most: the market, then its event once). */
export const TAGGED_MARKETS_MAX = 200;

const MarketEvents = z.looseObject({
  events: z
    .array(z.looseObject({ id: z.union([z.string(), z.number()]).transform(String) }))
    .nullish()
    .transform((v) => v ?? []),
});
const EventTags = z.looseObject({
  tags: z
    .array(z.looseObject({ label: z.string().max(200) }))
    .max(100)
    .nullish()
    .transform((v) => v ?? []),
});

/** Condition id (lower case) → the labels of its event's tags, for the markets of `rows` Gamma knows. */
export async function readMarketTags(
  gamma: Pick<GammaClient, 'getMarketBySlug' | 'getEvent'>,
  rows: readonly { conditionId: string; slug: string }[],
  maxMarkets = TAGGED_MARKETS_MAX,
): Promise<Map<string, string[]>> {
  const slugs = new Map<string, string>();
  for (const r of rows)
    if (r.slug && r.conditionId && !slugs.has(r.conditionId.toLowerCase()) && slugs.size < maxMarkets)
      slugs.set(r.conditionId.toLowerCase(), r.slug);
  const events = new Map<string, Promise<string[]>>();
  const tagsOfEvent = (id: string) => {
    let read = events.get(id);
    if (!read) {
      read = gamma.getEvent(id).then((event) => {
        const parsed = EventTags.safeParse(event);
        return parsed.success ? [...new Set(parsed.data.tags.map((t) => t.label).filter(Boolean))] : [];
      });
      events.set(id, read);
    }
    return read;
  };
  const tags = new Map<string, string[]>();
  // A few at a time: Gamma's rate limits are per IP, and a long history names many markets.
  const queue = [...slugs];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [conditionId, slug] = next;
      try {
        const market = MarketEvents.safeParse(await gamma.getMarketBySlug(slug));
        const eventId = market.success ? market.data.events[0]?.id : undefined;
        if (eventId) tags.set(conditionId, await tagsOfEvent(eventId));
      } catch {
        // Unknown to Gamma (delisted, another network): counted per market only.
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return tags;
}
