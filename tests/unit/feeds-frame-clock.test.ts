// Books handed out just before the window's frames begin (feeds/frame-clock.ts): the hand-outs fall `lead` ms
// before each frame, at least half a frame after the last one; the page's coarse interval is measured again from
// two reports a whole number of frames apart; a faster display gets a book every other frame; an old report, a
// report of nothing sensible, or none at all leaves the coalescer on its fixed fold. On a hand-driven clock.
import { describe, expect, it } from 'vitest';
import { Coalescer } from '../../src/main/feeds/coalescer';
import { FRAME_LEAD_MS, FRAME_REPORT_FOR_MS, FrameClock } from '../../src/main/feeds/frame-clock';
import { ManualScheduler } from '../../src/main/feeds/scheduler';

const T0 = 1_700_000_000_000;

describe('the frame clock', () => {
  it('names the next hand-out: the lead before a frame, at least the gap away', () => {
    const clock = new FrameClock(6);
    expect(clock.nextSendIn(T0, 8)).toBeUndefined();
    // Frames begin at T0, T0 + 16.667, …; the report arrives 1 ms after one began.
    clock.tell(T0, 16.667, T0 + 1);
    expect(clock.known(T0 + 1)).toBe(true);
    // From T0 + 1: the next frame begins at 16.667, so the hand-out is at 10.667 (9.667 ms from now).
    expect(clock.nextSendIn(T0 + 1, 8)).toBeCloseTo(9.667, 3);
    // Too close to the next one (less than the gap): the frame after it.
    expect(clock.nextSendIn(T0 + 5, 8)).toBeCloseTo(16.667 * 2 - 6 - 5, 3);
    expect(FRAME_LEAD_MS).toBeGreaterThan(0);
  });

  it('measures the interval again from two frames a whole number apart (the page reports 16.68 for 16.667)', () => {
    const clock = new FrameClock(6);
    clock.tell(T0, 16.68, T0);
    // 120 frames (2 s) later, as the page's coarse clock puts it.
    const later = T0 + 120 * 16.667;
    clock.tell(Math.round(later * 10) / 10, 16.68, later);
    // 480 frames after the first report, the hand-out still falls 6 ms before the frame (with 16.68, 6 ms off).
    const frame480 = T0 + 480 * 16.667;
    expect(clock.nextSendIn(frame480 - 10, 0)).toBeCloseTo(4, 0);
  });

  it('a faster display gets a book every other frame; a report with no sensible interval is ignored; an old one is forgotten', () => {
    const clock = new FrameClock(6);
    clock.tell(T0, 8.333, T0);
    expect(clock.nextSendIn(T0 + 1, 8)).toBeCloseTo(16.666 - 6 - 1, 2);
    const quiet = new FrameClock(6);
    quiet.tell(T0, 0.5, T0);
    quiet.tell(Number.NaN, 16.7, T0);
    expect(quiet.known(T0)).toBe(false);
    expect(clock.known(T0 + FRAME_REPORT_FOR_MS + 1)).toBe(false);
    expect(clock.nextSendIn(T0 + FRAME_REPORT_FOR_MS + 1, 8)).toBeUndefined();
  });

  it('a busy book goes out once a frame at the lead before it, and on the fixed fold once the report is old', async () => {
    const scheduler = new ManualScheduler(T0);
    const frames = new FrameClock(6);
    frames.tell(T0, 16, T0);
    const sent: number[] = [];
    const c = new Coalescer<string>(
      () => sent.push(scheduler.now() - T0),
      scheduler,
      16,
      true,
      () => frames.nextSendIn(scheduler.now(), 8),
    );
    // A change every millisecond for ten frames.
    for (let ms = 1; ms <= 160; ms++) {
      scheduler.advance(1);
      c.mark('book');
      await new Promise<void>((resolve) => queueMicrotask(resolve));
    }
    // The first at once (a quiet book is never held back), then 6 ms before each frame: 10, 26, 42, …
    expect(sent[0]).toBe(1);
    expect(sent.slice(1)).toEqual([10, 26, 42, 58, 74, 90, 106, 122, 138, 154]);
    c.close();
  });
});

describe("the page's frame interval", () => {
  it('is the span over the frames in it, a skipped frame counted as two, finer than the 0.1 ms clock', async () => {
    // A browser module, by a path the Node typecheck does not follow (it has no DOM types), as renderer-live-batching does.
    const renderer = '../../src/renderer/src';
    const { frameInterval } = (await import(`${renderer}/live/frame-report`)) as {
      frameInterval(stamps: readonly number[]): number | undefined;
    };
    const stamps = Array.from(
      { length: 20 },
      (_, i) => Math.round((1000 + i * 16.667 + (i >= 10 ? 16.667 : 0)) * 10) / 10,
    );
    expect(frameInterval(stamps)).toBeCloseTo(16.667, 2);
    expect(frameInterval([5])).toBeUndefined();
  });
});
