// Beside a market order's Max/Min price: the price the live book reaches for the order, the default worst price it
// gives, and the trader's slippage in ticks (a setting kept by main, changed here or in Settings).
import { useEffect, useState } from 'react';
import { MARKET_SLIPPAGE_TICKS_MAX } from '../../../../shared/contract';
import { useSession } from '../../store/session';
import { type Side, type TickSize } from './order-math';
import type { MarketBound } from './market-bound';
import { formatTickCents } from '../../format/numbers';

export function SlippageField({
  side,
  bound,
  typed,
  tickSize,
  ticks,
}: {
  side: Side;
  bound: MarketBound | undefined;
  typed: boolean;
  tickSize: TickSize;
  ticks: number;
}) {
  const word = side === 'BUY' ? 'max' : 'min';
  const [text, setText] = useState(String(ticks));
  useEffect(() => setText(String(ticks)), [ticks]);
  const save = (value: string) => {
    setText(value);
    const n = Number(value);
    if (value.trim() !== '' && Number.isInteger(n) && n >= 0 && n <= MARKET_SLIPPAGE_TICKS_MAX && n !== ticks)
      void useSession.getState().saveSettings({ marketSlippageTicks: n });
  };
  const reached =
    bound && 'worst' in bound && bound.fill.reached !== null ? formatTickCents(bound.fill.reached, tickSize) : null;
  const slippage = `${ticks} tick${ticks === 1 ? '' : 's'} of slippage`;
  return (
    <span className="muted hint ticket-slippage">
      <span data-testid="ticket-worst-auto">
        {reached
          ? typed
            ? `The book reaches ${reached} for this order; your ${word} price bounds it.`
            : `The book reaches ${reached}: ${word} ${formatTickCents((bound as { worst: number }).worst, tickSize)} with ${slippage}.`
          : null}
      </span>{' '}
      <label>
        Slippage{' '}
        <input
          type="number"
          min={0}
          max={MARKET_SLIPPAGE_TICKS_MAX}
          step={1}
          className="ticket-slippage-ticks"
          data-testid="ticket-slippage"
          value={text}
          onChange={(e) => save(e.target.value)}
        />{' '}
        ticks
      </label>
    </span>
  );
}
