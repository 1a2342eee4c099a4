// The order ticket: side, limit or market, price in cents on the market's tick, size in shares or dollars,
// time in force, post-only; what the order costs and pays before it is sent (main's preview, or a local
// estimate), every failed pre-trade check in a sentence, and a confirmation with the exact amounts. Where the
// region is blocked or the account close-only (main's checks), Submit is disabled with main's sentence. A market
// order always carries a worst price (Max price for a buy, Min price for a sell): the one typed, else the price the
// live book reaches and the trader's slippage; its figures follow the live book while the ticket or the
// confirmation is open, and a book that moved past the confirmed bound sends nothing (issue 28).
import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { ask, messageOf } from '../../bridge/terminal';
import { registerShortcut } from '../../keys/keyboard';
import { activeWalletInfo, useSession } from '../../store/session';
import { useSelection } from '../../store/selection';
import { useTicket, type TicketSide } from '../../store/ticket';
import { refreshAccount, useAccount } from '../../store/account';
import { refusedSide, useTradingAccess } from '../../store/trading-access';
import { ConfirmOrderDialog } from './ConfirmOrderDialog';
import { WrapOffer } from '../account/WrapOffer';
import { BookUnknownLine } from '../market/BookUnknown';
import { RewardScoringLine } from './RewardScoringLine';
import { cannotTradeLine } from '../../model/market';
import { useMarket } from '../../store/market';
import { MoneyDialog } from '../account/MoneyDialog';
import { intentKey, usePreview, type PreviewState } from './usePreview';
import { useTradedMarket, type TradedMarket } from './useTradedMarket';
import { QuotePrice } from '../../prices/useQuote';
import { usePositionSell } from './usePositionSell';
import { useKeyboardTrading } from './useKeyboardTrading';
import {
  availableAfterOrders,
  draftOrder,
  parseAmount,
  quickAmount,
  toWin,
  type Drafted,
  type OrderIntent,
} from './order-math';
import { marketAmount, marketBound, stillFills } from './market-bound';
import { SlippageField } from './SlippageField';
import { postOnlyCrossing } from '../../../../shared/post-only';
import './ticket.css';
import { formatShares, formatTickCents, formatUsd, priceToCents } from '../../format/numbers';

interface LastResult {
  tone: 'success' | 'error' | 'info';
  message: string;
}

