// Multi-market events in the grid: the list's markets of one event gathered under an event row (its title, the
// event's volume and liquidity, how many markets), kept together under any sort, hidden when the trader folds
// the event, and counted as markets (not rows) in the footer. Pure, so the unit tests check it directly.
import { leadPrice, quickFilterTextOf, type MarketRow } from '../../model/market-rows';

export const eventRowId = (row: Pick<MarketRow, 'protocol' | 'eventId'>): string =>
  `event:${row.protocol}:${row.eventId}`;

function timeOf(iso: string): number | null {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isFinite(t) ? t : null;
}

function eventRow(id: string, children: readonly MarketRow[]): MarketRow {
  const first = children[0]!;
  const facts = first.event!;
  let leader: MarketRow | null = null;
  for (const child of children) {
    const price = leadPrice(child);
    if (price !== null && (leader === null || price > leadPrice(leader)!)) leader = child;
  }
  const endDate = facts.endDate || first.endDate;
  return {
    kind: 'event',
    id,
    protocol: first.protocol,
    eventId: first.eventId,
    eventTitle: facts.title,
    market: facts.title,
    question: facts.title,
    slug: '',
    outcomes: [],
    record: null,
    volume: facts.volume,
    volume24h: facts.volume24h,
    liquidity: facts.liquidity,
    change24h: null,
    endDate,
    endTime: timeOf(endDate),
    spread: null,
    event: facts,
    groupId: id,
    childIds: children.map((c) => c.id),
    leader,
    searchText: children.map(quickFilterTextOf).join(' '),
  };
}

/**
 * The rows with every event of more than one market in the list under its own event row: the event row where
 * its first market was, its markets right after it in list order. A market alone in the list stays a plain row
 * (with its event's title beside it). Rows that do not move keep their identity, so the grid redraws little.
 */
export function groupRows(rows: readonly MarketRow[]): MarketRow[] {
  const members = new Map<string, MarketRow[]>();
  for (const row of rows) {
    if (row.kind !== 'market' || row.eventId === null || (row.event?.marketCount ?? 0) < 2) continue;
    const id = eventRowId(row);
    const list = members.get(id);
    if (list) list.push(row);
    else members.set(id, [row]);
  }
  const out: MarketRow[] = [];
  const placed = new Set<string>();
  for (const row of rows) {
    const id = row.kind === 'market' && row.eventId !== null ? eventRowId(row) : null;
    const group = id ? members.get(id) : undefined;
    if (!id || !group || group.length < 2) {
      out.push(row);
      continue;
    }
    if (placed.has(id)) continue;
    placed.add(id);
    out.push(eventRow(id, group));
    for (const child of group) out.push(child.groupId === id ? child : { ...child, groupId: id });
  }
  return out;
}

/**
 * After the grid sorts: each event's markets moved right under their event row, in the order the sort gave
 * them, so a sort orders events among plain markets and markets within their event. In place (the grid's
 * postSortRows hands its array to change).
 */
export function keepGroupsTogether<N extends { data?: MarketRow }>(nodes: N[]): void {
  const heads = new Set<string>();
  const children = new Map<string, N[]>();
  for (const node of nodes) {
    const row = node.data;
    if (!row) continue;
    if (row.kind === 'event') heads.add(row.id);
    else if (row.groupId) {
      const list = children.get(row.groupId);
      if (list) list.push(node);
      else children.set(row.groupId, [node]);
    }
  }
  if (heads.size === 0) return;
  const out: N[] = [];
  for (const node of nodes) {
    const row = node.data;
    if (row?.kind === 'market' && row.groupId && heads.has(row.groupId)) continue;
    out.push(node);
    if (row?.kind === 'event') out.push(...(children.get(row.id) ?? []));
  }
  nodes.splice(0, nodes.length, ...out);
}

/** Whether a row is drawn: a folded event hides its markets, except while a filter is typed (matches show). */
export function rowVisible(row: MarketRow, folded: ReadonlySet<string>, filtering: boolean): boolean {
  return filtering || row.kind !== 'market' || row.groupId === null || !folded.has(row.groupId);
}

/** How many markets the drawn rows stand for: market rows, and the folded markets under a drawn event row. */
export function marketsShown(drawn: readonly MarketRow[], folded: ReadonlySet<string>, filtering: boolean): number {
  let count = 0;
  for (const row of drawn) {
    if (row.kind === 'market') count += 1;
    else if (!filtering && folded.has(row.id)) count += row.childIds?.length ?? 0;
  }
  return count;
}

/** How many markets the rows hold (event rows are not markets). */
export function marketCount(rows: readonly MarketRow[]): number {
  let count = 0;
  for (const row of rows) if (row.kind === 'market') count += 1;
  return count;
}
