// The dead-man switch (docs/protocol.md#heartbeats): an opt-in loop of POST /v1/heartbeats, each beat sending the
// id the last answer named, so the exchange cancels every open order if the terminal dies or loses its link.
// Its state (off, on, failing) is reported so the UI can show plainly that the switch is armed or in trouble.
import { isClobError, type ClobResult } from '@pmdesk/toolkit';
import { realScheduler, type Scheduler } from './scheduler';

export type HeartbeatState = 'off' | 'on' | 'failing';

/** The exchange client's call (the toolkit's ClobClient fits). */
export interface HeartbeatClient {
  postHeartbeat(heartbeatId?: string | null): Promise<ClobResult<unknown>>;
}

export interface HeartbeatOptions {
  client: HeartbeatClient;
  /** Between beats; well under the exchange's 10 s so one lost beat does not cancel everything. */
  intervalMs?: number;
  scheduler?: Scheduler;
  onState?: (state: HeartbeatState, detail?: string) => void;
  /** Each answered beat, with the scheduler's time (the UI shows the last one). */
  onBeat?: (at: number) => void;
}

export const DEFAULT_HEARTBEAT_MS = 5_000;

export class DeadManSwitch {
  private stateValue: HeartbeatState = 'off';
  private timer: unknown;
  /** The id to send next: "" starts a new chain. */
  private nextId = '';
  /** Bumped on every start and stop, so a beat answered after a stop changes nothing. */
  private run = 0;
  beats = 0;

  constructor(private readonly options: HeartbeatOptions) {}

  get state(): HeartbeatState {
    return this.stateValue;
  }

  /** Arms the switch: beats at once, then every interval. */
  start(): void {
    if (this.stateValue !== 'off') return;
    this.run++;
    this.nextId = '';
    void this.beat(this.run);
  }

  /**
   * Stops beating. The exchange then cancels this key's open orders about 10 s later, as it would if the
   * terminal had died: that is what arming the switch asked for, so it is not undone here.
   */
  stop(): void {
    this.run++;
    if (this.timer !== undefined) (this.options.scheduler ?? realScheduler).clearTimeout(this.timer);
    this.timer = undefined;
    this.setState('off');
  }

  private async beat(run: number): Promise<void> {
    let detail: string | undefined;
    let ok = false;
    try {
      this.beats++;
      const result = await this.options.client.postHeartbeat(this.nextId);
      if (run !== this.run) return;
      if (isClobError(result)) {
        detail = typeof result.error === 'string' ? result.error : JSON.stringify(result.error);
        // The server no longer knows the chain (it timed out, or restarted): start a new one next time.
        if (result.status === 400) this.nextId = '';
      } else {
        const id = (result as { heartbeat_id?: unknown } | undefined)?.heartbeat_id;
        if (typeof id === 'string') {
          this.nextId = id;
          ok = true;
          this.options.onBeat?.((this.options.scheduler ?? realScheduler).now());
        } else detail = 'the exchange answered without a heartbeat id';
      }
    } catch (error) {
      if (run !== this.run) return;
      detail = error instanceof Error ? error.message : String(error);
      // A client that throws on errors (the order flow's) says the same 400 this way.
      if ((error as { statusCode?: unknown })?.statusCode === 400) this.nextId = '';
    }
    this.setState(ok ? 'on' : 'failing', detail);
    const scheduler = this.options.scheduler ?? realScheduler;
    this.timer = scheduler.setTimeout(() => {
      this.timer = undefined;
      if (run === this.run) void this.beat(run);
    }, this.options.intervalMs ?? DEFAULT_HEARTBEAT_MS);
  }

  private setState(state: HeartbeatState, detail?: string): void {
    if (state === this.stateValue && state !== 'failing') return;
    this.stateValue = state;
    this.options.onState?.(state, detail);
  }
}
