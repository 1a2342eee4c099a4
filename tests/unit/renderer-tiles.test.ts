// Tiles and workspaces as data: opening, closing (never the last), moving, resizing (within bounds, the pair's
// width kept), focus round the row, workspace names made distinct, duplicate, delete, and a workspace saved and
// read back the same. Also the Alt+ keys that switch workspaces and tiles, and how the help prints them.
import { describe, expect, it } from 'vitest';
import {
  addTile,
  addWorkspace,
  closeTile,
  deleteWorkspace,
  duplicateWorkspace,
  emptyWorkspace,
  freeName,
  fromSaved,
  moveTile,
  nameProblem,
  renameWorkspace,
  resizeTile,
  setTileMarket,
  stepFocus,
  toSaved,
  type Workspace,
} from '../../src/renderer/src/model/tile-layout';
import { keyMatches, keyName, type KeyPress } from '../../src/renderer/src/keys/shortcut-help';
import { TILE_SHARE_MIN, TILES_MAX, WORKSPACES_MAX } from '../../src/shared/workspaces';

const fed = { protocol: 'polymarket' as const, marketId: '90011', eventId: '9001' };
const btc = { protocol: 'polymarket' as const, marketId: '90021' };
const widths = (ws: Workspace) => ws.tiles.map((t) => Math.round(t.width * 1000) / 1000);
const sum = (ws: Workspace) => ws.tiles.reduce((a, t) => a + t.width, 0);

describe('tiles', () => {
  it('open right of the focused one, focused, and share the row evenly; no more than the limit', () => {
    let ws = emptyWorkspace('Main', fed, 'yes-token');
    const first = ws.focused;
    ws = addTile(ws, btc);
    expect(ws.tiles.map((t) => t.market?.marketId)).toEqual(['90011', '90021']);
    expect(ws.focused).toBe(ws.tiles[1]!.id);
    expect(widths(ws)).toEqual([0.5, 0.5]);
    ws = { ...ws, focused: first };
    ws = addTile(ws);
    expect(ws.tiles.map((t) => t.market?.marketId ?? null)).toEqual(['90011', null, '90021']);
    expect(widths(ws)).toEqual([0.333, 0.333, 0.333]);
    for (let i = 0; i < 20; i += 1) ws = addTile(ws);
    expect(ws.tiles).toHaveLength(TILES_MAX);
    expect(sum(ws)).toBeCloseTo(1, 9);
  });

  it('close: the neighbours take the width, the focus moves to the next tile, the last tile stays', () => {
    let ws = addTile(addTile(emptyWorkspace('Main', fed), btc));
    const [a, b, c] = ws.tiles.map((t) => t.id);
    ws = { ...ws, focused: b! };
    ws = closeTile(ws, b!);
    expect(ws.tiles.map((t) => t.id)).toEqual([a, c]);
    expect(ws.focused).toBe(c);
    expect(widths(ws)).toEqual([0.5, 0.5]);
    ws = closeTile(ws, c!);
    expect(ws.focused).toBe(a);
    expect(closeTile(ws, a!)).toBe(ws);
    expect(closeTile(ws, 'no-such-tile')).toBe(ws);
  });

  it('move to another place with their width; out-of-range places are the ends', () => {
    let ws = addTile(addTile(emptyWorkspace('Main', fed), btc));
    ws = resizeTile(ws, 0, 0.5);
    const ids = ws.tiles.map((t) => t.id);
    ws = moveTile(ws, ids[0]!, 2);
    expect(ws.tiles.map((t) => t.id)).toEqual([ids[1], ids[2], ids[0]]);
    expect(ws.tiles[2]!.width).toBeCloseTo(0.5, 9);
    ws = moveTile(ws, ids[0]!, -5);
    expect(ws.tiles.map((t) => t.id)).toEqual(ids);
    expect(moveTile(ws, ids[0]!, 0)).toBe(ws);
  });

  it('resize two neighbours only, each keeping the minimum', () => {
    let ws = addTile(addTile(emptyWorkspace('Main', fed), btc));
    ws = resizeTile(ws, 0, 0.5);
    expect(widths(ws)).toEqual([0.5, 0.167, 0.333]);
    ws = resizeTile(ws, 1, 0.99);
    expect(ws.tiles[2]!.width).toBeCloseTo(TILE_SHARE_MIN, 9);
    expect(ws.tiles[0]!.width).toBeCloseTo(0.5, 9);
    ws = resizeTile(ws, 0, 0);
    expect(ws.tiles[0]!.width).toBeCloseTo(TILE_SHARE_MIN, 9);
    expect(sum(ws)).toBeCloseTo(1, 9);
    expect(resizeTile(ws, 2, 0.3)).toBe(ws);
    expect(resizeTile(ws, 0, Number.NaN)).toBe(ws);
  });

  it('focus steps round the row both ways', () => {
    let ws = addTile(addTile(emptyWorkspace('Main', fed), btc));
    const ids = ws.tiles.map((t) => t.id);
    ws = { ...ws, focused: ids[2]! };
    expect(stepFocus(ws, 1).focused).toBe(ids[0]);
    expect(stepFocus(ws, -1).focused).toBe(ids[1]);
    const one = emptyWorkspace('One');
    expect(stepFocus(one, 1)).toBe(one);
  });

  it('keep the market object when only the outcome changes (the chart is not read again)', () => {
    const ws = emptyWorkspace('Main', fed, 'yes');
    const tile = ws.tiles[0]!;
    const next = setTileMarket(ws, tile.id, { ...fed }, 'no');
    expect(next.tiles[0]!.tokenId).toBe('no');
    expect(next.tiles[0]!.market).toBe(tile.market);
    expect(setTileMarket(next, tile.id, { ...fed }, 'no')).toBe(next);
    expect(setTileMarket(next, tile.id, btc, null).tiles[0]!.market).toEqual(btc);
  });
});

