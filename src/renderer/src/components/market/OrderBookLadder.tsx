// The order-book ladder of the chosen outcome: asks above, bids below, each with its size, the cumulative
// size from the best price and a depth bar; spread and midpoint in the middle; the active wallet's own
// orders marked. Clicking a price fills the ticket: an ask to buy at it, a bid to sell at it.
import {
  memo,
  useCallback,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type PointerEvent,
  type RefObject,
} from 'react';
import { useAccount } from '../../store/account';
import { useMarket, useShownMarket } from '../../store/market';
import { feedKey, useSession } from '../../store/session';
import { useTicket } from '../../store/ticket';
import { useVisibleRows } from '../../live/visible-rows';
import {
  LADDER_DEPTH,
  bookAsOf,
  bookFeedWarning,
  buildLadder,
  ladderColumns,
  priceKey,
  type LadderColumns,
  type LadderRow,
} from '../../model/market';
import { centDecimals, formatCents, formatShares } from '../../format/numbers';

/** A ladder row's height in px, as market.css sets it. */
const ROW_HEIGHT = 22;
/**
 * Rows rendered beyond the view on either side while the trader scrolls the ladder: a few, so a wheel's first
 * frames draw no blank space before the window moves. Few: every row of a busy book changes each frame (its
 * running total does), and each one rendered is laid out and painted each frame (see live/visible-rows.tsx).
 */
const OVERSCAN = 3;
/**
 * Rows rendered beyond the view while the ladder follows the spread: nothing scrolls it then but a resize (and the
 * trader's first wheel turn, which stops the following and brings OVERSCAN back), so one row each side; a busy
 * ladder in a small tile then draws ten rows a frame instead of fourteen.
 */
const OVERSCAN_FOLLOWING = 1;

