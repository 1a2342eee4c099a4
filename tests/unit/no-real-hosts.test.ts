// The guard every test runs under: a real Polymarket host (or a built-in network's RPC node) is refused before
// anything leaves the machine — by fetch, by a WebSocket, in a child process — and the attempt is logged so the
// test that made it fails; loopback is untouched.
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { POLYGON, AMOY } from '../../packages/toolkit/src/chain/networks';
import { takeRealHostAttempts } from '../helpers/no-real-hosts-setup';

describe('no real hosts in tests', () => {
  it("refuses every URL of Polygon's and Amoy's built-in profiles, and logs each attempt", async () => {
    const urls = [POLYGON, AMOY].flatMap((n) =>
      [n.gammaUrl, n.dataUrl, n.clobUrl, n.geoblockUrl, n.rpcUrl].filter((u): u is string => typeof u === 'string'),
    );
    for (const url of urls)
      await expect(fetch(url)).rejects.toMatchObject({
        cause: { message: expect.stringMatching(/^A test tried to reach a real host: /) },
      });
    const socket = new WebSocket(POLYGON.rtdsUrl!);
    expect((await new Promise<Error>((resolve) => socket.once('error', resolve))).message).toMatch(
      /real host: ws-live-data\.polymarket\.com/,
    );
    // Polymarket's market-image host, which the page's CSP allows, is refused as well.
    await expect(fetch('https://polymarket-upload.s3.us-east-2.amazonaws.com/a.png')).rejects.toMatchObject({
      cause: { message: expect.stringMatching(/^A test tried to reach a real host: polymarket-upload/) },
    });
    expect(takeRealHostAttempts()).toHaveLength(urls.length + 2);
  });

  it('refuses in a child process too, and the parent sees it', async () => {
    const child = promisify(execFile)(process.execPath, [
      '-e',
      "fetch('https://clob.polymarket.com/').catch((e) => { console.log(e.cause.message); })",
    ]);
    expect((await child).stdout).toContain('A test tried to reach a real host: clob.polymarket.com');
    expect(takeRealHostAttempts()).toEqual([
      expect.stringMatching(/^A test tried to reach a real host: clob\.polymarket\.com \(pid \d+\)$/),
    ]);
  });

  it('lets loopback through', async () => {
    const server = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      expect(await (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)).text()).toBe('ok');
    } finally {
      server.close();
    }
    expect(takeRealHostAttempts()).toEqual([]);
  });
});
