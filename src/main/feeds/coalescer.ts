// Turns a burst of changes into at most one update per key per frame (16 ms in main): the UI redraws a book
// once a frame at most, so sending it every message only queues work the screen can never show.
import { realScheduler, type Scheduler } from './scheduler';

export const FRAME_MS = 16;

export class Coalescer<K> {
  private readonly dirty = new Set<K>();
  private timer: unknown;

  constructor(
    /** Called once per dirty key when the frame ends; it reads the latest state then, not a queued copy. */
    private readonly flushKey: (key: K) => void,
    private readonly scheduler: Scheduler = realScheduler,
    private readonly frameMs = FRAME_MS,
  ) {}

  mark(key: K): void {
    this.dirty.add(key);
    if (this.timer === undefined) this.timer = this.scheduler.setTimeout(() => this.flush(), this.frameMs);
  }

  /** Drops a key that went away (unsubscribed) so no update for it follows. */
  forget(key: K): void {
    this.dirty.delete(key);
  }

  flush(): void {
    if (this.timer !== undefined) this.scheduler.clearTimeout(this.timer);
    this.timer = undefined;
    const keys = [...this.dirty];
    this.dirty.clear();
    for (const key of keys) this.flushKey(key);
  }

  close(): void {
    if (this.timer !== undefined) this.scheduler.clearTimeout(this.timer);
    this.timer = undefined;
    this.dirty.clear();
  }
}
