// Tiles and workspaces as plain data, and every change the trader can make to them (open, close, move, resize,
// focus; new, rename, duplicate, delete a workspace): pure functions, so the rules are tested on their own and
// the store only keeps the result.
import {
  normalShares,
  TILE_SHARE_MIN,
  TILES_MAX,
  WORKSPACE_NAME_MAX,
  WORKSPACES_MAX,
  type SavedTile,
  type SavedWorkspace,
} from '../../../shared/workspaces';

export interface TileMarket {
  protocol: 'polymarket' | 'limitless' | 'truemarket';
  marketId: string;
  eventId?: string;
}

/** The event an event-board tile shows, every market of it as one row. */
export interface TileBoard {
  protocol: TileMarket['protocol'];
  eventId: string;
}

export interface Tile {
  /** This session's name for the tile (not saved: a restored tile gets a new one). */
  id: string;
  /**
   * An event board: the event whose every market the tile shows; `market` and `tokenId` are then the outcome last
   * picked on the board (what the ticket trades while the tile is focused). Null: a market tile.
   */
  board?: TileBoard | null;
  market: TileMarket | null;
  /** The outcome the tile's ladder, tape and chart show. */
  tokenId: string | null;
  /** Its share of the row's width; a workspace's add up to 1. */
  width: number;
}

export interface Workspace {
  name: string;
  tiles: Tile[];
  /** The id of the tile the ticket follows. */
  focused: string;
}

let lastTileId = 0;
/** A tile id no other tile of this session has. */
export const newTileId = () => `tile-${++lastTileId}`;

const withShares = (tiles: Tile[]): Tile[] => {
  const shares = normalShares(tiles.map((t) => t.width));
  return tiles.map((t, i) => ({ ...t, width: shares[i]! }));
};

export function emptyWorkspace(
  name: string,
  market: TileMarket | null = null,
  tokenId: string | null = null,
): Workspace {
  const id = newTileId();
  return { name, tiles: [{ id, market, tokenId, width: 1 }], focused: id };
}

export function focusedTile(ws: Workspace): Tile {
  return ws.tiles.find((t) => t.id === ws.focused) ?? ws.tiles[0]!;
}

/** A new tile right of the focused one, focused, sharing the row evenly; none past TILES_MAX. */
export function addTile(ws: Workspace, market: TileMarket | null = null, tokenId: string | null = null): Workspace {
  if (ws.tiles.length >= TILES_MAX) return ws;
  const at = ws.tiles.findIndex((t) => t.id === ws.focused) + 1;
  const tile: Tile = { id: newTileId(), market, tokenId, width: 1 / (ws.tiles.length + 1) };
  const scaled = ws.tiles.map((t) => ({ ...t, width: t.width * (ws.tiles.length / (ws.tiles.length + 1)) }));
  const tiles = [...scaled.slice(0, at), tile, ...scaled.slice(at)];
  return { ...ws, tiles: withShares(tiles), focused: tile.id };
}

/**
 * An event board right of the focused tile, focused; with the row full, the focused tile becomes the board. One
 * already showing the event is focused instead of opening a second.
 */
export function addBoardTile(ws: Workspace, board: TileBoard): Workspace {
  const open = ws.tiles.find((t) => t.board && sameBoard(t.board, board));
  if (open) return open.id === ws.focused ? ws : { ...ws, focused: open.id };
  if (ws.tiles.length >= TILES_MAX)
    return {
      ...ws,
      tiles: ws.tiles.map((t) => (t.id === ws.focused ? { ...t, board, market: null, tokenId: null } : t)),
    };
  const added = addTile(ws);
  return { ...added, tiles: added.tiles.map((t) => (t.id === added.focused ? { ...t, board } : t)) };
}

export function sameBoard(a: TileBoard, b: TileBoard): boolean {
  return a.protocol === b.protocol && a.eventId === b.eventId;
}

/** Closes a tile; its width goes to its neighbours. The last tile stays (it would leave no market view). */
export function closeTile(ws: Workspace, id: string): Workspace {
  const at = ws.tiles.findIndex((t) => t.id === id);
  if (at < 0 || ws.tiles.length <= 1) return ws;
  const tiles = ws.tiles.filter((t) => t.id !== id);
  const focused = ws.focused === id ? tiles[Math.min(at, tiles.length - 1)]!.id : ws.focused;
  return { ...ws, tiles: withShares(tiles), focused };
}

