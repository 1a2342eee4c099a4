// The sandbox's Gamma API (docs/protocol.md#gamma): events, markets, public search, comments, tags and public
// profiles, with Gamma's parameters (snake_case, comma lists, `clob_token_ids` repeated, limit/offset or keyset,
// order/ascending) and Gamma's answers (plain arrays or keyset pages; a 404 `{error}` for an unknown id, slug or
// profile, as Gamma answers and Polymarket's own client expects).
import { SANDBOX_TAGS, type Catalog, type CatalogEvent, type CatalogMarket } from '../market/catalog';
import { SearchIndex } from '../aggregator/search';
import { HttpError, requireAddress, type Query } from './http';
import { commentsJson, eventJson, marketJson, tagJson, tagsOf, type GammaShapeContext } from './gamma-shapes';
import { deprecationHeaders, keysetPage } from './keyset';
import type { WalletDirectory } from './wallets';

const MAX_LIMIT = 1000;
/** The deepest offset Gamma's deprecated offset lists serve; past it a 422 points at the keyset list. */
const LIST_MAX_OFFSET = 2000;
/** The deepest offset Gamma's comments serve (a 422 past it, per a public client's pinned live test). */
const COMMENTS_MAX_OFFSET = 200;
const NOT_FOUND = 'not found';
/** Gamma's comment parent types, with their exact casing. */
const PARENT_TYPES = ['Event', 'Series', 'market'] as const;

type Row = Record<string, unknown>;

/** A Gamma answer: its JSON body and any headers beside it. */
export interface GammaAnswer {
  body: unknown;
  headers?: Record<string, string>;
}

export interface GammaRoutesOptions extends GammaShapeContext {
  catalog: Catalog;
  wallets: WalletDirectory;
}

export class GammaRoutes {
  private readonly search: SearchIndex<CatalogEvent>;
  private keysetOn = true;

  constructor(private readonly options: GammaRoutesOptions) {
    const text = (e: CatalogEvent) =>
      [
        e.title,
        e.description,
        e.slug,
        ...(e.tags ?? []),
        ...e.markets.flatMap((m) => [m.question, m.groupItemTitle, m.description]),
      ].join(' ');
    this.search = new SearchIndex(options.catalog.events.map((e) => ({ item: e, text: text(e) })));
  }

  /** Switches the keyset lists on or off (off: they are not Gamma's paths, a 404); the state now in force. */
  keysetLists(on?: boolean): boolean {
    if (on !== undefined) this.keysetOn = on;
    return this.keysetOn;
  }

  /** The answer of a Gamma path, or undefined when the path is not Gamma's. */
  async route(segments: string[], q: Query): Promise<GammaAnswer | undefined> {
    const [first, second, third] = segments;
    const n = segments.length;
    if (first === 'events') {
      // The offset list still answers, with the headers Polymarket sends since it was deprecated.
      if (n === 1)
        return {
          body: page(sortRows(this.events(q), q), q, { maxOffset: LIST_MAX_OFFSET, deeper: '/events/keyset' }),
          headers: deprecationHeaders('/events/keyset'),
        };
      if (n === 2 && second === 'keyset')
        return this.keysetOn ? { body: keysetPage(this.events(q), q, 'events') } : undefined;
      if (n === 2)
        return {
          body: eventJson(
            this.options,
            this.eventBy((e) => e.id === second),
          ),
        };
      if (n === 3 && second === 'slug')
        return {
          body: eventJson(
            this.options,
            this.eventBy((e) => e.slug === third),
          ),
        };
      if (n === 3 && third === 'tags')
        return { body: tagsOf(this.eventBy((e) => e.id === second)).map((t) => tagJson(t, this.options.createdAt)) };
    }
    if (first === 'markets') {
      if (n === 1)
        return {
          body: page(sortRows(this.markets(q), q), q, { maxOffset: LIST_MAX_OFFSET, deeper: '/markets/keyset' }),
          headers: deprecationHeaders('/markets/keyset'),
        };
      if (n === 2 && second === 'keyset')
        return this.keysetOn ? { body: keysetPage(this.markets(q), q, 'markets') } : undefined;
      if (n === 2) return { body: this.marketJson(this.marketBy((m) => m.id === second)) };
      if (n === 3 && second === 'slug') return { body: this.marketJson(this.marketBy((m) => m.slug === third)) };
      if (n === 3 && third === 'tags')
        return {
          body: tagsOf(this.marketBy((m) => m.id === second).event).map((t) => tagJson(t, this.options.createdAt)),
        };
    }
    if (first === 'public-search' && n === 1) return { body: this.publicSearch(q) };
    if (first === 'comments') {
      if (n === 1) return { body: this.comments(q) };
      if (n === 2) return { body: this.commentThread(second!) };
      if (n === 3 && second === 'user_address') return { body: this.commentsBy(third!, q) };
    }
    if (first === 'public-profile' && n === 1) {
      // Gamma answers 404 for an address with no profile (Polymarket's own client reads that as "no profile").
      const profile = await this.options.wallets.publicProfile(requireAddress(q, 'address'));
      if (!profile) throw new HttpError(404, 'profile not found');
      return { body: profile };
    }
    if (first === 'tags') return this.tags(segments, q);
    // Polymarket has these; the sandbox has no sports, series, teams or clarifications to model, so it says so
    // with an honest empty answer rather than a 404 (a series by id is unknown, as any unknown id).
    if ((first === 'sports' || first === 'teams' || first === 'series' || first === 'market-clarifications') && n === 1)
      return { body: [] };
    if (first === 'sports' && n === 2 && second === 'market-types') return { body: { marketTypes: [] } };
    if (first === 'series' && n === 2) throw new HttpError(404, NOT_FOUND);
    if (first === 'status' && n === 1) return { body: 'OK' };
    return undefined;
  }

