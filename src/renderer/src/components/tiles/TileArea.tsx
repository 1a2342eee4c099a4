// The market column as tiles: the workspace bar over a row of tiles, each one market's view (header, chart,
// ladder, tape). Clicking a tile focuses it (the ticket follows the focused tile); a tile's grip drags it to
// another place (or, focused, moves it with the arrow keys), the splitters between tiles resize them, × closes one.
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { registerShortcut } from '../../keys/keyboard';
import { watchMarketLinks } from '../../store/market';
import {
  activeWorkspace,
  closeTileOf,
  evenTileWidths,
  focusTile,
  focusedTileId,
  openEventBoard,
  tileOf,
  moveTileTo,
  resizeTileAt,
  startWorkspaces,
  stepTileFocus,
  switchWorkspace,
  useWorkspaces,
} from '../../store/workspaces';
import { TILE_SHARE_MIN } from '../../../../shared/workspaces';
import { MarketView } from '../market/MarketView';
import { EventBoardView } from '../board/EventBoard';
import { Splitter } from '../shell/Splitter';
import { WorkspaceBar } from './WorkspaceBar';
import type { Tile } from '../../model/tile-layout';
import './tiles.css';

const SPLITTER_PX = 6;
/**
 * The narrowest useful tile: its ladder's narrow layout (price, size, depth bar) is made for this width. More tiles
 * than the row holds at this width scroll the row sideways instead of shrinking to nothing.
 */
export const TILE_MIN_PX = 176;
/** Alt+1 … Alt+9 show workspaces 1 to 9. */
const WORKSPACE_KEYS = 9;