describe('workspaces', () => {
  it('get free names, in any case', () => {
    expect(freeName([])).toBe('Workspace 1');
    expect(freeName(['Pair'])).toBe('Workspace 2');
    expect(freeName(['Workspace 1', 'workspace 3'])).toBe('Workspace 4');
    expect(freeName(['Main', 'Main (2)'], 'Main')).toBe('Main (3)');
  });

  it('new: one empty tile, shown; no more than the limit', () => {
    let all = { list: [emptyWorkspace('Workspace 1', fed)], active: 0 };
    all = addWorkspace(all);
    expect(all.active).toBe(1);
    expect(all.list[1]!.name).toBe('Workspace 2');
    expect(all.list[1]!.tiles).toHaveLength(1);
    expect(all.list[1]!.tiles[0]!.market).toBeNull();
    for (let i = 0; i < 30; i += 1) all = addWorkspace(all);
    expect(all.list).toHaveLength(WORKSPACES_MAX);
  });

  it('duplicate: the same tiles with new ids, right after it, shown', () => {
    const main = addTile(emptyWorkspace('Main', fed, 'yes'), btc);
    const all = duplicateWorkspace({ list: [main, emptyWorkspace('Other')], active: 0 });
    expect(all.list.map((w) => w.name)).toEqual(['Main', 'Main (2)', 'Other']);
    expect(all.active).toBe(1);
    const copy = all.list[1]!;
    expect(copy.tiles.map((t) => [t.market, t.tokenId, t.width])).toEqual(
      main.tiles.map((t) => [t.market, t.tokenId, t.width]),
    );
    expect(copy.tiles.some((t) => main.tiles.some((m) => m.id === t.id))).toBe(false);
    expect(copy.tiles.findIndex((t) => t.id === copy.focused)).toBe(1);
  });

  it('rename: a name of its own, not empty, not too long', () => {
    const all = { list: [emptyWorkspace('Main'), emptyWorkspace('Other')], active: 0 };
    expect(nameProblem(all, 0, '  ')).toBe('A workspace needs a name.');
    expect(nameProblem(all, 0, 'other')).toBe('There is already a workspace called other.');
    expect(nameProblem(all, 0, 'x'.repeat(41))).toMatch(/at most 40/);
    expect(nameProblem(all, 0, 'main')).toBeNull();
    expect(renameWorkspace(all, 0, ' Macro ').list[0]!.name).toBe('Macro');
    expect(renameWorkspace(all, 0, 'Other')).toBe(all);
  });

  it('delete: the one left of it is shown; the last stays', () => {
    const all = { list: [emptyWorkspace('A'), emptyWorkspace('B'), emptyWorkspace('C')], active: 1 };
    expect(deleteWorkspace(all, 1)).toMatchObject({ active: 0 });
    expect(deleteWorkspace(all, 1).list.map((w) => w.name)).toEqual(['A', 'C']);
    expect(deleteWorkspace(all, 0)).toMatchObject({ active: 0 });
    expect(deleteWorkspace(all, 2)).toMatchObject({ active: 1 });
    expect(deleteWorkspace({ ...all, active: 0 }, 0)).toMatchObject({ active: 0 });
    const one = { list: [emptyWorkspace('A')], active: 0 };
    expect(deleteWorkspace(one, 0)).toBe(one);
  });

  it('are saved and read back the same (tiles, markets, outcomes, widths, focus)', () => {
    let ws = addTile(addTile(emptyWorkspace('Main', fed, 'yes'), btc, 'btc-yes'));
    ws = resizeTile(ws, 0, 0.25);
    ws = { ...ws, focused: ws.tiles[1]!.id };
    const saved = toSaved(ws);
    expect(saved).toEqual({
      name: 'Main',
      tiles: [
        { protocol: 'polymarket', marketId: '90011', eventId: '9001', tokenId: 'yes', width: 0.25 },
        { protocol: 'polymarket', marketId: '90021', tokenId: 'btc-yes', width: 0.4167 },
        { width: 0.3333 },
      ],
      focused: 1,
    });
    const back = fromSaved(saved);
    expect(back.tiles.map((t) => [t.market, t.tokenId])).toEqual(ws.tiles.map((t) => [t.market, t.tokenId]));
    expect(back.tiles.findIndex((t) => t.id === back.focused)).toBe(1);
    expect(back.tiles.reduce((a, t) => a + t.width, 0)).toBeCloseTo(1, 9);
  });
});

