// A real HTTP (and SSE) server on a free loopback port with fixed answers, for wire-level client tests:
// it records every request exactly as it arrived and answers as each test scripts it, including the
// faults a real server can produce (slow answers, dropped connections, malformed JSON, broken streams).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path and raw query string, exactly as sent. */
  url: string;
  path: string;
  rawQuery: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface SseStream {
  /** Sends one unnamed `data:` frame. */
  send(data: string): void;
  /** Writes raw bytes to the stream (for malformed frames). */
  raw(text: string): void;
  /** Ends the stream cleanly, as a server going away would. */
  end(): void;
  /** Cuts the connection. */
  destroy(): void;
}

export type Reply = {
  /** Extra headers (Retry-After, say) go with the answer. */
  json(status: number, body: unknown, headers?: Record<string, string>): void;
  text(status: number, body: string, contentType?: string): void;
  /** A file's bytes as they are (a ZIP, say). */
  bytes(status: number, body: Uint8Array, contentType: string): void;
  /** Never answers (until the server stops): for timeouts. */
  hang(): void;
  /** Cuts the socket without an answer: for dropped connections. */
  drop(): void;
  /** Sends headers and half a body, then cuts the socket. */
  dropMidBody(status?: number): void;
  /** Opens an SSE stream. */
  sse(): SseStream;
};

export type Handler = (request: RecordedRequest, reply: Reply) => void | Promise<void>;

export class FixtureServer {
  readonly requests: RecordedRequest[] = [];
  private readonly routes = new Map<string, Handler>();
  private readonly sockets = new Set<Socket>();
  private server: Server | undefined;
  private port = 0;
  fallback: Handler = (_req, reply) => reply.json(404, { message: 'no fixture for this route' });

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Scripts the answer to `METHOD /path` (the path without its query). */
  on(method: string, path: string, handler: Handler): this {
    this.routes.set(`${method} ${path}`, handler);
    return this;
  }

  json(method: string, path: string, body: unknown, status = 200): this {
    return this.on(method, path, (_req, reply) => reply.json(status, body));
  }

  reset(): void {
    this.routes.clear();
    this.requests.length = 0;
  }

  /** The requests made to one path. */
  to(path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  last(): RecordedRequest {
    const request = this.requests.at(-1);
    if (!request) throw new Error('no request reached the fixture server');
    return request;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
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

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      url,
      path: q < 0 ? url : url.slice(0, q),
      rawQuery: q < 0 ? '' : url.slice(q + 1),
      query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)),
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    this.requests.push(recorded);
    const handler = this.routes.get(`${recorded.method} ${recorded.path}`) ?? this.fallback;
    await handler(recorded, makeReply(res));
  }
}

function makeReply(res: ServerResponse): Reply {
  return {
    json(status, body, headers = {}) {
      res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
    },
    text(status, body, contentType = 'text/plain') {
      res.writeHead(status, { 'Content-Type': contentType }).end(body);
    },
    bytes(status, body, contentType) {
      res.writeHead(status, { 'Content-Type': contentType }).end(body);
    },
    hang() {},
    drop() {
      res.socket?.destroy();
    },
    dropMidBody(status = 200) {
      res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
      res.write('{"id": "12", "tit');
      setTimeout(() => res.socket?.destroy(), 20);
    },
    sse() {
      res.writeHead(200, {
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-cache',
        Connection: 'keep-alive',
      });
      res.flushHeaders();
      return {
        send: (data) => void res.write(`data: ${data}\n\n`),
        raw: (text) => void res.write(text),
        end: () => void res.end(),
        destroy: () => void res.socket?.destroy(),
      };
    },
  };
}

export async function startFixtureServer(): Promise<FixtureServer> {
  return new FixtureServer().start();
}
