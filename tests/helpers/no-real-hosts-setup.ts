// Vitest setup for every project: no test (nor a process it starts) reaches a real Polymarket host. The guard
// (no-real-hosts.mjs) refuses the connection; each test ends by failing if any attempt was logged since it began.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach } from 'vitest';
import './no-real-hosts.mjs';

if (!process.env.PMDESK_REAL_HOST_LOG) {
  process.env.PMDESK_REAL_HOST_LOG = join(mkdtempSync(join(tmpdir(), 'pmdesk-real-hosts-')), 'attempts.log');
  writeFileSync(process.env.PMDESK_REAL_HOST_LOG, '');
  const guard = pathToFileURL(fileURLToPath(new URL('./no-real-hosts.mjs', import.meta.url))).href;
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --import=${guard}`.trim();
}

/** The attempts logged so far, emptied (a test of the guard itself takes its own). */
export function takeRealHostAttempts(): string[] {
  const file = process.env.PMDESK_REAL_HOST_LOG!;
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  writeFileSync(file, '');
  return lines;
}

afterEach(() => {
  const attempts = takeRealHostAttempts();
  if (attempts.length > 0) throw new Error(`Tests must use the sandbox or a local server:\n${attempts.join('\n')}`);
});