export function OrderBookLadder() {
  const shown = useShownMarket();
  const marketId = shown.market?.marketId;
  const tokenId = shown.tokenId;
  const book = useMarket((s) => (tokenId ? s.books[tokenId] : undefined));
  const tick = useMarket((s) => (s.market as { minimum_tick_size?: string } | null)?.minimum_tick_size);
  const error = useMarket((s) => s.bookError);
  const unknown = useMarket((s) => s.bookUnknown);
  const openOrders = useAccount((s) => s.openOrders);
  const feed = useSession((s) => (marketId ? s.feeds[feedKey('book', marketId)] : undefined));
  const [picked, setPicked] = useState<{ side: LadderRow['side']; key: number } | null>(null);

  const body = useRef<HTMLDivElement>(null);
  const middle = useRef<HTMLDivElement>(null);
  const centeredFor = useRef<string | null>(null);

  const ladder = useMemo(() => buildLadder(book, openOrders, tokenId ?? ''), [book, openOrders, tokenId]);
  // Rows above the spread row: the asks, or the note that there are none.
  const askRows = Math.max(1, ladder.asks.length);
  // Each side has LADDER_DEPTH places of one row each, the asks' filled from the bottom (the best next to the
  // spread), the bids' from the top: the spread row never moves when a level comes or goes, so a busy book never
  // scrolls the ladder to keep it centred (it did, most frames, each scroll a layout read and a second render).
  // Only the places in view are in the page, each side windowed in the one scroller; spacers stand for the rest.
  const asksStart = useRef<HTMLDivElement>(null);
  const bidsStart = useRef<HTMLDivElement>(null);
  // The spread stays in the middle of the view as the book moves and the panel is resized, until the trader scrolls
  // the ladder themselves; a click on the spread row centres it again and follows once more. (Centring only when
  // the book first showed left busy books drifting off to their far asks, and a tile sized after it off-centre.)
  const [following, setFollowing] = useState(true);
  const follows = useRef(true);
  const follow = useCallback((on: boolean) => {
    follows.current = on;
    setFollowing(on);
  }, []);

  // (No places before a book: the spacers, and so the windows' measuring, come with the first book.)
  const places = book ? LADDER_DEPTH : 0;
  const overscan = following ? OVERSCAN_FOLLOWING : OVERSCAN;
  const asksView = useVisibleRows(asksStart, places, ROW_HEIGHT, { overscan, onlyInView: true });
  const bidsView = useVisibleRows(bidsStart, places, ROW_HEIGHT, { overscan, onlyInView: true });
  const emptyAskPlaces = LADDER_DEPTH - askRows;
  const [askFrom, askTo] = [Math.max(asksView.first, emptyAskPlaces), Math.max(asksView.end, emptyAskPlaces)];
  const bidRows = Math.max(1, ladder.bids.length);
  const [bidFrom, bidTo] = [Math.min(bidsView.first, bidRows), Math.min(bidsView.end, bidRows)];
  // The levels whose rows are in the page (the asks' places start with the empty ones).
  const asksInPage = ladder.asks.slice(askFrom - emptyAskPlaces, askTo - emptyAskPlaces);
  const bidsInPage = ladder.bids.slice(bidFrom, bidTo);
  const decimals = centDecimals(tick ?? book?.tickSize);
  // The number columns are as wide as the longest number this outcome's book has shown (market.css), not as
  // their text each frame: a size gaining a digit no longer moves every number in the row beside it.
  const columnsSoFar = useRef<{ tokenId: string | null; columns: LadderColumns } | null>(null);
  const columns = useMemo(() => {
    const before = columnsSoFar.current?.tokenId === tokenId ? columnsSoFar.current.columns : undefined;
    const next = ladderColumns(ladder, decimals, before);
    columnsSoFar.current = { tokenId, columns: next };
    return next;
  }, [ladder, decimals, tokenId]);
  const columnWidths = {
    '--price-ch': columns.price,
    '--size-ch': columns.size,
    '--total-ch': columns.total,
  } as CSSProperties;
  // Books that may no longer be the exchange's keep showing, marked with the time they were last known.
  const warning = unknown ? `${bookAsOf(unknown)}: this book may no longer be the exchange's.` : bookFeedWarning(feed);

  const centre = useCallback(() => {
    const scroller = body.current;
    const mid = middle.current;
    if (!scroller || !mid) return;
    const target = Math.max(0, mid.offsetTop - (scroller.clientHeight - mid.offsetHeight) / 2);
    if (Math.abs(scroller.scrollTop - target) >= 1) scroller.scrollTop = target;
  }, []);
  // Centred when an outcome's book first shows; after that the spread row stays where it is (see the places above),
  // and a resize (below) or the trader's click centres it again.
  const hasBook = book !== undefined;
  useLayoutEffect(() => {
    if (!hasBook || !tokenId || centeredFor.current === tokenId) return;
    centeredFor.current = tokenId;
    follow(true);
    centre();
  }, [hasBook, tokenId, centre, follow]);
  useLayoutEffect(() => {
    const scroller = body.current;
    if (!hasBook || !scroller || typeof ResizeObserver !== 'function') return;
    const observer = new ResizeObserver(() => follows.current && centre());
    observer.observe(scroller);
    return () => observer.disconnect();
  }, [centre, hasBook]);
  // What only a trader does: the wheel, a touch, the scroll keys, a press on the scrollbar (the scroller itself).
  const leave = useCallback(() => follows.current && follow(false), [follow]);
  const scrollKeys = useCallback(
    (e: KeyboardEvent) => ['PageUp', 'PageDown', 'ArrowUp', 'ArrowDown', 'Home', 'End', ' '].includes(e.key) && leave(),
    [leave],
  );
  const pressed = useCallback((e: PointerEvent) => e.target === e.currentTarget && leave(), [leave]);
  const backToSpread = useCallback(() => {
    follow(true);
    centre();
  }, [follow, centre]);

  // Stable, so a row whose numbers did not change is not rendered again.
  const pick = useCallback((side: LadderRow['side'], price: number) => {
    // An ask is liquidity to buy from, a bid liquidity to sell into.
    useTicket.getState().fillFromLadder(price, side === 'ask' ? 'BUY' : 'SELL');
    setPicked({ side, key: priceKey(price) });
  }, []);
  // Each row's size, total and depth bar are written here after each render, not rendered by React: on a busy
  // book every row's numbers change in nearly every update, and rendering and reconciling a whole row to change two
  // texts and a style is work React need not do. The rows themselves (a level coming or going, its place, an order
  // of mine, the picked price) are still React's: a row renders again only when one of those changes, about half
  // as often on four busy tiles (docs/decisions/0038-the-ladders-numbers-written-in-place.md).
  const numbers = useRef(new Map<string, RowNumbers>()).current;
  useLayoutEffect(() => {
    for (const row of [...asksInPage, ...bidsInPage]) {
      const cells = numbers.get(rowKey(row));
      if (cells) writeNumbers(cells, row);
    }
  });

  // Rows are keyed by their price: when the book moves by a tick, one row comes in at one end and one goes at the
  // other, and every other row keeps its price, its button and its title; only the sizes and totals that changed
  // are written (keyed by place, every row's price, title and data-price were rewritten on each move).
  // Each row says its place in the whole ladder (the header is row 1, then the ask places, the spread row, the bid
  // places), so a screen reader counts the rows that are not in the page; a level keeps its place as others come.
  const line = (row: LadderRow, rowIndex: number) => (
    <LadderLine
      key={rowKey(row)}
      rowKey={rowKey(row)}
      rowIndex={rowIndex}
      side={row.side}
      price={row.price}
      own={row.own}
      picked={picked?.side === row.side && picked.key === priceKey(row.price)}
      decimals={decimals}
      onPick={pick}
      numbers={numbers}
    />
  );

  // One side's places in the page: a spacer for the places above the window, the rows in it (or the note of an
  // empty side, in its one place), a spacer for the places below.
  const side = (
    start: RefObject<HTMLDivElement | null>,
    from: number,
    to: number,
    rowHeight: number,
    empty: boolean,
    inPage: LadderRow[],
    firstIndex: number,
    note: string,
    noteIndex: number,
  ) => (
    <>
      <div ref={start} aria-hidden="true" style={{ height: from * rowHeight }} />
      {empty
        ? to > from && (
            <div className="ladder-note muted" role="row" aria-rowindex={noteIndex}>
              <span role="cell">{note}</span>
            </div>
          )
        : inPage.map((row, i) => line(row, firstIndex + i))}
      <div aria-hidden="true" style={{ height: (LADDER_DEPTH - to) * rowHeight }} />
    </>
  );

  // data-book-ts: the exchange's timestamp (epoch ms) of the book drawn, which bench/ui-latency.ts reads after
  // each paint to time an exchange message to the pixel; one attribute, set in the same commit as the rows.
  return (
    <div
      className={`ladder-panel${warning ? ' stale' : ''}`}
      data-testid="order-book"
      data-state={feed?.state ?? 'none'}
      data-unknown={unknown ? 'true' : undefined}
      data-book-ts={book?.timestamp || undefined}
      data-follows-spread={following}
    >
      <div className="panel-header">
        Order book
        {following ? null : (
          <button
            type="button"
            className="link-button ladder-centre"
            data-testid="ladder-centre"
            onClick={backToSpread}
            title="Centre the ladder on the spread and keep it there"
          >
            Centre
          </button>
        )}
      </div>
      {warning && (
        <div className="stale-banner" role="status" data-testid="book-warning">
          {warning}
        </div>
      )}
      {error && (
        <div className="stale-banner" role="alert">
          {error}
        </div>
      )}
      {/* The scroller sits absolutely inside the panel body: sized by it, never by its rows, so it is a
          relayout boundary (a flex item never is) and a changed row lays out the ladder, not the page. */}
      <div className="panel-body list-body">
        <div
          className="list-scroll"
          ref={body}
          tabIndex={-1}
          onWheel={leave}
          onTouchMove={leave}
          onKeyDown={scrollKeys}
          onPointerDown={pressed}
        >
          {!book ? (
            <div className="empty">
              {unknown ? `The book cannot be read: ${unknown.why}.` : error ? 'No book to show.' : 'Loading the book…'}
            </div>
          ) : (
            <div
              className="ladder"
              role="table"
              aria-label="Order book"
              aria-rowcount={2 * LADDER_DEPTH + 2}
              style={columnWidths}
            >
              <div className="ladder-head" role="row" aria-rowindex={1}>
                <span role="columnheader" className="ladder-own" aria-label="Your orders" />
                <span role="columnheader" className="num ladder-price">
                  Price
                </span>
                <span role="columnheader" className="num ladder-size">
                  Size
                </span>
                <span role="columnheader" className="num ladder-total">
                  Total
                </span>
              </div>
              {side(
                asksStart,
                askFrom,
                askTo,
                asksView.rowHeight,
                ladder.asks.length === 0,
                asksInPage,
                askFrom + 2,
                unknown ? 'Asks unknown' : 'No asks',
                LADDER_DEPTH + 1,
              )}
              <div
                className={`ladder-middle${following ? '' : ' away'}`}
                role="row"
                aria-rowindex={LADDER_DEPTH + 2}
                data-testid="spread"
                ref={middle}
                onClick={backToSpread}
                title={
                  following
                    ? 'The ladder keeps the spread in the middle until you scroll it'
                    : 'Click to centre the ladder on the spread and keep it there'
                }
              >
                <span role="cell">
                  {unknown && ladder.spread === null ? (
                    <span className="muted">Spread unknown</span>
                  ) : ladder.spread === null ? (
                    <span className="muted">No spread: one side is empty</span>
                  ) : (
                    <>
                      Spread <span className="num">{formatCents(ladder.spread, decimals)}</span> · Mid{' '}
                      <span className="num">{formatCents(ladder.midpoint!, decimals + 1)}</span>
                    </>
                  )}
                  {following ? null : <span className="muted"> · click to centre</span>}
                </span>
              </div>
              {side(
                bidsStart,
                bidFrom,
                bidTo,
                bidsView.rowHeight,
                ladder.bids.length === 0,
                bidsInPage,
                LADDER_DEPTH + bidFrom + 3,
                unknown ? 'Bids unknown' : 'No bids',
                LADDER_DEPTH + 3,
              )}
            </div>
          )}
        </div>
      </div>
    </div>
  );
}

