// The frame coalescer on a hand-driven clock. Leading edge (the books): the first change after a quiet frame goes
// out at once (in a microtask, after the marking code is done, with whatever it marked meanwhile); later ones in
// the frame fold into one flush per key with the latest state at the frame's end; keys go out in the order they
// were first marked in a frame; one timer per frame however many marks; a forgotten key is not flushed; a frame
// with nothing folded ends quiet, so the next change is again sent at once. Without it (the accounts): every
// change waits for the frame's end.
import { describe, expect, it } from 'vitest';
import { Coalescer } from '../../src/main/feeds/coalescer';
import { ManualScheduler } from '../../src/main/feeds/scheduler';

function setup() {
  const clock = new ManualScheduler();
  const state = new Map<string, number>();
  const flushed: [string, number][] = [];
  const c = new Coalescer<string>((key) => flushed.push([key, state.get(key)!]), clock, 16, true);
  const change = (key: string, value: number) => {
    state.set(key, value);
    c.mark(key);
  };
  return { clock, flushed, c, change };
}

/** Lets the coalescer's leading-edge microtask run. */
const settled = () => new Promise<void>((resolve) => queueMicrotask(resolve));

describe('coalescer', () => {
  it("without the leading edge, sends everything at the frame's end, one per key with the latest state", async () => {
    const clock = new ManualScheduler();
    const flushed: [string, number][] = [];
    let value = 0;
    const c = new Coalescer<string>((key) => flushed.push([key, value]), clock, 16);
    for (let i = 1; i <= 100; i++) {
      value = i;
      c.mark(i % 2 ? 'a' : 'b');
    }
    await settled();
    expect(flushed).toEqual([]);
    expect(clock.pending).toBe(1);
    clock.advance(16);
    expect(flushed).toEqual([
      ['a', 100],
      ['b', 100],
    ]);
    clock.advance(100);
    expect(flushed).toHaveLength(2);
    expect(clock.pending).toBe(0);
  });

  it('sends the first change after a quiet period at once, folds the rest of the frame into its end', async () => {
    const { clock, flushed, change } = setup();
    change('a', 1);
    expect(flushed).toEqual([]); // not in the middle of the caller's work…
    await settled();
    expect(flushed).toEqual([['a', 1]]); // …but right after it, with no frame waited
    for (let i = 2; i <= 1000; i++) change(i % 3 === 0 ? 'b' : 'a', i);
    await settled();
    expect(clock.pending).toBe(1); // one timer for the whole burst
    expect(flushed).toHaveLength(1);
    clock.advance(15);
    expect(flushed).toHaveLength(1);
    clock.advance(1);
    // Folded: one per key, the latest state, in the order each key was first marked in the frame.
    expect(flushed.slice(1)).toEqual([
      ['a', 1000],
      ['b', 999],
    ]);
    // That send opened a frame of its own: a change right after it waits for that frame's end.
    change('b', 1001);
    await settled();
    expect(flushed).toHaveLength(3);
    clock.advance(16);
    expect(flushed.slice(3)).toEqual([['b', 1001]]);
    // A frame that ends with nothing folded leaves the coalescer quiet: no timer, nothing sent.
    clock.advance(16);
    expect(clock.pending).toBe(0);
    expect(flushed).toHaveLength(4);
    change('a', 1002);
    await settled();
    expect(flushed.slice(4)).toEqual([['a', 1002]]);
  });

  it('sends what the caller marked in one go together, keeps each key in order, forgets or closes cleanly', async () => {
    const { clock, flushed, c, change } = setup();
    change('a', 1);
    change('a', 2);
    change('b', 3);
    c.forget('b');
    await settled();
    // Marked in the same task before the leading send ran: one send, the latest state, the forgotten key left out.
    expect(flushed).toEqual([['a', 2]]);
    change('a', 3);
    await settled();
    clock.advance(16);
    expect(flushed).toEqual([
      ['a', 2],
      ['a', 3],
    ]);
    // Each key's values only move forward, as its state did.
    change('a', 4);
    await settled();
    clock.advance(16);
    const values = flushed.filter(([k]) => k === 'a').map(([, v]) => v);
    expect(values).toEqual([...values].sort((x, y) => x - y));
    change('a', 5);
    c.close();
    await settled();
    clock.advance(100);
    expect(flushed.at(-1)).toEqual(['a', 4]);
    expect(clock.pending).toBe(0);
  });

  it('folds a key marked again from inside its own send into the open frame', async () => {
    const clock = new ManualScheduler();
    const sent: string[] = [];
    let again = true;
    const c: Coalescer<string> = new Coalescer<string>(
      (key) => {
        sent.push(key);
        if (again) {
          again = false;
          c.mark(key);
        }
      },
      clock,
      16,
      true,
    );
    c.mark('a');
    await settled();
    expect(sent).toEqual(['a']);
    clock.advance(16);
    expect(sent).toEqual(['a', 'a']);
  });
});
