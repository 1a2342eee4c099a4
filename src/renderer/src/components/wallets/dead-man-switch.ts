// The dead-man switch as the top bar shows it: per wallet, whether it is on and whether its heartbeats get
// through, kept current by main's `deadManSwitch` events. The sentence of the last failed ask is kept too, so
// the toggle can say why it did nothing (ERR_NOT_AVAILABLE while the service is not in this build).
import { create } from 'zustand';
import { ContractErrorCode, type DeadManSwitchInfo } from '../../../../shared/contract';
import { TerminalError, ask, listen, messageOf } from '../../bridge/terminal';

interface DeadManSwitchState {
  byWallet: Record<string, DeadManSwitchInfo>;
  /** Per wallet: why the last ask failed. */
  problem: Record<string, string>;
  /** Per wallet: main has no dead-man switch to offer in this session (ERR_NOT_AVAILABLE), and why. */
  unavailable: Record<string, string>;
  busy: Record<string, boolean>;
  load(wallet: string): Promise<void>;
  turn(wallet: string, enabled: boolean): Promise<void>;
}

export const useDeadManSwitch = create<DeadManSwitchState>()((set) => ({
  byWallet: {},
  problem: {},
  unavailable: {},
  busy: {},
  async load(wallet) {
    try {
      const info = await ask('getDeadManSwitch', { wallet });
      set((s) => ({
        byWallet: { ...s.byWallet, [wallet]: info },
        problem: without(s.problem, wallet),
        unavailable: without(s.unavailable, wallet),
      }));
    } catch (error) {
      // What was read before (on another network, say) no longer stands.
      set((s) => ({ byWallet: without(s.byWallet, wallet) }));
      if (error instanceof TerminalError && error.code === ContractErrorCode.NOT_AVAILABLE)
        set((s) => ({ unavailable: { ...s.unavailable, [wallet]: error.message } }));
      else set((s) => ({ problem: { ...s.problem, [wallet]: messageOf(error) } }));
    }
  },
  async turn(wallet, enabled) {
    set((s) => ({ busy: { ...s.busy, [wallet]: true } }));
    try {
      const info = await ask('setDeadManSwitch', { wallet, enabled });
      set((s) => ({ byWallet: { ...s.byWallet, [wallet]: info }, problem: without(s.problem, wallet) }));
    } catch (error) {
      set((s) => ({ problem: { ...s.problem, [wallet]: messageOf(error) } }));
    } finally {
      set((s) => ({ busy: { ...s.busy, [wallet]: false } }));
    }
  },
}));

function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  const { [key]: _gone, ...rest } = record;
  return rest;
}

let following = false;
/** Starts following `deadManSwitch` events (once, whoever mounts first). */
export function followDeadManSwitch(): void {
  if (following) return;
  following = true;
  listen('deadManSwitch', (info) =>
    useDeadManSwitch.setState((s) => ({
      byWallet: { ...s.byWallet, [info.wallet]: info },
      problem: info.error ? { ...s.problem, [info.wallet]: info.error.message } : without(s.problem, info.wallet),
    })),
  );
}

/** The badge's words and tooltip for a switch that is on. */
export function describeDeadManSwitch(info: DeadManSwitchInfo): string {
  const last = info.lastBeatAt
    ? `last heartbeat ${new Date(info.lastBeatAt).toLocaleTimeString()}`
    : 'no heartbeat yet';
  if (info.state === 'failing')
    return `Dead-man switch on, but its heartbeat is failing (${last})${info.error ? `: ${info.error.message}` : ''}. Open orders may be cancelled.`;
  return `Dead-man switch on: PM Desk sends a heartbeat every ${info.intervalSeconds} s; if they stop (the terminal closes or loses its link), the exchange cancels this wallet’s open orders about 10 s later (${last}). Turning it off stops them too, so it cancels them as well.`;
}