/** A row's key among the ladder's rows: its side and price. */
function rowKey(row: LadderRow): string {
  return `${row.side}${priceKey(row.price)}`;
}

/** The parts of a row in the page whose text and style the ladder writes itself, and what it wrote last. */
interface RowNumbers {
  row: HTMLElement;
  size: HTMLElement;
  total: HTMLElement;
  shown: { size?: string; total?: string; bar?: string };
}

/** Replaces an element's text, in place when it has one text node (a character-data change, nothing rebuilt). */
function setText(element: HTMLElement, text: string): void {
  const first = element.firstChild;
  if (first && first === element.lastChild && first.nodeType === Node.TEXT_NODE) (first as Text).data = text;
  else element.textContent = text;
}

/** Writes a row's size, running total and depth bar where they differ from what it shows. */
function writeNumbers(cells: RowNumbers, row: LadderRow): void {
  const size = formatShares(row.size);
  if (cells.shown.size !== size) setText(cells.size, (cells.shown.size = size));
  const total = formatShares(row.cumulative);
  if (cells.shown.total !== total) setText(cells.total, (cells.shown.total = total));
  // The depth bar is the row's background, sized from the right (market.css): a style change that repaints the
  // row, with no box of its own to lay out; in whole percent (a pixel or two), so a busy book writes it less. On
  // the row, not a cell: a narrow tile has no total column to put it behind, and a custom property on the row
  // for each cell to read restyled all of them (three times the style work of one inline style).
  const bar = `${Math.round(row.depth * 100)}% 20px`;
  if (cells.shown.bar !== bar) cells.row.style.backgroundSize = cells.shown.bar = bar;
}

