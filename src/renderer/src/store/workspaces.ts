// The trader's workspaces and the tiles of the one shown. The focused tile and the selection are kept one: a
// market chosen in the grid (or by a link) goes into the focused tile, and focusing another tile makes its
// market the selection, so the ticket, the account panel and the prices follow the focused tile. Restored
// from the settings once they are read, saved (debounced) whenever they change. They are the network's in use (a
// market id belongs to one network): a switch keeps the old network's and shows the new one's, or a fresh one.
import { create } from 'zustand';
import {
  addBoardTile,
  addTile,
  addWorkspace,
  closeTile,
  deleteWorkspace,
  duplicateWorkspace,
  emptyWorkspace,
  evenTiles,
  focusedTile,
  fromSaved,
  moveTile,
  renameWorkspace,
  resizeTile,
  sameMarket,
  setTileMarket,
  stepFocus,
  toSaved,
  type Tile,
  type TileBoard,
  type TileMarket,
  type Workspace,
  type Workspaces,
} from '../model/tile-layout';
import { useSelection } from './selection';
import { useSession } from './session';

export interface WorkspacesState extends Workspaces {
  /** True once the saved workspaces were read: before that nothing is saved (it would overwrite them). */
  restored: boolean;
  /** The network these workspaces are of (by name), once restored; they are saved under it. */
  network: string | null;
}

const selected = () => {
  const { market, tokenId } = useSelection.getState();
  return { market: market ? { ...market } : null, tokenId };
};

export const useWorkspaces = create<WorkspacesState>()(() => {
  const { market, tokenId } = selected();
  return { list: [emptyWorkspace('Workspace 1', market, tokenId)], active: 0, restored: false, network: null };
});

export const activeWorkspace = (s: Workspaces = useWorkspaces.getState()): Workspace => s.list[s.active] ?? s.list[0]!;
export const focusedTileId = (s: Workspaces = useWorkspaces.getState()): string => focusedTile(activeWorkspace(s)).id;
export const tileOf = (id: string, s: Workspaces = useWorkspaces.getState()): Tile | undefined =>
  activeWorkspace(s).tiles.find((t) => t.id === id);

/** The selection becomes the focused tile's market and outcome. */
function selectFocused(): void {
  const tile = focusedTile(activeWorkspace());
  const { market, tokenId } = useSelection.getState();
  if (sameMarket(tile.market, market) && tokenId === tile.tokenId) return;
  useSelection.setState({ market: tile.market ? { ...tile.market } : null, tokenId: tile.tokenId });
}

function changeActive(change: (ws: Workspace) => Workspace): void {
  useWorkspaces.setState((s) => {
    const before = activeWorkspace(s);
    const after = change(before);
    return after === before ? s : { list: s.list.map((w, i) => (i === s.active ? after : w)) };
  });
}

function changeAll(change: (ws: Workspaces) => Workspaces): void {
  useWorkspaces.setState((s) => {
    const next = change(s);
    return next === s ? s : { list: next.list, active: next.active };
  });
  selectFocused();
}

export const focusTile = (id: string) => {
  changeActive((ws) => (ws.focused === id || !ws.tiles.some((t) => t.id === id) ? ws : { ...ws, focused: id }));
  selectFocused();
};
export const stepTileFocus = (step: 1 | -1) => {
  changeActive((ws) => stepFocus(ws, step));
  selectFocused();
};
/** A new empty tile right of the focused one, focused: the next market chosen opens in it. */
export const openTile = () => {
  changeActive((ws) => addTile(ws));
  selectFocused();
};
/**
 * An event's board in a new tile right of the focused one (or the one already showing it), focused; `outcome`:
 * the market it was opened from, picked on it so the ticket keeps trading it.
 */
export const openEventBoard = (board: TileBoard, outcome?: { market: TileMarket; tokenId: string | null }) => {
  changeActive((ws) => {
    const opened = addBoardTile(ws, board);
    return outcome ? setTileMarket(opened, opened.focused, outcome.market, outcome.tokenId) : opened;
  });
  selectFocused();
};
export const closeTileOf = (id: string) => {
  changeActive((ws) => closeTile(ws, id));
  selectFocused();
};
export const moveTileTo = (id: string, to: number) => changeActive((ws) => moveTile(ws, id, to));
export const resizeTileAt = (index: number, share: number) => changeActive((ws) => resizeTile(ws, index, share));
export const evenTileWidths = () => changeActive(evenTiles);

