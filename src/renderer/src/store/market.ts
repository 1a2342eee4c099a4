// Each tile's market data: its record, event and discussion, its live books and its tape, in a store of the
// tile's own (`marketStoreFor(tileId)`), so a book update in one tile renders that tile alone. `followMarket`
// loads a tile's market and follows it (books, fills, gaps) until the next one; live events are applied once a
// frame through the frame batcher, so a burst of book changes costs one render. Panels inside a tile read
// its store through MarketStoreContext; panels outside (the ticket, the account) read the focused tile's.
import { createContext, useContext } from 'react';
import { create, useStore, type StoreApi, type UseBoundStore } from 'zustand';
import type { Comment, Market, PredictionEvent } from '@pmdesk/toolkit/model';
import type { Book, MarketStateInfo, TerminalEvents } from '../../../shared/contract';
import {
  addToTape,
  bookUnknownWhy,
  historyInFirstOutcome,
  nextTapeSeq,
  tapeFill,
  type TapeEntry,
} from '../model/market';
import { marketLinkFromHash } from '../model/links';
import { frameBatcher, latestPerFrame } from '../live/frame';
import { ask, listen, messageOf } from '../bridge/terminal';
import { useSelection, type SelectedMarket } from './selection';
import { feedKey, followedFeeds, forgetFeed } from './session';
import { activeWorkspace, focusedTileId, selectTileToken, tileOf, useWorkspaces } from './workspaces';

export interface MarketViewState {
  /** `${protocol}:${marketId}` of the market followed, or null. */
  key: string | null;
  market: Market | null;
  marketError: string | null;
  event: PredictionEvent | null;
  comments: Comment[] | null;
  commentsError: string | null;
  /** By token id: the latest book of each outcome. */
  books: Record<string, Book>;
  bookError: string | null;
  /**
   * Since when (Unix ms) the books shown may no longer be the exchange's (its feed reconnecting, gone quiet, down,
   * or the exchange unreachable), and why in the trader's words; null while they are live. The last books stay
   * on screen marked with this, never replaced by empty ones.
   */
  bookUnknown: { since: number; why: string } | null;
  /** Newest first; fills priced in the first outcome. */
  tape: TapeEntry[];
  tapeError: string | null;
  /** The market's state as main pushes it (open, closed awaiting resolution, resolved); null until first read. */
  state: Pick<MarketStateInfo, 'state' | 'winnerTokenId' | 'finalPrices'> | null;
}

export const EMPTY: MarketViewState = {
  key: null,
  market: null,
  marketError: null,
  event: null,
  comments: null,
  commentsError: null,
  books: {},
  bookError: null,
  bookUnknown: null,
  tape: [],
  tapeError: null,
  state: null,
};

export type MarketStore = UseBoundStore<StoreApi<MarketViewState>>;

const stores = new Map<string, MarketStore>();

/** The tile's market store (made the first time it is asked for). */
export function marketStoreFor(tileId: string): MarketStore {
  let store = stores.get(tileId);
  if (!store) {
    store = create<MarketViewState>()(() => ({ ...EMPTY }));
    stores.set(tileId, store);
  }
  return store;
}

/** By tile id: the token ids of the market each tile shows, so a price anywhere can find a tile with its live book. */
export const useTileTokens = create<Record<string, readonly string[]>>()(() => ({}));

/** The store of the tile a panel sits in; outside a tile, the focused tile's. */
export const MarketStoreContext = createContext<{ tileId: string; store: MarketStore } | null>(null);

export function useMarketStore(): MarketStore {
  const inTile = useContext(MarketStoreContext);
  const focused = useWorkspaces((s) => focusedTileId(s));
  return inTile ? inTile.store : marketStoreFor(focused);
}

/** Reads the market data of the tile a panel sits in (outside a tile: the focused tile's). */
export function useMarket<T>(selector: (state: MarketViewState) => T): T {
  return useStore(useMarketStore(), selector);
}

/**
 * The tile store that follows a token live, outside any tile: the focused tile's when it shows the token, else the
 * first tile of the workspace that does, else the focused tile's (the one rule of useQuoteStore, read once).
 */
