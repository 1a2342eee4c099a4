// The chosen market's data: its record, event and discussion, its live books and its tape. `followMarket`
// loads a selection and follows it (books, fills, gaps) until the next one; live events are applied once a
// frame through the frame batcher, so a burst of book changes costs one render.
import { create } from 'zustand';
import type { Comment, Market, OrderBookSummary, PredictionEvent } from '@pmdesk/toolkit/model';
import type { TerminalEvents } from '../../../shared/contract';
import { addToTape, bookUnknownWhy, historyInFirstOutcome, nextTapeSeq, tapeFill, type TapeEntry } from '../components/market/model';
import { marketLinkFromHash } from '../links';
import { frameBatcher, latestPerFrame } from '../live/frame';
import { ask, listen, messageOf } from '../terminal';
import { useSelection, type SelectedMarket } from './selection';

export interface MarketViewState {
  /** `${protocol}:${marketId}` of the market followed, or null. */
  key: string | null;
  market: Market | null;
  marketError: string | null;
  event: PredictionEvent | null;
  comments: Comment[] | null;
  commentsError: string | null;
  /** By token id: the latest book of each outcome. */
  books: Record<string, OrderBookSummary>;
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
}

const EMPTY: MarketViewState = {
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
};

export const useMarket = create<MarketViewState>()(() => ({ ...EMPTY }));

/** Fills seeded from history when a market opens: enough to fill the tape's view, not the month. */
const SEED_FILLS = 200;
/** A feed that closed on an error is followed again after this, doubling up to the cap. */
const RETRY_MS = { first: 2_000, max: 30_000 };

const marketKey = (m: SelectedMarket) => `${m.protocol}:${m.marketId}`;
const current = (marketId: string) => useMarket.getState().key?.endsWith(`:${marketId}`) === true;

// Only a token's latest book between two frames is ever drawn, so only that one is kept.
const applyBooks = latestPerFrame<TerminalEvents['bookUpdate']>('market-books', (u) => `${u.marketId}\n${u.tokenId}`, (updates) => {
  const fresh = updates.filter((u) => current(u.marketId));
  if (fresh.length === 0) return;
  useMarket.setState((s) => {
    const books = { ...s.books };
    for (const update of fresh) books[update.tokenId] = update.book;
    return { books, bookError: null };
  });
});

const applyTape = frameBatcher<{ marketId: string; entry: TapeEntry }>('market-tape', (items) => {
  const fresh = items.filter((i) => current(i.marketId)).map((i) => i.entry);
  if (fresh.length > 0) useMarket.setState((s) => ({ tape: addToTape(s.tape, fresh) }));
});

/** Loads a market and follows its books and fills; the function returned stops following it. */
export function followMarket(selection: SelectedMarket | null): () => void {
  if (!selection) {
    useMarket.setState({ ...EMPTY });
    return () => {};
  }
  const { protocol, marketId, eventId } = selection;
  const key = marketKey(selection);
  useMarket.setState({ ...EMPTY, key });
  let live = true;
  const stillHere = () => live && useMarket.getState().key === key;
  const timers = new Set<ReturnType<typeof setTimeout>>();

  void (async () => {
    try {
      const market = await ask('getMarket', { protocol, marketId });
      if (!stillHere()) return;
      useMarket.setState({ market });
      // The first outcome unless the trader already chose one of this market's.
      const tokens = market.position_tokens.map((t) => t.token_id);
      const chosen = useSelection.getState().tokenId;
      if (!chosen || !tokens.includes(chosen)) useSelection.getState().selectToken(tokens[0] ?? null);
    } catch (error) {
      if (stillHere()) useMarket.setState({ marketError: `This market could not be loaded: ${messageOf(error)}` });
    }
  })();

  if (eventId) {
    void ask('getEvent', { protocol, eventId })
      .then((event) => stillHere() && useMarket.setState({ event }))
      .catch(() => undefined); // the header falls back to the market's own question and rules
    void ask('getEventComments', { protocol, eventId })
      .then((comments) => stillHere() && useMarket.setState({ comments }))
      .catch((error: unknown) => stillHere() && useMarket.setState({ commentsError: `The discussion could not be loaded: ${messageOf(error)}` }));
  }

  // Books: one read to show something at once, then the live feed (its updates win over the read).
  void ask('getOrderBook', { protocol, marketId })
    .then((books) => stillHere() && useMarket.setState((s) => ({ books: { ...books, ...s.books } })))
    .catch((error: unknown) => stillHere() && useMarket.setState({ bookError: `The order book could not be loaded: ${messageOf(error)}` }));

  // The tape: recent history under whatever live fills already arrived.
  void ask('getPriceHistory', { protocol, marketId })
    .then((history) => {
      if (!stillHere()) return;
      // Polymarket's history is split by the token each fill traded; the tape has them all, in the first outcome.
      const first = historyInFirstOutcome(history, useMarket.getState().market?.position_tokens[0]?.token_id).slice(-SEED_FILLS);
      useMarket.setState((s) => ({ tape: addToTape(s.tape, first.map((fill) => tapeFill(fill))) }));
    })
    .catch((error: unknown) => stillHere() && useMarket.setState({ tapeError: `Recent trades could not be loaded: ${messageOf(error)}` }));

  const follow = (feed: 'book' | 'fills') =>
    ask(feed === 'book' ? 'subscribeBook' : 'subscribeFills', { protocol, marketId }).catch((error: unknown) => {
      if (stillHere()) useMarket.setState(feed === 'book' ? { bookError: `Live book unavailable: ${messageOf(error)}` } : { tapeError: `Live trades unavailable: ${messageOf(error)}` });
    });
  void follow('book');
  void follow('fills');

  // A feed that closed on an error is followed again with backoff; the fills' downtime becomes a gap row.
  const retry = { book: RETRY_MS.first, fills: RETRY_MS.first };
  let fillsDownSince: number | undefined;
  // Books are only "known" once their feed was open: the read before it is a snapshot, not a lost feed.
  let bookWasOpen = false;
  const stops = [
    listen('bookUpdate', (update) => update.marketId === marketId && applyBooks(update)),
    listen('fill', ({ marketId: id, fill }) => id === marketId && applyTape({ marketId, entry: tapeFill(fill, true) })),
    listen('tapeGap', ({ marketId: id, from, to }) => id === marketId && applyTape({ marketId, entry: { kind: 'gap', seq: nextTapeSeq(), from, to } })),
    listen('feedStatus', (status) => {
      if (status.marketId !== marketId || status.feed === 'user' || !stillHere()) return;
      const feed = status.feed;
      if (feed === 'book') {
        if (status.state === 'open') bookWasOpen = true;
        const unknown = bookWasOpen || status.error !== undefined ? bookUnknownWhy(status) : null;
        const was = useMarket.getState().bookUnknown;
        if (unknown === null) {
          if (was) useMarket.setState({ bookUnknown: null });
        } else if (was?.why !== unknown) {
          useMarket.setState({ bookUnknown: { since: was?.since ?? Date.now(), why: unknown } });
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
          if (stillHere() && !useMarket.getState().marketError) void follow(feed);
        }, wait);
        timers.add(timer);
      }
    }),
  ];

  return () => {
    live = false;
    for (const stop of stops) stop();
    for (const timer of timers) clearTimeout(timer);
    void ask('unsubscribeBook', { marketId }).catch(() => undefined);
    void ask('unsubscribeFills', { marketId }).catch(() => undefined);
    if (useMarket.getState().key === key) useMarket.setState({ ...EMPTY });
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
    if (market && market.protocol === linked.protocol && market.marketId === linked.marketId && market.eventId === linked.eventId) return;
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