/** Moves a tile to another place in the row (its width goes with it). */
export function moveTile(ws: Workspace, id: string, to: number): Workspace {
  const from = ws.tiles.findIndex((t) => t.id === id);
  const target = Math.min(Math.max(to, 0), ws.tiles.length - 1);
  if (from < 0 || from === target) return ws;
  const tiles = [...ws.tiles];
  const [tile] = tiles.splice(from, 1);
  tiles.splice(target, 0, tile!);
  return { ...ws, tiles };
}

/**
 * The splitter right of tile `index` moved: that tile takes `share` of the row, its right neighbour the rest
 * of what the two had; each keeps TILE_SHARE_MIN.
 */
export function resizeTile(ws: Workspace, index: number, share: number): Workspace {
  const left = ws.tiles[index];
  const right = ws.tiles[index + 1];
  if (!left || !right || !Number.isFinite(share)) return ws;
  const pair = left.width + right.width;
  const width = Math.min(Math.max(share, TILE_SHARE_MIN), pair - TILE_SHARE_MIN);
  const tiles = ws.tiles.map((t, i) =>
    i === index ? { ...t, width } : i === index + 1 ? { ...t, width: pair - width } : t,
  );
  return { ...ws, tiles };
}

/** Every tile the same width again (a double-click on a splitter). */
export function evenTiles(ws: Workspace): Workspace {
  return { ...ws, tiles: ws.tiles.map((t) => ({ ...t, width: 1 / ws.tiles.length })) };
}

/** The focus on the next (+1) or previous (-1) tile, round the row. */
export function stepFocus(ws: Workspace, step: 1 | -1): Workspace {
  const at = Math.max(
    0,
    ws.tiles.findIndex((t) => t.id === ws.focused),
  );
  const next = ws.tiles[(at + step + ws.tiles.length) % ws.tiles.length]!;
  return next.id === ws.focused ? ws : { ...ws, focused: next.id };
}

/**
 * Sets the market (and outcome) a tile shows; unchanged when it already does. On an event board, a market of its
 * event is the outcome picked on it (the board stays); any other market turns the tile back into a market tile.
 */
export function setTileMarket(ws: Workspace, id: string, market: TileMarket | null, tokenId: string | null): Workspace {
  const tile = ws.tiles.find((t) => t.id === id);
  if (!tile || (sameMarket(tile.market, market) && tile.tokenId === tokenId)) return ws;
  // The same market keeps its object, so what depends on it (the chart's history) is not read again.
  const kept = sameMarket(tile.market, market) ? tile.market : market;
  const board =
    tile.board && market && market.protocol === tile.board.protocol && market.eventId === tile.board.eventId
      ? tile.board
      : null;
  return {
    ...ws,
    tiles: ws.tiles.map((t) => (t.id === id ? { ...t, market: kept, tokenId, ...(t.board ? { board } : {}) } : t)),
  };
}

export function sameMarket(a: TileMarket | null, b: TileMarket | null): boolean {
  if (!a || !b) return a === b;
  return a.protocol === b.protocol && a.marketId === b.marketId && a.eventId === b.eventId;
}

// --- Workspaces -------------------------------------------------------------------------------------------

/**
 * A name none of `taken` has, in any case: "Workspace 3" for the third (the next number free), or for a copy
 * "Main (2)".
 */
export function freeName(taken: readonly string[], copyOf?: string): string {
  const used = new Set(taken.map((n) => n.toLowerCase()));
  for (let n = copyOf ? 2 : taken.length + 1; ; n += 1) {
    const name = copyOf ? `${copyOf.slice(0, WORKSPACE_NAME_MAX - 5)} (${n})` : `Workspace ${n}`;
    if (!used.has(name.toLowerCase())) return name;
  }
}

export interface Workspaces {
  list: Workspace[];
  active: number;
}

/** A new workspace with one empty tile, shown; none past WORKSPACES_MAX. */
export function addWorkspace(ws: Workspaces): Workspaces {
  if (ws.list.length >= WORKSPACES_MAX) return ws;
  const list = [...ws.list, emptyWorkspace(freeName(ws.list.map((w) => w.name)))];
  return { list, active: list.length - 1 };
}