export function quoteStoreOf(tokenId: string | null | undefined): MarketStore {
  const ws = activeWorkspace(useWorkspaces.getState());
  const tokens = useTileTokens.getState();
  const focused = ws.focused;
  if (!tokenId || tokens[focused]?.includes(tokenId)) return marketStoreFor(focused);
  return marketStoreFor(ws.tiles.find((t) => tokens[t.id]?.includes(tokenId))?.id ?? focused);
}

/**
 * The store to read a token's live quote from: the panel's own tile's inside a tile; outside, the focused tile's
 * when it shows the token, else the first tile that does, else the focused tile's.
 */
export function useQuoteStore(tokenId: string | null | undefined): MarketStore {
  const inTile = useContext(MarketStoreContext);
  const tileId = useTileTokens((tokens) => {
    const ws = activeWorkspace(useWorkspaces.getState());
    const focused = ws.focused;
    if (!tokenId || tokens[focused]?.includes(tokenId)) return focused;
    return ws.tiles.find((t) => tokens[t.id]?.includes(tokenId))?.id ?? focused;
  });
  // Re-read when the focus moves (the selector above reads the workspace without subscribing to it).
  useWorkspaces((s) => focusedTileId(s));
  return inTile ? inTile.store : marketStoreFor(tileId);
}

/** The market and outcome shown by the tile a panel sits in; outside a tile, the selection's. */
export function useShownMarket(): {
  market: SelectedMarket | null;
  tokenId: string | null;
  selectToken(tokenId: string | null): void;
} {
  const inTile = useContext(MarketStoreContext);
  const tileId = inTile?.tileId;
  const tileMarket = useWorkspaces((s) => (tileId ? (tileOf(tileId, s)?.market ?? null) : null));
  const tileToken = useWorkspaces((s) => (tileId ? (tileOf(tileId, s)?.tokenId ?? null) : null));
  const selectedMarket = useSelection((s) => s.market);
  const selectedToken = useSelection((s) => s.tokenId);
  if (!tileId)
    return { market: selectedMarket, tokenId: selectedToken, selectToken: useSelection.getState().selectToken };
  return { market: tileMarket, tokenId: tileToken, selectToken: (token) => selectTileToken(tileId, token) };
}

/**
 * A market's book and fills followed once for the page however many tiles show it (main follows per page); the
 * event board holds its outcomes' books through it too.
 */
const feedUsers = new Map<string, number>();
export function holdFeed(feed: 'book' | 'fills' | 'state', marketId: string): () => void {
  const key = `${feed}:${marketId}`;
  feedUsers.set(key, (feedUsers.get(key) ?? 0) + 1);
  if (feed !== 'state') followedFeeds.add(feedKey(feed, marketId));
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    const left = (feedUsers.get(key) ?? 1) - 1;
    if (left > 0) {
      feedUsers.set(key, left);
      return;
    }
    feedUsers.delete(key);
    if (feed !== 'state') forgetFeed(feedKey(feed, marketId));
    void ask(feed === 'book' ? 'unsubscribeBook' : feed === 'fills' ? 'unsubscribeFills' : 'unwatchMarketState', {
      marketId,
    }).catch(() => undefined);
  };
}

/**
 * Follows a market's state for a panel outside a tile (Positions): shared with the tiles that show the market,
 * so letting go here never stops a tile's. Answers the state now; the release lets go of it.
 */
export function holdMarketState(
  protocol: SelectedMarket['protocol'],
  marketId: string,
): { state: Promise<MarketStateInfo>; release: () => void } {
  const release = holdFeed('state', marketId);
  return { state: ask('watchMarketState', { protocol, marketId }), release };
}

/** Fills seeded from history when a market opens: enough to fill the tape's view, not the month. */
const SEED_FILLS = 200;
/** A feed that closed on an error is followed again after this, doubling up to the cap. */
const RETRY_MS = { first: 2_000, max: 30_000 };

const marketKey = (m: SelectedMarket) => `${m.protocol}:${m.marketId}`;

