// How live updates reach the page without costing a task each: the frame helpers (the latest book of a token
// wins between frames, other batches keep every item) and the bridge unpacking the host's arrays of messages
// in order, each event to its listeners as if it had come alone.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Terminal } from '../../src/shared/contract';

// Browser modules, loaded by a path the Node typecheck does not follow (it has no DOM types); vitest runs
// them as they are, and their shapes are spelled here.
const renderer = '../../src/renderer/src';
const { frameBatcher, latestPerFrame } = (await import(`${renderer}/live/frame`)) as {
  frameBatcher<T>(key: string, apply: (batch: T[]) => void): (item: T) => void;
  latestPerFrame<T>(key: string, keyOf: (item: T) => string, apply: (batch: T[]) => void): (item: T) => void;
};
const { rowWindow } = (await import(`${renderer}/live/visible-rows`)) as {
  rowWindow(
    count: number,
    rowHeight: number,
    scrollTop: number,
    height: number,
    offset?: number,
    overscan?: number,
    onlyInView?: boolean,
  ): { first: number; end: number };
};
const { connectBridge } = (await import(`${renderer}/bridge/browser-bridge`)) as {
  connectBridge(url: string, impl: unknown): { terminal: Terminal };
};

describe('the frame helpers', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('keeps only the latest item of each key until the next frame, in the order keys first came', () => {
    const batches: { k: string; n: number }[][] = [];
    const push = latestPerFrame<{ k: string; n: number }>(
      'test-latest',
      (i) => i.k,
      (batch) => batches.push(batch),
    );
    push({ k: 'a', n: 1 });
    push({ k: 'b', n: 2 });
    push({ k: 'a', n: 3 });
    expect(batches).toEqual([]);
    vi.runOnlyPendingTimers();
    expect(batches).toEqual([
      [
        { k: 'a', n: 3 },
        { k: 'b', n: 2 },
      ],
    ]);
    push({ k: 'a', n: 4 });
    vi.runOnlyPendingTimers();
    expect(batches.at(-1)).toEqual([{ k: 'a', n: 4 }]);
  });

  it('hands a frame batcher every item of the frame', () => {
    const batches: number[][] = [];
    const push = frameBatcher<number>('test-all', (batch) => batches.push(batch));
    push(1);
    push(2);
    vi.runOnlyPendingTimers();
    expect(batches).toEqual([[1, 2]]);
  });
});

/** Just enough of a browser WebSocket for the bridge: the test plays the host's messages. */
class FakeSocket extends EventTarget {
  static readonly OPEN = 1;
  readyState = 1;
  sent: string[] = [];
  constructor(readonly url: string) {
    super();
  }
  send(frame: string) {
    this.sent.push(frame);
  }
  close() {}
  receive(data: string) {
    const event = new Event('message') as Event & { data: string };
    Object.defineProperty(event, 'data', { value: data });
    this.dispatchEvent(event);
  }
}

describe('the bridge', () => {
  it('delivers the messages of an array frame in order, answers and events alike', async () => {
    let socket: FakeSocket | undefined;
    const Impl = class extends FakeSocket {
      constructor(url: string) {
        super(url);
        socket = this as FakeSocket;
      }
    };
    const { terminal } = connectBridge('ws://127.0.0.1:1/bridge?token=x', Impl);
    const heard: string[] = [];
    terminal.on('bookUpdate', (u) => heard.push(`book ${u.book.hash}`));
    terminal.on('fill', (f) => heard.push(`fill ${f.marketId}`));
    const answer = terminal.getNetwork({});
    const id = (JSON.parse(socket!.sent[0]!) as { id: number }).id;
    const book = (hash: string) => ({
      event: 'bookUpdate',
      payload: { marketId: 'm', tokenId: 't', book: { hash, bids: [], asks: [] } },
    });
    socket!.receive(
      JSON.stringify([
        book('1'),
        { event: 'fill', payload: { marketId: 'm' } },
        book('2'),
        { id, result: { ok: true, value: { chainId: 1 } } },
      ]),
    );
    socket!.receive(JSON.stringify(book('3')));
    expect(heard).toEqual(['book 1', 'fill m', 'book 2', 'book 3']);
    await expect(answer).resolves.toMatchObject({ ok: true, value: { chainId: 1 } });
  });
});

describe('the rows a long list renders', () => {
  it('renders the rows in view and a few either side, below a sticky header', () => {
    // 500 rows of 22 px under a 22 px header, a 264 px scroller at the top: rows 0–11 show, 8 more below.
    expect(rowWindow(500, 22, 0, 264, 22)).toEqual({ first: 0, end: 20 });
    // Scrolled to row 100 (the header's 22 px come first): rows 92 to 100 + 12 + 8.
    expect(rowWindow(500, 22, 22 + 100 * 22, 264, 22)).toEqual({ first: 92, end: 120 });
    // A scroll that stops mid-row still draws the row cut at the bottom.
    expect(rowWindow(500, 22, 22 + 100 * 22 + 11, 264, 22, 0)).toEqual({ first: 100, end: 113 });
  });

  it('stays inside the list at either end, and renders nothing for an empty one', () => {
    // Scrolled past the end of a list that just got shorter: its last screenful (rows 18–29) and 8 above.
    expect(rowWindow(30, 22, 10_000, 264, 22)).toEqual({ first: 10, end: 30 });
    expect(rowWindow(5, 22, 0, 264, 22)).toEqual({ first: 0, end: 5 });
    expect(rowWindow(0, 22, 0, 264, 22)).toEqual({ first: 0, end: 0 });
  });

  it('with onlyInView, a list sharing its scroller renders only its rows in view: none when it is all above or below', () => {
    // The ladder's bids: 12 rows starting 300 px down a 154 px scroller. Scrolled to 250: rows 0–4 show, 3 more below.
    expect(rowWindow(12, 22, 250, 154, 300, 3, true)).toEqual({ first: 0, end: 8 });
    // Scrolled to the top: the bids start below the view (3 rows of overscan reach none of them).
    expect(rowWindow(12, 22, 0, 154, 300, 3, true)).toEqual({ first: 0, end: 0 });
    // The asks (12 rows under a 22 px header) scrolled far below them: none; without onlyInView, their last screenful.
    expect(rowWindow(12, 22, 600, 154, 22, 3, true)).toEqual({ first: 0, end: 0 });
    expect(rowWindow(12, 22, 600, 154, 22, 3)).toEqual({ first: 2, end: 12 });
    // Centred between: the asks nearest the spread and 3 above them.
    expect(rowWindow(12, 22, 200, 154, 22, 3, true)).toEqual({ first: 5, end: 12 });
  });
});