export function OrderTicket() {
  const ticket = useTicket();
  const wallet = useSession(activeWalletInfo);
  const selectedMarket = useSelection((s) => s.market);
  const tokenId = useSelection((s) => s.tokenId);
  const selectToken = useSelection((s) => s.selectToken);
  const { market, loading, error: marketError, tickWarning } = useTradedMarket();
  const outcome = market?.outcomes.find((o) => o.tokenId === tokenId) ?? null;
  const held = useAccount((s) => (tokenId ? s.balances?.outcomes[tokenId] : undefined));
  const collateral = useAccount((s) => s.balances?.collateral);
  const openOrders = useAccount((s) => s.openOrders);
  const available = useMemo(
    () => (collateral === undefined ? null : availableAfterOrders({ collateral, shares: held, tokenId, openOrders })),
    [collateral, held, tokenId, openOrders],
  );

  /** The order under confirmation; `refusal`: main's sentence when the click found the book past its bound. */
  const [confirming, setConfirming] = useState<{
    intent: OrderIntent;
    drafted: Drafted & { ok: true };
    refusal?: string;
  } | null>(null);
  const [placing, setPlacing] = useState(false);
  /** The wrap the not-enough-pUSD problem offered, while its dialog is open. */
  const [wrapping, setWrapping] = useState<string | null>(null);
  const [fundsRevision, setFundsRevision] = useState(0);
  const [result, setResult] = useState<LastResult | null>(null);

  // The outcome's live book (the focused tile's, which follows the selection): what a market order is priced from.
  const book = useMarket((m) => (tokenId ? m.books[tokenId] : undefined));
  const slippageTicks = useSession((s) => s.settings.marketSlippageTicks);
  const typedAmount = parseAmount(ticket.amount);
  const bound = useMemo(
    () =>
      ticket.kind === 'market' && market && typedAmount !== null
        ? marketBound(book, ticket.side, typedAmount, ticket.sizeUnit, slippageTicks, market.tickSize)
        : undefined,
    [ticket.kind, ticket.side, ticket.sizeUnit, typedAmount, book, slippageTicks, market],
  );
  const drafted: Drafted | null = useMemo(() => {
    if (!market || !outcome || !wallet) return null;
    const terms = {
      marketId: market.marketId,
      tokenId: outcome.tokenId,
      tickSize: market.tickSize,
      minOrderSize: market.minOrderSize,
      referencePrice: outcome.price,
      ...(bound ? { marketBound: bound } : {}),
    };
    return draftOrder(ticket, terms, wallet.label, Math.floor(Date.now() / 1000));
  }, [ticket, market, outcome, wallet, bound]);
  const intent = drafted?.ok ? drafted.intent : null;
  // A market order's preview is asked again as its book changes: the figures follow the live book.
  const bookRevision = ticket.kind === 'market' ? (book?.hash ?? '') : '';
  // Main checks the same order again when what it checks changed: the wallet, the book, and what the account holds
  // (a fill, a Close): a refusal is never left to the click.
  const preview = usePreview(
    intent,
    `${fundsRevision}:${wallet?.unlocked ? 'unlocked' : 'locked'}:${bookRevision}:${held ?? ''}:${collateral ?? ''}`,
  );
  const confirmingMarket =
    confirming && (confirming.intent.orderType === 'FOK' || confirming.intent.orderType === 'FAK')
      ? confirming.intent
      : null;
  const confirmPreview = usePreview(
    confirming?.intent ?? null,
    `${fundsRevision}:${confirmingMarket ? (book?.hash ?? '') : ''}`,
  );
  const blocking = preview.status === 'ready' ? preview.preview.problems.find((p) => p.blocking) : undefined;
  const access = useTradingAccess((s) => s.access);
  const refused = refusedSide(access, ticket.side);

  // A book that cannot be read (the exchange unreachable) is no book to trade against: the ticket waits for it.
  const bookUnknown = useMarket((m) => m.bookUnknown);
  // A sell of more than the trader holds now (after a Close or any fill, the holdings read again): said before
  // Review, from the account the ticket shows, without waiting for main's preview of an order it already checked.
  const short = sellShortfall(intent, available?.shares ?? held, held, outcome?.name ?? '');
  // A post-only order the live book would match at once: the exchange would refuse it, so the ticket says so first.
  const crossing =
    intent?.postOnly && intent.price !== undefined
      ? postOnlyCrossing({ side: intent.side, price: intent.price }, book)
      : null;
  const whyNot = disabledReason({
    refused: refused ?? (bookUnknown ? cannotTradeLine(bookUnknown) : null),
    walletLabel: wallet?.label,
    unlocked: wallet?.unlocked,
    hasMarket: !!selectedMarket,
    market,
    loading,
    outcome: !!outcome,
    drafted,
    placing,
    blocking: short ?? crossing ?? blocking?.message,
  });

  // An order typed for another market means nothing here: a new market starts with a fresh ticket (BUY,
  // limit, no price, no size), as Polymarket's does, so nothing is sent to the wrong market by habit.
  const marketId = selectedMarket?.marketId;
  useEffect(() => {
    // A price picked on an event board for this market just before it became the ticket's is kept (ticket.ts).
    useTicket.getState().reset(marketId);
    setResult(null);
  }, [marketId]);

  // The last result speaks of the last order: once the trader edits the next one, it goes.
  const { side, kind, priceCents, amount, sizeUnit, orderType, expiry, postOnly } = ticket;
  useEffect(() => {
    setResult((r) => (r && r.tone !== 'info' ? null : r));
  }, [side, kind, priceCents, amount, sizeUnit, orderType, expiry, postOnly, tokenId]);

  // `b` and `s` from anywhere: the side is set by the store; focus follows so Enter/Space act on it.
  const buyRef = useRef<HTMLButtonElement>(null);
  const sellRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const offBuy = registerShortcut({
      key: 'b',
      description: 'Ticket: buy',
      run: () => useTicket.getState().focusSide('BUY'),
    });
    const offSell = registerShortcut({
      key: 's',
      description: 'Ticket: sell',
      run: () => useTicket.getState().focusSide('SELL'),
    });
    return () => {
      offBuy();
      offSell();
    };
  }, []);
  useEffect(() => {
    if (ticket.focusRequest === 0) return;
    // Only a new request moves focus, not every side click: the side is read from the store once, when it comes.
    (useTicket.getState().side === 'BUY' ? buyRef : sellRef).current?.focus();
  }, [ticket.focusRequest]);

  const closeConfirm = useCallback(() => setConfirming(null), []);

  const review = () => {
    if (whyNot || !drafted?.ok) return;
    setResult(null);
    setConfirming({ intent: drafted.intent, drafted });
  };

  // Close and Limit sell from the Positions table: the same ticket, the same confirmation.
  const confirmSell = useCallback((sell: Drafted & { ok: true }) => {
    setResult(null);
    setConfirming({ intent: sell.intent, drafted: sell });
  }, []);
  usePositionSell(market, drafted, whyNot, blocking?.message, confirmSell);

  // The one way an order leaves the ticket: after its confirmation, or a keyboard order the trader chose to send unconfirmed.
  // Answers main's refusal, if any, so the confirmation can say why and offer the new numbers.
  const placeOrder = useCallback(async (order: OrderIntent): Promise<string | null> => {
    setPlacing(true);
    setResult({ tone: 'info', message: 'Sending the order…' });
    // Shown here, where the trader is looking; approvals and credentials arrive as notices on their own.
    try {
      const placed = await ask('placeOrder', order);
      const message = placed.orderId
        ? `${order.side} order ${placed.pending ? 'placed' : 'filled'}: ${placed.status || 'sent'}.`
        : `Nothing was placed (${placed.status || 'no match'}): the exchange took no order.`;
      setResult({ tone: placed.orderId ? 'success' : 'error', message });
      return null;
    } catch (error) {
      setResult({ tone: 'error', message: messageOf(error) });
      return messageOf(error);
    } finally {
      setPlacing(false);
      void refreshAccount(order.wallet);
    }
  }, []);
  const place = () => {
    if (!confirming) return;
    const confirmed = confirming;
    setConfirming(null);
    void placeOrder(confirmed.intent).then((refused) => {
      // The book moved past the bound before the click landed: main sent nothing. The confirmation comes back with
      // why, and the ticket's new numbers to review.
      if (refused && /The book moved past/.test(refused))
        setConfirming({ ...confirmed, refusal: refused.replace(/^The order was not placed:\s*-\s*/, '') });
    });
  };
  const placeNow = useCallback((order: OrderIntent) => void placeOrder(order), [placeOrder]);
  useKeyboardTrading({
    market,
    outcome,
    drafted,
    whyNot,
    blocking: blocking?.message,
    openConfirm: confirmSell,
    placeNow,
  });

  if (!selectedMarket) {
    return (
      <div className="panel ticket" data-testid="order-ticket">
        <div className="panel-header">Order ticket</div>
        <div className="empty">Choose a market to trade.</div>
      </div>
    );
  }

  const quick = (pick: { add: number } | { fraction: number }) => {
    if (!available) return;
    const next = quickAmount(pick, ticket, available);
    if (next) ticket.set(next);
  };

  const isLimit = ticket.kind === 'limit';
  const buying = ticket.side === 'BUY';
  const shown = preview.status === 'ready' ? preview.preview : drafted?.ok ? drafted.estimate : null;
  const priceWord = buying ? 'Max' : 'Min';
  // The live book's fill of the order under confirmation, within its bound; the ticket's own order when it differs.
  const liveConfirm = confirmingMarket && market ? stillFills(book, confirmingMarket, market.tickSize) : null;
  const newer =
    confirming && drafted?.ok && intentKey(drafted.intent) !== intentKey(confirming.intent) ? drafted : null;

  return (
    <div className="panel ticket" data-testid="order-ticket">
      <div className="panel-header">
        <span>Order ticket</span>
        <span className="muted ticket-question" data-testid="ticket-question" title={market?.question}>
          {market?.question ?? (loading ? 'Loading the market…' : '')}
        </span>
      </div>
      <div className="panel-body ticket-body">
        {access && !access.allowed ? (
          <div className={refused ? 'error-text' : 'warn'} role="alert" data-testid="ticket-access">
            {access.reason}
          </div>
        ) : null}
        {marketError ? <div className="error-text">{marketError}</div> : null}
        <BookUnknownLine />
        {market && !market.acceptingOrders ? (
          <div className="warn" data-testid="ticket-market-state">
            {noOrdersSentence(market)}
          </div>
        ) : null}
        {market ? (
          <div className="ticket-outcomes" role="group" aria-label="Outcome">
            {market.outcomes.map((o) => (
              <button
                key={o.tokenId}
                type="button"
                aria-pressed={o.tokenId === tokenId}
                className={o.tokenId === tokenId ? 'selected' : ''}
                onClick={() => selectToken(o.tokenId)}
              >
                <span className="ticket-outcome">
                  {o.name}{' '}
                  {/* The outcome's price as every panel shows it (the price model: mid, or last when the spread is wide). */}
                  <QuotePrice tokenId={o.tokenId} fallback={{ listed: o.price }} className="muted" />
                </span>
              </button>
            ))}
          </div>
        ) : null}

        <div className="ticket-sides" role="group" aria-label="Side">
          <SideButton side="BUY" current={ticket.side} buttonRef={buyRef} onPick={(side) => ticket.set({ side })} />
          <SideButton side="SELL" current={ticket.side} buttonRef={sellRef} onPick={(side) => ticket.set({ side })} />
        </div>

        <div className="tabs ticket-kinds" role="tablist" aria-label="Order kind">
          {(['limit', 'market'] as const).map((kind) => (
            <button
              key={kind}
              type="button"
              role="tab"
              aria-selected={ticket.kind === kind}
              data-testid={`ticket-kind-${kind}`}
              onClick={() =>
                ticket.set({
                  kind,
                  orderType: kind === 'limit' ? 'GTC' : 'FOK',
                  postOnly: kind === 'limit' ? ticket.postOnly : false,
                })
              }
            >
              {kind === 'limit' ? 'Limit' : 'Market'}
            </button>
          ))}
        </div>

        <div className="field">
          <label htmlFor="ticket-price">{isLimit ? 'Limit price (¢)' : `${priceWord} price (¢)`}</label>
          <input
            id="ticket-price"
            data-testid="ticket-price"
            inputMode="decimal"
            autoComplete="off"
            placeholder={
              isLimit
                ? 'e.g. 45'
                : bound && 'worst' in bound && market
                  ? priceToCents(bound.worst, market.tickSize)
                  : 'from the book'
            }
            value={ticket.priceCents}
            onChange={(e) => ticket.set({ priceCents: e.target.value })}
          />
          {market ? (
            <span className="muted hint">
              Tick {formatTickCents(Number(market.tickSize), market.tickSize)}
              {market.minOrderSize !== null ? ` · minimum ${market.minOrderSize} shares` : ''}
            </span>
          ) : null}
          {drafted && !drafted.ok && drafted.choices && market ? (
            <span className="row ticket-price-choices" data-testid="ticket-price-choices">
              {drafted.choices.map((p) => {
                const cents = priceToCents(p, market.tickSize);
                return (
                  <button
                    key={cents}
                    type="button"
                    data-testid="ticket-price-choice"
                    onClick={() => ticket.set({ priceCents: cents })}
                  >
                    {cents}¢
                  </button>
                );
              })}
            </span>
          ) : null}
          {!isLimit && market ? (
            <SlippageField
              side={ticket.side}
              bound={bound}
              typed={ticket.priceCents.trim() !== ''}
              tickSize={market.tickSize}
              ticks={slippageTicks}
            />
          ) : null}
          {tickWarning ? (
            <span className="warn" role="alert" data-testid="ticket-tick-warning">
              {tickWarning}
            </span>
          ) : null}
        </div>

        <div className="field">
          <label htmlFor="ticket-size">Size</label>
          <div className="row">
            <input
              id="ticket-size"
              data-testid="ticket-size"
              inputMode="decimal"
              autoComplete="off"
              placeholder={ticket.sizeUnit === 'usd' ? 'dollars' : 'shares'}
              value={ticket.amount}
              onChange={(e) => ticket.set({ amount: e.target.value })}
            />
            <select
              aria-label="Size unit"
              data-testid="ticket-size-unit"
              value={ticket.sizeUnit}
              onChange={(e) => ticket.set({ sizeUnit: e.target.value as 'shares' | 'usd' })}
            >
              <option value="shares">shares</option>
              <option value="usd">USDC</option>
            </select>
          </div>
          <div className="row ticket-quick" role="group" aria-label="Quick amounts">
            {buying
              ? [10, 100].map((add) => (
                  <button key={add} type="button" data-testid={`ticket-quick-${add}`} onClick={() => quick({ add })}>
                    +${add}
                  </button>
                ))
              : null}
            {(
              [
                ['25', 0.25, '25 %'],
                ['50', 0.5, '50 %'],
                ['max', 1, 'Max'],
              ] as const
            ).map(([id, fraction, label]) => (
              <button
                key={id}
                type="button"
                data-testid={`ticket-quick-${id}`}
                disabled={!available || (!buying && !(available.shares! > 0))}
                onClick={() => quick({ fraction })}
              >
                {label}
              </button>
            ))}
          </div>
          {buying && available ? (
            <span
              className="muted hint"
              data-testid="ticket-available"
              title="Your balance less what your open buy orders hold"
            >
              Available {formatUsd(available.dollars)}
              {available.heldByOrders > 0 ? ` (${formatUsd(available.heldByOrders)} held by open orders)` : ''}
            </span>
          ) : null}
          {!buying && held !== undefined ? (
            <span className="muted hint" data-testid="ticket-available">
              You hold {formatShares(held)} {outcome?.name ?? ''} shares
              {available && available.sharesInOrders > 0
                ? ` (${formatShares(available.sharesInOrders)} in open orders)`
                : ''}
            </span>
          ) : null}
        </div>

        <div className="field">
          <label htmlFor="ticket-order-type">Time in force</label>
          <select
            id="ticket-order-type"
            data-testid="ticket-order-type"
            value={ticket.orderType}
            onChange={(e) => ticket.set({ orderType: e.target.value as 'GTC' | 'GTD' | 'FOK' | 'FAK' })}
          >
            {isLimit ? (
              <>
                <option value="GTC">GTC — until cancelled</option>
                <option value="GTD">GTD — until a date</option>
              </>
            ) : (
              <>
                <option value="FOK">FOK — all at once or nothing</option>
                <option value="FAK">FAK — what fills now, rest cancelled</option>
              </>
            )}
          </select>
        </div>
        {isLimit && ticket.orderType === 'GTD' ? (
          <div className="field">
            <label htmlFor="ticket-expiry">Expires</label>
            <input
              id="ticket-expiry"
              data-testid="ticket-expiry"
              type="datetime-local"
              value={ticket.expiry}
              onChange={(e) => ticket.set({ expiry: e.target.value })}
            />
          </div>
        ) : null}
        {/* Post-only only means something for an order that can rest: a market order does not see it. */}
        {isLimit ? (
          <label
            className="row ticket-check"
            title="Refused rather than matched on arrival: the order only adds liquidity."
          >
            <input
              type="checkbox"
              data-testid="ticket-post-only"
              checked={ticket.postOnly}
              onChange={(e) => ticket.set({ postOnly: e.target.checked })}
            />
            Post-only
          </label>
        ) : null}

        {isLimit ? (
          <RewardScoringLine
            conditionId={market?.conditionId ?? null}
            price={intent?.price}
            size={intent?.size ?? (intent?.amountUsd && intent.price ? intent.amountUsd / intent.price : undefined)}
            book={book}
          />
        ) : null}
        <Summary
          buying={buying}
          market={market}
          shown={shown}
          preview={preview}
          estimatedAt={drafted?.ok && !isLimit ? drafted.estimate.price : null}
          usdAmount={intent?.amountUsd}
          marketPrices={
            !isLimit && intent?.price !== undefined
              ? {
                  word: priceWord,
                  worst: intent.price,
                  average:
                    preview.status === 'ready' && preview.preview.shares > 0
                      ? preview.preview.cost / preview.preview.shares
                      : bound && 'worst' in bound
                        ? bound.fill.average
                        : null,
                }
              : null
          }
        />

        <div className="ticket-problems" data-testid="ticket-problems" aria-live="polite">
          {preview.status === 'ready'
            ? preview.preview.problems.map((p) => (
                <div key={p.check} className={p.blocking ? 'error-text' : 'warn'}>
                  {p.message}
                  {p.check === 'NOT_ENOUGH_COLLATERAL' && wallet ? (
                    <WrapOffer wallet={wallet.label} needed={preview.preview.cost} onWrap={setWrapping} />
                  ) : null}
                </div>
              ))
            : null}
          {preview.status === 'failed' ? <div className="error-text">{preview.message}</div> : null}
          {preview.status === 'unavailable' ? (
            <div className="muted">
              Pre-trade checks run when you submit (main cannot preview orders in this session).
            </div>
          ) : null}
        </div>

        <button
          type="button"
          className={`ticket-submit ${buying ? 'buy' : 'sell'}`}
          data-testid="ticket-submit"
          disabled={!!whyNot}
          title={whyNot ?? 'Review the order before it is sent'}
          onClick={review}
        >
          {placing ? 'Sending…' : `Review ${ticket.side}${outcome ? ` ${outcome.name}` : ''}`}
        </button>
        {/* Main's blocking problem is already shown above, once: the button's title still says it. */}
        {whyNot && !placing && whyNot !== blocking?.message ? (
          <div className="muted hint" data-testid="ticket-why-not">
            {whyNot}
          </div>
        ) : null}
        {result ? (
          <div
            className={`ticket-result ${result.tone === 'error' ? 'error-text' : result.tone === 'success' ? 'bid' : 'muted'}`}
            role="status"
            data-testid="ticket-result"
          >
            {result.message}
          </div>
        ) : null}
      </div>
      {wrapping !== null && wallet ? (
        <MoneyDialog
          wallet={wallet.label}
          action="wrap"
          amount={wrapping}
          onClose={() => setWrapping(null)}
          onDone={() => {
            setFundsRevision((r) => r + 1);
            void refreshAccount(wallet.label);
          }}
        />
      ) : null}
      {confirming && market ? (
        <ConfirmOrderDialog
          intent={confirming.intent}
          preview={confirmPreview.status === 'ready' ? confirmPreview.preview : null}
          estimate={confirming.drafted.estimate}
          live={liveConfirm}
          refusal={confirming.refusal ?? null}
          newer={newer ? { intent: newer.intent, estimate: newer.estimate } : null}
          onUseNewer={() => newer && setConfirming({ intent: newer.intent, drafted: newer })}
          outcome={outcome?.name ?? ''}
          question={market.question}
          tickSize={market.tickSize}
          onConfirm={place}
          onClose={closeConfirm}
        />
      ) : null}
    </div>
  );
}

