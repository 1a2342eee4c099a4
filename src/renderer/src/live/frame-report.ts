// Tells main when this window's frames begin and how often (the reportFrames operation), so main hands a busy book
// out a few milliseconds before a frame begins rather than at a phase of its own (feeds/frame-clock.ts in main):
// the book a frame draws is then that much younger. Measured from a dozen frames' own timestamps, again every few
// seconds (clocks drift, a window moves to another display) and when the window shows again after being hidden.
import { ask, hasTerminal } from '../bridge/terminal';

const FRAMES = 20;
const EVERY_MS = 2_000;

/**
 * The time between frames (ms) from consecutive frames' timestamps: the span over the frames it holds, counted by
 * the median gap (so a skipped frame counts as two) — finer than any one gap on a clock of 0.1 ms. Undefined for
 * fewer than two.
 */
export function frameInterval(stamps: readonly number[]): number | undefined {
  const gaps = stamps
    .slice(1)
    .map((t, i) => t - stamps[i]!)
    .sort((a, b) => a - b);
  const median = gaps[Math.floor(gaps.length / 2)];
  if (median === undefined || median <= 0) return undefined;
  const span = stamps.at(-1)! - stamps[0]!;
  return span / Math.max(1, Math.round(span / median));
}

export function startFrameReports(): () => void {
  if (!hasTerminal() || typeof requestAnimationFrame !== 'function') return () => undefined;
  let stopped = false;
  let measuring = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(measure, EVERY_MS);
  };
  function measure(): void {
    if (stopped || measuring) return;
    // A hidden window draws few frames, or none: it says nothing until it shows again.
    if (document.visibilityState !== 'visible') return later();
    measuring = true;
    const stamps: number[] = [];
    const frame = (ts: number) => {
      if (stopped) return;
      stamps.push(ts);
      if (stamps.length < FRAMES) {
        requestAnimationFrame(frame);
        return;
      }
      measuring = false;
      const intervalMs = frameInterval(stamps);
      if (intervalMs !== undefined && intervalMs >= 4 && intervalMs <= 50) {
        void ask('reportFrames', { frameAt: performance.timeOrigin + stamps.at(-1)!, intervalMs }).catch(
          () => undefined,
        );
      }
      later();
    };
    requestAnimationFrame(frame);
  }
  const shown = () => document.visibilityState === 'visible' && measure();
  document.addEventListener('visibilitychange', shown);
  measure();
  return () => {
    stopped = true;
    clearTimeout(timer);
    document.removeEventListener('visibilitychange', shown);
  };
}
