// A loopback proxy in front of the sandbox exchange, for the no-order-in-doubt tests: it forwards every request
// as it came and lets a test act on the ones it picks — cut the request, cut or hold the answer, garble it, or
// have the exchange stay away after answering. Subclasses decide; this holds the server and the forwarding.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ForwardedAnswer {
  status: number;
  contentType: string;
  text: string;
}

export abstract class ForwardingProxy {
  /** Once set, every request is cut, as an exchange that went away. */
  down = false;
  url = '';
  private server!: Server;

  constructor(protected readonly upstream: string) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** What to do with one request whose body has been read (the proxy is not down). */
  protected abstract onRequest(req: IncomingMessage, res: ServerResponse, body: string): Promise<void>;

  /** True for the request a test aims its faults at (`POST /order`, `POST /orders`). */
  protected static isPost(req: IncomingMessage, path: string): boolean {
    return req.method === 'POST' && req.url?.split('?')[0] === path;
  }

  /** Sends the request on, headers and body as they came, and reads the whole answer. */
  protected async forward(req: IncomingMessage, body: string): Promise<ForwardedAnswer> {
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k)),
    ) as Record<string, string>;
    const answer = await fetch(`${this.upstream}${req.url}`, {
      method: req.method,
      headers,
      body: body === '' ? undefined : body,
    });
    return {
      status: answer.status,
      contentType: answer.headers.get('content-type') ?? 'application/json',
      text: await answer.text(),
    };
  }

  protected static reply(res: ServerResponse, answer: ForwardedAnswer): void {
    res.writeHead(answer.status, { 'content-type': answer.contentType });
    res.end(answer.text);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (this.down) {
      req.socket.destroy();
      return;
    }
    await this.onRequest(req, res, Buffer.concat(chunks).toString('utf8'));
  }
}