function SideButton({
  side,
  current,
  buttonRef,
  onPick,
}: {
  side: TicketSide;
  current: TicketSide;
  buttonRef: RefObject<HTMLButtonElement | null>;
  onPick(side: TicketSide): void;
}) {
  const selected = side === current;
  return (
    <button
      ref={buttonRef}
      type="button"
      data-testid={side === 'BUY' ? 'ticket-side-buy' : 'ticket-side-sell'}
      aria-pressed={selected}
      className={selected ? (side === 'BUY' ? 'buy' : 'sell') : ''}
      title={side === 'BUY' ? 'Buy (b)' : 'Sell (s)'}
      onClick={() => onPick(side)}
    >
      {side === 'BUY' ? 'Buy' : 'Sell'}
    </button>
  );
}

function Summary(props: {
  buying: boolean;
  market: TradedMarket | null;
  shown: { shares: number; cost: number; payout: number; fees: number; feeTerms?: string; feeUnknown?: boolean } | null;
  preview: PreviewState;
  estimatedAt: number | null;
  usdAmount: number | undefined;
  /** A market order's average price now (the live book's) and its worst price. */
  marketPrices: { word: string; worst: number; average: number | null } | null;
}) {
  const { buying, market, shown, preview, estimatedAt, usdAmount, marketPrices } = props;
  const fromMain = preview.status === 'ready';
  const gain = shown ? toWin(shown.payout, (usdAmount ?? shown.cost) + shown.fees)?.gain : undefined;
  return (
    <dl className="ticket-summary" data-testid="ticket-summary">
      {marketPrices && market ? (
        <>
          <dt>Average price</dt>
          <dd className="num" data-testid="ticket-average">
            {marketPrices.average !== null
              ? formatTickCents(Math.round(marketPrices.average * 10_000) / 10_000, '0.0001')
              : '—'}
          </dd>
          <dt>{marketPrices.word} price</dt>
          <dd className="num" data-testid="ticket-worst">
            {formatTickCents(marketPrices.worst, market.tickSize)}
          </dd>
        </>
      ) : null}
      <dt>Shares</dt>
      <dd className="num">{shown ? formatShares(shown.shares) : '—'}</dd>
      <dt>{buying ? 'Cost' : 'You receive'}</dt>
      <dd className="num" data-testid="ticket-cost">
        {shown ? formatUsd(usdAmount ?? shown.cost) : '—'}
      </dd>
      <dt>{buying ? 'To win' : 'Gives up if it wins'}</dt>
      <dd className="num" data-testid="ticket-to-win">
        <span data-testid="ticket-payout">{shown ? formatUsd(shown.payout) : '—'}</span>
        {buying && gain ? (
          <span className="bid" data-testid="ticket-gain">
            {' '}
            ({gain})
          </span>
        ) : null}
      </dd>
      <dt>Fees</dt>
      {/* The exchange's terms beside the figure, as main's preview states them ("taker fee 4 %·p(1−p)"). */}
      <dd className="num" data-testid="ticket-fees">
        {shown
          ? shown.feeUnknown
            ? 'fee unknown'
            : `${formatUsd(shown.fees)}${shown.feeTerms ? ` (${shown.feeTerms})` : ''}`
          : '—'}
      </dd>
      <dd className="muted ticket-source">
        {shown
          ? fromMain
            ? 'From main’s preview.'
            : `Estimate${estimatedAt !== null && market ? ` at ${formatTickCents(estimatedAt, market.tickSize)}` : ''}${preview.status === 'loading' ? ' (checking…)' : ''}.`
          : ''}
      </dd>
    </dl>
  );
}

