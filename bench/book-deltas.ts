// How many price-level deltas per second the live book applies on a 1,000-level book (issue 6 target:
// ≥ 200,000/s), against a reference in the same run: the same deltas applied to a Map of levels that is sorted
// only when read, the simple way a book is often kept.
import { BookState, formatMillionths } from '../src/main/feeds/book-state';

const LEVELS = 1000;
const DELTAS = 200_000;
const ROUNDS = 5;

/** A seeded stream of deltas near the top of the book: updates, removals and inserts, as a busy market sends. */
function deltas(seed: number): { side: 'BUY' | 'SELL'; price: number; size: number }[] {
  let state = seed;
  const random = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 4294967296;
  return Array.from({ length: DELTAS }, () => {
    const side = random() < 0.5 ? 'BUY' : 'SELL';
    const offset = Math.floor(random() ** 3 * LEVELS) * 100; // mostly near the touch
    const price = side === 'BUY' ? 499_900 - offset : 500_100 + offset;
    const size = random() < 0.15 ? 0 : Math.floor(random() * 1000) * 1_000_000;
    return { side, price, size };
  });
}

function freshBook(): BookState {
  const book = new BookState();
  const level = (price: number) => ({ price: formatMillionths(price), size: '100' });
  book.applySnapshot({
    bids: Array.from({ length: LEVELS }, (_, i) => level(499_900 - i * 100)),
    asks: Array.from({ length: LEVELS }, (_, i) => level(500_100 + i * 100)),
  });
  return book;
}

function timeBookState(stream: ReturnType<typeof deltas>): number {
  const book = freshBook();
  const start = process.hrtime.bigint();
  for (const d of stream) book.setLevel(d.side, d.price, d.size);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (book.view(1).bids.length === 0) throw new Error('the book emptied: the benchmark is broken');
  return stream.length / seconds;
}

/** The reference: levels in a Map per side, sorted when the top of book is read (every 10 deltas, as a UI would). */
function timeMapReference(stream: ReturnType<typeof deltas>): number {
  const bids = new Map<number, number>();
  const asks = new Map<number, number>();
  for (let i = 0; i < LEVELS; i++) {
    bids.set(499_900 - i * 100, 100_000_000);
    asks.set(500_100 + i * 100, 100_000_000);
  }
  const start = process.hrtime.bigint();
  let n = 0;
  let best = 0;
  for (const d of stream) {
    const side = d.side === 'BUY' ? bids : asks;
    if (d.size === 0) side.delete(d.price);
    else side.set(d.price, d.size);
    if (++n % 10 === 0) best = [...bids.keys()].sort((a, b) => b - a)[0] ?? best;
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return stream.length / seconds;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export function runBookDeltaBench(): { deltasPerSecond: number; reference: number; met: boolean } {
  const ours: number[] = [];
  const reference: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const stream = deltas(round + 1);
    ours.push(timeBookState(stream));
    reference.push(timeMapReference(stream.slice(0, 50_000)));
  }
  const result = { deltasPerSecond: median(ours), reference: median(reference), met: median(ours) >= 200_000 };
  console.log('\nLive book: price-level deltas on a 1,000-level book (medians of 5 rounds)');
  console.log(
    `  BookState (binary search, sorted arrays)   ${Math.round(result.deltasPerSecond).toLocaleString('en')} deltas/s`,
  );
  console.log(
    `  reference (Map, sorted on read)            ${Math.round(result.reference).toLocaleString('en')} deltas/s`,
  );
  console.log(
    `  ratio ${(result.deltasPerSecond / result.reference).toFixed(1)}×; target ≥ 200,000/s: ${result.met ? 'met' : 'NOT met'}`,
  );
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) runBookDeltaBench();
