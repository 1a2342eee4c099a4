// An event board tile: every outcome (market) of an event as one row — best Yes bid and ask, last trade, spread,
// 24 h change and the trader's position — live from each outcome's book, highest Yes first, with the sums of the
// best asks and bids in words (src/shared/event-board.ts). A click on a bid or ask fills the shared ticket as a
// click on the ladder does; ↑/↓ move the chosen row, Enter trades it in the ticket, b/s buy at its ask or sell
// at its bid while the board has the focus. The header keeps a place for the event's actions.
import { memo, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { Market } from '@pmdesk/toolkit/model';
import {
  boardCents,
  changeCents,
  eventBoard,
  outcomeNameOf,
  type BoardOutcomeInput,
  type BoardRow,
} from '../../../../shared/event-board';
import { registerShortcut } from '../../keys/keyboard';
import { formatShares } from '../../format/numbers';
import { bookAsOf } from '../../model/market';
import { useAccount } from '../../store/account';
import { fillTicketFromBoard, pickBoardOutcome, followEvent } from '../../store/event-board';
import { marketStoreFor } from '../../store/market';
import { activeWalletInfo, useSession } from '../../store/session';
import { useConvertDialog } from '../convert/useConvertDialog';
import { useTicket, type TicketSide } from '../../store/ticket';
import { tileOf, useWorkspaces } from '../../store/workspaces';
import type { TileBoard } from '../../model/tile-layout';
import './board.css';

const positive = (value: unknown): number | null => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) && n > 0 && n < 1 ? n : null;
};

/** Shares held of a token: the positions' word, else the balances' (the market the ticket shows). */
function sharesOf(
  tokenId: string | undefined,
  positions: readonly { tokenId?: string | null; size: number }[],
  outcomes: Record<string, number> | undefined,
): number {
  if (!tokenId) return 0;
  return positions.find((p) => p.tokenId === tokenId)?.size ?? outcomes?.[tokenId] ?? 0;
}