  /** `/tags`, one tag by id or slug, and the tags related to one (sharing an event with it). */
  private tags(segments: string[], q: Query): GammaAnswer {
    const [, second, third] = segments;
    const n = segments.length;
    const tags = SANDBOX_TAGS.map((t) => tagJson(t, this.options.createdAt));
    if (n === 1) return { body: page(sortRows(tags, q), q) };
    const bySlug = second === 'slug';
    const key = bySlug ? third : second;
    const rest = segments.slice(bySlug ? 3 : 2);
    const tag = bySlug ? tags.find((t) => t.slug === key) : tags.find((t) => t.id === key);
    if (!tag || n < (bySlug ? 3 : 2)) throw new HttpError(404, NOT_FOUND);
    if (rest.length === 0) return { body: tag };
    if (rest[0] !== 'related-tags' || rest.length > 2 || (rest.length === 2 && rest[1] !== 'tags'))
      throw new HttpError(404, `no route for /${segments.join('/')}`);
    const related = this.relatedTags(tag.id, q);
    if (rest.length === 1) {
      return {
        body: related.map((r, i) => ({
          id: String(Number(tag.id) * 1000 + Number(r.id)),
          tagID: Number(tag.id),
          relatedTagID: Number(r.id),
          rank: i + 1,
        })),
      };
    }
    return { body: related.map((r) => tagJson(r, this.options.createdAt)) };
  }

  /** Tags filed on the same events as `tagId` (events of the asked `status`), the most shared first. */
  private relatedTags(tagId: string, q: Query) {
    const status = q.string('status');
    if (status !== undefined && !['active', 'closed', 'all'].includes(status))
      throw new HttpError(400, 'status must be active, closed or all');
    const closed = (e: CatalogEvent) => e.markets.every((m) => m.closed);
    const events = this.options.catalog.events
      .filter((e) => tagsOf(e).some((t) => t.id === tagId))
      .filter((e) => status === undefined || status === 'all' || (status === 'closed') === closed(e));
    const shared = new Map<string, number>();
    for (const event of events)
      for (const t of tagsOf(event)) if (t.id !== tagId) shared.set(t.id, (shared.get(t.id) ?? 0) + 1);
    return SANDBOX_TAGS.filter((t) => shared.has(t.id)).sort(
      (a, b) => shared.get(b.id)! - shared.get(a.id)! || Number(a.id) - Number(b.id),
    );
  }

  private allMarkets(): { event: CatalogEvent; market: CatalogMarket }[] {
    return this.options.catalog.events.flatMap((event) => event.markets.map((market) => ({ event, market })));
  }

  private eventBy(match: (e: CatalogEvent) => boolean): CatalogEvent {
    const event = this.options.catalog.events.find(match);
    if (!event) throw new HttpError(404, NOT_FOUND);
    return event;
  }