/** The outcome shown in a tile: through the selection when the tile is focused (the ticket follows it). */
export function selectTileToken(id: string, tokenId: string | null): void {
  if (focusedTileId() === id) {
    useSelection.getState().selectToken(tokenId);
    return;
  }
  changeActive((ws) => {
    const tile = ws.tiles.find((t) => t.id === id);
    return tile ? setTileMarket(ws, id, tile.market, tokenId) : ws;
  });
}

export const switchWorkspace = (index: number) =>
  changeAll((s) => (index === s.active || !s.list[index] ? s : { list: s.list, active: index }));
export const newWorkspace = () => changeAll(addWorkspace);
export const duplicateActiveWorkspace = () => changeAll(duplicateWorkspace);
export const deleteActiveWorkspace = () => changeAll((s) => deleteWorkspace(s, s.active));
export const renameActiveWorkspace = (name: string) => changeAll((s) => renameWorkspace(s, s.active, name));

// The selection (a market chosen in the grid, a link, an outcome clicked) goes into the focused tile.
useSelection.subscribe((s, before) => {
  if (s.market === before.market && s.tokenId === before.tokenId) return;
  const market = s.market ? { ...s.market } : null;
  changeActive((ws) => setTileMarket(ws, ws.focused, market, s.tokenId));
});

const SAVE_AFTER_MS = 400;
let saveTimer: ReturnType<typeof setTimeout> | undefined;

/** Saves workspaces under their network now (nothing before they were restored, or with no network). */
function saveNow(s: WorkspacesState = useWorkspaces.getState()): void {
  clearTimeout(saveTimer);
  saveTimer = undefined;
  if (!s.restored || !s.network) return;
  void useSession
    .getState()
    .saveSettings({ workspaces: { [s.network]: { list: s.list.map(toSaved), active: s.active } } });
}

/** Saves the workspaces a moment after the last change (a splitter drag is one save, not a hundred). */
function saveSoon(): void {
  clearTimeout(saveTimer);
  saveTimer = setTimeout(() => saveNow(), SAVE_AFTER_MS);
}

/** The network's saved workspaces as tiles, or none when it has none kept. */
function savedOf(network: string | null): Workspaces | null {
  const kept = network ? useSession.getState().settings.workspaces[network] : undefined;
  if (!kept || kept.list.length === 0) return null;
  const list = kept.list.map(fromSaved);
  return { list, active: Math.min(Math.max(kept.active, 0), list.length - 1) };
}

/**
 * Brings the network's saved workspaces back (none saved: the one there is stays). A market a link opened at start
 * goes into the restored workspace's focused tile: the link is what the trader asked for last.
 */
export function restoreWorkspaces(): void {
  const network = useSession.getState().network?.name ?? null;
  const saved = savedOf(network);
  if (saved) {
    const linked = selected();
    useWorkspaces.setState({ ...saved, restored: true, network });
    if (linked.market) changeActive((ws) => setTileMarket(ws, ws.focused, linked.market, linked.tokenId));
    selectFocused();
  } else {
    useWorkspaces.setState({ restored: true, network });
  }
}

/**
 * Another network is in use: the workspaces shown are saved under the one they were of (now, before anything of
 * the new network's can change them), and the new network's are shown — or one empty workspace if it has none —
 * with the selection on its focused tile, so no tile asks the new network for the old one's market ids.
 */
export function showNetworkWorkspaces(network: string): void {
  const old = useWorkspaces.getState();
  if (old.network === network) return;
  const saved = savedOf(network) ?? { list: [emptyWorkspace('Workspace 1')], active: 0 };
  // The new network's first: saving the old one changes the session's settings, which this is listening to.
  useWorkspaces.setState({ ...saved, restored: true, network });
  if (old.network !== null) saveNow(old);
  selectFocused();
}

/** Restores once the settings are read, then saves every change; returns the function that stops. */
export function startWorkspaces(): () => void {
  const stops: (() => void)[] = [];
  const begin = () => {
    if (useWorkspaces.getState().restored) return;
    restoreWorkspaces();
    stops.push(
      useWorkspaces.subscribe((s, before) => {
        // A network switch saved the old network's already; the new network's are saved on their first change.
        if (s.network === before.network && (s.list !== before.list || s.active !== before.active)) saveSoon();
      }),
      useSession.subscribe((s) => {
        const name = s.network?.name;
        if (name && name !== useWorkspaces.getState().network) showNetworkWorkspaces(name);
      }),
    );
  };
  if (useSession.getState().settingsLoaded) begin();
  else stops.push(useSession.subscribe((s) => s.settingsLoaded && begin()));
  return () => {
    for (const stop of stops) stop();
    clearTimeout(saveTimer);
  };
}
