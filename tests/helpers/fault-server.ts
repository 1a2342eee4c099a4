// One local server that answers every request with one fault, picked by the first path segment: a client
// pointed at `${server.base('html')}` meets a login page on every endpoint, at `base('endless')` a body that
// never ends. It records what arrived and how many bytes each endless answer got out before the client hung up.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ForwardingProxy } from './forwarding-proxy';

export const FAULT_MODES = [
  'html',
  'junk',
  'truncated',
  'endless',
  'stall',
  'silent',
  'reset',
  'redirect',
  'throttled',
  'unavailable',
  'drip',
] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

export interface FaultRequest {
  mode: string;
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

export interface FaultServerOptions {
  /** Where `redirect` sends every request: another origin (localhost instead of 127.0.0.1, another port). */
  redirectTo?: string;
  /** Seconds `throttled` (429) and `unavailable` (503) ask to wait: above the clients' bound, so they fail at once. */
  retryAfterSeconds?: number;
}

/** The `junk` body: JSON, a 200, and nothing an order answer holds. */
export const JUNK_BODY = '{"unexpected":true}';

/** How often `drip` writes its byte. */
const DRIP_MS = 250;

const ENDLESS_CHUNK = Buffer.alloc(64 * 1024, 'a');

export class FaultServer {
  readonly requests: FaultRequest[] = [];
  /** Bytes each `endless` answer wrote before its client closed the connection. */
  readonly endlessBytes: number[] = [];
  private readonly sockets = new Set<Socket>();
  private server: Server | undefined;
  private port = 0;

  constructor(private readonly options: FaultServerOptions = {}) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The base URL whose every request meets `mode`. */
  base(mode: FaultMode | string): string {
    return `${this.url}/${mode}`;
  }

  /** Requests that reached this server under `mode`. */
  to(mode: string): FaultRequest[] {
    return this.requests.filter((r) => r.mode === mode);
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => this.handle(req, res));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/';
    const mode = url.split('/')[1]?.split('?')[0] ?? '';
    this.requests.push({ mode, method: req.method ?? 'GET', url, headers: req.headers });
    req.resume();
    const retryAfter = String(this.options.retryAfterSeconds ?? 60);
    switch (mode as FaultMode | 'throttled-once') {
      case 'html':
        res
          .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
          .end('<!doctype html><html><body><form action="/login">Sign in</form></body></html>');
        return;
      case 'junk':
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JUNK_BODY);
        return;
      case 'truncated':
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '4000' });
        res.write('{"data": [{"id": "1", "tit');
        setTimeout(() => res.socket?.destroy(), 10);
        return;
      case 'endless':
        this.endless(res);
        return;
      case 'stall':
        // Headers, then nothing: the idle bound must end it.
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.flushHeaders();
        res.write('[');
        return;
      case 'silent':
        // Accepts and never answers: the connect bound must end it.
        return;
      case 'reset':
        req.socket.destroy();
        return;
      case 'redirect': {
        const target = this.options.redirectTo ?? 'http://localhost:9';
        res.writeHead(307, { Location: `${target}${url}` }).end();
        return;
      }
      case 'throttled':
        res
          .writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': retryAfter })
          .end('{"error":"Too Many Requests"}');
        return;
      case 'throttled-once': {
        // The first request to each URL is throttled for a second; the retry gets a price.
        if (this.to('throttled-once').filter((r) => r.url === url).length === 1) {
          res
            .writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '1' })
            .end('{"error":"Too Many Requests"}');
        } else {
          res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"price":"0.5"}');
        }
        return;
      }
      case 'drip':
        // A JSON answer that never ends, one space at a time: each byte re-arms an idle bound, only a deadline ends it.
        dripForever(res);
        return;
      case 'unavailable':
        res.writeHead(503, { 'Content-Type': 'text/html', 'Retry-After': retryAfter }).end('<html>maintenance</html>');
        return;
      default:
        res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":"no such fault"}');
    }
  }

  /** A JSON body that never ends: written as fast as the client reads, until it hangs up. */
  private endless(res: ServerResponse): void {
    const index = this.endlessBytes.push(0) - 1;
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.write('["');
    // A few chunks a turn, yielding in between, so many endless answers at once do not starve the other faults.
    const pump = () => {
      for (let i = 0; i < 8; i++) {
        if (res.destroyed) return;
        this.endlessBytes[index]! += ENDLESS_CHUNK.byteLength;
        if (!res.write(ENDLESS_CHUNK)) {
          res.once('drain', pump);
          return;
        }
      }
      setImmediate(pump);
    };
    res.on('close', () => res.removeListener('drain', pump));
    pump();
  }
}

/** Answers 200 and writes one space every DRIP_MS, until the client hangs up. */
export function dripForever(res: ServerResponse, contentType = 'application/json'): void {
  res.writeHead(200, { 'Content-Type': contentType });
  res.flushHeaders();
  const timer = setInterval(() => res.write(' '), DRIP_MS);
  res.on('close', () => clearInterval(timer));
}

export async function startFaultServer(options: FaultServerOptions = {}): Promise<FaultServer> {
  return new FaultServer(options).start();
}

/**
 * Faults of the sandbox exchange, in front of it. The next POST /order is passed on (the exchange places the
 * order) and then: `junk` answers a 200 of junk; `junk-then-down` does so and the exchange then stays away, so the
 * order cannot be looked up; `hold` never answers. Requests `silence` matches (`METHOD /path`) are held unanswered
 * and never passed on, as a `silent` exchange; those `drip` matches meet the `drip` fault. Everything else is
 * forwarded as it came.
 */
export class ExchangeFaultProxy extends ForwardingProxy {
  /** Faults for the next POST /order calls, one each. */
  readonly orderFaults: ('junk' | 'junk-then-down' | 'hold')[] = [];
  /** Bodies of POST /order passed on to the exchange. */
  readonly forwardedPosts: string[] = [];
  /** Requests held unanswered (never passed on). */
  silence: RegExp | undefined;
  /** Requests answered with a 200 that drips a byte at a time and never ends (never passed on). */
  drip: RegExp | undefined;
  /** `METHOD /path` of every request met with silence or a drip. */
  readonly silenced: string[] = [];

  protected async onRequest(req: IncomingMessage, res: ServerResponse, body: string): Promise<void> {
    const line = `${req.method} ${req.url?.split('?')[0]}`;
    if (this.silence?.test(line) || this.drip?.test(line)) {
      this.silenced.push(line);
      if (this.drip?.test(line)) dripForever(res);
      return;
    }
    const isPost = ForwardingProxy.isPost(req, '/order');
    const fault = isPost ? this.orderFaults.shift() : undefined;
    const answer = await this.forward(req, body);
    if (isPost) this.forwardedPosts.push(body);
    if (fault === undefined) return ForwardingProxy.reply(res, answer);
    if (fault === 'hold') return;
    if (fault === 'junk-then-down') this.down = true;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JUNK_BODY);
  }
}
