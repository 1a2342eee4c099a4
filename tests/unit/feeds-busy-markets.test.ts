// Which markets are busy (their books went out at least 20 times in the last second) and when busy markets share
// the frames (two or more: every other frame). Both outcomes of a market handed out together count once; a market
// that goes quiet stops counting as its hand-outs leave the one-second window. On hand-given times.
import { describe, expect, it } from 'vitest';
import { BUSY_HANDOUTS_A_SECOND, BusyMarkets, SHARED_FRAMES_FROM } from '../../src/main/feeds/busy-markets';

const T0 = 1_700_000_000_000;

/** Hands out `market` every `everyMs` from `from` for `count` hand-outs; returns the time of the last. */
function handOut(busy: BusyMarkets, market: string, from: number, everyMs: number, count: number): number {
  let at = from;
  for (let i = 0; i < count; i++) {
    at = from + i * everyMs;
    busy.handedOut(market, at);
  }
  return at;
}

describe('busy markets', () => {
  it('a market is busy from its 20th hand-out within a second; one busy market keeps every frame, two share them', () => {
    expect(BUSY_HANDOUTS_A_SECOND).toBe(20);
    expect(SHARED_FRAMES_FROM).toBe(2);
    const busy = new BusyMarkets();
    let at = handOut(busy, 'a', T0, 16, 19);
    expect(busy.busy(at)).toBe(0);
    busy.handedOut('a', (at += 16));
    expect(busy.busy(at)).toBe(1);
    expect(busy.framesApart(at)).toBe(1);
    at = handOut(busy, 'b', at + 16, 16, 20);
    expect(busy.busy(at)).toBe(2);
    expect(busy.framesApart(at)).toBe(2);
  });

  it('counts both outcomes of a market handed out together once', () => {
    const busy = new BusyMarkets();
    for (let i = 0; i < 15; i++) {
      busy.handedOut('a', T0 + i * 16);
      busy.handedOut('a', T0 + i * 16 + 1); // the second outcome, in the same hand-out
    }
    expect(busy.busy(T0 + 15 * 16)).toBe(0);
  });

  it('stays busy at 30 hand-outs a second (every other frame), and a quiet market stops counting within the second', () => {
    const busy = new BusyMarkets();
    const end = Math.max(handOut(busy, 'a', T0, 33, 40), handOut(busy, 'b', T0, 33, 40));
    expect(busy.framesApart(end)).toBe(2);
    // b goes quiet; a keeps going. Once fewer than 20 of b's hand-outs are within the last second, a alone.
    let at = end;
    while (busy.framesApart(at) === 2) {
      at += 33;
      busy.handedOut('a', at);
      expect(at - end).toBeLessThan(1_000);
    }
    // 30 a second: under 20 left in the window after about a third of a second.
    expect(at - end).toBeGreaterThan(300);
    expect(at - end).toBeLessThan(450);
    expect(busy.busy(at)).toBe(1);
    // Long after, nothing is busy.
    expect(busy.busy(at + 2_000)).toBe(0);
  });
});
