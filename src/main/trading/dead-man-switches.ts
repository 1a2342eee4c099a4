// The dead-man switch of each wallet (setDeadManSwitch / getDeadManSwitch): one heartbeat loop per armed wallet,
// over its level 2 exchange client, with a `deadManSwitch` event on every change of state (turned on, a beat
// failed, beats recovered, turned off). Every loop stops when the terminal closes, so the exchange cancels the
// wallets' orders then, as the trader asked by arming it.
import { ErrorCode } from '@pmdesk/toolkit/model';
import type { DeadManSwitchInfo } from '../../shared/contract';
import type { DeadManSwitchService } from '../ipc/services';
import { DEFAULT_HEARTBEAT_MS, DeadManSwitch, type HeartbeatClient, type HeartbeatState } from '../feeds/heartbeat';
import { realScheduler, type Scheduler } from '../feeds/scheduler';
import type { TradingService as OrderFlow } from './service';
import type { EventHub } from '../ipc/event-hub';
import { tradingWalletNamed, withCredentials, type TradingWallets } from './trading-access';

/** A wallet's heartbeat client, by label (throws a sentence the trader can act on when it cannot). */
export type HeartbeatOpener = (label: string) => Promise<{ client: HeartbeatClient }>;

/** What the contract's two operations need (DeadManSwitches fits). */
interface Armed {
  info: DeadManSwitchInfo;
  loop: DeadManSwitch | undefined;
  /** Settles with the first beat's outcome, so turning it on answers beating or failing, not "maybe". */
  ready: Promise<void>;
}

/** Heartbeats through the order flow's exchange client: credentials derived or created as for a first order. */
export function heartbeatOpener(flow: OrderFlow, wallets: TradingWallets): HeartbeatOpener {
  return async (label) => {
    const wallet = await tradingWalletNamed(wallets, label);
    return { client: await withCredentials(wallets, wallet, label, () => flow.exchangeClient(wallet)) };
  };
}

/** How long after the switch is turned off a cancel is still put down to it (the exchange waits about 10 s). */
const RECENTLY_STOPPED_MS = 60_000;

const CONTRACT_STATE: Record<HeartbeatState, DeadManSwitchInfo['state']> = {
  off: 'off',
  on: 'beating',
  failing: 'failing',
};

export class DeadManSwitches implements DeadManSwitchService {
  private readonly armed = new Map<string, Armed>();
  /** When each wallet's switch was turned off: the exchange cancels its orders some 10 s later. */
  private readonly stoppedAt = new Map<string, number>();
  private readonly intervalMs: number;
  private readonly scheduler: Scheduler;

  constructor(
    private readonly open: HeartbeatOpener,
    private readonly hub: EventHub,
    options: { intervalMs?: number; scheduler?: Scheduler } = {},
  ) {
    this.intervalMs = options.intervalMs ?? DEFAULT_HEARTBEAT_MS;
    this.scheduler = options.scheduler ?? realScheduler;
  }

  get(wallet: string): DeadManSwitchInfo {
    return { ...(this.armed.get(wallet.trim().toLowerCase())?.info ?? this.offInfo(wallet.trim())) };
  }

  async set(wallet: string, enabled: boolean): Promise<DeadManSwitchInfo> {
    const key = wallet.trim().toLowerCase();
    const current = this.armed.get(key);
    if (!enabled) {
      if (current) this.disarm(key, current);
      return this.offInfo(current?.info.wallet ?? wallet.trim(), current?.info.lastBeatAt ?? null);
    }
    if (current) {
      await current.ready;
      return { ...current.info };
    }
    const info: DeadManSwitchInfo = {
      wallet: wallet.trim(),
      enabled: true,
      state: 'off',
      intervalSeconds: this.intervalMs / 1000,
      lastBeatAt: null,
    };
    const armed: Armed = { info, loop: undefined, ready: Promise.resolve() };
    this.armed.set(key, armed);
    armed.ready = this.arm(key, armed);
    try {
      await armed.ready;
    } catch (error) {
      if (this.armed.get(key) === armed) this.armed.delete(key);
      throw error;
    }
    return { ...armed.info };
  }

  /**
   * Why the exchange may just have cancelled this wallet's orders, when the switch explains it: its beats are
   * failing, or it was turned off lately (for the notice of cancels the trader did not click).
   */
  cancelCause(wallet: string): string | undefined {
    const key = wallet.trim().toLowerCase();
    if (this.armed.get(key)?.info.state === 'failing')
      return "the dead-man switch's heartbeats stopped getting through";
    const stopped = this.stoppedAt.get(key);
    if (stopped !== undefined && this.scheduler.now() - stopped < RECENTLY_STOPPED_MS)
      return 'the dead-man switch was turned off, so its heartbeats stopped';
    return undefined;
  }

  closeAll(): void {
    for (const [key, armed] of this.armed) this.disarm(key, armed);
  }

  private async arm(key: string, armed: Armed): Promise<void> {
    const { client } = await this.open(armed.info.wallet);
    if (this.armed.get(key) !== armed) return; // turned off while the credentials were fetched
    let firstBeat: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (firstBeat = resolve));
    armed.loop = new DeadManSwitch({
      client,
      intervalMs: this.intervalMs,
      scheduler: this.scheduler,
      onBeat: (at) => {
        armed.info.lastBeatAt = at;
      },
      onState: (state, detail) => {
        if (this.armed.get(key) !== armed) return;
        firstBeat();
        const next = CONTRACT_STATE[state];
        const error =
          state === 'failing'
            ? {
                code: ErrorCode.NETWORK_ERROR,
                message: `The last heartbeat did not get through (${(detail ?? 'no answer').slice(0, 160)}): if none does for about 10 seconds, the exchange cancels this wallet's open orders.`,
              }
            : undefined;
        const changed = next !== armed.info.state;
        armed.info.state = next;
        if (error) armed.info.error = error;
        else delete armed.info.error;
        if (changed) this.hub.emit('deadManSwitch', { ...armed.info });
      },
    });
    armed.loop.start();
    await answered;
  }

  private disarm(key: string, armed: Armed): void {
    this.armed.delete(key);
    this.stoppedAt.set(key, this.scheduler.now());
    const loop = armed.loop;
    armed.loop = undefined;
    // Stopping the beats is all there is: the exchange then cancels the orders about 10 s later, as it would had
    // the terminal died (Polymarket has no call that disarms the switch).
    loop?.stop();
    this.hub.emit('deadManSwitch', this.offInfo(armed.info.wallet, armed.info.lastBeatAt));
  }

  private offInfo(wallet: string, lastBeatAt: number | null = null): DeadManSwitchInfo {
    return { wallet, enabled: false, state: 'off', intervalSeconds: this.intervalMs / 1000, lastBeatAt };
  }
}
