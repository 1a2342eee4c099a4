// An event board tile's data: the event read once (then again every 15 s for its record: volumes, 24 h changes),
// each outcome's last trade live from the exchange's market channel, and every outcome's books followed live into
// the tile's own market store, so the ticket (which reads the focused
// tile's books) and every price elsewhere (useTileTokens) find them as they find a market tile's. Books are applied
// once a frame through the frame batcher: a 30-outcome event in a busy minute costs one render a frame.
import type { Book, TerminalEvents } from '../../../shared/contract';
import { withLastTrade } from '../../../shared/event-board';
import { latestPerFrame } from '../live/frame';
import { bookUnknownWhy } from '../model/market';
import { ask, listen, messageOf } from '../bridge/terminal';
import { EMPTY, holdFeed, marketStoreFor, useTileTokens } from './market';
import { useSelection } from './selection';
import { useTicket, type TicketSide } from './ticket';
import { focusTile } from './workspaces';
import type { TileBoard } from '../model/tile-layout';

/** The event is read again this often (its record: 24 h changes, and last trades where no channel announces them). */
export const EVENT_REFRESH_MS = 15_000;
/** The most outcomes one board follows (Polymarket's largest events have a few dozen). */
export const BOARD_OUTCOMES_MAX = 60;

const boardKey = (board: TileBoard) => `event:${board.protocol}:${board.eventId}`;

