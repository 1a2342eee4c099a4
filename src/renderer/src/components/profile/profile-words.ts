// What a trader profile says in words, apart from React so it is tested on its own: a position's PnL in dollars
// and percent, and what an activity line did and when.
import type { TraderActivity, TraderPosition } from '@pmdesk/toolkit/model';
import { formatUsd } from '../../format/numbers';

/** A position's PnL as a percent of what it cost: the source's figure, else worked out from its cost. */
export function percentPnl(p: Pick<TraderPosition, 'percentPnl' | 'cashPnl' | 'initialValue'>): number | null {
  if (typeof p.percentPnl === 'number' && Number.isFinite(p.percentPnl)) return p.percentPnl;
  if (typeof p.cashPnl === 'number' && p.initialValue > 0) return (p.cashPnl / p.initialValue) * 100;
  return null;
}

/** "+$12.50 (+8.3%)", "−$4.00 (−2.0%)"; a dash where the source gives no PnL. */
export function pnlText(cash: number | null | undefined, percent: number | null): string {
  if (typeof cash !== 'number') return '—';
  const sign = (n: number) => (n >= 0 ? '+' : '−');
  const pct = percent === null ? '' : ` (${sign(percent)}${Math.abs(percent).toFixed(1)}%)`;
  return `${sign(cash)}${formatUsd(Math.abs(cash))}${pct}`;
}

const TYPE_WORDS: Record<string, string> = {
  SPLIT: 'Split',
  MERGE: 'Merge',
  REDEEM: 'Redeem',
  REWARD: 'Reward',
  CONVERSION: 'Conversion',
  MAKER_REBATE: 'Maker rebate',
};

/** What an activity line did, in words: Buy/Sell for a trade, else its kind ("Redeem"). */
export function activityKind(a: Pick<TraderActivity, 'type' | 'side'>): { text: string; className: string } {
  if (a.type === 'TRADE' && a.side)
    return { text: a.side === 'BUY' ? 'Buy' : 'Sell', className: a.side === 'BUY' ? 'bid' : 'ask' };
  if (a.type === 'TRADE') return { text: 'Trade', className: 'muted' };
  return {
    text: TYPE_WORDS[a.type] ?? a.type.charAt(0) + a.type.slice(1).toLowerCase().replace(/_/g, ' '),
    className: '',
  };
}

/** "2026-11-25 12:01" in the trader's time zone. */
export function activityTime(unixSeconds: number): string {
  const d = new Date(unixSeconds * 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}
