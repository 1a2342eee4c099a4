// Bundles the `pmdesk` CLI (src/cli) into out/cli/pmdesk.mjs with esbuild; packages stay external.
// Runs on `npm ci` (prepare) and before the tests, in well under a second.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/cli/main.ts'],
  outfile: 'out/cli/pmdesk.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
