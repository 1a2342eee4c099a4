// Which followed markets are busy (their books went out on most frames of the last second), so that when several
// are, their books share the frames: all of them go out every other frame instead of every frame. A page's frame
// costs about the same whether one busy ladder changed in it or four (the page's layout, paint and layering are
// paid per frame that changed anything); four busy tiles drawn every frame took about 10 ms of the page's 16.7 and
// were late in about 2 % of frames on a 2-core machine, drawn every other frame 6.3–7.9 ms and under 1 % late at
// the machine's usual speed, with a shorter message-to-pixel time too (bench/ui-latency.ts; docs/decisions/0035-several-busy-books-share-the-frames.md).
// One busy book keeps every frame.

/** A market whose book went out at least this often in the last second is busy (a third of 60 Hz frames). */
export const BUSY_HANDOUTS_A_SECOND = 20;
/** This many busy markets or more share the frames: their books go out every other frame. */
export const SHARED_FRAMES_FROM = 2;
/** The window over which hand-outs are counted. */
const WINDOW_MS = 1_000;
/** Both outcomes of a market go out in the same hand-out: times closer than this are one hand-out. */
const SAME_HANDOUT_MS = 4;

export class BusyMarkets {
  /** Each market's hand-out times within the window, oldest first. */
  private readonly handouts = new Map<string, number[]>();

  /** A book of `market` went out at `now` (ms). */
  handedOut(market: string, now: number): void {
    let times = this.handouts.get(market);
    if (!times) this.handouts.set(market, (times = []));
    if (times.length > 0 && now - times[times.length - 1]! < SAME_HANDOUT_MS) return;
    times.push(now);
    this.prune(times, now);
  }

  /** Markets whose books went out at least BUSY_HANDOUTS_A_SECOND times in the second before `now`. */
  busy(now: number): number {
    let busy = 0;
    for (const [market, times] of this.handouts) {
      this.prune(times, now);
      if (times.length === 0) this.handouts.delete(market);
      else if (times.length >= BUSY_HANDOUTS_A_SECOND) busy++;
    }
    return busy;
  }

  /** Frames from one hand-out to the next: 2 while several markets are busy, else 1. */
  framesApart(now: number): number {
    return this.busy(now) >= SHARED_FRAMES_FROM ? 2 : 1;
  }

  private prune(times: number[], now: number): void {
    let drop = 0;
    while (drop < times.length && now - times[drop]! > WINDOW_MS) drop++;
    if (drop > 0) times.splice(0, drop);
  }
}