/** Loads an event into a tile's store and follows every outcome's books; the function returned lets go of them. */
export function followEvent(tileId: string, board: TileBoard): () => void {
  const tile = marketStoreFor(tileId);
  const key = boardKey(board);
  tile.setState({ ...EMPTY, key });
  let live = true;
  const stillHere = () => live && tile.getState().key === key;
  const followed = new Set<string>();
  const releases: (() => void)[] = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();

  const applyBooks = latestPerFrame<TerminalEvents['bookUpdate']>(
    `board-books:${tileId}`,
    (u) => `${u.marketId}\n${u.tokenId}`,
    (updates) => {
      const fresh = updates.filter((u) => followed.has(u.marketId));
      if (fresh.length === 0 || !stillHere()) return;
      tile.setState((s) => {
        const books = { ...s.books };
        for (const update of fresh) books[update.tokenId] = update.book;
        return { books, bookError: null };
      });
    },
  );
  const stopBooks = listen('bookUpdate', (update) => followed.has(update.marketId) && applyBooks(update));
  // Last trades as the channel announces them, kept for the board's life: a record read again later (Gamma's can
  // lag the exchange) does not take a newer last back. Applied once a frame, like the books.
  const lastTrades = new Map<string, TerminalEvents['lastTrade']>();
  const withLastTrades = <E extends { markets: Parameters<typeof withLastTrade>[0][] }>(event: E): E => ({
    ...event,
    markets: event.markets.map((m) =>
      m.position_tokens.reduce((market, t) => {
        const trade = lastTrades.get(t.token_id);
        return trade ? withLastTrade(market, trade.tokenId, trade.price) : market;
      }, m),
    ),
  });
  const applyLastTrades = latestPerFrame<TerminalEvents['lastTrade']>(
    `board-last:${tileId}`,
    (t) => t.tokenId,
    (trades) => {
      const fresh = trades.filter((t) => followed.has(t.marketId));
      if (fresh.length === 0 || !stillHere()) return;
      // One last per market: the newest of its tokens' trades (a Yes and a No trade are the same market's).
      for (const t of fresh) {
        const kept = [...lastTrades.values()].filter((k) => k.marketId === t.marketId);
        if (kept.some((k) => k.timestamp > t.timestamp)) continue;
        for (const k of kept) lastTrades.delete(k.tokenId);
        lastTrades.set(t.tokenId, t);
      }
      const event = tile.getState().event;
      if (event) tile.setState({ event: withLastTrades(event) });
    },
  );
  const stopLastTrades = listen('lastTrade', (trade) => followed.has(trade.marketId) && applyLastTrades(trade));
  // Books that may no longer be the exchange's (a feed reconnecting, quiet, down) mark the board as a market tile's
  // are marked: the ticket refuses to trade on them while the board is focused. Only once a feed was open: the read
  // before it is a snapshot, not a lost feed.
  const opened = new Set<string>();
  const unknown = new Map<string, string>();
  const stopStatus = listen('feedStatus', (status) => {
    if (status.feed !== 'book' || !followed.has(status.marketId) || !stillHere()) return;
    if (status.state === 'open') opened.add(status.marketId);
    const why = opened.has(status.marketId) || status.error !== undefined ? bookUnknownWhy(status) : null;
    if (why === null) unknown.delete(status.marketId);
    else unknown.set(status.marketId, why);
    const was = tile.getState().bookUnknown;
    const first = unknown.values().next();
    if (first.done) {
      if (was) tile.setState({ bookUnknown: null });
    } else if (was?.why !== first.value) {
      tile.setState({ bookUnknown: { since: was?.since ?? Date.now(), why: first.value } });
    }
  });

  const follow = (marketId: string) => {
    followed.add(marketId);
    releases.push(holdFeed('book', marketId));
    void ask('getOrderBook', { protocol: board.protocol, marketId })
      .then((books: Record<string, Book>) => stillHere() && tile.setState((s) => ({ books: { ...books, ...s.books } })))
      .catch(() => undefined); // the live feed's first book fills it
    void ask('subscribeBook', { protocol: board.protocol, marketId }).catch(
      (error: unknown) => stillHere() && tile.setState({ bookError: `Live books unavailable: ${messageOf(error)}` }),
    );
  };

  const read = async (first: boolean) => {
    try {
      const event = await ask('getEvent', { protocol: board.protocol, eventId: board.eventId });
      if (!stillHere()) return;
      tile.setState({ event: withLastTrades(event), marketError: null });
      const markets = event.markets.filter((m) => m.position_tokens.length > 0).slice(0, BOARD_OUTCOMES_MAX);
      useTileTokens.setState({ [tileId]: markets.flatMap((m) => m.position_tokens.map((t) => t.token_id)) });
      for (const m of markets) if (!followed.has(m.id)) follow(m.id);
    } catch (error) {
      // A later read failing keeps the board shown; only a first one has nothing to show.
      if (stillHere() && first) tile.setState({ marketError: `This event could not be loaded: ${messageOf(error)}` });
    }
    if (!stillHere()) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      void read(false);
    }, EVENT_REFRESH_MS);
    timers.add(timer);
  };
  void read(true);

  return () => {
    live = false;
    stopBooks();
    stopLastTrades();
    stopStatus();
    for (const timer of timers) clearTimeout(timer);
    for (const release of releases) release();
    if (tile.getState().key === key) tile.setState({ ...EMPTY });
    useTileTokens.setState({ [tileId]: [] });
  };
}

/** An outcome of a board picked: its market and token become the board tile's, so the ticket trades them. */
export function pickBoardOutcome(tileId: string, board: TileBoard, marketId: string, tokenId: string): void {
  focusTile(tileId);
  const { market, tokenId: chosen } = useSelection.getState();
  if (market?.marketId === marketId && market.eventId === board.eventId && chosen === tokenId) return;
  useSelection.setState({ market: { protocol: board.protocol, marketId, eventId: board.eventId }, tokenId });
}

/**
 * A price of the board clicked (or b/s on its chosen row): the ticket takes the outcome and a limit order at that
 * price, on the side that rests against it (an ask to buy at, a bid to sell into), as a click on the ladder does.
 */
export function fillTicketFromBoard(
  tileId: string,
  board: TileBoard,
  row: { marketId: string; yesTokenId: string },
  side: TicketSide,
  price: number,
): void {
  // The ticket starts afresh when its market changes: a price for another market waits for that start.
  const same = useSelection.getState().market?.marketId === row.marketId;
  if (same) useTicket.getState().fillFromLadder(price, side);
  else useTicket.getState().fillForMarket(row.marketId, price, side);
  pickBoardOutcome(tileId, board, row.marketId, row.yesTokenId);
}