interface LineProps {
  rowKey: string;
  rowIndex: number;
  side: LadderRow['side'];
  price: number;
  own: number;
  picked: boolean;
  decimals: number;
  onPick: (side: LadderRow['side'], price: number) => void;
  /** Where the row puts its number cells for the ladder to write (see OrderBookLadder). */
  numbers: Map<string, RowNumbers>;
}

/**
 * One price level: its price, its button and my orders at it. Its size, total and depth bar are the ladder's to
 * write (they change on most updates of a busy book; the rest seldom), so a level whose price, place and orders
 * stay is not rendered again when the book moves.
 */
const LadderLine = memo(function LadderLine({
  rowKey,
  rowIndex,
  side,
  price,
  own,
  picked,
  decimals,
  onPick,
  numbers,
}: LineProps) {
  const cents = formatCents(price, decimals);
  const action = side === 'ask' ? `Buy at ${cents}` : `Sell at ${cents}`;
  const register = useCallback(
    (row: HTMLDivElement | null) => {
      if (!row) return;
      numbers.set(rowKey, {
        row,
        size: row.querySelector<HTMLElement>('.ladder-size')!,
        total: row.querySelector<HTMLElement>('.ladder-total')!,
        shown: {},
      });
      return () => {
        numbers.delete(rowKey);
      };
    },
    [numbers, rowKey],
  );
  return (
    <div
      ref={register}
      className={`ladder-row ${side}${picked ? ' picked' : ''}`}
      role="row"
      aria-rowindex={rowIndex}
      data-side={side}
      data-price={String(price)}
      data-own={own > 0 ? 'true' : undefined}
      aria-selected={picked || undefined}
    >
      <span role="cell" className="ladder-own" title={own > 0 ? `Your orders: ${formatShares(own)} shares` : undefined}>
        {own > 0 ? '●' : ''}
      </span>
      <span role="cell" className="num ladder-price">
        <button
          type="button"
          className={`ghost price-button ${side}`}
          title={`${action}: fills the ticket`}
          onClick={() => onPick(side, price)}
        >
          {cents}
        </button>
      </span>
      <span role="cell" className="num ladder-size" />
      <span role="cell" className="num ladder-total" />
    </div>
  );
});
