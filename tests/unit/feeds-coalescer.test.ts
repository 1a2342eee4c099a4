// The frame coalescer on a hand-driven clock: a burst becomes one flush per key, read at the frame's end;
// one timer per frame however many marks; a forgotten key is not flushed; quiet frames flush nothing.
import { describe, expect, it } from 'vitest';
import { Coalescer } from '../../src/main/feeds/coalescer';
import { ManualScheduler } from '../../src/main/feeds/scheduler';

describe('coalescer', () => {
  it('flushes each marked key once per frame, with the latest state', () => {
    const clock = new ManualScheduler();
    const state = new Map<string, number>();
    const flushed: [string, number][] = [];
    const c = new Coalescer<string>((key) => flushed.push([key, state.get(key)!]), clock, 16);
    for (let i = 1; i <= 1000; i++) {
      const key = i % 3 === 0 ? 'b' : 'a';
      state.set(key, i);
      c.mark(key);
    }
    expect(clock.pending).toBe(1); // one timer for the whole burst
    clock.advance(15);
    expect(flushed).toEqual([]);
    clock.advance(1);
    expect(flushed).toEqual([
      ['a', 1000],
      ['b', 999],
    ]);
    clock.advance(1000);
    expect(flushed).toHaveLength(2);

    c.mark('a');
    c.mark('b');
    c.forget('b');
    clock.advance(16);
    expect(flushed.slice(2)).toEqual([['a', 1000]]);
    c.mark('a');
    c.close();
    clock.advance(100);
    expect(flushed).toHaveLength(3);
    expect(clock.pending).toBe(0);
  });
});
