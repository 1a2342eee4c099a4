// The same fill-stream module in a real browser: bundled for the web and run in headless Chromium,
// where it must use the browser's own EventSource against a real SSE server.
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser';
import { startFixtureServer, type FixtureServer, type SseStream } from '../helpers/fixture-server';

let server: FixtureServer;
let browser: Browser;
let bundle: string;

// The page subscribes with the toolkit and records what it is told in window.report.
const ENTRY = `
import { subscribeToFills } from './packages/toolkit/src/aggregator/fills';
import { silentLogger } from './packages/toolkit/src/base/logger';
const report = { platformEventSource: typeof EventSource === 'function', fills: [], errors: [], states: [] };
window.report = report;
const sub = subscribeToFills({
  sseUrl: location.origin, protocol: 'polymarket', id: '506729', logger: silentLogger,
  handlers: {
    onOpen: () => report.states.push('open'),
    onFill: (fill) => report.fills.push(fill),
    onError: (error) => report.errors.push(error.code),
    onClose: () => report.states.push('closed'),
  },
});
window.latest = () => sub.latest();
`;

beforeAll(async () => {
  server = await startFixtureServer();
  const result = await build({
    stdin: { contents: ENTRY, resolveDir: process.cwd(), loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  bundle = result.outputFiles[0]!.text;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('fill stream in a browser', () => {
  it('uses the browser EventSource: fills, a bad frame, then the server ends the stream', async () => {
    server.on('GET', '/', (_r, reply) =>
      reply.text(200, '<!doctype html><script type="module" src="/app.js"></script>', 'text/html'),
    );
    server.on('GET', '/app.js', (_r, reply) => reply.text(200, bundle, 'text/javascript'));
    let stream!: SseStream;
    const connected = new Promise<void>((resolve) =>
      server.on('GET', '/sse/fillevent', (_r, reply) => {
        stream = reply.sse();
        resolve();
      }),
    );

    const page = await browser.newPage();
    await page.goto(server.url);
    await connected;
    expect(server.to('/sse/fillevent')[0]!.url).toBe('/sse/fillevent?protocol=polymarket&id=506729');
    await expect
      .poll(() => page.evaluate(() => (globalThis as unknown as { report: { states: string[] } }).report.states))
      .toEqual(['open']);

    stream.send('{"price":0.53,"volumeBase":120,"timestamp":1747400000}');
    stream.send('{"price":"bad"}');
    stream.send('{"price":0.54,"volumeBase":1,"timestamp":1747400001}');
    await expect
      .poll(() => page.evaluate(() => (globalThis as unknown as { report: { fills: unknown[] } }).report.fills.length))
      .toBe(2);
    stream.raw('retry: 10\n\n');
    stream.end();

    await expect
      .poll(() => page.evaluate(() => (globalThis as unknown as { report: { states: string[] } }).report.states))
      .toEqual(['open', 'closed']);
    const report = await page.evaluate(() => (globalThis as unknown as { report: unknown }).report);
    expect(report).toEqual({
      platformEventSource: true,
      fills: [
        { price: 0.53, volumeBase: 120, timestamp: 1747400000 },
        { price: 0.54, volumeBase: 1, timestamp: 1747400001 },
      ],
      errors: ['ERR_SSE_MESSAGE', 'ERR_SSE_CLOSED'],
      states: ['open', 'closed'],
    });
    expect(await page.evaluate(() => (globalThis as unknown as { latest: () => unknown }).latest())).toEqual({
      price: 0.54,
      volumeBase: 1,
      timestamp: 1747400001,
    });
    expect(server.to('/sse/fillevent')).toHaveLength(1);
    await page.close();
  });
});
