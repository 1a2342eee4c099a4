// Positions (with PnL), trades (pending until the exchange says CONFIRMED) and balances of the active
// wallet, with CSV exports of positions and trades.
import { useCallback, useEffect, useState } from 'react';
import type { PositionInfo, TradeInfo } from '../../../../shared/contract';
import { refreshHoldings, useAccount } from '../../store/account';
import { quoteStoreOf, useTileTokens } from '../../store/market';
import { showMarketPrices, useRefreshedQuotes } from '../../store/quotes';
import { focusedTileId, useWorkspaces } from '../../store/workspaces';
import { useSelection } from '../../store/selection';
import { useTicket } from '../../store/ticket';
import { WindowedRows } from '../../live/visible-rows';
import { liveQuote } from '../../model/live-quote';
import { finalQuote, quoteOf, type Quote } from '../../model/quote';
import { positionFigures, positionTotals, positionsCsv, tradeTime, tradesCsv } from '../../model/account-math';
import { downloadText, exportFileName } from '../../bridge/download';
import { OutcomeLabel } from './OutcomeLabel';
import { PositionsTable } from './PositionsTable';
import { FundsView, PositionActions, useAccountFunds, useMoneyDialog } from './Funds';
import { useWalletAccount } from '../wallets/AccountChoice';
import { useSession } from '../../store/session';
import { useConvertDialog } from '../convert/useConvertDialog';
import { TraderLink } from '../profile/TraderLink';
import { openStopDialog } from '../../store/stops';
import { formatShares, formatTickCents, formatUsd } from '../../format/numbers';

function ExportButton({ what, count, make, testId }: { what: string; count: number; make(): string; testId: string }) {
  return (
    <button
      type="button"
      data-testid={testId}
      disabled={count === 0}
      title={count === 0 ? `No ${what} to export.` : `Save the ${what} as a CSV file`}
      onClick={() => downloadText(exportFileName(what), make())}
    >
      Export CSV
    </button>
  );
}

/**
 * The positions' current prices through the price model: each token's from the tile that follows it live (the
 * focused one first, else any tile showing it — the same store the header, grid and ticket read, so one token has
 * one price on the page at one instant), else the listed price. Re-read when a tile's store changes, and drawn
 * again only when one of these quotes moved: another token's book moves nothing here.
 */
function usePositionQuotes(positions: readonly PositionInfo[]): Quote[] {
  const read = useCallback(
    () =>
      positions.map((p) => {
        const live = liveQuote(quoteStoreOf(p.tokenId).getState(), p.tokenId);
        // A resolved market pays 1 or 0: its price is the payout, not a quote of a book.
        if (p.redeemable) return live?.basis === 'final' ? live : finalQuote(p.currentPrice);
        if (live && (live.basis !== null || live.live)) return live;
        // No tile follows it: as the shown markets' schedule last read it (the grid's number), else as listed.
        const refreshed = p.tokenId ? useRefreshedQuotes.getState()[p.tokenId] : undefined;
        return refreshed && refreshed.basis !== null
          ? refreshed
          : quoteOf({ bestBid: null, bestAsk: null, listed: p.currentPrice, live: false });
      }),
    [positions],
  );
  const [shown, setShown] = useState(() => ({ positions, quotes: read() }));
  // Which tiles show which tokens, and which is focused, decide the stores: followed again when they change.
  const tileTokens = useTileTokens((s) => s);
  const focused = useWorkspaces((s) => focusedTileId(s));
  useEffect(() => {
    const update = () =>
      setShown((before) => {
        const quotes = read();
        return before.positions === positions && sameQuotes(before.quotes, quotes) ? before : { positions, quotes };
      });
    update();
    const stores = new Set(positions.map((p) => quoteStoreOf(p.tokenId)));
    const offs = [...stores, useRefreshedQuotes].map((store) => store.subscribe(update));
    // Shown rows keep their markets' prices fresh on the schedule, as the grid's rows do.
    const shown = [...new Set(positions.flatMap((p) => (p.marketId && !p.redeemable ? [p.marketId] : [])))].map((id) =>
      showMarketPrices('polymarket', id),
    );
    return () => [...offs, ...shown].forEach((off) => off());
  }, [read, positions, tileTokens, focused]);
  // Positions read again since: their quotes now, until the effect follows them.
  return shown.positions === positions ? shown.quotes : read();
}

const sameQuotes = (a: readonly Quote[], b: readonly Quote[]) =>
  a.length === b.length &&
  a.every(
    (q, i) =>
      q.price === b[i]!.price &&
      q.basis === b[i]!.basis &&
      q.bestBid === b[i]!.bestBid &&
      q.bestAsk === b[i]!.bestAsk &&
      q.live === b[i]!.live,
  );

/** Opens a position's market in the market view and the ticket (the same market: no change). */
function openMarket(p: PositionInfo): void {
  const { market, selectMarket, selectToken } = useSelection.getState();
  if (!p.marketId) return;
  if (market?.marketId !== p.marketId) selectMarket({ protocol: 'polymarket', marketId: p.marketId });
  if (p.tokenId) selectToken(p.tokenId);
}

