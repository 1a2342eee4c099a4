// The active wallet's open orders, each with Cancel; Cancel this market's (the selected one) and Cancel all
// (which asks first). A cancel answers with the ids the exchange cancelled; they leave the table at once.
import { useEffect, useState } from 'react';
import type { OpenOrder } from '../../../../shared/contract';
import { ask, messageOf } from '../../bridge/terminal';
import { useAccount, refreshAccount } from '../../store/account';
import { useSelection } from '../../store/selection';
import { useSession } from '../../store/session';
import { WindowedRows } from '../../live/visible-rows';
import { OutcomeLabel } from './OutcomeLabel';
import { countOf } from '../../../../shared/words';
import { formatShares, formatTickCents } from '../../format/numbers';
import { refreshScoring, useRewards } from '../../store/rewards';

/** Which orders a cancel was for, in the sentence that tells its result. */
export type CancelScope = 'order' | 'market' | 'all';

/** "Cancelled 1 order.", "Cancelled 2 orders in this market.", "No order was cancelled: …" — counts that read right. */
export function cancelledSentence(count: number, scope: CancelScope): string {
  const where = scope === 'market' ? ' in this market' : '';
  if (count > 0) return `Cancelled ${countOf(count, 'order')}${where}.`;
  return scope === 'order'
    ? 'The order was not cancelled: it was no longer open.'
    : `No order was cancelled${where}: none was open.`;
}

/** Takes the cancelled orders out of the table before the next read confirms it. */
export function dropCancelled(ids: string[]): void {
  if (ids.length === 0) return;
  const gone = new Set(ids.map((id) => id.toLowerCase()));
  useAccount.setState((s) => ({ openOrders: s.openOrders.filter((o) => !gone.has(o.orderId.toLowerCase())) }));
}

export async function cancelWith(op: () => Promise<{ cancelled: string[] }>, scope: CancelScope): Promise<void> {
  const { notify } = useSession.getState();
  try {
    const { cancelled } = await op();
    dropCancelled(cancelled);
    notify(cancelled.length > 0 ? 'success' : 'info', cancelledSentence(cancelled.length, scope));
  } catch (error) {
    notify('error', messageOf(error));
  } finally {
    void refreshAccount();
  }
}

