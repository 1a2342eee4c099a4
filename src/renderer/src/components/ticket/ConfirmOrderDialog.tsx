// The last look before an order goes out: the exact price, shares and dollars the ticket will send, and any
// approvals main must send first. Esc or Cancel closes it; nothing is sent until Confirm. While it is open, main
// makes the order ready (checked, signed in the signer worker, not sent), so Confirm only posts it. A market order
// states its bound ("at most $X", "at least N shares", its Max/Min price) and follows the live book: once the book
// no longer fills it within that price, Confirm is disabled, the dialog says why and offers the ticket's new numbers.
import { useEffect, useState } from 'react';
import { useDialogEscape } from '../../keys/keyboard';
import { ask } from '../../bridge/terminal';
import type { OrderPreview } from '../../../../shared/contract';
import { type Estimate, type OrderIntent, type TickSize } from './order-math';
import { marketPromise, type LiveFill } from './market-bound';
import { formatShares, formatTickCents, formatUsd } from '../../format/numbers';

export interface ConfirmOrderProps {
  intent: OrderIntent;
  /** Main's preview of this very order (it may arrive while the dialog is open), else the ticket's estimate. */
  preview: OrderPreview | null;
  estimate: Estimate;
  outcome: string;
  question: string;
  tickSize: TickSize;
  /** A market order: whether the live book still fills it within its worst price, its fill now, and why not. */
  live?: { fills: boolean; fill: LiveFill | null; why: string | null } | null;
  /** Main's refusal at the click (the book had moved past the bound): nothing was sent. */
  refusal?: string | null;
  /** The ticket's order now (priced from the book as it is), when it differs from this one. */
  newer?: { intent: OrderIntent; estimate: Estimate } | null;
  onUseNewer?(): void;
  onConfirm(): void;
  onClose(): void;
}

