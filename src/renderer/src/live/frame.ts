// Live updates are applied at most once per animation frame: events that arrive between two frames are
// folded per key (the latest wins, or a reducer accumulates), and one flush hands them all to the stores, so a
// burst of book updates costs one React render, not one per message.
type Flush = () => void;

const queued = new Map<string, Flush>();
let scheduled = false;

const raf: (cb: () => void) => void =
  typeof requestAnimationFrame === 'function' ? (cb) => requestAnimationFrame(() => cb()) : (cb) => setTimeout(cb, 16);

function flush(): void {
  scheduled = false;
  const work = [...queued.values()];
  queued.clear();
  for (const run of work) {
    try {
      run();
    } catch (error) {
      console.error('A live update failed to apply', error);
    }
  }
}

/** Run `apply` on the next frame; a later call with the same key before then replaces it. */
export function onNextFrame(key: string, apply: Flush): void {
  queued.set(key, apply);
  if (!scheduled) {
    scheduled = true;
    raf(flush);
  }
}

/** Collects items between frames and hands the whole batch to `apply` once per frame. */
export function frameBatcher<T>(key: string, apply: (batch: T[]) => void): (item: T) => void {
  let batch: T[] = [];
  return (item: T) => {
    batch.push(item);
    onNextFrame(key, () => {
      const items = batch;
      batch = [];
      apply(items);
    });
  };
}

/**
 * Like `frameBatcher`, but only the latest item of each `keyOf` is kept between frames (a newer book of a
 * token replaces the older one, which nobody would see): the batch holds one item per key, in the order each
 * key first arrived in that frame.
 */
export function latestPerFrame<T>(
  key: string,
  keyOf: (item: T) => string,
  apply: (batch: T[]) => void,
): (item: T) => void {
  let latest = new Map<string, T>();
  return (item: T) => {
    latest.set(keyOf(item), item);
    onNextFrame(key, () => {
      const items = [...latest.values()];
      latest = new Map();
      apply(items);
    });
  };
}