/** The sentence for a SELL of more shares than the account can sell now (held less open sells), or null. */
function sellShortfall(
  intent: OrderIntent | null,
  sellable: number | undefined,
  held: number | undefined,
  outcome: string,
): string | null {
  if (!intent || intent.side !== 'SELL' || sellable === undefined || held === undefined) return null;
  const market = intent.orderType === 'FOK' || intent.orderType === 'FAK';
  const needs = market ? marketAmount(intent).amount : (intent.size ?? 0);
  if (!(needs > sellable + 1e-9)) return null;
  const inOrders = held - sellable > 1e-9 ? ` (${formatShares(held - sellable)} in open orders)` : '';
  return `You hold ${formatShares(held)} ${outcome} shares${inOrders}: this sell needs ${formatShares(needs)}.`;
}

function disabledReason(s: {
  /** Main's sentence when the region or the account refuses this side. */
  refused: string | null;
  walletLabel: string | undefined;
  unlocked: boolean | undefined;
  hasMarket: boolean;
  market: TradedMarket | null;
  loading: boolean;
  outcome: boolean;
  drafted: Drafted | null;
  placing: boolean;
  blocking: string | undefined;
}): string | null {
  if (s.placing) return 'An order is on its way: wait for its answer.';
  if (s.refused) return s.refused;
  if (!s.walletLabel) return 'Add or choose a wallet to trade.';
  if (!s.unlocked) return `Unlock ${s.walletLabel} to trade.`;
  if (!s.hasMarket) return 'Choose a market.';
  if (!s.market) return s.loading ? 'Loading the market’s tick size and minimum…' : 'The market could not be loaded.';
  if (!s.market.acceptingOrders) return noOrdersSentence(s.market);
  if (!s.outcome) return 'Choose an outcome.';
  if (s.drafted && !s.drafted.ok) return s.drafted.reason;
  if (s.blocking) return s.blocking;
  return null;
}

/** Why the ticket cannot send an order to this market, with its state in words ("Resolved: Yes"). */
export function noOrdersSentence(market: Pick<TradedMarket, 'stateWords'>): string {
  return `This market is not taking orders (${market.stateWords}).`;
}
