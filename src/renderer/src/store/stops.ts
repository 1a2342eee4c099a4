// The client-side stops as main keeps them (listStops), the stop dialog's subject, and the notice of the stops
// main re-armed when it started (said once per page). Stops run only while PM Desk is open: every place that
// shows one says so.
import { create } from 'zustand';
import type { OperationInput, StopInfo } from '../../../shared/contract';
import { ask, listen, messageOf } from '../bridge/terminal';
import { useSession } from './session';

export const RUNS_ONLY_WHILE_OPEN = 'Runs only while PM Desk is open';

/** The position a stop is set on: its market and outcome token (and, when known, its name and size for the form). */
export interface StopSubject {
  protocol?: 'polymarket' | 'limitless' | 'truemarket';
  marketId: string;
  tokenId: string;
  market?: string;
  outcome?: string;
  size?: number;
}

export interface StopsState {
  stops: StopInfo[];
  error: string | null;
  /** The dialog is open for this position, or closed (null). */
  dialog: StopSubject | null;
}

export const useStops = create<StopsState>()(() => ({ stops: [], error: null, dialog: null }));

/** Opens the stop dialog on a position (the Positions table's "Stop" button calls this). */
export function openStopDialog(position: StopSubject): void {
  useStops.setState({ dialog: position });
}

export function closeStopDialog(): void {
  useStops.setState({ dialog: null });
}

let rearmedTold = false;

export async function loadStops(): Promise<void> {
  try {
    const { stops, rearmed } = await ask('listStops', {});
    useStops.setState({ stops, error: null });
    if (rearmed && !rearmedTold) {
      rearmedTold = true;
      useSession.getState().notify('info', rearmed);
    }
  } catch (error) {
    useStops.setState({ error: messageOf(error) });
  }
}

const upsert = (stop: StopInfo) =>
  useStops.setState((s) => ({
    stops: s.stops.some((x) => x.id === stop.id)
      ? s.stops.map((x) => (x.id === stop.id ? stop : x))
      : [stop, ...s.stops],
  }));

export async function createStop(input: OperationInput<'createStop'>): Promise<string | null> {
  try {
    upsert(await ask('createStop', input));
    return null;
  } catch (error) {
    return messageOf(error);
  }
}

export async function cancelStop(id: string): Promise<void> {
  try {
    upsert(await ask('cancelStop', { id }));
  } catch (error) {
    useSession.getState().notify('error', messageOf(error));
  }
}

/** Follows main's stops; called once at start. */
export function startStops(): void {
  listen('stop', upsert);
  listen('network', () => void loadStops());
  void loadStops();
}