/** A copy of the shown workspace (its tiles, markets and widths), shown next to it. */
export function duplicateWorkspace(ws: Workspaces): Workspaces {
  const source = ws.list[ws.active];
  if (!source || ws.list.length >= WORKSPACES_MAX) return ws;
  const ids = new Map(source.tiles.map((t) => [t.id, newTileId()]));
  const copy: Workspace = {
    name: freeName(
      ws.list.map((w) => w.name),
      source.name,
    ),
    tiles: source.tiles.map((t) => ({ ...t, id: ids.get(t.id)! })),
    focused: ids.get(source.focused) ?? ids.get(source.tiles[0]!.id)!,
  };
  const list = [...ws.list.slice(0, ws.active + 1), copy, ...ws.list.slice(ws.active + 1)];
  return { list, active: ws.active + 1 };
}

/** Why a name cannot be a workspace's, or null when it can. */
export function nameProblem(ws: Workspaces, index: number, name: string): string | null {
  const trimmed = name.trim();
  if (!trimmed) return 'A workspace needs a name.';
  if (trimmed.length > WORKSPACE_NAME_MAX) return `A name has at most ${WORKSPACE_NAME_MAX} characters.`;
  if (ws.list.some((w, i) => i !== index && w.name.toLowerCase() === trimmed.toLowerCase()))
    return `There is already a workspace called ${trimmed}.`;
  return null;
}

export function renameWorkspace(ws: Workspaces, index: number, name: string): Workspaces {
  if (nameProblem(ws, index, name) !== null || !ws.list[index]) return ws;
  return { ...ws, list: ws.list.map((w, i) => (i === index ? { ...w, name: name.trim() } : w)) };
}

/** Deletes a workspace; the last one stays. The one left of it is shown when it was. */
export function deleteWorkspace(ws: Workspaces, index: number): Workspaces {
  if (ws.list.length <= 1 || !ws.list[index]) return ws;
  const list = ws.list.filter((_, i) => i !== index);
  const active =
    index < ws.active || (index === ws.active && index > 0) ? ws.active - 1 : Math.min(ws.active, list.length - 1);
  return { list, active };
}

// --- Saving -----------------------------------------------------------------------------------------------

export function toSaved(ws: Workspace): SavedWorkspace {
  return {
    name: ws.name,
    tiles: ws.tiles.map((t): SavedTile => {
      const tile: SavedTile = { width: Math.round(t.width * 10_000) / 10_000 };
      if (t.board) {
        tile.kind = 'event';
        tile.protocol = t.board.protocol;
        tile.eventId = t.board.eventId;
        if (t.market && t.market.protocol === t.board.protocol) {
          tile.marketId = t.market.marketId;
          if (t.tokenId) tile.tokenId = t.tokenId;
        }
      } else if (t.market) {
        tile.protocol = t.market.protocol;
        tile.marketId = t.market.marketId;
        if (t.market.eventId) tile.eventId = t.market.eventId;
        if (t.tokenId) tile.tokenId = t.tokenId;
      }
      return tile;
    }),
    focused: Math.max(
      0,
      ws.tiles.findIndex((t) => t.id === ws.focused),
    ),
  };
}

/** A saved workspace (already cleaned by main) brought back, with new tile ids. */
export function fromSaved(saved: SavedWorkspace): Workspace {
  const tiles = saved.tiles.map((t): Tile => {
    if (t.kind === 'event' && t.protocol && t.eventId) {
      const board = { protocol: t.protocol, eventId: t.eventId };
      const market = t.marketId ? { protocol: t.protocol, marketId: t.marketId, eventId: t.eventId } : null;
      return { id: newTileId(), board, market, tokenId: market ? (t.tokenId ?? null) : null, width: t.width };
    }
    return marketTileOf(t);
  });
  return { name: saved.name, tiles: withShares(tiles), focused: (tiles[saved.focused] ?? tiles[0]!).id };
}

function marketTileOf(t: SavedTile): Tile {
  return {
    id: newTileId(),
    market:
      t.protocol && t.marketId
        ? { protocol: t.protocol, marketId: t.marketId, ...(t.eventId ? { eventId: t.eventId } : {}) }
        : null,
    tokenId: t.tokenId ?? null,
    width: t.width,
  };
}
