// Main's preview of the order the ticket would send (cost, payout, fees, every failed pre-trade check),
// asked for once the trader stops typing. Where main cannot preview yet, the ticket shows its own estimate.
import { useEffect, useRef, useState } from 'react';
import type { OrderPreview } from '../../../../shared/contract';
import { ask, messageOf, TerminalError } from '../../bridge/terminal';
import type { OrderIntent } from './order-math';

const DEBOUNCE_MS = 300;
/** The longest a ticket shows main's figures for an order whose book keeps changing before it asks again. */
const MAX_WAIT_MS = 1_000;

export type PreviewState =
  | { status: 'idle' }
  | { status: 'loading'; key: string }
  | { status: 'ready'; key: string; preview: OrderPreview }
  /** Main has no preview in this session: checks run when the order is placed. */
  | { status: 'unavailable'; key: string }
  | { status: 'failed'; key: string; message: string };

export const intentKey = (intent: OrderIntent | null): string => (intent ? JSON.stringify(intent) : '');

/**
 * `revision`: changes when what main checks changed without the order changing (a wrap from the ticket, the
 * wallet locked or unlocked), so the same order is checked again rather than keeping a stale problem.
 */
export function usePreview(intent: OrderIntent | null, revision: string | number = 0): PreviewState {
  const key = intentKey(intent);
  const [state, setState] = useState<PreviewState>({ status: 'idle' });
  const currentKey = useRef(key);
  currentKey.current = key;
  /** When this order was last asked about, and the newest answer shown (answers may arrive out of order). */
  const asked = useRef<{ key: string; at: number }>({ key: '', at: 0 });
  const sequence = useRef({ sent: 0, shown: 0 });

  useEffect(() => {
    if (!key) {
      setState({ status: 'idle' });
      return;
    }
    // The same order asked again (its book moved, funds changed): its last figures stay shown until the new ones come.
    setState((s) => (s.status === 'ready' && s.key === key ? s : { status: 'loading', key }));
    // A busy book changes faster than the debounce: the same order is asked at least once a MAX_WAIT_MS, and an
    // answer for it is kept even when the book has changed again since (the next one follows).
    const overdue = asked.current.key === key && Date.now() - asked.current.at >= MAX_WAIT_MS;
    const timer = setTimeout(
      () => {
        asked.current = { key, at: Date.now() };
        const seq = ++sequence.current.sent;
        const show = (next: PreviewState) => {
          if (currentKey.current !== key || seq < sequence.current.shown) return;
          sequence.current.shown = seq;
          setState(next);
        };
        ask('previewOrder', JSON.parse(key) as OrderIntent)
          .then((preview) => show({ status: 'ready', key, preview }))
          .catch((error) => {
            if (error instanceof TerminalError && error.code === 'ERR_NOT_AVAILABLE')
              show({ status: 'unavailable', key });
            else show({ status: 'failed', key, message: messageOf(error) });
          });
      },
      overdue ? 0 : DEBOUNCE_MS,
    );
    return () => clearTimeout(timer);
  }, [key, revision]);

  // A preview of an earlier version of the order is not shown as this one's.
  return state.status !== 'idle' && state.key !== key ? (key ? { status: 'loading', key } : { status: 'idle' }) : state;
}
