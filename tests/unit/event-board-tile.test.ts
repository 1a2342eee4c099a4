// The event board as a tile: opened beside the focused tile (or the one showing the event focused), kept while an
// outcome of its event is picked on it, turned back into a market tile by any other market; saved with its kind and
// read back, an old saved tile (no kind) still a market tile, a bad board cleaned to an empty tile; and the ticket's
// price picked for a market it is about to take, kept through the fresh start that market makes.
import { describe, expect, it } from 'vitest';
import {
  addBoardTile,
  addTile,
  emptyWorkspace,
  fromSaved,
  setTileMarket,
  toSaved,
  type Workspace,
} from '../../src/renderer/src/model/tile-layout';
import { cleanWorkspaces, TILES_MAX } from '../../src/shared/workspaces';
import { useTicket } from '../../src/renderer/src/store/ticket';
import { liveQuote } from '../../src/renderer/src/model/live-quote';
import type { Market } from '@pmdesk/toolkit/model';

const fedBoard = { protocol: 'polymarket' as const, eventId: '9001' };
const fed25 = { protocol: 'polymarket' as const, marketId: '90012', eventId: '9001' };
const btc = { protocol: 'polymarket' as const, marketId: '90021', eventId: '9002' };

describe('the event board tile', () => {
  it('opens right of the focused tile, focused; the same event again focuses the board already open', () => {
    const ws = emptyWorkspace('Main', btc, 'yes-btc');
    const opened = addBoardTile(ws, fedBoard);
    expect(opened.tiles.map((t) => t.board ?? null)).toEqual([null, fedBoard]);
    expect(opened.focused).toBe(opened.tiles[1]!.id);
    const back = { ...opened, focused: opened.tiles[0]!.id };
    const again = addBoardTile(back, { ...fedBoard });
    expect(again.tiles).toHaveLength(2);
    expect(again.focused).toBe(opened.tiles[1]!.id);
  });

  it('with the row full, the focused tile becomes the board', () => {
    let ws: Workspace = emptyWorkspace('Main', btc, 'yes-btc');
    while (ws.tiles.length < TILES_MAX) ws = addTile(ws, btc, 'yes-btc');
    const opened = addBoardTile(ws, fedBoard);
    expect(opened.tiles).toHaveLength(TILES_MAX);
    const focused = opened.tiles.find((t) => t.id === opened.focused)!;
    expect(focused).toMatchObject({ board: fedBoard, market: null, tokenId: null });
  });

  it('keeps the board while an outcome of its event is picked; another market makes it a market tile', () => {
    const ws = addBoardTile(emptyWorkspace('Main'), fedBoard);
    const picked = setTileMarket(ws, ws.focused, fed25, 'yes-25');
    expect(picked.tiles[1]).toMatchObject({ board: fedBoard, market: fed25, tokenId: 'yes-25' });
    const other = setTileMarket(picked, ws.focused, btc, 'yes-btc');
    expect(other.tiles[1]).toMatchObject({ board: null, market: btc, tokenId: 'yes-btc' });
  });

  it('is saved with its kind and read back as a board, the outcome picked on it kept', () => {
    const ws = addBoardTile(emptyWorkspace('Main', btc, 'yes-btc'), fedBoard);
    const picked = setTileMarket(ws, ws.focused, fed25, 'yes-25');
    const saved = toSaved(picked);
    expect(saved.tiles[1]).toEqual({
      kind: 'event',
      protocol: 'polymarket',
      eventId: '9001',
      marketId: '90012',
      tokenId: 'yes-25',
      width: 0.5,
    });
    expect(saved.tiles[0]).not.toHaveProperty('kind');
    const [cleaned] = cleanWorkspaces([saved]);
    const back = fromSaved(cleaned!);
    expect(back.tiles.map((t) => ({ board: t.board ?? null, market: t.market, tokenId: t.tokenId }))).toEqual([
      { board: null, market: btc, tokenId: 'yes-btc' },
      { board: fedBoard, market: fed25, tokenId: 'yes-25' },
    ]);
  });

  it('reads an old saved tile (no kind) as a market tile, and a board without its event as an empty tile', () => {
    const [ws] = cleanWorkspaces([
      {
        name: 'Old',
        tiles: [
          { protocol: 'polymarket', marketId: '90021', eventId: '9002', tokenId: 'yes-btc', width: 0.4 },
          { kind: 'event', protocol: 'polymarket', width: 0.3 },
          { kind: 'event', eventId: '9001', width: 0.3 },
        ],
        focused: 0,
      },
    ]);
    expect(ws!.tiles.map((t) => ({ ...t, width: undefined }))).toEqual([
      { protocol: 'polymarket', marketId: '90021', eventId: '9002', tokenId: 'yes-btc', width: undefined },
      { width: undefined },
      { width: undefined },
    ]);
    expect(fromSaved(ws!).tiles[0]).toMatchObject({ market: btc, tokenId: 'yes-btc' });
    expect(fromSaved(ws!).tiles[0]!.board).toBeUndefined();
    // An unknown kind is a tile that does not parse: dropped alone, as any bad tile is.
    expect(
      cleanWorkspaces([{ name: 'New', tiles: [{ kind: 'chart', width: 1 }, { width: 1 }], focused: 0 }])[0]!.tiles,
    ).toHaveLength(1);
  });
});

describe("the ticket's price picked for the market it is about to take", () => {
  it('survives the fresh start of that market, and of no other', () => {
    const ticket = useTicket.getState();
    ticket.reset();
    ticket.fillForMarket('90012', 0.36, 'BUY');
    useTicket.getState().reset('90012');
    expect(useTicket.getState()).toMatchObject({ side: 'BUY', kind: 'limit', priceCents: '36', pendingFill: null });

    useTicket.getState().fillForMarket('90013', 0.061, 'SELL');
    useTicket.getState().reset('90011');
    expect(useTicket.getState()).toMatchObject({ side: 'BUY', priceCents: '', pendingFill: null });
  });
});

describe("a price read from an event board's books", () => {
  const market = (id: string, yes: string, no: string, last: number): Market => ({
    id,
    name: id,
    question: id,
    end: '',
    description: '',
    image: '',
    icon: '',
    groupItemTitle: id,
    position_tokens: [
      { token_id: yes, name: 'Yes', price: '0.5' },
      { token_id: no, name: 'No', price: '0.5' },
    ],
    lastTradePrice: last,
  });
  const book = (tokenId: string, bid: number, ask: number) => ({
    tokenId,
    market: '',
    bids: [{ price: bid, size: 10 }],
    asks: [{ price: ask, size: 10 }],
    hash: '',
    timestamp: 0,
  });
  const board = {
    key: 'event:polymarket:9001',
    market: null,
    event: { markets: [market('90011', 'y1', 'n1', 0.5), market('90012', 'y2', 'n2', 0.3)] },
    books: { y2: book('y2', 0.33, 0.36) },
    tape: [],
  };

  it("is the board's live book for any outcome of its event, the record's last beside it", () => {
    expect(liveQuote(board, 'y2')).toMatchObject({ bestBid: 0.33, bestAsk: 0.36, price: 0.345, live: true, last: 0.3 });
    // An outcome whose book has not come: the record's, not live.
    expect(liveQuote(board, 'y1')).toMatchObject({ live: false, last: 0.5 });
    expect(liveQuote(board, 'other')).toBeNull();
  });

  it("is nothing for a market tile's store that has only its event (its own market not loaded yet)", () => {
    expect(liveQuote({ ...board, key: 'polymarket:90011' }, 'y2')).toBeNull();
  });
});