/** Close (market SELL of the whole size, through the ticket's confirmation) or Limit sell (the ticket filled, to review). */
function sellPosition(p: PositionInfo, kind: 'market' | 'limit', quote: Quote): void {
  if (!p.marketId) return;
  openMarket(p);
  const price = quote.bestBid ?? quote.price;
  useTicket.getState().sellPosition({
    marketId: p.marketId,
    conditionId: p.conditionId,
    tokenId: p.tokenId ?? null,
    outcome: p.outcome,
    size: p.size,
    kind,
    ...(kind === 'limit' && price !== null ? { priceCents: String(Math.round(price * 10_000) / 100) } : {}),
  });
}

function SellActions({ position, quote }: { position: PositionInfo; quote: Quote }) {
  const whyNot = !position.marketId
    ? 'This market could not be found on this network: open it from the markets grid to sell.'
    : null;
  return (
    <>
      <button
        type="button"
        className="sell"
        data-testid="position-close"
        disabled={!!whyNot}
        title={whyNot ?? 'Sell the whole position at the market (FOK): review the estimate before it is sent'}
        onClick={() => sellPosition(position, 'market', quote)}
      >
        Close
      </button>
      <button
        type="button"
        data-testid="position-limit-sell"
        disabled={!!whyNot}
        title={whyNot ?? 'Fill the ticket with a limit SELL of the whole position at the best bid, to review and place'}
        onClick={() => sellPosition(position, 'limit', quote)}
      >
        Limit sell
      </button>
    </>
  );
}

export function Positions() {
  const positions = useAccount((s) => s.positions);
  const error = useAccount((s) => s.positionsError);
  const loaded = useAccount((s) => s.positionsLoaded);
  const wallet = useAccount((s) => s.wallet);
  const { funds } = useAccountFunds(wallet);
  const money = useMoneyDialog(wallet);
  const convert = useConvertDialog(wallet);
  const unavailable = funds?.actionsUnavailable ?? null;
  const quotes = usePositionQuotes(positions);
  // The account these positions are held by (its Polymarket account when known, else the key): its public profile.
  const accountAddress = useWalletAccount((s) => (wallet ? s.byWallet[wallet]?.account.address : undefined));
  const keyAddress = useSession((s) => s.wallets.find((w) => w.label === wallet)?.address);
  const rows = positions.map((p, i) => ({
    position: p,
    quote: quotes[i]!,
    current: quotes[i]!.price,
    figures: positionFigures(p, quotes[i]!.price),
  }));
  const totals = positionTotals(rows.map((r) => r.figures));
  // Opening the tab reads the positions again: a market that resolved since changes no trade, so nothing else would.
  useEffect(() => {
    if (wallet) void refreshHoldings(wallet);
  }, [wallet]);
  return (
    <div className="account-tab" data-testid="positions">
      <div className="account-actions">
        {/* Read before and failing now: the rows stay, marked; never read: the reason is the tab's whole content. */}
        {error && loaded ? <span className="error-text">{error}</span> : null}
        <span data-testid="own-profile-link">
          <TraderLink address={accountAddress ?? keyAddress} name="Your trader profile" />
        </span>
        <ExportButton
          what="positions"
          count={positions.length}
          make={() => positionsCsv(rows)}
          testId="export-positions"
        />
      </div>
      {!loaded ? (
        error ? (
          <div className="error-text" data-testid="positions-unread">
            {error}
          </div>
        ) : (
          <div className="empty">Reading positions…</div>
        )
      ) : positions.length === 0 ? (
        <div className="empty">No positions.</div>
      ) : (
        <PositionsTable
          withActions
          totals={totals}
          rows={rows.map(({ position: p, quote, figures }) => ({
            key: `${p.conditionId}:${p.outcome}`,
            market: p.question || p.marketSlug || p.conditionId || '—',
            marketTitle: `${p.question || p.marketSlug || ''}${p.conditionId ? ` (market ${p.conditionId})` : ''}`,
            outcome: p.outcome,
            size: p.size,
            averagePrice: p.averagePrice,
            currentPrice: p.currentPrice,
            currentValue: figures.value,
            pnl: figures.pnl,
            pnlPercent: figures.pnlPercent,
            pnlTitle: figures.pnl === null ? 'No average price: PnL unknown' : 'Value − size × average price',
            quote,
            tokenId: p.tokenId,
            ...(p.marketId ? { onOpenMarket: () => openMarket(p) } : {}),
            actions: (
              <span className="row position-actions">
                {p.redeemable ? null : <SellActions position={p} quote={quote} />}
                {p.redeemable || !p.marketId || !p.tokenId ? null : (
                  <button
                    type="button"
                    data-testid="position-stop"
                    title="A stop-loss or take-profit on this position (runs only while PM Desk is open)"
                    onClick={() =>
                      openStopDialog({
                        marketId: p.marketId!,
                        tokenId: p.tokenId!,
                        market: p.question ?? undefined,
                        outcome: p.outcome,
                        size: p.size,
                      })
                    }
                  >
                    Stop…
                  </button>
                )}
                <PositionActions position={p} unavailable={unavailable} open={money.open} />
                {p.negRisk && p.eventSlug && !p.redeemable && p.outcome.toLowerCase() === 'no' ? (
                  <button
                    type="button"
                    data-testid="position-convert"
                    disabled={!!unavailable}
                    title={
                      unavailable ?? "Give these No shares for Yes shares of the event's other outcomes (and pUSD)"
                    }
                    onClick={() => convert.open(p.eventSlug!, p.marketId ?? undefined)}
                  >
                    Convert…
                  </button>
                ) : null}
              </span>
            ),
          }))}
        />
      )}
      {money.dialog}
      {convert.dialog}
    </div>
  );
}