/** Memoised: resizing or moving tiles changes their boxes, not what the board shows. */
export const EventBoardView = memo(function EventBoardView({ tileId, board }: { tileId: string; board: TileBoard }) {
  const { protocol, eventId } = board;
  // Another network: the event is read and followed again there.
  const network = useSession((s) => s.network?.name ?? null);
  const wallet = useSession((s) => activeWalletInfo(s)?.label ?? null);
  const convert = useConvertDialog(wallet);
  useEffect(
    () => (network === null ? () => {} : followEvent(tileId, { protocol, eventId })),
    [tileId, protocol, eventId, network],
  );
  const store = marketStoreFor(tileId);
  const event = useStore(store, (s) => s.event);
  const books = useStore(store, (s) => s.books);
  const loadError = useStore(store, (s) => s.marketError);
  const bookError = useStore(store, (s) => s.bookError);
  const bookUnknown = useStore(store, (s) => s.bookUnknown);
  const positions = useAccount((s) => s.positions);
  const outcomes = useAccount((s) => s.balances?.outcomes);
  const picked = useWorkspaces((s) => tileOf(tileId, s)?.market?.marketId ?? null);

  const model = useMemo(() => {
    if (!event) return null;
    const markets = event.markets.filter((m: Market) => m.position_tokens.length > 0);
    const inputs = markets.map((m): BoardOutcomeInput => {
      const [yes, no] = m.position_tokens;
      return {
        marketId: m.id,
        name: outcomeNameOf(m),
        yesTokenId: yes!.token_id,
        noTokenId: no?.token_id ?? null,
        ...(books[yes!.token_id] ? { book: books[yes!.token_id] } : {}),
        last: positive(m.lastTradePrice),
        listed: positive(yes!.price),
        change24h: typeof m.oneDayPriceChange === 'number' ? m.oneDayPriceChange : null,
        yesShares: sharesOf(yes!.token_id, positions, outcomes),
        noShares: sharesOf(no?.token_id, positions, outcomes),
      };
    });
    const exclusive = event.neg_risk === true || (markets.length > 1 && markets.every((m) => m.neg_risk === true));
    return { ...eventBoard(inputs, exclusive), exclusive };
  }, [event, books, positions, outcomes]);

  // The row the keyboard is on: by market, so it stays on its outcome as the rows re-sort.
  const [chosen, setChosen] = useState<string | null>(null);
  const rows = model?.rows ?? [];
  const current = rows.find((r) => r.marketId === chosen) ?? rows.find((r) => r.marketId === picked) ?? rows[0];
  const latest = useRef({ rows, current });
  latest.current = { rows, current };

  // The board's keys while it has the focus (registered last, so they win over the ticket's b/s meanwhile).
  const [focused, setFocused] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!focused) return;
    const move = (step: 1 | -1) => {
      const { rows: all, current: on } = latest.current;
      if (all.length === 0) return;
      const at = on ? all.indexOf(on) : -1;
      const next = all[Math.min(Math.max(at + step, 0), all.length - 1)]!;
      setChosen(next.marketId);
    };
    const trade = (side: TicketSide | null) => {
      const on = latest.current.current;
      if (!on) return;
      const price = side === 'BUY' ? on.bestAsk : side === 'SELL' ? on.bestBid : null;
      if (side && price !== null) {
        fillTicketFromBoard(tileId, { protocol, eventId }, on, side, price);
        useTicket.getState().focusSide(side);
      } else pickBoardOutcome(tileId, { protocol, eventId }, on.marketId, on.yesTokenId);
    };
    const stops = [
      registerShortcut({ key: 'ArrowDown', description: 'Event board: next outcome', run: () => move(1) }),
      registerShortcut({ key: 'ArrowUp', description: 'Event board: previous outcome', run: () => move(-1) }),
      registerShortcut({
        key: 'Enter',
        description: 'Event board: trade the chosen outcome (on a price: fill the ticket at it)',
        // A price button Tabbed to is pressed as its click; anywhere else on the board, the chosen row goes to the ticket.
        run: (event) => {
          const target = event.target as HTMLElement | null;
          if (target?.tagName === 'BUTTON' && root.current?.contains(target)) target.click();
          else trade(null);
        },
      }),
      registerShortcut({
        key: 'b',
        description: "Event board: buy the chosen outcome's Yes at its ask (fills the ticket)",
        run: () => trade('BUY'),
      }),
      registerShortcut({
        key: 's',
        description: "Event board: sell the chosen outcome's Yes at its bid (fills the ticket)",
        run: () => trade('SELL'),
      }),
    ];
    return () => stops.forEach((stop) => stop());
  }, [focused, tileId, protocol, eventId]);

  // The chosen row stays in view as the keys move it.
  const currentId = current?.marketId;
  useEffect(() => {
    if (!focused || !currentId) return;
    root.current
      ?.querySelector<HTMLElement>(`[data-market-id="${CSS.escape(currentId)}"]`)
      ?.scrollIntoView({ block: 'nearest' });
  }, [focused, currentId]);

  const title = event?.title ?? 'Event board';
  let body: ReactNode;
  if (loadError)
    body = (
      <div className="board-state error-text" role="alert" data-testid="board-error">
        {loadError}
      </div>
    );
  else if (!model)
    body = (
      <div className="board-state muted" role="status" data-testid="board-loading">
        Loading the event…
      </div>
    );
  else if (rows.length === 0)
    body = (
      <div className="board-state muted" data-testid="board-empty">
        This event has no markets to show.
      </div>
    );
  else
    body = (
      <>
        <div
          className="board-grid"
          role="grid"
          aria-label={`Outcomes of ${title}, highest Yes price first. Up and down arrows choose one; b buys at its ask, s sells at its bid.`}
          aria-rowcount={rows.length + 1}
          tabIndex={0}
          data-testid="board-grid"
        >
          <div className="board-row board-head" role="row" aria-rowindex={1}>
            <span role="columnheader">Outcome</span>
            <span role="columnheader" className="num" title="Best Yes bid: click to sell Yes at it">
              Bid
            </span>
            <span role="columnheader" className="num" title="Best Yes ask: click to buy Yes at it">
              Ask
            </span>
            <span role="columnheader" className="num" title="Last trade, in Yes">
              Last
            </span>
            <span role="columnheader" className="num">
              Spread
            </span>
            <span role="columnheader" className="num" title="Change of the Yes price over 24 hours">
              24h
            </span>
            <span role="columnheader" className="num" title="Your shares in this outcome">
              Position
            </span>
          </div>
          {rows.map((row, i) => (
            <BoardLine
              key={row.marketId}
              row={row}
              index={i}
              chosen={row.marketId === current?.marketId}
              picked={row.marketId === picked}
              onPick={(side, price) => {
                setChosen(row.marketId);
                fillTicketFromBoard(tileId, { protocol, eventId }, row, side, price);
              }}
              onChoose={() => setChosen(row.marketId)}
            />
          ))}
        </div>
        <div className="board-sums" data-testid="board-sums">
          <p data-testid="board-asks-sum" data-units={model.asks.units} data-complete={model.asks.missing.length === 0}>
            {model.asksWords}
          </p>
          <p data-testid="board-bids-sum" data-units={model.bids.units} data-complete={model.bids.missing.length === 0}>
            {model.bidsWords}
          </p>
        </div>
      </>
    );

  return (
    <div
      ref={root}
      className="panel event-board"
      data-testid="event-board"
      data-event-id={eventId}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <div className="board-header">
        <div className="board-heading">
          <h2 className="board-title" data-testid="board-title" title={title}>
            {title}
          </h2>
          {model && (
            <span className="muted board-kind">
              {rows.length} outcomes · {model.exclusive ? 'one of them wins (negative risk)' : 'not exclusive'}
            </span>
          )}
        </div>
        {/* The event's actions, right of the title: a negative-risk event's No shares convert into the others' Yes. */}
        <div className="board-actions" role="toolbar" aria-label="Event actions" data-testid="board-actions">
          {model?.exclusive ? (
            <button
              type="button"
              data-testid="board-convert"
              disabled={!wallet}
              title={
                wallet
                  ? "Give No shares of some of this event's outcomes for Yes shares of the others and pUSD"
                  : 'Unlock a wallet to convert'
              }
              onClick={() => convert.open(eventId, current?.marketId)}
            >
              Convert…
            </button>
          ) : null}
        </div>
      </div>
      {convert.dialog}
      {(bookUnknown || bookError) && (
        <div className="board-warning muted" role="status" data-testid="board-warning">
          {bookUnknown ? `${bookAsOf(bookUnknown)}: these books may no longer be the exchange's.` : bookError}
        </div>
      )}
      {body}
    </div>
  );
});

