// Browser mode's server over real loopback connections: the /bridge upgrade refuses a missing or wrong
// token (401) and any other Origin or Host (403) before the handshake; an accepted connection speaks the
// contract through the router; the page is served with the CSP and never outside the renderer folder.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../src/shared/csp';
import { ErrorCode } from '../../packages/toolkit/src/model/errors';
import { allowOrigins } from '../../src/main/ipc/router';
import { openTerminal, type Terminal } from '../../src/main/terminal/terminal';
import { MAX_FRAME_BYTES, startHost, type RunningHost } from '../../src/main/host/server';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server';
import { event } from '../helpers/aggregator-fixtures';

let aggregator: FixtureServer;
let terminal: Terminal;
let host: RunningHost;
let rendererDir: string;
let origin = '';

beforeAll(async () => {
  aggregator = await startFixtureServer();
  aggregator.on('GET', '/v1/ongoing-events', (_r, reply) => reply.json(200, [event]));
  rendererDir = await mkdtemp(join(tmpdir(), 'pmdesk-renderer-'));
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>PM Desk</title>');
  await writeFile(join(tmpdir(), 'pmdesk-outside.txt'), 'outside');
  terminal = openTerminal({
    profile: { name: 'fixture', chainId: 31338, clobUrl: '', aggregatorUrl: aggregator.url },
    shell: 'browser',
    allowSender: (sender) => allowOrigins([origin])(sender),
  });
  host = await startHost({
    router: terminal.router,
    hub: terminal.hub,
    rendererDir,
    onConnect: (clientId) => terminal.hub.emit('network', terminal.services.network, [clientId]),
  });
  origin = host.origin;
});
afterAll(async () => {
  await host?.stop();
  await terminal?.close();
  await aggregator?.stop();
  await rm(rendererDir, { recursive: true, force: true });
});

/** Opens a WebSocket and reports how the upgrade went: the HTTP status of a refusal, or 101. */
function upgrade(
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; socket?: WebSocket; early: unknown[] }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${host.port}${path}`, { headers });
    // The greeting can arrive with the handshake, before a caller could listen: keep it.
    const early: unknown[] = [];
    const keep = (data: WebSocket.RawData) => early.push(JSON.parse(String(data)));
    socket.on('message', keep);
    socket.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode ?? 0, early });
      res.resume();
      socket.terminate();
    });
    socket.once('open', () => resolve({ status: 101, socket, early }));
    socket.once('error', (error) => {
      if (!/Unexpected server response/.test(error.message)) reject(error);
    });
  });
}

const bridge = (token = host.token) => `/bridge?token=${encodeURIComponent(token)}`;

describe('the /bridge upgrade', () => {
  it('accepts this launch token from the app origin', async () => {
    const { status, socket } = await upgrade(bridge(), { Origin: origin });
    expect(status).toBe(101);
    socket!.close();
  });

  it.each([
    ['no token', '/bridge', 401],
    ['an empty token', '/bridge?token=', 401],
    ['a wrong token', `/bridge?token=${'A'.repeat(43)}`, 401],
    ['the token with a character changed', 'CHANGED', 401],
    ['the token twice', 'TWICE', 401],
    ['the token on another path', 'OTHER_PATH', 404],
  ])('refuses %s with %#', async (_name, path, status) => {
    const target =
      path === 'CHANGED'
        ? bridge(`${host.token.slice(0, -1)}${host.token.endsWith('A') ? 'B' : 'A'}`)
        : path === 'TWICE'
          ? `${bridge()}&token=${host.token}`
          : path === 'OTHER_PATH'
            ? `/bridgex?token=${host.token}`
            : path;
    expect((await upgrade(target, { Origin: origin })).status).toBe(status);
  });

  it.each([
    ['another site', 'https://evil.example'],
    ['localhost instead of 127.0.0.1', 'LOCALHOST'],
    ['another port', 'OTHER_PORT'],
    ['a look-alike host', 'LOOKALIKE'],
    ['null (a sandboxed iframe or file: page)', 'null'],
  ])('refuses the right token from %s with 403', async (_name, given) => {
    const value =
      given === 'LOCALHOST'
        ? `http://localhost:${host.port}`
        : given === 'OTHER_PORT'
          ? `http://127.0.0.1:${host.port + 1}`
          : given === 'LOOKALIKE'
            ? `http://127.0.0.1:${host.port}.evil.example`
            : given;
    expect((await upgrade(bridge(), { Origin: value })).status).toBe(403);
  });

  it('refuses a connection without an Origin header (403), and a rebinding Host (403)', async () => {
    expect((await upgrade(bridge(), {})).status).toBe(403);
    expect((await upgrade(bridge(), { Origin: origin, Host: `evil.example:${host.port}` })).status).toBe(403);
    expect(host.connections).toBe(0);
  });
});

