// The terminal tells what Polymarket's APIs say about themselves, in headless Chromium on the sandbox with its
// Gamma behind a small proxy on a real socket: the proxy answers 404 for /events/keyset (a Gamma without keyset
// lists) and adds Polymarket's deprecation and rate-limit headers to the offset list. The grid still lists;
// a notice says once that the deprecated list is read and once that it is deprecated, and the diagnostics view
// keeps both with the last rate-limit headers.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server';
import { callTerminal, openTerminalPage, type TerminalPage } from '../helpers/terminal-page';

const SLOW = 120_000;
const FALLBACK = 'Gamma has no /events/keyset (404): listing events through the deprecated /events with offsets.';
const DEPRECATED = 'Gamma GET /events is deprecated (sunset Fri, 01 May 2026 00:00:00 GMT): use /events/keyset.';

let t: TerminalPage;
let page: Page;
let proxy: FixtureServer;
let upstream = '';

/** Forwards a request to the sandbox's Gamma and answers what it answered, with `headers` added. */
async function forward(
  url: string,
  reply: { json(status: number, body: unknown, headers?: Record<string, string>): void },
  headers: Record<string, string> = {},
) {
  const answer = await fetch(`${upstream}${url}`);
  reply.json(answer.status, await answer.json(), headers);
}

beforeAll(async () => {
  proxy = await startFixtureServer();
  proxy.fallback = (request, reply) => forward(request.url, reply);
  proxy.json('GET', '/events/keyset', { message: 'not found' }, 404);
  proxy.on('GET', '/events', (request, reply) =>
    forward(request.url, reply, {
      Deprecation: 'true',
      Sunset: 'Fri, 01 May 2026 00:00:00 GMT',
      Warning: '299 - "use /events/keyset"',
      'Poly-RateLimit-Remaining': '57',
      'Poly-RateLimit-Tier': 'standard',
    }),
  );
  t = await openTerminalPage({
    profile: (profile) => {
      upstream = profile.gammaUrl!.replace(/\/+$/, '');
      return { ...profile, gammaUrl: proxy.url };
    },
  });
  page = t.page;
}, SLOW);

afterAll(async () => {
  await t?.stop();
  await proxy?.stop();
});

describe('API notices in the terminal', () => {
  it(
    'lists the grid through the fallback, and says so and that the list is deprecated, each once',
    async () => {
      const notices = page.getByTestId('notices');
      await notices.getByText(FALLBACK).waitFor();
      await notices.getByText(DEPRECATED).waitFor();
      expect(proxy.to('/events').length).toBeGreaterThan(0);
      expect(proxy.to('/events/keyset')).toHaveLength(1);

      // More pages of the deprecated list: nothing new to say.
      const second = await callTerminal<{ events: unknown[] }>(page, 'listEvents', {
        protocol: 'polymarket',
        page: 2,
        limit: 5,
      });
      expect(Array.isArray(second.events)).toBe(true);
      await page.getByTestId('diagnostics-open').click();
      await page.getByTestId('diagnostics').waitFor();
      expect(await notices.getByText(FALLBACK).count()).toBe(1);
      expect(await notices.getByText(DEPRECATED).count()).toBe(1);
    },
    SLOW,
  );

  it(
    'keeps both in the diagnostics view, with the last rate-limit headers of the endpoint',
    async () => {
      const dialog = page.getByTestId('diagnostics');
      const lines = await dialog.getByTestId('diagnostics-notices').locator('li').allInnerTexts();
      expect(lines.some((line) => line.endsWith(FALLBACK))).toBe(true);
      expect(lines.some((line) => line.endsWith(DEPRECATED))).toBe(true);
      expect(lines).toHaveLength(2);
      const row = dialog.getByTestId('diagnostics-rate-limits').locator('tr', { hasText: 'Gamma GET /events' });
      expect((await row.locator('td').allInnerTexts()).map((cell) => cell.trim())).toEqual([
        'Gamma GET /events',
        '57',
        '',
        'standard',
        '',
      ]);
      await page.getByTestId('diagnostics-close').click();
      await dialog.waitFor({ state: 'detached' });
    },
    SLOW,
  );
});