interface LineProps {
  row: BoardRow;
  index: number;
  chosen: boolean;
  picked: boolean;
  onPick(side: TicketSide, price: number): void;
  onChoose(): void;
}

/** One outcome; memoised on its values, so a book update renders only the rows it changed. */
const BoardLine = memo(
  function BoardLine({ row, index, chosen, picked, onPick, onChoose }: LineProps) {
    const priceButton = (side: 'bid' | 'ask', price: number | null) => {
      if (!row.hasBook)
        return (
          <span className="muted" title="Its book is loading">
            …
          </span>
        );
      if (price === null) return <span className="muted">{side === 'bid' ? 'no bid' : 'no ask'}</span>;
      const cents = boardCents(price);
      const action = side === 'ask' ? `Buy Yes of ${row.name} at ${cents}` : `Sell Yes of ${row.name} at ${cents}`;
      return (
        <button
          type="button"
          className={`ghost price-button ${side}`}
          data-testid={`board-${side}`}
          data-price={String(price)}
          aria-label={`${action}: fills the ticket`}
          title={`${action}: fills the ticket`}
          onClick={() => onPick(side === 'ask' ? 'BUY' : 'SELL', price)}
        >
          {cents}
        </button>
      );
    };
    const position = row.positions.map((p) => `${formatShares(p.shares)} ${p.side}`).join(' · ');
    return (
      <div
        className={`board-row${chosen ? ' chosen' : ''}${picked ? ' picked' : ''}`}
        role="row"
        aria-rowindex={index + 2}
        aria-selected={chosen}
        data-testid="board-row"
        data-market-id={row.marketId}
        onClick={onChoose}
      >
        <span role="rowheader" className="board-name" title={row.name}>
          {row.name}
        </span>
        <span role="gridcell" className="num">
          {priceButton('bid', row.bestBid)}
        </span>
        <span role="gridcell" className="num">
          {priceButton('ask', row.bestAsk)}
        </span>
        <span role="gridcell" className="num" data-testid="board-last">
          {boardCents(row.last)}
        </span>
        <span role="gridcell" className="num" data-testid="board-spread">
          {boardCents(row.spread)}
        </span>
        <span
          role="gridcell"
          className={`num ${row.change24h === null || row.change24h === 0 ? '' : row.change24h > 0 ? 'up' : 'down'}`}
          data-testid="board-change"
        >
          {changeCents(row.change24h)}
        </span>
        <span role="gridcell" className="num" data-testid="board-position" aria-label={position || 'No position'}>
          {position || '—'}
        </span>
      </div>
    );
  },
  (a, b) =>
    a.chosen === b.chosen &&
    a.picked === b.picked &&
    a.index === b.index &&
    a.row.bestBid === b.row.bestBid &&
    a.row.bestAsk === b.row.bestAsk &&
    a.row.last === b.row.last &&
    a.row.change24h === b.row.change24h &&
    a.row.hasBook === b.row.hasBook &&
    a.row.name === b.row.name &&
    JSON.stringify(a.row.positions) === JSON.stringify(b.row.positions),
);