  private marketBy(match: (m: CatalogMarket) => boolean): { event: CatalogEvent; market: CatalogMarket } {
    const found = this.allMarkets().find(({ market }) => match(market));
    if (!found) throw new HttpError(404, NOT_FOUND);
    return found;
  }

  private marketJson({ event, market }: { event: CatalogEvent; market: CatalogMarket }) {
    return marketJson(this.options, event, market, { withEvent: true });
  }

  /** The events a list's filters select (both lists share them), in catalog order. */
  private events(q: Query): Row[] {
    const ids = q.values('id');
    const slugs = q.values('slug');
    const tagSlug = q.string('tag_slug');
    const tagIds = q.values('tag_id');
    const active = q.bool('active');
    const closed = q.bool('closed');
    const archived = q.bool('archived');
    return this.options.catalog.events
      .filter((e) => !ids || ids.includes(e.id))
      .filter((e) => !slugs || slugs.includes(e.slug))
      .filter((e) => !tagSlug || tagsOf(e).some((t) => t.slug === tagSlug))
      .filter((e) => !tagIds || tagsOf(e).some((t) => tagIds.includes(t.id)))
      .map((e) => eventJson(this.options, e) as Row)
      .filter((e) => active === undefined || e.active === active)
      .filter((e) => closed === undefined || e.closed === closed)
      .filter((e) => archived === undefined || e.archived === archived);
  }

  /** The markets a list's filters select (both lists share them), in catalog order. */
  private markets(q: Query): Row[] {
    const ids = q.values('id');
    const slugs = q.values('slug');
    const conditionIds = q.values('condition_ids')?.map((c) => c.toLowerCase());
    const tokenIds = q.repeated('clob_token_ids');
    const closed = q.bool('closed');
    const active = q.bool('active');
    const tagIds = q.values('tag_id');
    return this.allMarkets()
      .filter(({ market }) => !ids || ids.includes(market.id))
      .filter(({ market }) => !slugs || slugs.includes(market.slug))
      .filter(({ market }) => !conditionIds || conditionIds.includes(market.conditionId.toLowerCase()))
      .filter(({ market }) => !tokenIds || market.tokens.some((t) => tokenIds.includes(t.tokenId)))
      .filter(({ market }) => closed === undefined || market.closed === closed)
      .filter(({ market }) => active === undefined || market.active === active)
      .filter(({ event }) => !tagIds || tagsOf(event).some((t) => tagIds.includes(t.id)))
      .map((found) => this.marketJson(found) as Row);
  }

  private publicSearch(q: Query) {
    const text = q.required('q');
    const pageNumber = q.int('page', 1, 1, 10_000)!;
    const perType = q.int('limit_per_type', 10, 0, 100)!;
    const status = q.string('events_status');
    if (status !== undefined && !['active', 'closed', 'all'].includes(status))
      throw new HttpError(400, 'events_status must be active, closed or all');
    const matches = this.search
      .search(text, Number.MAX_SAFE_INTEGER)
      .map((m) => m.item)
      .filter(
        (e) => status === undefined || status === 'all' || (status === 'closed') === e.markets.every((m) => m.closed),
      );
    const events = matches
      .slice((pageNumber - 1) * perType, pageNumber * perType)
      .map((e) => eventJson(this.options, e));
    const needle = text.toLowerCase();
    const tags =
      q.bool('search_tags') === false
        ? []
        : SANDBOX_TAGS.filter((t) => t.label.toLowerCase().includes(needle) || t.slug.includes(needle))
            .slice(0, perType)
            .map((t) => ({
              id: t.id,
              label: t.label,
              slug: t.slug,
              eventCount: this.options.catalog.events.filter((e) => e.tags?.includes(t.slug)).length,
            }));
    const profiles = q.bool('search_profiles') === false ? [] : this.profiles(needle).slice(0, perType);
    return {
      events,
      tags,
      profiles,
      pagination: { hasMore: pageNumber * perType < matches.length, totalResults: matches.length },
    };
  }

  /** Search's profile rows: wallets whose name or pseudonym holds the text. */
  private profiles(needle: string) {
    const { wallets, createdAt } = this.options;
    return wallets
      .wallets()
      .map((address) => ({ address, who: wallets.identity(address) }))
      .filter(({ who }) => who.name.toLowerCase().includes(needle) || who.pseudonym.toLowerCase().includes(needle))
      .map(({ address, who }) => ({
        id: address.toLowerCase(),
        name: who.name || who.pseudonym,
        pseudonym: who.pseudonym,
        displayUsernamePublic: who.name !== '',
        bio: who.bio,
        profileImage: who.profileImage,
        proxyWallet: address,
        isCloseOnly: false,
        isCertReq: false,
        walletActivated: true,
        createdAt,
        updatedAt: createdAt,
      }));
  }

