// The trader's saved workspaces (several markets side by side, each in a tile, and how wide each tile is), as
// kept in the settings per network (a market id belongs to one network): their bounds, the schema saveSettings
// checks, and the cleaning a read file goes through so a bad workspace (hand-edited, from a newer version) is
// dropped on its own instead of breaking the start.
import { z } from 'zod';

export const WORKSPACES_MAX = 20;
export const TILES_MAX = 8;
export const WORKSPACE_NAME_MAX = 40;
/** Networks whose workspaces are kept (the built-in ones and the trader's own: far more than anyone adds). */
export const WORKSPACE_NETWORKS_MAX = 50;
/** The least share of the tile row a tile keeps (of 1). */
export const TILE_SHARE_MIN = 0.05;

/**
 * One tile: the market it shows (none: an empty tile), the outcome chosen in it, its share of the row's width. An
 * event board (`kind: 'event'`) shows every market of `eventId`; its marketId and tokenId are the outcome last
 * picked on it (what the ticket trades). A tile saved before boards existed has no kind: a market tile.
 */
export interface SavedTile {
  kind?: 'market' | 'event';
  protocol?: 'polymarket' | 'limitless' | 'truemarket';
  marketId?: string;
  eventId?: string;
  tokenId?: string;
  /** Its share of the tile row's width; the shares of a workspace add up to 1 once read. */
  width: number;
}

export interface SavedWorkspace {
  name: string;
  tiles: SavedTile[];
  /** The index of the tile the ticket follows. */
  focused: number;
}

const id = z.string().min(1).max(200);

export const SavedTileSchema = z.strictObject({
  kind: z.enum(['market', 'event']).optional(),
  protocol: z.enum(['polymarket', 'limitless', 'truemarket']).optional(),
  marketId: id.optional(),
  eventId: id.optional(),
  tokenId: id.optional(),
  width: z.number().finite().min(0).max(1),
});

export const SavedWorkspaceSchema = z.strictObject({
  name: z.string().trim().min(1).max(WORKSPACE_NAME_MAX),
  tiles: z.array(SavedTileSchema).min(1).max(TILES_MAX),
  focused: z
    .number()
    .int()
    .min(0)
    .max(TILES_MAX - 1),
});

export const SavedWorkspacesSchema = z.array(SavedWorkspaceSchema).max(WORKSPACES_MAX);

/** One network's workspaces and the index of the one shown. */
export interface NetworkWorkspaces {
  list: SavedWorkspace[];
  active: number;
}

export const NetworkWorkspacesSchema = z
  .strictObject({
    list: SavedWorkspacesSchema.min(1),
    active: z
      .number()
      .int()
      .min(0)
      .max(WORKSPACES_MAX - 1),
  })
  .refine((w) => w.active < w.list.length, { message: 'the active workspace is one of the list', path: ['active'] });

/** Workspaces by network name (a network's name as the network list gives it). */
export const WorkspacesByNetworkSchema = z
  .record(z.string().trim().min(1).max(64), NetworkWorkspacesSchema)
  .refine((byNetwork) => Object.keys(byNetwork).length <= WORKSPACE_NETWORKS_MAX, {
    message: `at most ${WORKSPACE_NETWORKS_MAX} networks`,
  });

/** Shares made to add up to 1, none under the minimum (a row of zeros shares evenly). */
export function normalShares(widths: readonly number[]): number[] {
  if (widths.length === 0) return [];
  const floor = Math.min(TILE_SHARE_MIN, 1 / widths.length);
  const raised = widths.map((w) => (Number.isFinite(w) && w > 0 ? Math.max(w, floor) : floor));
  const total = raised.reduce((a, b) => a + b, 0);
  return raised.map((w) => w / total);
}

/**
 * A tile read back: a market id needs its protocol, a token or event needs its market; an event board needs its
 * protocol and event (without them it is an empty tile), its picked outcome its market.
 */