describe('the workspace and tile keys', () => {
  const press = (init: Partial<KeyPress>): KeyPress => ({
    key: '',
    code: '',
    altKey: false,
    ctrlKey: false,
    metaKey: false,
    ...init,
  });

  it('Alt+digit by the key or by its place (macOS types ¡ for Alt+1); the digit alone is another key', () => {
    expect(keyMatches('Alt+1', press({ key: '1', code: 'Digit1', altKey: true }))).toBe(true);
    expect(keyMatches('Alt+1', press({ key: '¡', code: 'Digit1', altKey: true }))).toBe(true);
    expect(keyMatches('Alt+1', press({ key: '1', code: 'Digit1' }))).toBe(false);
    expect(keyMatches('1', press({ key: '1', code: 'Digit1', altKey: true }))).toBe(false);
    expect(keyMatches('1', press({ key: '1', code: 'Digit1' }))).toBe(true);
    expect(keyMatches('Alt+1', press({ key: '1', code: 'Digit1', altKey: true, ctrlKey: true }))).toBe(false);
    expect(keyMatches('Alt+ArrowRight', press({ key: 'ArrowRight', code: 'ArrowRight', altKey: true }))).toBe(true);
    expect(keyMatches('Alt+ArrowRight', press({ key: 'ArrowRight', code: 'ArrowRight' }))).toBe(false);
    expect(keyMatches('X', press({ key: 'x', code: 'KeyX' }))).toBe(false);
    // A capital is Shift and the letter (Caps Lock alone does not make it: see renderer-keyboard.test.ts).
    expect(keyMatches('X', press({ key: 'X', code: 'KeyX', shiftKey: true }))).toBe(true);
    expect(keyMatches('X', press({ key: 'X', code: 'KeyX' }))).toBe(false);
  });

  it('print as on the keyboard', () => {
    expect(keyName('Alt+1')).toBe('Alt+1');
    expect(keyName('Alt+ArrowRight')).toBe('Alt+→');
  });
});
