// A splitter between two panels: drag it with the pointer, or focus it and use the arrow keys (Shift for big
// steps, Home/End for the bounds); a double-click puts the panel back to its default size. It only reports
// sizes; the layout decides what to do with them (App keeps and saves them).
import { useRef, type KeyboardEvent, type PointerEvent } from 'react';

export interface SplitterProps {
  /** 'columns' sits between two columns (dragged left/right); 'rows' between two rows (dragged up/down). */
  between: 'columns' | 'rows';
  /** The size of the panel this splitter sizes, its bounds now, and which way of dragging makes it bigger. */
  size: number;
  min: number;
  max: number;
  /** +1: dragging right (or down) grows the panel; -1: dragging left (or up) does. */
  grows: 1 | -1;
  label: string;
  testId?: string;
  onResize(size: number): void;
  onReset(): void;
}

const STEP = 16;
const BIG_STEP = 64;

export function Splitter({ between, size, min, max, grows, label, testId, onResize, onReset }: SplitterProps) {
  const drag = useRef<{ start: number; size: number } | null>(null);
  const at = (event: PointerEvent) => (between === 'columns' ? event.clientX : event.clientY);
  const bounded = (value: number) => Math.min(max, Math.max(min, Math.round(value)));

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    event.currentTarget.focus();
    drag.current = { start: at(event), size };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    onResize(bounded(drag.current.size + grows * (at(event) - drag.current.start)));
  };
  const onPointerEnd = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    drag.current = null;
    if (event.currentTarget.hasPointerCapture(event.pointerId))
      event.currentTarget.releasePointerCapture(event.pointerId);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? BIG_STEP : STEP;
    // The arrow pointing the way the splitter moves: towards the panel shrinks it, away grows it.
    const forward = between === 'columns' ? 'ArrowRight' : 'ArrowDown';
    const back = between === 'columns' ? 'ArrowLeft' : 'ArrowUp';
    let next: number | null = null;
    if (event.key === forward) next = size + grows * step;
    else if (event.key === back) next = size - grows * step;
    else if (event.key === 'Home') next = min;
    else if (event.key === 'End') next = max;
    else if (event.key === 'Enter') {
      event.preventDefault();
      onReset();
      return;
    }
    if (next === null) return;
    event.preventDefault();
    event.stopPropagation();
    onResize(bounded(next));
  };

  return (
    <div
      className={`splitter splitter-${between}`}
      role="separator"
      tabIndex={0}
      // A bar between columns stands upright: its orientation is vertical.
      aria-orientation={between === 'columns' ? 'vertical' : 'horizontal'}
      aria-label={label}
      aria-valuenow={size}
      aria-valuemin={min}
      aria-valuemax={max}
      title={`${label}: drag, or focus and use the arrow keys; double-click (or Enter) for the default size`}
      data-testid={testId}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
      onDoubleClick={onReset}
      onKeyDown={onKeyDown}
    />
  );
}