/** Loads a market into a tile's store and follows its books and fills; the function returned stops following it. */
export function followMarket(tileId: string, selection: SelectedMarket | null): () => void {
  const tile = marketStoreFor(tileId);
  if (!selection) {
    tile.setState({ ...EMPTY });
    useTileTokens.setState({ [tileId]: [] });
    return () => {};
  }
  const current = (marketId: string) => tile.getState().key?.endsWith(`:${marketId}`) === true;
  // Only a token's latest book between two frames is ever drawn, so only that one is kept.
  const applyBooks = latestPerFrame<TerminalEvents['bookUpdate']>(
    `market-books:${tileId}`,
    (u) => `${u.marketId}\n${u.tokenId}`,
    (updates) => {
      const fresh = updates.filter((u) => current(u.marketId));
      if (fresh.length === 0) return;
      tile.setState((s) => {
        const books = { ...s.books };
        for (const update of fresh) books[update.tokenId] = update.book;
        return { books, bookError: null };
      });
    },
  );
  const applyTape = frameBatcher<{ marketId: string; entry: TapeEntry }>(`market-tape:${tileId}`, (items) => {
    const fresh = items.filter((i) => current(i.marketId)).map((i) => i.entry);
    if (fresh.length > 0) tile.setState((s) => ({ tape: addToTape(s.tape, fresh) }));
  });
  const { protocol, marketId, eventId } = selection;
  const key = marketKey(selection);
  tile.setState({ ...EMPTY, key });
  let live = true;
  const stillHere = () => live && tile.getState().key === key;
  const timers = new Set<ReturnType<typeof setTimeout>>();

  void (async () => {
    try {
      const market = await ask('getMarket', { protocol, marketId });
      if (!stillHere()) return;
      tile.setState({ market });
      // The first outcome unless the trader already chose one of this market's.
      const tokens = market.position_tokens.map((t) => t.token_id);
      useTileTokens.setState({ [tileId]: tokens });
      const chosen = tileOf(tileId)?.tokenId;
      if (!chosen || !tokens.includes(chosen)) selectTileToken(tileId, tokens[0] ?? null);
    } catch (error) {
      if (stillHere()) tile.setState({ marketError: `This market could not be loaded: ${messageOf(error)}` });
    }
  })();

  if (eventId) {
    void ask('getEvent', { protocol, eventId })
      .then((event) => stillHere() && tile.setState({ event }))
      .catch(() => undefined); // the header falls back to the market's own question and rules
    void ask('getEventComments', { protocol, eventId })
      .then((comments) => stillHere() && tile.setState({ comments }))
      .catch(
        (error: unknown) =>
          stillHere() && tile.setState({ commentsError: `The discussion could not be loaded: ${messageOf(error)}` }),
      );
  }

  // Books: one read to show something at once, then the live feed (its updates win over the read).
  void ask('getOrderBook', { protocol, marketId })
    .then((books) => stillHere() && tile.setState((s) => ({ books: { ...books, ...s.books } })))
    .catch(
      (error: unknown) =>
        stillHere() && tile.setState({ bookError: `The order book could not be loaded: ${messageOf(error)}` }),
    );

  // The tape: recent history under whatever live fills already arrived.
  void ask('getPriceHistory', { protocol, marketId })
    .then((history) => {
      if (!stillHere()) return;
      // Polymarket's history is split by the token each fill traded; the tape has them all, in the first outcome.
      const first = historyInFirstOutcome(history, tile.getState().market?.position_tokens[0]?.token_id).slice(
        -SEED_FILLS,
      );
      tile.setState((s) => ({
        tape: addToTape(
          s.tape,
          first.map((fill) => tapeFill(fill)),
        ),
      }));
    })
    .catch(
      (error: unknown) =>
        stillHere() && tile.setState({ tapeError: `Recent trades could not be loaded: ${messageOf(error)}` }),
    );

  // Its state is pushed by main (a resolution shows within seconds, on the chain's word): read now, then followed.
  const applyState = (info: MarketStateInfo) => {
    if (!stillHere() || info.marketId !== marketId || info.protocol !== protocol) return;
    tile.setState({
      market: info.market,
      state: { state: info.state, winnerTokenId: info.winnerTokenId, finalPrices: info.finalPrices },
    });
  };
  void ask('watchMarketState', { protocol, marketId })
    .then(applyState)
    .catch(() => undefined); // the record read above stays; its own closed flag still shows

  const released = [holdFeed('book', marketId), holdFeed('fills', marketId), holdFeed('state', marketId)];
  const follow = (feed: 'book' | 'fills') =>
    ask(feed === 'book' ? 'subscribeBook' : 'subscribeFills', { protocol, marketId }).catch((error: unknown) => {
      if (stillHere())
        tile.setState(
          feed === 'book'
            ? { bookError: `Live book unavailable: ${messageOf(error)}` }
            : { tapeError: `Live trades unavailable: ${messageOf(error)}` },
        );
    });
  void follow('book');
  void follow('fills');

  // A feed that closed on an error is followed again with backoff; the fills' downtime becomes a gap row.
  const retry = { book: RETRY_MS.first, fills: RETRY_MS.first };
  let fillsDownSince: number | undefined;
  // Books are only "known" once their feed was open: the read before it is a snapshot, not a lost feed.
  let bookWasOpen = false;
  const stops = [
    listen('marketState', applyState),
    listen('bookUpdate', (update) => update.marketId === marketId && applyBooks(update)),
    listen('fill', ({ marketId: id, fill }) => id === marketId && applyTape({ marketId, entry: tapeFill(fill, true) })),
    listen(
      'tapeGap',
      ({ marketId: id, from, to }) =>
        id === marketId && applyTape({ marketId, entry: { kind: 'gap', seq: nextTapeSeq(), from, to } }),
    ),
    listen('feedStatus', (status) => {
      if (status.marketId !== marketId || status.feed === 'user' || !stillHere()) return;
      const feed = status.feed;
      if (feed === 'book') {
        if (status.state === 'open') bookWasOpen = true;
        const unknown = bookWasOpen || status.error !== undefined ? bookUnknownWhy(status) : null;
        const was = tile.getState().bookUnknown;
        if (unknown === null) {
          if (was) tile.setState({ bookUnknown: null });
        } else if (was?.why !== unknown) {
          tile.setState({ bookUnknown: { since: was?.since ?? Date.now(), why: unknown } });
        }
      }
      if (status.state === 'open') {
        retry[feed] = RETRY_MS.first;
        if (feed === 'fills' && fillsDownSince !== undefined) {
          applyTape({ marketId, entry: { kind: 'gap', seq: nextTapeSeq(), from: fillsDownSince, to: Date.now() } });
          fillsDownSince = undefined;
        }
      } else if (status.state === 'closed' && status.error) {
        if (feed === 'fills') fillsDownSince ??= Date.now();
        const wait = retry[feed];
        retry[feed] = Math.min(wait * 2, RETRY_MS.max);
        const timer = setTimeout(() => {
          timers.delete(timer);
          // A market that could not be loaded has nothing to follow again.
          if (stillHere() && !tile.getState().marketError) void follow(feed);
        }, wait);
        timers.add(timer);
      }
    }),
  ];

  return () => {
    live = false;
    for (const stop of stops) stop();
    for (const timer of timers) clearTimeout(timer);
    for (const release of released) release();
    if (tile.getState().key === key) tile.setState({ ...EMPTY });
    useTileTokens.setState({ [tileId]: [] });
  };
}

let linkOpened = false;

/**
 * Opens the market a link names (`#…&market=<id>&event=<id>`): the page's own link once at start (when
 * nothing is selected yet), then whenever the fragment changes (a link pasted into the open tab). Returns
 * the function that stops listening.
 */
export function watchMarketLinks(win: Window = window): () => void {
  const open = (hash: string, onlyIfNone: boolean) => {
    const link = marketLinkFromHash(hash);
    const { market, selectMarket } = useSelection.getState();
    if (!link || (onlyIfNone && market)) return;
    const { tokenId, ...linked } = link;
    if (
      market &&
      market.protocol === linked.protocol &&
      market.marketId === linked.marketId &&
      market.eventId === linked.eventId
    )
      return;
    selectMarket(linked);
    if (tokenId) useSelection.getState().selectToken(tokenId);
  };
  if (!linkOpened) {
    linkOpened = true;
    open(win.location.hash, true);
  }
  const onHashChange = () => open(win.location.hash, false);
  win.addEventListener('hashchange', onHashChange);
  return () => win.removeEventListener('hashchange', onHashChange);
}
