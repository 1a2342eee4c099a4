// Main's preview of the order the ticket would send (cost, payout, fees, every failed pre-trade check),
// asked for once the trader stops typing. Where main cannot preview yet, the ticket shows its own estimate.
import { useEffect, useState } from 'react';
import type { OrderPreview } from '../../../../shared/contract';
import { ask, messageOf, TerminalError } from '../../terminal';
import type { OrderIntent } from './order-math';

const DEBOUNCE_MS = 300;

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

  useEffect(() => {
    if (!key) {
      setState({ status: 'idle' });
      return;
    }
    let cancelled = false;
    // The same order asked again (its book moved, funds changed): its last figures stay shown until the new ones come.
    setState((s) => (s.status === 'ready' && s.key === key ? s : { status: 'loading', key }));
    const timer = setTimeout(() => {
      ask('previewOrder', JSON.parse(key) as OrderIntent)
        .then((preview) => !cancelled && setState({ status: 'ready', key, preview }))
        .catch((error) => {
          if (cancelled) return;
          if (error instanceof TerminalError && error.code === 'ERR_NOT_AVAILABLE') setState({ status: 'unavailable', key });
          else setState({ status: 'failed', key, message: messageOf(error) });
        });
    }, DEBOUNCE_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [key, revision]);

  // A preview of an earlier version of the order is not shown as this one's.
  return state.status !== 'idle' && state.key !== key ? (key ? { status: 'loading', key } : { status: 'idle' }) : state;
}