export function OpenOrders({ onCancelAll, cancelAllKey }: { onCancelAll(): void; cancelAllKey: string }) {
  const wallet = useAccount((s) => s.wallet);
  const orders = useAccount((s) => s.openOrders);
  const selected = useSelection((s) => s.market);
  const [busy, setBusy] = useState<string | null>(null);
  const scoring = useRewards((s) => (s.scoringWallet === wallet ? s.scoring : undefined));
  // Whether each order earns rewards: asked when the open orders change, then every half minute while they rest
  // (the book moves under them); never in a loop.
  const orderKey = orders.map((o) => o.orderId).join(',');
  useEffect(() => {
    if (!wallet || orderKey === '') return;
    void refreshScoring(wallet);
    const timer = setInterval(() => void refreshScoring(wallet), 30_000);
    return () => clearInterval(timer);
  }, [wallet, orderKey]);

  const cancelOne = async (order: OpenOrder) => {
    if (!wallet) return;
    setBusy(order.orderId);
    await cancelWith(() => ask('cancelOrder', { wallet, orderId: order.orderId }), 'order');
    setBusy(null);
  };
  const cancelMarket = async () => {
    if (!wallet || !selected) return;
    setBusy('market');
    await cancelWith(() => ask('cancelMarket', { wallet, marketId: selected.marketId }), 'market');
    setBusy(null);
  };

  const unasked = useAccount((s) => s.unaskedCancels.at(-1));
  const loaded = useAccount((s) => s.loaded);
  const readError = useAccount((s) => s.ordersError);
  const none = orders.length === 0;
  const marketWhyNot = !selected
    ? 'Choose a market first.'
    : none
      ? 'No open orders.'
      : busy
        ? 'A cancel is on its way.'
        : null;
  const allWhyNot = none ? 'No open orders.' : busy ? 'A cancel is on its way.' : null;
  return (
    <div className="account-tab" data-testid="open-orders">
      <div className="account-actions">
        <button
          type="button"
          data-testid="cancel-market"
          disabled={!!marketWhyNot}
          title={marketWhyNot ?? "Cancel this wallet's orders in the selected market"}
          onClick={() => void cancelMarket()}
        >
          Cancel this market’s
        </button>
        <button
          type="button"
          data-testid="cancel-all"
          disabled={!!allWhyNot}
          title={allWhyNot ?? `Cancel every open order of this wallet (${cancelAllKey})`}
          onClick={onCancelAll}
        >
          Cancel all <kbd>{cancelAllKey}</kbd>
        </button>
      </div>
      {unasked ? (
        <div className="account-feed-line" data-testid="unasked-cancel">
          <span className="muted">{new Date(unasked.at).toLocaleTimeString()}</span> {unasked.message}
        </div>
      ) : null}
      {none ? (
        // Never read on this network (the reason is above the tab): not "none", just unknown.
        <div className="empty">{loaded ? 'No open orders.' : readError ? '' : 'Reading open orders…'}</div>
      ) : (
        <table className="dense windowed" aria-rowcount={orders.length + 1}>
          <thead>
            <tr>
              <th>Outcome</th>
              <th>Side</th>
              <th className="num">Price</th>
              <th className="num">Size</th>
              <th className="num">Filled</th>
              <th>Type</th>
              <th>Status</th>
              <th>Placed</th>
              <th>Expires</th>
              <th title="Whether the order earns liquidity rewards now, and why not">Scoring</th>
              <th />
            </tr>
          </thead>
          <WindowedRows
            rows={orders}
            columns={11}
            render={(o) => (
              <tr key={o.orderId} data-order-id={o.orderId}>
                <td>
                  <OutcomeLabel tokenId={o.tokenId} conditionId={o.conditionId} />
                </td>
                <td className={o.side === 'BUY' ? 'bid' : 'ask'}>{o.side}</td>
                <td className="num">{formatTickCents(o.price)}</td>
                <td className="num">{formatShares(o.originalSize)}</td>
                <td className="num">{formatShares(o.sizeMatched)}</td>
                <td>{o.orderType}</td>
                <td>{o.status}</td>
                <td className="muted">
                  {o.createdAt
                    ? new Date(o.createdAt > 1e12 ? o.createdAt : o.createdAt * 1000).toLocaleTimeString()
                    : ''}
                </td>
                <td
                  className="muted"
                  data-testid="order-expires"
                  title={o.expiresAt ? new Date(o.expiresAt * 1000).toString() : 'Rests until it fills or is cancelled'}
                >
                  {o.expiresAt ? expiryText(o.expiresAt) : '—'}
                </td>
                <td data-testid="order-scoring" title={scoring?.[o.orderId]?.whyNot ?? ''}>
                  {scoringText(scoring?.[o.orderId])}
                </td>
                <td>
                  <button
                    type="button"
                    className="ghost"
                    data-testid="cancel-order"
                    disabled={busy !== null}
                    title={busy ? 'A cancel is on its way.' : 'Cancel this order'}
                    onClick={() => void cancelOne(o)}
                  >
                    Cancel
                  </button>
                </td>
              </tr>
            )}
          />
        </table>
      )}
    </div>
  );
}

/** A GTD order's expiry, short: the time alone today, else the day and the time ("Nov 30, 14:05"). */
export function expiryText(unixSeconds: number, now = new Date()): string {
  const at = new Date(unixSeconds * 1000);
  const time = at.toLocaleTimeString('en-US', { hour: '2-digit', minute: '2-digit', hour12: false });
  return at.toDateString() === now.toDateString()
    ? time
    : `${at.toLocaleDateString('en-US', { month: 'short', day: 'numeric' })}, ${time}`;
}

/** "Scoring", "No — too far from the midpoint", or blank until main answered. */
export function scoringText(verdict: { scoring: boolean; whyNot: string | null } | undefined): string {
  if (!verdict) return '';
  return verdict.scoring ? 'Scoring' : `No — ${verdict.whyNot ?? 'not counted'}`;
}