interface Session {
  socket: WebSocket;
  messages: unknown[];
  next(predicate: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
}

async function session(): Promise<Session> {
  const { socket, early } = await upgrade(bridge(), { Origin: origin });
  socket!.removeAllListeners('message');
  const messages: unknown[] = [...early];
  const waiters: {
    predicate: (m: Record<string, unknown>) => boolean;
    resolve: (m: Record<string, unknown>) => void;
  }[] = [];
  socket!.on('message', (data) => {
    const message = JSON.parse(String(data)) as Record<string, unknown>;
    messages.push(message);
    for (const waiter of [...waiters]) {
      if (waiter.predicate(message)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
    }
  });
  return {
    socket: socket!,
    messages,
    next: (predicate) => {
      const seen = messages.find((m) => predicate(m as Record<string, unknown>));
      if (seen) return Promise.resolve(seen as Record<string, unknown>);
      return new Promise((resolve) => waiters.push({ predicate, resolve }));
    },
  };
}

describe('a bridge connection', () => {
  it('greets with the network, answers contract calls by id, and refuses malformed frames without closing', async () => {
    const s = await session();
    const greeting = await s.next((m) => m.event === 'network');
    expect(greeting.payload).toMatchObject({ name: 'fixture', shell: 'browser' });

    s.socket.send(JSON.stringify({ id: 1, op: 'listEvents', input: { limit: 1 } }));
    expect((await s.next((m) => m.id === 1)).result).toMatchObject({
      ok: true,
      value: { events: [{ id: '12483' }], hasMore: true },
    });

    s.socket.send(JSON.stringify({ id: 2, op: 'listEvents', input: { limit: 0 } }));
    expect((await s.next((m) => m.id === 2)).result).toMatchObject({
      ok: false,
      error: { code: ErrorCode.INVALID_PARAMETER },
    });

    s.socket.send(
      JSON.stringify({
        id: 3,
        op: 'placeOrder',
        input: { wallet: 'w', marketId: '1', tokenId: '2', side: 'BUY', price: 0.5, size: 1 },
      }),
    );
    expect((await s.next((m) => m.id === 3)).result).toMatchObject({ ok: false, error: { code: 'ERR_NOT_AVAILABLE' } });

    for (const frame of [
      'not json',
      '[1,2]',
      'null',
      JSON.stringify({ id: 'x', op: 'getNetwork' }),
      JSON.stringify({ id: -5, op: 'getNetwork' }),
    ])
      s.socket.send(frame);
    s.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    s.socket.send(JSON.stringify({ id: 4, op: 'getNetwork', input: {} }));
    expect((await s.next((m) => m.id === 4)).result).toMatchObject({ ok: true, value: { chainId: 31338 } });
    const refusals = s.messages.filter((m) => (m as { id?: unknown }).id === 0);
    expect(refusals).toHaveLength(6);
    for (const refusal of refusals)
      expect(refusal).toMatchObject({ result: { ok: false, error: { code: ErrorCode.INVALID_PARAMETER } } });
    s.socket.close();
  });

  it('sends events that come together as one array frame, in order, and an answer after the events before it', async () => {
    const s = await session();
    await s.next((m) => m.event === 'network');
    const notice = (message: string) => terminal.hub.emit('notice', { kind: 'info', message });
    notice('one');
    notice('two');
    notice('three');
    s.socket.send(JSON.stringify({ id: 7, op: 'getNetwork', input: {} }));
    await s.next((m) => m.id === 7);
    const frames = s.messages.slice(s.messages.findIndex((m) => (m as { event?: string }).event === 'network') + 1);
    const messages = frames.flatMap((f) => (Array.isArray(f) ? f : [f])) as {
      event?: string;
      id?: number;
      payload?: { message: string };
    }[];
    expect(messages.map((m) => m.payload?.message ?? m.id)).toEqual(['one', 'two', 'three', 7]);
    expect(Array.isArray(frames[0])).toBe(true);
    s.socket.close();
  });

  it('sends a book at the end of the turn that handed it out, not in the batching window (main times books to the page’s frames)', async () => {
    const s = await session();
    await s.next((m) => m.event === 'network');
    const notice = (message: string) => terminal.hub.emit('notice', { kind: 'info', message });
    const carries = (frame: unknown, message: string) =>
      (Array.isArray(frame) ? frame : [frame]).some(
        (m) => (m as { payload?: { message?: string } }).payload?.message === message,
      );
    const frameOf = (message: string) => s.messages.find((f) => carries(f, message));
    // The first event leaves at once and opens a window; what comes within it waits for its end...
    notice('one');
    await s.next((f) => carries(f, 'one'));
    notice('two');
    terminal.hub.emit('bookUpdate', {
      marketId: 'm1',
      tokenId: '1',
      book: { tokenId: '1', market: 'm1', hash: 'h', timestamp: 1, bids: [], asks: [] },
    });
    // ...but a book takes what is queued with it at the end of this turn; a notice after that waits for the window.
    setImmediate(() => notice('three'));
    await s.next((f) => carries(f, 'three'));
    const withBook = frameOf('two') as { event?: string }[];
    expect(Array.isArray(withBook) && withBook.map((m) => m.event)).toEqual(['notice', 'bookUpdate']);
    expect(frameOf('three')).not.toBe(withBook);
    s.socket.close();
  });

  it('closes a connection that sends a frame over the limit, and keeps serving others', async () => {
    const s = await session();
    const closed = new Promise<number>((resolve) => s.socket.once('close', (code) => resolve(code)));
    s.socket.send(JSON.stringify({ id: 1, op: 'getNetwork', input: { pad: 'x'.repeat(MAX_FRAME_BYTES) } }));
    expect(await closed).toBe(1009);
    const other = await session();
    other.socket.send(JSON.stringify({ id: 1, op: 'getNetwork', input: {} }));
    expect((await other.next((m) => m.id === 1)).result).toMatchObject({ ok: true });
    other.socket.close();
  });
});

function get(
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: host.port, path, method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the page', () => {
  it('is served with the terminal CSP naming this port and the security headers', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('PM Desk');
    expect(page.headers['content-security-policy']).toBe(
      contentSecurityPolicy({ connectSrc: [`ws://127.0.0.1:${host.port}`] }),
    );
    expect(page.headers['content-security-policy']).toContain("script-src 'self';");
    expect(page.headers['content-security-policy']).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
    expect(page.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
    });
  });

  it('never serves a file outside the renderer folder', async () => {
    for (const path of [
      '/../pmdesk-outside.txt',
      '/%2e%2e/pmdesk-outside.txt',
      '/..%2fpmdesk-outside.txt',
      '/%00',
      '/%E0%A4%A',
    ]) {
      const res = await get(path);
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.body).not.toContain('outside');
    }
  });

  it('answers only its own Host and only GET/HEAD', async () => {
    expect((await get('/', { Host: 'evil.example' })).status).toBe(403);
    expect((await get('/', {}, 'POST')).status).toBe(405);
  });

  it('binds loopback only', () => {
    expect(host.origin).toBe(`http://127.0.0.1:${host.port}`);
    expect(host.launchUrl).toBe(`${host.origin}/#token=${host.token}`);
    expect(host.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