function cleanTile(value: unknown): SavedTile | null {
  const parsed = SavedTileSchema.safeParse(value);
  if (!parsed.success) return null;
  const tile = parsed.data;
  if (tile.kind === 'event') {
    if (!tile.protocol || !tile.eventId) return { width: tile.width };
    const board: SavedTile = { kind: 'event', protocol: tile.protocol, eventId: tile.eventId, width: tile.width };
    return tile.marketId
      ? { ...board, marketId: tile.marketId, ...(tile.tokenId ? { tokenId: tile.tokenId } : {}) }
      : board;
  }
  if (!tile.marketId || !tile.protocol) return { width: tile.width };
  return tile;
}

/**
 * The saved workspaces, cleaned: a workspace that does not parse is dropped, a bad tile within one is dropped,
 * names are made distinct, widths add up to 1, the focused index stays on a tile; at most WORKSPACES_MAX.
 */
export function cleanWorkspaces(value: unknown): SavedWorkspace[] {
  if (!Array.isArray(value)) return [];
  const out: SavedWorkspace[] = [];
  const names = new Set<string>();
  for (const item of value) {
    if (out.length >= WORKSPACES_MAX) break;
    if (typeof item !== 'object' || item === null) continue;
    const { name, tiles, focused } = item as Record<string, unknown>;
    if (typeof name !== 'string' || !Array.isArray(tiles)) continue;
    const trimmed = name.trim().slice(0, WORKSPACE_NAME_MAX);
    if (!trimmed || names.has(trimmed.toLowerCase())) continue;
    const kept = tiles
      .slice(0, TILES_MAX)
      .map(cleanTile)
      .filter((t): t is SavedTile => t !== null);
    if (kept.length === 0) continue;
    const shares = normalShares(kept.map((t) => t.width));
    const at = typeof focused === 'number' && Number.isInteger(focused) ? focused : 0;
    names.add(trimmed.toLowerCase());
    out.push({
      name: trimmed,
      tiles: kept.map((t, i) => ({ ...t, width: shares[i]! })),
      focused: Math.min(Math.max(at, 0), kept.length - 1),
    });
  }
  return out;
}

/** The active workspace's index read back: on one of the workspaces, else the first. */
export function cleanActiveWorkspace(value: unknown, count: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < count ? value : 0;
}

/**
 * The workspaces of each network read back, cleaned: a network name that is not one (empty, too long, padded) or
 * an entry that does not parse is dropped, each network's list is cleaned as above (an empty one is dropped: that
 * network starts as new), its active index kept on a workspace; at most WORKSPACE_NETWORKS_MAX networks.
 */
export function cleanNetworkWorkspaces(value: unknown): Record<string, NetworkWorkspaces> {
  const out: Record<string, NetworkWorkspaces> = {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return out;
  for (const [network, entry] of Object.entries(value)) {
    if (Object.keys(out).length >= WORKSPACE_NETWORKS_MAX) break;
    if (!network || network.length > 64 || network.trim() !== network) continue;
    if (typeof entry !== 'object' || entry === null) continue;
    const { list, active } = entry as Record<string, unknown>;
    const kept = cleanWorkspaces(list);
    if (kept.length > 0) out[network] = { list: kept, active: cleanActiveWorkspace(active, kept.length) };
  }
  return out;
}

/**
 * A settings file from before workspaces were kept per network (`workspaces` a list, `activeWorkspace` beside
 * it) in today's shape: its workspaces are the network's the terminal started on, the one they were shown on.
 * Anything else is answered as it is.
 */
export function workspacesOfOldFile(
  file: Record<string, unknown>,
  network: string | undefined,
): Record<string, unknown> {
  if (!Array.isArray(file.workspaces)) return file;
  const { workspaces, activeWorkspace, ...rest } = file;
  return { ...rest, workspaces: network ? { [network]: { list: workspaces, active: activeWorkspace } } : {} };
}