function TradeStatus({ status, pending }: { status: string; pending: boolean }) {
  const failed = status.toUpperCase() === 'FAILED';
  const label = failed ? 'failed' : pending ? 'pending' : 'confirmed';
  return (
    <span className={`badge ${label}`} title={`The exchange says ${status || 'nothing yet'}`} data-status={label}>
      {label}
      {pending && status ? <span className="muted"> · {status.toLowerCase()}</span> : null}
    </span>
  );
}

const shortHash = (hash: string) => `${hash.slice(0, 8)}…${hash.slice(-4)}`;

export function Trades() {
  const trades = useAccount((s) => s.trades);
  const tradesLoaded = useAccount((s) => s.loaded);
  const tradesError = useAccount((s) => s.ordersError);
  // The CSV names each trade as the table does: its own names, else the markets the terminal knows.
  const names = () => {
    const known = useAccount.getState().outcomeNames;
    return (t: TradeInfo) =>
      known[t.tokenId] ? { question: known[t.tokenId]!.market, outcome: known[t.tokenId]!.outcome } : undefined;
  };
  return (
    <div className="account-tab" data-testid="trades">
      <div className="account-actions">
        <ExportButton
          what="trades"
          count={trades.length}
          make={() => tradesCsv(trades, names())}
          testId="export-trades"
        />
      </div>
      {trades.length === 0 ? (
        // Never read on this network (the reason is above the tab): not "none", just unknown.
        <div className="empty">{tradesLoaded ? 'No trades.' : tradesError ? '' : 'Reading trades…'}</div>
      ) : (
        <table className="dense windowed" aria-rowcount={trades.length + 1}>
          <thead>
            <tr>
              <th>Time</th>
              <th>Outcome · market</th>
              <th>Side</th>
              <th className="num">Price</th>
              <th className="num">Size</th>
              <th className="num" title="The fee this trade paid (makers pay none on taker-only markets)">
                Fee
              </th>
              <th>Status</th>
              <th>Transaction</th>
            </tr>
          </thead>
          <WindowedRows
            rows={trades}
            columns={8}
            render={(t) => (
              <tr key={t.tradeId} data-trade-id={t.tradeId}>
                <td className="muted">{t.matchedAt ? tradeTime(t.matchedAt).toLocaleString() : '—'}</td>
                <td>
                  <OutcomeLabel
                    tokenId={t.tokenId}
                    conditionId={t.conditionId}
                    question={t.question}
                    outcome={t.outcome}
                  />
                </td>
                <td className={t.side === 'BUY' ? 'bid' : 'ask'}>{t.side}</td>
                <td className="num">{formatTickCents(t.price)}</td>
                <td className="num">{formatShares(t.size)}</td>
                <td
                  className="num"
                  data-testid="trade-fee"
                  title={t.fee === null || t.fee === undefined ? "The market's fee terms could not be read" : undefined}
                >
                  {t.fee === null || t.fee === undefined ? '—' : formatUsd(t.fee)}
                </td>
                <td>
                  <TradeStatus status={t.status} pending={t.pending} />
                </td>
                <td className="muted mono" data-testid="trade-tx" title={t.txHash ?? 'Not settled on the chain yet'}>
                  {t.txHash ? shortHash(t.txHash) : '—'}
                </td>
              </tr>
            )}
          />
        </table>
      )}
    </div>
  );
}

export function BalancesView() {
  const balances = useAccount((s) => s.balances);
  const error = useAccount((s) => s.balancesError);
  const wallet = useAccount((s) => s.wallet);
  return (
    <div className="account-tab" data-testid="balances">
      {wallet ? <FundsView wallet={wallet} /> : null}
      {error ? <div className="error-text">{error}</div> : null}
      {balances ? (
        <dl className="balances">
          <dt>Collateral (pUSD)</dt>
          <dd className="num" data-testid="collateral">
            {formatUsd(balances.collateral)}
          </dd>
          {/* Every holding (each position's token) and the open market's outcomes, held or not. */}
          {Object.entries(balances.outcomes).map(([tokenId, shares]) => (
            <div key={tokenId} className="contents" data-testid="balance-holding" data-token={tokenId}>
              <dt>
                <OutcomeLabel tokenId={tokenId} />
              </dt>
              <dd className="num">{formatShares(shares)} shares</dd>
            </div>
          ))}
        </dl>
      ) : (
        <div className="empty">{error ? '' : 'Reading balances…'}</div>
      )}
    </div>
  );
}
