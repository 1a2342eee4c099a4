// Two suites: unit (pure logic) and integration (real servers on loopback, real processes); keychain tests
// are their own project, run by `npm test` inside scripts/with-keychain.sh (a real, unlocked Secret Service).
// Playwright specs under tests/e2e are never collected here.
import { configDefaults, defineConfig } from 'vitest/config';
import { viteAliases } from './packages/toolkit/build/source-entries.mjs';

export default defineConfig({
  // The toolkit package runs from its sources here; tests/integration/toolkit-package.test.ts tests the packed build.
  resolve: { alias: viteAliases() },
  test: {
    reporters: ['default', './tests/helpers/summary-reporter.ts'],
    // Two files at a time on the 2-core CI machine (Vitest's default there is one): most of an integration test's
    // time is spent waiting on the processes it starts (the chain, the exchange, Chromium), not in its worker.
    maxWorkers: 2,
    // No test, nor a process it starts, reaches a real Polymarket host (tests/helpers/no-real-hosts.mjs).
    setupFiles: ['./tests/helpers/no-real-hosts-setup.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' } },
      {
        extends: true,
        test: {
          name: 'conformance',
          include: ['tests/conformance/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'tests/integration/keychain-*.test.ts'],
          environment: 'node',
          // A guard against a hang, not a speed check (speed is measured in bench/): on 2 cores with Chromium and
          // chain work in parallel workers, an order that sets approvals and waits for blocks took over 30 s once.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'keychain',
          include: ['tests/integration/keychain-*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