export function TileArea() {
  const ws = useWorkspaces((s) => activeWorkspace(s));
  const row = useRef<HTMLDivElement>(null);
  const [rowWidth, setRowWidth] = useState(0);

  useEffect(() => startWorkspaces(), []);
  useEffect(() => watchMarketLinks(), []);
  useEffect(() => {
    const stops = [
      registerShortcut({
        key: 'Alt+ArrowRight',
        description: 'Focus the next tile (the ticket follows it)',
        run: () => stepTileFocus(1),
      }),
      registerShortcut({ key: 'Alt+ArrowLeft', description: 'Focus the previous tile', run: () => stepTileFocus(-1) }),
      registerShortcut({
        key: 'e',
        description: "Open the event board of the focused tile's market",
        run: openBoardOfFocused,
      }),
      ...Array.from({ length: WORKSPACE_KEYS }, (_, i) =>
        registerShortcut({
          key: `Alt+${i + 1}`,
          description: `Show workspace ${i + 1}`,
          run: () => switchWorkspace(i),
        }),
      ),
    ];
    return () => stops.forEach((stop) => stop());
  }, []);
  useLayoutEffect(() => {
    const el = row.current;
    if (!el) return;
    const measure = () => setRowWidth(el.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // The width the tiles share, splitters aside.
  const free = Math.max(1, rowWidth - SPLITTER_PX * (ws.tiles.length - 1));
  const column = (t: Tile) => `minmax(${TILE_MIN_PX}px, ${t.width}fr)`;
  const columns = ws.tiles.flatMap((t, i) => (i === 0 ? [column(t)] : [`${SPLITTER_PX}px`, column(t)])).join(' ');
  return (
    <div className="tile-area">
      <WorkspaceBar />
      <div className="tile-row" ref={row} style={{ gridTemplateColumns: columns }} data-testid="tile-row">
        {ws.tiles.flatMap((tile, i) => {
          const view = (
            <TileBox key={tile.id} tile={tile} index={i} count={ws.tiles.length} focused={tile.id === ws.focused} />
          );
          if (i === 0) return [view];
          const left = ws.tiles[i - 1]!;
          const pair = left.width + tile.width;
          return [
            <Splitter
              key={`split-${tile.id}`}
              between="columns"
              size={Math.round(left.width * free)}
              min={Math.round(TILE_SHARE_MIN * free)}
              max={Math.round((pair - TILE_SHARE_MIN) * free)}
              grows={1}
              label={`Width of tile ${i}`}
              testId={`tile-splitter-${i}`}
              onResize={(px) => resizeTileAt(i - 1, px / free)}
              onReset={evenTileWidths}
            />,
            view,
          ];
        })}
      </div>
    </div>
  );
}

/** `e`: the focused tile's market's event as a board (the market picked on it); nothing for a market of no event. */
function openBoardOfFocused(): void {
  const tile = tileOf(focusedTileId());
  const market = tile?.market;
  if (!tile || tile.board || !market?.eventId) return;
  openEventBoard({ protocol: market.protocol, eventId: market.eventId }, { market, tokenId: tile.tokenId });
}

function TileBox({ tile, index, count, focused }: { tile: Tile; index: number; count: number; focused: boolean }) {
  const drag = useRef<{ pointerId: number } | null>(null);
  const [dragging, setDragging] = useState(false);
  const title = tile.board
    ? `Tile ${index + 1} (event board)`
    : tile.market
      ? `Tile ${index + 1}`
      : `Tile ${index + 1} (empty)`;

  // The grip: dragged with the pointer, dropped on the tile it should take the place of.
  const onPointerDown = (event: PointerEvent<HTMLButtonElement>) => {
    if (event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { pointerId: event.pointerId };
    setDragging(true);
  };
  const onPointerUp = (event: PointerEvent<HTMLButtonElement>) => {
    if (!drag.current) return;
    drag.current = null;
    setDragging(false);
    if (event.currentTarget.hasPointerCapture(event.pointerId))
      event.currentTarget.releasePointerCapture(event.pointerId);
    const under = document.elementFromPoint(event.clientX, event.clientY)?.closest<HTMLElement>('[data-tile-index]');
    const to = under ? Number(under.dataset.tileIndex) : NaN;
    if (Number.isInteger(to) && to !== index) moveTileTo(tile.id, to);
  };
  const onGripKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    const to =
      event.key === 'ArrowLeft'
        ? index - 1
        : event.key === 'ArrowRight'
          ? index + 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? count - 1
              : null;
    if (to === null || to < 0 || to >= count) return;
    event.preventDefault();
    event.stopPropagation();
    refocus.current = true;
    moveTileTo(tile.id, to);
  };
  // The grip keeps the keyboard focus as its tile moves (moving a node drops its focus), so the arrows move it on.
  const grip = useRef<HTMLButtonElement>(null);
  const refocus = useRef(false);
  useLayoutEffect(() => {
    if (!refocus.current) return;
    refocus.current = false;
    grip.current?.focus();
  }, [index]);

  return (
    <section
      className={`tile${focused ? ' tile-focused' : ''}${dragging ? ' tile-dragging' : ''}`}
      aria-label={title}
      aria-current={focused ? 'true' : undefined}
      data-testid="tile"
      data-tile-id={tile.id}
      data-tile-index={index}
      data-market-id={tile.market?.marketId ?? ''}
      data-tile-kind={tile.board ? 'event' : 'market'}
      // Capture: a click anywhere in the tile (an outcome, a ladder price) focuses it before the click acts.
      onPointerDownCapture={() => focusTile(tile.id)}
      onFocusCapture={() => focusTile(tile.id)}
    >
      <div className="tile-bar">
        <button
          ref={grip}
          type="button"
          className="tile-grip"
          aria-label={`Move ${title.toLowerCase()}: drag it onto another tile, or use the left and right arrows`}
          title="Drag onto another tile to swap places; or focus and use ← →"
          data-testid="tile-grip"
          onPointerDown={onPointerDown}
          onPointerUp={onPointerUp}
          onPointerCancel={() => {
            drag.current = null;
            setDragging(false);
          }}
          onKeyDown={onGripKey}
        >
          ⠿
        </button>
        <span className="tile-name muted">{focused ? `${title} · ticket` : title}</span>
        <button
          type="button"
          className="tile-close"
          aria-label={`Close ${title.toLowerCase()}`}
          title={count <= 1 ? 'The last tile stays' : 'Close this tile'}
          disabled={count <= 1}
          data-testid="tile-close"
          onClick={() => closeTileOf(tile.id)}
        >
          ×
        </button>
      </div>
      {tile.board ? <EventBoardView tileId={tile.id} board={tile.board} /> : <MarketView tileId={tile.id} />}
    </section>
  );
}
