// When the trader's window begins its frames, as the page reports it (reportFrames): main hands a busy book out a
// few milliseconds before a frame begins instead of at the end of a 16 ms fold of its own, whose phase the page's
// frames do not share. Unaligned, the book a frame drew had waited on average half a frame in the page before the
// frame began; aligned, only the lead (issue 18's message-to-pixel, docs/decisions/0032-books-handed-out-before-the-frame.md). Without a recent report (no window, a hidden one, an old page), the fixed fold applies.

/** How long before a frame begins main hands a book out: its send, the bridge and the page's decoding. */
export const FRAME_LEAD_MS = 6;
/** A report this old no longer says where the frames are (clocks drift, a window is hidden or closed). */
export const FRAME_REPORT_FOR_MS = 10_000;
/** Books go out at most about once per 16 ms however fast the display: a faster one draws every other frame. */
const MIN_PERIOD_MS = 15.5;

export class FrameClock {
  private frameAt = 0;
  private period = 0;
  private reportedAt = -Infinity;

  constructor(private readonly lead = FRAME_LEAD_MS) {}

  /** A window's frames begin at `frameAt` (epoch ms) and every `intervalMs` after it. */
  tell(frameAt: number, intervalMs: number, now: number): void {
    if (!Number.isFinite(frameAt) || !(intervalMs >= 4 && intervalMs <= 50)) return;
    // A page's clock is coarse (0.1 ms), so its interval is too: 16.7 for 16.667 drifts half a frame in 4 s. Two
    // frames' times a whole number of frames apart measure it to a thousandth of that.
    const frames = (frameAt - this.frameAt) / intervalMs;
    const whole = Math.round(frames);
    if (this.known(now) && whole >= 10 && Math.abs(frames - whole) < 0.2) intervalMs = (frameAt - this.frameAt) / whole;
    this.frameAt = frameAt;
    // 60 Hz: every frame; 120 Hz: every other one; 144 Hz: every third (one a 16–21 ms period either way).
    this.period = intervalMs * Math.ceil(MIN_PERIOD_MS / intervalMs);
    this.reportedAt = now;
  }

  /** Whether a recent report says where the frames are. */
  known(now: number): boolean {
    return this.period > 0 && now - this.reportedAt <= FRAME_REPORT_FOR_MS;
  }

  /**
   * Milliseconds from `now` to the next hand-out: `lead` ms before a frame begins, and at least `minGapMs` away
   * (so a book that just went out is not followed by another for the same frame). Undefined while unknown.
   */
  nextSendIn(now: number, minGapMs: number): number | undefined {
    if (!this.known(now)) return undefined;
    const earliest = now + minGapMs;
    const first = this.frameAt - this.lead;
    const periods = Math.ceil((earliest - first) / this.period);
    return first + periods * this.period - now;
  }
}
