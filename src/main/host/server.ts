// Browser mode's server: the built renderer on 127.0.0.1 with the terminal's CSP, and the contract over one
// WebSocket at /bridge. Every request from a connection goes through the same router as Electron's IPC; every
// pushed event goes out on the connections that are open.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import type { AddressInfo, Socket } from 'node:net';
import { extname, join, resolve } from 'node:path';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { BRIDGE_PATH, type BridgeMessage, type Result } from '../../shared/contract';
import { SECURITY_HEADERS, contentSecurityPolicy } from '../../shared/csp';
import { ErrorCode } from '@pmdesk/toolkit/model';
import type { EventHub } from '../ipc/event-hub';
import type { Router } from '../ipc/router';
import { MIME_TYPES, rendererFile } from './renderer-files';
import { checkBridgeUpgrade, isOurHost, newLaunchToken } from './upgrade';

export { rendererFile };

export const LOOPBACK = '127.0.0.1';
/** The largest frame a connection may send; the router bounds each operation's payload more tightly. */
export const MAX_FRAME_BYTES = 64 * 1024;
/** While events keep coming, how long one may wait to share a frame with the next (see openSession). */
export const EVENT_BATCH_MS = 4;
/** Requests one connection may have in flight at once. */
export const MAX_IN_FLIGHT = 64;

export interface HostOptions {
  router: Router;
  hub: EventHub;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** A fixed token (tests); a new random one per launch otherwise. */
  token?: string;
  /** Called for each new bridge connection (to greet it with the current network, say). */
  onConnect?: (clientId: string) => void;
}

export interface RunningHost {
  /** `http://127.0.0.1:PORT`: the page's origin, the only one allowed on the bridge. */
  origin: string;
  port: number;
  token: string;
  /** What the trader opens: the origin with the token in the fragment (never sent to a server). */
  launchUrl: string;
  /** Open bridge connections. */
  readonly connections: number;
  stop(): Promise<void>;
}

export async function startHost(options: HostOptions): Promise<RunningHost> {
  const token = options.token ?? newLaunchToken();
  const sockets = new Set<Socket>();
  let origin = '';
  let csp = '';

  const server = createServer((request, response) => void servePage(request, response));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function servePage(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const headers = { ...SECURITY_HEADERS, 'Content-Security-Policy': csp, 'Cache-Control': 'no-store' };
    const send = (status: number, body: string | Buffer, type = 'text/plain; charset=utf-8') => {
      response.writeHead(status, { ...headers, 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
      response.end(request.method === 'HEAD' ? undefined : body);
    };
    if (!isOurHost(request.headers.host, origin)) return send(403, 'Forbidden');
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(405, 'Method Not Allowed');
    const file = rendererFile(options.rendererDir, request.url ?? '/');
    if (!file) return send(404, 'Not Found');
    try {
      if (!(await stat(file)).isFile()) return send(404, 'Not Found');
      send(200, await readFile(file), MIME_TYPES[extname(file)] ?? 'application/octet-stream');
    } catch {
      if (file === join(resolve(options.rendererDir), 'index.html'))
        return send(503, 'The renderer is not built: run `npm run build` first.');
      send(404, 'Not Found');
    }
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false });
  server.on('upgrade', (request, socket: Socket, head) => {
    const decision = checkBridgeUpgrade({ url: request.url, headers: request.headers }, { token, appOrigin: origin });
    if (!decision.ok) {
      const text = { 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' }[decision.status];
      socket.end(
        `HTTP/1.1 ${decision.status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${text.length}\r\n\r\n${text}`,
      );
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => openSession(ws));
  });

  let nextClient = 1;
  function openSession(ws: WebSocket): void {
    const clientId = `bridge-${nextClient++}`;
    const sender = { origin, mainFrame: true, clientId };
    let inFlight = 0;
    // Events leave in batches (a JSON array of messages; one alone stays a plain message): in the page each
    // WebSocket message costs a task, an event and a decode of its own, which at thousands of book updates a
    // second cost more than drawing them. The first event after a quiet spell leaves at the end of the current
    // turn of Node's loop; while events keep coming, what arrives within EVENT_BATCH_MS of the last frame goes
    // in the next one. Nothing is dropped, and nothing waits longer than EVENT_BATCH_MS (a quarter of a frame).
    let queued: string[] = [];
    let state: 'idle' | 'soon' | 'window' = 'idle';
    let windowTimer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      const parts = queued;
      queued = [];
      if (parts.length === 0 || ws.readyState !== ws.OPEN) return false;
      ws.send(parts.length === 1 ? parts[0]! : `[${parts.join(',')}]`);
      return true;
    };
    const endWindow = () => {
      windowTimer = undefined;
      if (flush()) windowTimer = setTimeout(endWindow, EVENT_BATCH_MS);
      else state = 'idle';
    };
    let bookFlush = false;
    const push = (message: BridgeMessage) => {
      if (ws.readyState !== ws.OPEN) return;
      queued.push(JSON.stringify(message));
      // Books leave at the end of the turn that handed them out, not in the window: main hands a busy book out
      // just before the page's frame begins (feeds/frame-clock.ts), and a wait here made it miss that frame. Books
      // are already at most one a frame per market (the window still folds everything else).
      if (state === 'window' && 'event' in message && message.event === 'bookUpdate') {
        if (!bookFlush) {
          bookFlush = true;
          setImmediate(() => {
            bookFlush = false;
            flush();
          });
        }
        return;
      }
      if (state !== 'idle') return;
      state = 'soon';
      setImmediate(() => {
        state = 'window';
        flush();
        windowTimer = setTimeout(endWindow, EVENT_BATCH_MS);
      });
    };
    // An answer goes at once, after whatever events were pushed before it, so the order stays as sent.
    const send = (message: BridgeMessage) => {
      flush();
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    };
    ws.on('close', () => clearTimeout(windowTimer));
    const disconnect = options.hub.connect(clientId, (event, payload) => push({ event, payload }));
    ws.on('close', disconnect);
    options.onConnect?.(clientId);
    ws.on('error', () => ws.terminate());
    ws.on('message', (data: RawData, isBinary: boolean) => {
      const request = isBinary ? undefined : parseRequest(data);
      if (!request) return send({ id: 0, result: refuse('The bridge takes JSON requests {id, op, input}.') });
      if (inFlight >= MAX_IN_FLIGHT)
        return send({ id: request.id, result: refuse('Too many requests at once; wait for an answer.') });
      inFlight++;
      void options.router.call(request.op, request.input, sender).then((result) => {
        inFlight--;
        send({ id: request.id, result });
      });
    });
  }

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, LOOPBACK, () => resolveListen());
  });
  const port = (server.address() as AddressInfo).port;
  origin = `http://${LOOPBACK}:${port}`;
  csp = contentSecurityPolicy({ connectSrc: [`ws://${LOOPBACK}:${port}`] });

  return {
    origin,
    port,
    token,
    launchUrl: `${origin}/#token=${token}`,
    get connections() {
      return wss.clients.size;
    },
    stop: async () => {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

function refuse(message: string): Result<never> {
  return { ok: false, error: { code: ErrorCode.INVALID_PARAMETER, message } };
}

function parseRequest(data: RawData): { id: number; op: unknown; input: unknown } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(
      Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(data as Buffer[]).toString('utf8'),
    );
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const { id, op, input } = value as Record<string, unknown>;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) return undefined;
  return { id, op, input };
}

export { BRIDGE_PATH };