  private comments(q: Query) {
    const type = q.required('parent_entity_type');
    if (!(PARENT_TYPES as readonly string[]).includes(type))
      throw new HttpError(400, `parent_entity_type must be one of ${PARENT_TYPES.join(', ')}`);
    const parent = q.required('parent_entity_id');
    if (!/^\d+$/.test(parent)) throw new HttpError(400, 'parent_entity_id must be an integer');
    // Only events carry comments in the sandbox; a series or market has none (an empty list, as Gamma answers).
    const event = type === 'Event' ? this.options.catalog.events.find((e) => e.id === parent) : undefined;
    const rows = (event ? commentsJson(this.options, event) : []) as Row[];
    const order = q.list('order') ?? ['createdAt'];
    // Newest first unless asked otherwise.
    const sorted = sortRows(rows, q, order, q.bool('ascending') ?? false);
    return page(sorted, q, { maxOffset: COMMENTS_MAX_OFFSET });
  }

  /** Every comment of the catalog, in Gamma's shape. */
  private allComments(): Row[] {
    return this.options.catalog.events.flatMap((e) => commentsJson(this.options, e) as Row[]);
  }

  /** `/comments/{id}`: the comment and its replies (the sandbox's comments have none); 404 when unknown. */
  private commentThread(id: string): Row[] {
    if (!/^\d+$/.test(id)) throw new HttpError(400, 'comment id must be an integer');
    const comment = this.allComments().find((c) => c.id === id);
    if (!comment) throw new HttpError(404, NOT_FOUND);
    return [comment];
  }

  /** `/comments/user_address/{address}`: what one wallet wrote, newest first unless asked otherwise. */
  private commentsBy(address: string, q: Query): Row[] {
    if (!/^0x[0-9a-fA-F]{40}$/.test(address))
      throw new HttpError(400, 'address must be a 0x-prefixed 40-hex-digit address');
    const rows = this.allComments().filter((c) => String(c.userAddress).toLowerCase() === address.toLowerCase());
    return page(sortRows(rows, q, q.list('order') ?? ['createdAt'], q.bool('ascending') ?? false), q);
  }
}

/**
 * Gamma's limit/offset paging of a plain array. Past `maxOffset` Gamma refuses with a validation error (422),
 * naming the keyset list to page deeper with where there is one.
 */
function page<T>(rows: T[], q: Query, { maxOffset, deeper }: { maxOffset?: number; deeper?: string } = {}): T[] {
  const limit = q.int('limit', undefined, 0, MAX_LIMIT);
  const offset = q.int('offset', 0, 0, Number.MAX_SAFE_INTEGER)!;
  if (maxOffset !== undefined && offset > maxOffset)
    throw new HttpError(422, `offset must be at most ${maxOffset}${deeper ? `; page deeper with ${deeper}` : ''}`);
  return rows.slice(offset, limit === undefined ? undefined : offset + limit);
}

/**
 * Sorts by `order` (a comma list of the rows' own field names; Gamma's default is by id) and `ascending`
 * (false unless given, so `order=volume24hr` lists the busiest first). An unknown field is a 400.
 */
function sortRows<T extends Row>(
  rows: T[],
  q: Query,
  order = q.list('order'),
  ascending = q.bool('ascending') ?? false,
): T[] {
  if (!order?.length) return ascending === false && q.has('ascending') ? [...rows].reverse() : rows;
  for (const field of order) {
    if (rows.length && !rows.every((r) => typeof r[field] === 'number' || typeof r[field] === 'string'))
      throw new HttpError(400, `order: unknown or unsortable field '${field}'`);
  }
  const value = (row: T, field: string) => {
    const v = row[field];
    return field === 'id' ? Number(v) : v;
  };
  const direction = ascending ? 1 : -1;
  return [...rows].sort((a, b) => {
    for (const field of order) {
      const x = value(a, field);
      const y = value(b, field);
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      if (c !== 0) return c * direction;
    }
    return 0;
  });
}