export function ConfirmOrderDialog({
  intent,
  preview,
  estimate,
  outcome,
  question,
  tickSize,
  live,
  refusal,
  newer,
  onUseNewer,
  onConfirm,
  onClose,
}: ConfirmOrderProps) {
  useDialogEscape('Close the order confirmation', onClose);
  const market = intent.orderType === 'FOK' || intent.orderType === 'FAK';
  const ready = useReadyOrder(intent);
  const shares = preview?.shares ?? estimate.shares;
  const cost = preview?.cost ?? estimate.cost;
  const payout = preview?.payout ?? estimate.payout;
  const fees = preview?.fees ?? estimate.fees;
  const price = preview?.price ?? intent.price ?? estimate.price;
  const buying = intent.side === 'BUY';
  const blocking = preview?.problems.find((p) => p.blocking);
  const bounded = market && intent.price !== undefined;
  const promise = bounded ? marketPromise(intent) : {};
  const fak = intent.orderType === 'FAK';
  // Why this order cannot go now: the book moved past its bound (seen live, or by main at the click).
  const moved = refusal ?? (live && !live.fills ? live.why : null);
  const liveFill = live?.fill ?? null;
  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        className="dialog confirm-order"
        role="dialog"
        aria-modal="true"
        aria-labelledby="confirm-order-title"
        data-testid="ticket-confirm-dialog"
        data-order-ready={ready}
      >
        <h2 id="confirm-order-title">
          <span className={buying ? 'bid' : 'ask'}>{intent.side}</span> {outcome} —{' '}
          {market ? `market order (${intent.orderType})` : `limit ${intent.orderType}`}
        </h2>
        <div className="muted">{question}</div>
        <dl className="confirm-figures">
          {bounded ? (
            <>
              <dt>{buying ? 'Max price' : 'Min price'}</dt>
              <dd className="num" data-testid="confirm-worst">
                {formatTickCents(intent.price!, tickSize)}
              </dd>
              <dt>{buying ? 'You spend' : 'You sell'}</dt>
              <dd className="num" data-testid="confirm-bound-amount">
                {buying
                  ? `at most ${formatUsd(promise.spendAtMost ?? 0)}`
                  : `${formatShares(promise.shares ?? 0)} shares`}
              </dd>
              <dt>{buying ? 'You get' : 'You receive'}</dt>
              <dd className="num" data-testid="confirm-bound-result">
                {fak
                  ? `every share at ${formatTickCents(intent.price!, tickSize)} or better; the rest is cancelled`
                  : buying
                    ? `at least ${formatShares(promise.sharesAtLeast ?? 0)} shares`
                    : `at least ${formatUsd(promise.receiveAtLeast ?? 0)}`}
              </dd>
              <dt>The book now</dt>
              <dd className="num" data-testid="confirm-live">
                {liveFill && liveFill.average !== null
                  ? `${formatShares(Math.floor(liveFill.shares * 100) / 100)} shares for ${formatUsd(liveFill.dollars)}, average ${formatTickCents(Math.round(liveFill.average * 10_000) / 10_000, '0.0001')}`
                  : `${formatShares(shares)} shares for ${formatUsd(cost)}`}
              </dd>
            </>
          ) : (
            <>
              <dt>{market ? 'Price (estimate from the book)' : 'Limit price'}</dt>
              <dd className="num">{formatTickCents(price, tickSize)}</dd>
              <dt>{market && intent.amountUsd !== undefined ? 'Shares (estimate)' : 'Shares'}</dt>
              <dd className="num">{formatShares(shares)}</dd>
              <dt>{buying ? (market && intent.amountUsd !== undefined ? 'You spend' : 'Cost') : 'You receive'}</dt>
              <dd className="num">{formatUsd(intent.amountUsd ?? cost)}</dd>
            </>
          )}
          <dt>{buying ? 'Pays if it wins' : 'Gives up if it wins'}</dt>
          <dd className="num">{formatUsd(payout)}</dd>
          <dt>Fees</dt>
          <dd className="num" data-testid="confirm-fees">
            {preview?.feeUnknown ? 'fee unknown' : formatUsd(fees)}
            {preview?.feeTerms ? ` (${preview.feeTerms})` : ''}
          </dd>
          {intent.expiration ? (
            <>
              <dt>Expires</dt>
              <dd>{new Date(intent.expiration * 1000).toLocaleString()}</dd>
            </>
          ) : null}
          {intent.postOnly ? (
            <>
              <dt>Post-only</dt>
              <dd>refused rather than matched on arrival</dd>
            </>
          ) : null}
        </dl>
        {preview && preview.approvalsNeeded > 0 ? (
          <div className="warn">
            Before this first order, {preview.approvalsNeeded} token approval{preview.approvalsNeeded === 1 ? '' : 's'}{' '}
            will be sent (transactions on the chain; progress shows in the notices).
          </div>
        ) : null}
        {preview && preview.problems.length > 0 ? (
          <div className="ticket-problems" data-testid="confirm-problems">
            {preview.problems.map((p) => (
              <div key={p.check} className={p.blocking ? 'error-text' : 'warn'}>
                {p.message}
              </div>
            ))}
          </div>
        ) : null}
        {!preview ? (
          <div className="muted">
            Amounts are the ticket’s estimate; main runs every pre-trade check when you confirm.
          </div>
        ) : null}
        {moved ? (
          <div className="error-text confirm-moved" role="alert" data-testid="confirm-book-moved">
            {moved}
            {newer && newer.intent.price !== undefined ? (
              <div className="row">
                <button type="button" data-testid="confirm-use-new" onClick={onUseNewer}>
                  Review the new numbers: {buying ? 'max' : 'min'} {formatTickCents(newer.intent.price, tickSize)},
                  about {formatShares(newer.estimate.shares)} shares for {formatUsd(newer.estimate.cost)}
                </button>
              </div>
            ) : null}
          </div>
        ) : null}
        <div className="row dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel (Esc)
          </button>
          <button
            type="button"
            className={buying ? 'buy' : 'sell'}
            data-testid="ticket-confirm"
            autoFocus
            disabled={!!blocking || !!moved}
            title={moved ?? (blocking ? blocking.message : `Send this ${intent.side} order`)}
            onClick={onConfirm}
          >
            Confirm {intent.side}
          </button>
        </div>
      </div>
    </div>
  );
}

/**
 * Asks main to make the order ready as the dialog opens (and again if the order changes while it is open):
 * 'pending', then 'yes' (Confirm posts the order as made) or 'no' (Confirm makes it the usual way, and says why
 * if it fails). A market order with no worst price is made ready at the live book's price; if the book gives
 * another by the click, Confirm makes it again from the book then (main decides; the page only hears yes or no).
 */
function useReadyOrder(intent: OrderIntent): 'pending' | 'yes' | 'no' {
  const [ready, setReady] = useState<'pending' | 'yes' | 'no'>('pending');
  const key = JSON.stringify(intent);
  useEffect(() => {
    let current = true;
    setReady('pending');
    ask('readyOrder', JSON.parse(key) as OrderIntent).then(
      (answer) => current && setReady(answer.ready ? 'yes' : 'no'),
      () => current && setReady('no'),
    );
    return () => {
      current = false;
    };
  }, [key]);
  return ready;
}
