// Turns a burst of changes into at most one update per key per frame (16 ms in main): the UI redraws a book
// once a frame at most, so sending it every message only queues work the screen can never show. With `leading`
// (the books), the first change after a quiet frame goes out at once (a lone update on a quiet book never waits a
// frame) — in a microtask, once the code that marked it has finished changing state; later changes in the same
// frame are folded, the latest state wins, and go out when the frame ends. Without it, every change waits for the
// frame's end (the account snapshots: nobody reads them within a frame, and their callers answer first).
import { realScheduler, type Scheduler } from './scheduler';

export const FRAME_MS = 16;

export class Coalescer<K> {
  private readonly dirty = new Set<K>();
  /** Set while a frame is open (something went out less than a frame ago): marks wait for its end. */
  private timer: unknown;

  constructor(
    /** Called once per dirty key when it goes out; it reads the latest state then, not a queued copy. */
    private readonly flushKey: (key: K) => void,
    private readonly scheduler: Scheduler = realScheduler,
    private readonly frameMs = FRAME_MS,
    private readonly leading = false,
    /**
     * When the next frame ends, in ms from now, if something knows better than a fixed `frameMs` (the window's
     * frames: feeds/frame-clock.ts); undefined falls back to `frameMs`.
     */
    private readonly nextFrameIn?: () => number | undefined,
  ) {}

  mark(key: K): void {
    this.dirty.add(key);
    if (this.timer !== undefined) return; // inside a frame: folded, sent at its end
    if (!this.leading) {
      this.openFrame();
      return;
    }
    // Quiet until now: out as soon as the caller is done (a listener may mark before its own state is complete,
    // and everything marked meanwhile goes in the same send), and a frame opens so later changes are folded.
    this.openFrame();
    queueMicrotask(() => this.send());
  }

  /** Drops a key that went away (unsubscribed) so no update for it follows. */
  forget(key: K): void {
    this.dirty.delete(key);
  }

  /** Sends every dirty key now; the frame (if one is open) stays open, so the next change still waits for it. */
  flush(): void {
    this.send();
  }

  close(): void {
    if (this.timer !== undefined) this.scheduler.clearTimeout(this.timer);
    this.timer = undefined;
    this.dirty.clear();
  }

  private openFrame(): void {
    this.timer = this.scheduler.setTimeout(() => this.endFrame(), this.nextFrameIn?.() ?? this.frameMs);
  }

  /** A frame ends: what was folded goes out and opens the next frame; nothing folded means quiet again. */
  private endFrame(): void {
    this.timer = undefined;
    if (this.dirty.size === 0) return;
    // Leading: this send opens a frame of its own, so the change right after it is folded, not sent at once.
    if (this.leading) this.openFrame();
    this.send();
  }

  private send(): void {
    // Cleared before the calls: a key marked again from inside one (a listener that changes state) is folded
    // into the open frame, not lost and not sent twice now.
    const keys = [...this.dirty];
    this.dirty.clear();
    for (const key of keys) this.flushKey(key);
  }
}
