// A real WebSocket client for the sandbox channel tests: it keeps every message, and next() takes the first unread
// one that matches, waiting if needed, so tests wait on messages and never on the clock.
import WebSocket from 'ws';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whichever JSON the server sent
export type Msg = any;

/** A real ws client that keeps every message; next() takes the first unread one matching, waiting if needed. */
export class WsTestClient {
  private readonly pending: Msg[] = [];
  readonly all: Msg[] = [];
  private waiters: { match: (m: Msg) => boolean; resolve: (m: Msg) => void }[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      const text = isBinary ? '<binary>' : data.toString();
      let message: Msg;
      try {
        message = JSON.parse(text);
      } catch {
        message = text;
      }
      this.all.push(message);
      const waiter = this.waiters.find((w) => w.match(message));
      if (waiter) {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        waiter.resolve(message);
      } else this.pending.push(message);
    });
    this.closed = new Promise((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  static open(url: string): Promise<WsTestClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      const client = new WsTestClient(ws);
      ws.once('open', () => resolve(client));
      ws.once('error', reject);
    });
  }

  send(payload: unknown): void {
    this.ws.send(typeof payload === 'string' ? payload : JSON.stringify(payload));
  }

  next(match: (m: Msg) => boolean): Promise<Msg> {
    const index = this.pending.findIndex(match);
    if (index >= 0) return Promise.resolve(this.pending.splice(index, 1)[0]);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  /** PING, then PONG: the server has handled every frame sent before, and we have everything it sent before. */
  async sync(): Promise<void> {
    this.send('PING');
    await this.next((m) => m === 'PONG');
  }

  close(): void {
    this.ws.close();
  }
}
